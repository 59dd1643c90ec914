package cli

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

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
	require.True(t, strings.HasSuffix(stdout, playEndFor(rs[0], protocol.Classic, false)+"\n"), stdout[max(0, len(stdout)-300):])
}

func TestHumanAgainstLocalAI(t *testing.T) {
	code, stdout, stderr := humanRun(t, humanScript(6000), "play", "--human", "--against", "stateplayer2", "--seed", "4")
	require.Equal(t, 0, code, stderr)
	require.Contains(t, stdout, "you (seat 0, acting first) against stateplayer2, seed 4")
	require.Contains(t, stdout, "  why: state ")
	require.Regexp(t, `(you win|you lose|draw) after \d+ actions\n$`, stdout)
	require.NotContains(t, stdout, "forfeit")

	// The end of the input resigns.
	code, stdout, _ = humanRun(t, "r\n", "play", "--human", "--against", "random")
	require.Equal(t, 0, code)
	require.Contains(t, stdout, "you resigned")
	require.Contains(t, stdout, "you lose after 1 action")

	for _, bad := range [][]string{
		{"play", "--against", "random"},
		{"play", "--human", "--game", "battleship", "--against", "admiral"},
		{"play", "--human", "--game", "abilities", "--against", "ab-density"},
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
	code, stdout, stderr := humanRun(t, bsHumanScript(), "play", "--human", "--game", "battleship", "--against", "gridbot", "--seed", "4")
	require.Equal(t, 0, code, stderr)
	require.Contains(t, stdout, "you (shooting first) against gridbot, seed 4")
	require.Contains(t, stdout, "   why: state ")
	require.Contains(t, stdout, "the enemy fleet: ")
	require.Regexp(t, `you (win|lose): .*\n$`, stdout)

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
	code, stdout, stderr := humanRun(t, strings.Repeat(bsHumanScript(), 2), "play", "--human", "--game", "battleship", "--against", "gridbot", "--games", "2", "--seed", "3")
	require.Equal(t, 0, code, stderr)
	require.Contains(t, stdout, "== game 1 of 2\nyou (shooting first) against gridbot, seed 3")
	require.Contains(t, stdout, "== game 2 of 2\nyou (shooting second) against gridbot, seed 3")
	require.Regexp(t, `you against gridbot, 2 games: won \d, drew 0, lost \d\n$`, stdout)
}
