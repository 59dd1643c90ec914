package cli

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/internal/human"
	"github.com/kaisen-ai/kaisen/protocol"
	"github.com/kaisen-ai/kaisen/server"
)

// humanScript plays legally whatever happens on the 5x5 board: each turn
// it tries every cell as an attack from a rotating start, and the first in
// reach is sent (the others are refused locally, never sent).
func humanScript(turns int) string {
	var sb strings.Builder
	sb.WriteString("r\n")
	for k := range turns {
		for i := range 25 {
			c := (k*7 + i) % 25
			fmt.Fprintf(&sb, "a %d %d\n", c%5, c/5)
		}
	}
	return sb.String()
}

func humanRun(t *testing.T, input string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = Run(context.Background(), args, strings.NewReader(input), &out, &errb)
	return code, out.String(), errb.String()
}

// TestHumanAgainstKaisenServer: a scripted person plays a whole game on
// kaisen serve over TCP against the house AI, never forfeits, and gets the
// server's end line.
func TestHumanAgainstKaisenServer(t *testing.T) {
	addr, results := playServer(t, server.ListenerConfig{Opponent: "random"})
	code, stdout, stderr := humanRun(t, humanScript(6000), "play", "--human", "--addr", addr, "--seed", "2")
	require.Equal(t, 0, code, stderr)
	rs := playResults(t, results, 1)
	require.Empty(t, rs[0].Forfeits, "the person never forfeits: %+v", rs[0])
	require.Contains(t, stdout, "your move> ")
	require.Contains(t, stdout, "your fleet")
	require.NotContains(t, stdout, "why", "the server sends no reasons")
	require.True(t, strings.HasSuffix(stdout, playEndFor(rs[0], protocol.Classic, false)+"\n"), stdout[max(0, len(stdout)-300):])
}

// TestHumanHelpSaysRevealRevealsTheFleet: kaisen play --help says when the
// AI's reasons are shown and that --reveal-ai reveals its fleet.
func TestHumanHelpSaysRevealRevealsTheFleet(t *testing.T) {
	code, stdout, stderr := humanRun(t, "", "play", "--help")
	require.Equal(t, 0, code, stderr)
	for _, want := range []string{
		"During play you are told only what the rules tell a seat",
		"--reveal-ai prints the AI's reasons during play too",
		"REVEALS THE AI'S FLEET",
		"--replays string",
		"also show the AI's reasons during play; this REVEALS THE AI'S FLEET",
		`"special E5" to shoot with your 3-deck's`,
		"--side string",
	} {
		require.Contains(t, stdout, want)
	}
}

// TestHumanAgainstLocalAI: a scripted person against an AI in-process is
// told no reasons during play; after the end come the AI's fleet and
// reasons and the replay (with them) it was written to, which kaisen
// replay reads. A drawn seed is printed only then.
func TestHumanAgainstLocalAI(t *testing.T) {
	dir := t.TempDir()
	// Seed 5: the scripted attacks lose in a few dozen actions (seed 4 drew at the limit, minutes under -race).
	code, stdout, stderr := humanRun(t, humanScript(6000), "play", "--human", "--against", "stateplayer2", "--seed", "5", "--replays", dir)
	require.Equal(t, 0, code, stderr)
	during, after, ok := strings.Cut(stdout, human.EndHeader+"\n")
	require.True(t, ok, stdout)
	require.Contains(t, during, "you (seat 0, acting first) against stateplayer2\n")
	require.NotContains(t, during, "why")
	require.NotContains(t, during, "seed")
	require.Regexp(t, `(you win|you lose|draw) after \d+ actions\nwhy stateplayer2 chose each of its actions`, after)
	require.Regexp(t, `\n +\d+ (attack|move) .*: state `, after)
	require.NotContains(t, stdout, "forfeit")
	m := regexp.MustCompile(`replay with the AI's reasons: (\S+) \(kaisen replay `).FindStringSubmatch(after)
	require.NotNil(t, m, after)
	require.Equal(t, filepath.Join(dir, "submarine-stateplayer2-seed5.jsonl"), m[1])
	fi, err := os.Stat(m[1])
	require.NoError(t, err)
	require.Equal(t, os.FileMode(0o600), fi.Mode().Perm(), "the reasons reveal the fleet: the owner's only")
	data, err := os.ReadFile(m[1])
	require.NoError(t, err)
	require.Contains(t, string(data), `"decision"`)
	code, rstdout, rstderr := humanRun(t, "", "replay", m[1])
	require.Equal(t, 0, code, rstderr)
	require.Contains(t, rstdout, "stateplayer2")
	require.NotContains(t, stderr, "seed", "a given seed is not announced")

	// The end of the input resigns; a drawn seed is printed after the game,
	// never before; a second game with the same name gets its own file.
	for _, want := range []string{"submarine-random-seed", "-2.jsonl"} {
		code, stdout, stderr = humanRun(t, "r\n", "play", "--human", "--against", "random", "--seed", "9", "--replays", dir)
		require.Equal(t, 0, code, stderr)
		require.Contains(t, stdout, "you resigned")
		require.Contains(t, stdout, "you lose after 1 action")
		require.Contains(t, stdout, want)
	}
	code, stdout, stderr = humanRun(t, "r\n", "play", "--human", "--against", "random", "--replays", dir)
	require.Equal(t, 0, code, stderr)
	require.NotContains(t, stderr, "seed", "a seed printed during play would tell the AI's fleet")
	during, after, _ = strings.Cut(stdout, human.EndHeader+"\n")
	require.NotContains(t, during, "seed")
	require.Regexp(t, `\nseed (\d+) \(drawn at random; add --seed \d+ to meet the same AI again\)\n$`, after)

	for _, bad := range [][]string{
		{"play", "--against", "random"},
		{"play", "--human", "--reveal-ai"},
		{"play", "--human", "--replays", dir},
		{"play", "--human", "--game", "battleship", "--against", "admiral"},
		{"play", "--human", "--game", "abilities", "--against", "admiral"},
		{"play", "--human", "--game", "abilities", "--against", "ab-density", "--side", "robots"},
		{"play", "--human", "--game", "battleship", "--against", "gridbot", "--side", "ai"},
		{"play", "--human", "--game", "abilities", "--side", "ai"},
		{"play", "--game", "abilities", "--side", "ai"},
		{"play", "--human", "--json"},
		{"play", "--human", "--player", "admiral"},
		{"play", "--human", "--against", "nobody"},
	} {
		code, _, stderr = humanRun(t, "", bad...)
		require.Equal(t, ExitUsage, code, "%v: %s", bad, stderr)
	}
}

// bsHumanScript places at random and types every cell of the 10x10 board
// row by row: a whole Battleship game with no refused line.
func bsHumanScript() string {
	var sb strings.Builder
	sb.WriteString("r\n")
	for row := 1; row <= 10; row++ {
		for _, col := range "ABCDEFGHIJ" {
			fmt.Fprintf(&sb, "%c%d\n", col, row)
		}
	}
	return sb.String()
}

// TestHumanBattleship: a scripted person plays Battleship in-process
// against an AI (with its explanations and its fleet at the end) and over
// TCP on kaisen serve against the house AI, never forfeiting.
func TestHumanBattleship(t *testing.T) {
	dir := t.TempDir()
	code, stdout, stderr := humanRun(t, bsHumanScript(), "play", "--human", "--game", "battleship", "--against", "gridbot", "--seed", "4", "--replays", dir)
	require.Equal(t, 0, code, stderr)
	during, after, ok := strings.Cut(stdout, human.EndHeader+"\n")
	require.True(t, ok, stdout)
	require.Contains(t, during, "you (shooting first) against gridbot\n")
	require.NotContains(t, during, "why")
	require.Contains(t, after, "the enemy fleet: ")
	require.Regexp(t, `\nyou (win|lose): .*\nwhy gridbot chose each of its actions`, after)
	require.Contains(t, after, "replay with the AI's reasons: "+filepath.Join(dir, "battleship-gridbot-seed4.jsonl"))

	// --reveal-ai says what it does, then shows the reasons during play.
	code, stdout, stderr = humanRun(t, bsHumanScript(), "play", "--human", "--game", "battleship", "--against", "gridbot", "--seed", "4", "--replays", dir, "--reveal-ai")
	require.Equal(t, 0, code, stderr)
	during, _, _ = strings.Cut(stdout, human.EndHeader+"\n")
	require.True(t, strings.HasPrefix(during, "--reveal-ai: the AI's reasons are shown during play; they REVEAL ITS FLEET"), during[:min(200, len(during))])
	require.Contains(t, during, "   why: state ")

	addr, results := playServer(t, server.ListenerConfig{Game: server.GameBattleship, Opponent: "bs-random"})
	code, stdout, stderr = humanRun(t, bsHumanScript(), "play", "--human", "--game", "battleship", "--addr", addr, "--seed", "2")
	require.Equal(t, 0, code, stderr)
	rs := playResults(t, results, 1)
	require.Empty(t, rs[0].Forfeits, "the person never forfeits: %+v", rs[0])
	require.Contains(t, stdout, "shot> ")
	require.Contains(t, stdout, "your fleet")
	require.True(t, strings.HasSuffix(stdout, playEndFor(rs[0], protocol.Classic, false)+"\n"), stdout[max(0, len(stdout)-300):])
}

// TestHumanLocalSeries: --human --against NAME --games N plays a series
// in the terminal: seats alternate, the tally ends it (a scripted person
// whose leftover cells are refused as placements until the next "r").
func TestHumanLocalSeries(t *testing.T) {
	dir := t.TempDir()
	code, stdout, stderr := humanRun(t, strings.Repeat(bsHumanScript(), 2), "play", "--human", "--game", "battleship", "--against", "gridbot", "--games", "2", "--seed", "3", "--replays", dir)
	require.Equal(t, 0, code, stderr)
	require.Contains(t, stdout, "== game 1 of 2\nyou (shooting first) against gridbot\n")
	require.Contains(t, stdout, "== game 2 of 2\nyou (shooting second) against gridbot\n")
	require.Contains(t, stdout, "(this game's replay, with the AI's reasons, is written when the series is over")
	_, last, ok := strings.Cut(stdout, "== game 2 of 2\n")
	require.True(t, ok)
	require.NotContains(t, strings.SplitN(stdout, "== game 2 of 2", 2)[0], "replay with the AI's reasons:", "no replay (with its seed) before the series is over")
	require.Regexp(t, `you against gridbot, 2 games: won \d, drew 0, lost \d\n`+
		`replay with the AI's reasons: .*battleship-gridbot-seed3-game1.jsonl .*\n`+
		`replay with the AI's reasons: .*battleship-gridbot-seed3-game2.jsonl .*\n$`, last)
}

// TestHumanReplayDefaultDir: without --replays the replay goes to kaisen's
// data directory, play/.
func TestHumanReplayDefaultDir(t *testing.T) {
	data := t.TempDir()
	t.Setenv("XDG_DATA_HOME", data)
	code, stdout, stderr := humanRun(t, "r\n", "play", "--human", "--against", "random", "--seed", "1")
	require.Equal(t, 0, code, stderr)
	path := filepath.Join(data, "kaisen", "play", "submarine-random-seed1.jsonl")
	require.Contains(t, stdout, "replay with the AI's reasons: "+path)
	require.FileExists(t, path)
}

// abHumanScript places at random and types every cell of the 10x10 board
// row by row, each followed by "n": a "no" to every air defence or false
// miss the seat is asked (refused, and so never sent, on the seat's own
// turn).
func abHumanScript() string {
	var sb strings.Builder
	sb.WriteString("r\n")
	for row := 1; row <= 10; row++ {
		for _, col := range "ABCDEFGHIJ" {
			fmt.Fprintf(&sb, "%c%d\nn\n", col, row)
		}
	}
	return sb.String()
}

// TestHumanAbilities: a scripted person plays the abilities game
// in-process on the Humans side (--side humans) against an AI, with the
// replay written and read back, and over TCP on kaisen serve --game
// abilities against the house AI, never forfeiting.
func TestHumanAbilities(t *testing.T) {
	dir := t.TempDir()
	code, stdout, stderr := humanRun(t, abHumanScript(), "play", "--human", "--game", "abilities", "--against", "ab-random", "--side", "humans", "--seed", "4", "--replays", dir)
	require.Equal(t, 0, code, stderr)
	during, after, ok := strings.Cut(stdout, human.EndHeader+"\n")
	require.True(t, ok, stdout)
	require.Contains(t, during, "you (the Humans side, acting first) against ab-random\n")
	require.Contains(t, during, "you play the Humans side, the enemy the AI side\n")
	require.Contains(t, during, "action> ")
	require.Contains(t, after, "the enemy fleet: ")
	require.Regexp(t, `\nyou (win|lose): .*\nab-random gave no reasons\n`, after)
	path := filepath.Join(dir, "abilities-ab-random-seed4.jsonl")
	require.Contains(t, after, "replay with the AI's reasons: "+path)
	code, rstdout, rstderr := humanRun(t, "", "replay", path)
	require.Equal(t, 0, code, rstderr)
	require.Contains(t, rstdout, "seat 0 ab-random (ai) vs seat 1 human (humans)")

	addr, results := playServer(t, server.ListenerConfig{Game: server.GameAbilities, Opponent: "ab-random"})
	code, stdout, stderr = humanRun(t, abHumanScript(), "play", "--human", "--game", "abilities", "--addr", addr, "--seed", "2")
	require.Equal(t, 0, code, stderr)
	rs := playResults(t, results, 1)
	require.Empty(t, rs[0].Forfeits, "the person never forfeits: %+v", rs[0])
	require.Contains(t, stdout, "your fleet: ")
	require.Contains(t, stdout, "you play the AI side, the enemy the Humans side")
	require.True(t, strings.HasSuffix(stdout, playEndFor(rs[0], protocol.Classic, false)+"\n"), stdout[max(0, len(stdout)-300):])
}
