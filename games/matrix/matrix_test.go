// Package matrix_test plays every registered game through every host that
// is generic over the game contract today: one table-driven test, each
// cell a short seeded run with real assertions. It registers the games
// written only for the tests (the extra list below) in its own test
// binary, so the registry of every other package keeps the built-in games
// alone.
//
// The hosts of the matrix: arena match, arena series, explanations (the
// conformance check through arena's table, and replays with decisions),
// tournament (the library call as kaisen
// tournament builds it from the registry, and the command itself with
// --timing), the
// conformance suite (game/conformance), and the human terminal seat
// in-process (internal/human through games.Game.HumanLocal, a scripted
// person typing an AI's actions through the game's Text), the human seat
// over the network (human_net_test.go: games.Game.HumanClient, the same
// scripted person against a server's house AI), and the turn
// server (serve_test.go): a listener of the game against its house AI,
// played by kaisen play itself (one game, and a series of three where the
// game's listeners play series), and a pair listener, played by two
// network clients (games.Game.NewClient, the same code) over loopback;
// in both the server's live view (server.Spectator, fed by each game's
// public view) sees the game, and the replay the server wrote verifies
// (games.Game.OpenReplay); kaisen loadtest against a house listener (every
// served game has it: games.ToolLoadtest); the run hosts (runs_test.go): a match split in
// shards and merged (kaisen match --shard, kaisen merge), recorded in one
// file and resumed from it (--games-out, --recover), a gauntlet (kaisen
// gauntlet --pool), its replays checked, drawn, written as pages and
// refused once edited (kaisen replay), and a match through the work queue
// (kaisen match --nats, two workers playing its items). Every game writes replays: its own format, or
// package jsonrecord's for a game without one (the test game's). And
// browser play (browser_test.go: internal/web's one page and HTTP flow,
// which the hub's live view watches), a person playing the house AI
// through the HTTP API. And the wire dialects (the conformance suite's
// wire check, through each game's entry): in every dialect the game's
// Def lists, seeded games over a loopback server and two network clients
// with its production codecs are the same games in-process
// (wire_test.go: a codec that loses a field fails it).
//
// And kaisen serve --web's spectator (web_test.go: internal/web's hub as
// the server's live view, its list, event stream and replay page), and the
// rated ladder (ladder_test.go: kaisen ladder init and register, a rated
// listener, two bots playing a series with kaisen play --token, the
// ladder's table), and kaisen tune and kaisen exploit (tune_test.go: the
// game's first AI with weights tuned, and searched as an exploiter of its
// DefaultPlayers[1], on a tiny budget: the same seed writes the same YAML).
//
// Every host written over the contract has its column: a host that does
// not take every registered game is a failing cell, never a skipped one.
package matrix_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/arena"
	"github.com/kaisen-ai/kaisen/game/sonar"
	"github.com/kaisen-ai/kaisen/games"
	"github.com/kaisen-ai/kaisen/internal/cli"
	"github.com/kaisen-ai/kaisen/internal/human"
	"github.com/kaisen-ai/kaisen/internal/race"
	"github.com/kaisen-ai/kaisen/tournament"
)

// extra are the games registered for this test only, after the built-in
// ones: one line each.
var extra = []games.Game{
	// games.Define(game.Def()),
	games.Define(sonar.Def()),
}

func init() {
	for _, g := range extra {
		if err := games.Register(g); err != nil {
			panic(err)
		}
	}
}

// host is one column of the matrix: a host run on one game.
type host struct {
	name string
	run  func(t *testing.T, g games.Game)
}

// TestMatrix plays every registered game through every generic host; the
// conformance column is TestConformanceFullSize, and the tune and exploit
// columns are TestTuneFullSize: both play every game's AIs for many games,
// minutes under the race detector, and run in the CI step without it
// (internal/cli's TestTuneEveryGame runs kaisen tune on every game, with two
// workers, under the detector).
func TestMatrix(t *testing.T) {
	require.Len(t, games.All(), 3+len(extra), "the built-in games and the test games")
	hosts := []host{
		{"match", matchHost},
		{"series", seriesHost},
		{"explanations", explanationsHost},
		{"tournament", tournamentHost},
		{"human seat", humanHost},
		{"server house", serverHouseHost},
		{"server pair", serverPairHost},
		{"server series", serverSeriesHost},
		{"network human seat", networkHumanHost},
		{"loadtest", loadtestHost},
		{"web spectator", webSpectatorHost},
		{"ladder", ladderHost},
		{"shard merge", shardHost},
		{"games-out recover", gamesOutHost},
		{"gauntlet", gauntletHost},
		{"replay", replayHost},
		{"queue", queueHost},
		{"browser play", browserHost},
		{"wire dialects", wireHost},
	}
	for _, g := range games.All() {
		for _, h := range hosts {
			t.Run(g.Name+"/"+h.name, func(t *testing.T) { h.run(t, g) })
		}
	}
}

// TestConformanceFullSize runs the conformance suite on every registered
// game: the matrix's longest column (every AI of a game plays), run
// without the race detector (game/conformance's own tests run the suite
// on the test game under it).
func TestConformanceFullSize(t *testing.T) {
	race.SkipFullSize(t)
	for _, g := range games.All() {
		t.Run(g.Name, func(t *testing.T) { conformanceHost(t, g) })
	}
}

// family is the arena family of the game's default players.
func family(t *testing.T, g games.Game) arena.Family {
	t.Helper()
	cfg := arena.DefaultConfig()
	cfg.Game = g.Name
	fam, err := g.Family(cfg, games.Entrant{Name: g.DefaultPlayers[0]}, games.Entrant{Name: g.DefaultPlayers[1]})
	require.NoError(t, err)
	require.Equal(t, g.Name, fam.Game())
	return fam
}

// run plays m twice and checks that both runs give the same summary, with
// every game played and decided by the rules (built-in AIs never forfeit).
func run(t *testing.T, g games.Game, m arena.Match) arena.Summary {
	t.Helper()
	m.Family = family(t, g)
	sum, err := m.Run(context.Background(), nil)
	require.NoError(t, err)
	m.Family = family(t, g)
	again, err := m.Run(context.Background(), nil)
	require.NoError(t, err)
	sum.Elapsed, again.Elapsed = 0, 0
	require.Equal(t, sum, again, "the same seed twice")
	require.Equal(t, g.Name, sum.Game)
	require.Equal(t, m.Games, sum.Games)
	require.Equal(t, m.Games, sum.P1Wins+sum.P2Wins+sum.Draws, "every game has a valid winner or is a draw")
	require.LessOrEqual(t, sum.Seat0Wins, sum.P1Wins+sum.P2Wins)
	require.Zero(t, sum.P1Forfeits+sum.P2Forfeits, "built-in AIs do not forfeit")
	require.Len(t, sum.Lengths, m.Games)
	require.Positive(t, sum.Actions)
	if !g.Shots {
		require.Zero(t, sum.P1Shots+sum.P2Shots)
	}
	return sum
}

// matrixGames is the number of games of a match cell, and series the
// length of a series in the series cell: fewer under the race detector,
// where the abilities AIs take seconds a game.
func matrixGames() (games, series int) {
	if race.Enabled {
		return 4, 2
	}
	return 6, 3
}

func matchHost(t *testing.T, g games.Game) {
	n, _ := matrixGames()
	sum := run(t, g, arena.Match{Games: n, Seed: 26, Workers: 2})
	require.Zero(t, sum.Series)
	require.Equal(t, outcome(sum), command(t, g, "-n", strconv.Itoa(n), "--workers", "2"), "kaisen match plays the library's match")
}

func seriesHost(t *testing.T, g games.Game) {
	n, series := matrixGames()
	sum := run(t, g, arena.Match{Games: n, Seed: 26, Workers: 2, Series: series})
	require.Equal(t, series, sum.Series)
	require.Equal(t, outcome(sum), command(t, g, "-n", strconv.Itoa(n), "--workers", "2", "--series", strconv.Itoa(series)), "kaisen match --series plays the library's series")
}

// matchOutcome is what kaisen match --json says of a match's outcome.
type matchOutcome struct {
	Games      int     `json:"games"`
	P1Wins     int     `json:"p1_wins"`
	P2Wins     int     `json:"p2_wins"`
	Draws      int     `json:"draws"`
	P1Forfeits int     `json:"p1_forfeits"`
	P2Forfeits int     `json:"p2_forfeits"`
	Mean       float64 `json:"mean_actions"`
	Seed       uint64  `json:"seed"`
}

func outcome(s arena.Summary) matchOutcome {
	return matchOutcome{s.Games, s.P1Wins, s.P2Wins, s.Draws, s.P1Forfeits, s.P2Forfeits, s.Mean, s.Seed}
}

// command runs kaisen match --game g between its default AIs, seed 26,
// with args, and returns the outcome it prints.
func command(t *testing.T, g games.Game, args ...string) matchOutcome {
	t.Helper()
	args = append([]string{"match", "--game", g.Name, "--p1", g.DefaultPlayers[0], "--p2", g.DefaultPlayers[1], "--seed", "26", "--json"}, args...)
	var out, errOut bytes.Buffer
	code := cli.Run(context.Background(), args, strings.NewReader(""), &out, &errOut)
	require.Zero(t, code, "kaisen %s: %s", strings.Join(args, " "), errOut.String())
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	var o matchOutcome
	require.NoError(t, json.Unmarshal([]byte(lines[len(lines)-1]), &o))
	return o
}

// explanationsHost runs the game's conformance check of explanations
// (through arena's table) and a match with explanations asked whose
// replays verify.
func explanationsHost(t *testing.T, g games.Game) {
	ran := false
	for _, c := range g.Conformance() {
		if c.Name == "explanations" {
			ran = true
			if race.Enabled {
				// Every AI of the game plays in it (minutes under the race
				// detector): TestConformanceFullSize runs it in the
				// full-size step.
				t.Logf("the explanations check runs in TestConformanceFullSize (%s)", race.FullSizeStep)
				continue
			}
			c.Run(t)
		}
	}
	require.True(t, ran, "the conformance suite has an explanations check")
	dir := t.TempDir()
	m := arena.Match{Family: family(t, g), Games: 2, Seed: 26, Workers: 1, Replays: dir, Explain: true}
	_, err := m.Run(context.Background(), nil)
	require.NoError(t, err)
	decisions := 0
	for i := range m.Games {
		path := filepath.Join(dir, arena.ReplayName(i))
		rp, err := g.OpenReplay(path)
		require.NoError(t, err)
		require.NoError(t, rp.Verify())
		data, err := os.ReadFile(path)
		require.NoError(t, err)
		decisions += bytes.Count(data, []byte(`"decision":`))
	}
	// Which AIs explain is the game's (the conformance check above asserts
	// a decision exactly for those): Battleship's and the submarine game's
	// default AIs do, no abilities AI does yet.
	t.Logf("%s: %d decisions recorded in %d replays", g.Name, decisions, m.Games)
}

// tournamentHost plays a round robin of the game's default AIs (the
// others play in the conformance cell): the
// library call as kaisen tournament builds it from the registry, twice
// (the same seed gives the same result), then the command itself.
func tournamentHost(t *testing.T, g games.Game) {
	names := []string{g.DefaultPlayers[0], g.DefaultPlayers[1]}
	if names[0] == names[1] {
		for _, p := range g.Players() {
			if p.Name != names[0] {
				names[1] = p.Name
			}
		}
	}
	require.GreaterOrEqual(t, len(names), 2)
	cfg := arena.DefaultConfig()
	cfg.Game = g.Name
	entrants := make([]games.Entrant, len(names))
	for i, n := range names {
		entrants[i] = games.Entrant{Name: n}
	}
	tc := tournament.Config{Game: g.Name, Players: names, Games: 4, Seed: 26, Workers: 2, Bootstrap: 20,
		Family: func(i, j int) (arena.Family, error) { return g.Family(cfg, entrants[i], entrants[j]) }}
	res, err := tournament.Run(context.Background(), tc, nil)
	require.NoError(t, err)
	again, err := tournament.Run(context.Background(), tc, nil)
	require.NoError(t, err)
	require.Equal(t, res, again, "the same seed twice")
	require.True(t, res.Complete)
	require.Len(t, res.Pairs, len(names)*(len(names)-1)/2)
	require.Len(t, res.Ratings, len(names))

	var out, errOut bytes.Buffer
	args := []string{"tournament", "--game", g.Name, "--players", strings.Join(names, ","), "-n", "2", "--seed", "26", "--workers", "1", "--bootstrap", "10", "--timing", "--json"}
	code := cli.Run(context.Background(), args, strings.NewReader(""), &out, &errOut)
	require.Zero(t, code, "kaisen %s: %s", strings.Join(args, " "), errOut.String())
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	var got tournament.Result
	require.NoError(t, json.Unmarshal([]byte(lines[len(lines)-1]), &got))
	require.Equal(t, names, got.Players)
	require.True(t, got.Complete)
	require.Len(t, got.Ratings, len(names))
	for _, r := range got.Ratings {
		require.NotNil(t, r.Timing, "--timing times %s's decisions", r.Name)
		require.Positive(t, r.Timing.Decisions, "--timing times %s's decisions", r.Name)
	}
}

// wireHost runs the game's wire conformance check: in every dialect its
// Def lists (games.Wire.Dialects), seeded games of its default AIs over a
// loopback server (the server's one turn loop) and two clients (the
// client loop) with its production codecs are the same games played
// in-process, every observation and action decoded to the value meant.
func wireHost(t *testing.T, g games.Game) {
	ran := false
	for _, c := range g.Conformance() {
		if c.Name == "wire" {
			ran = true
			c.Run(t)
		}
	}
	require.True(t, ran, "every game with a wire codec has a wire check")
}

// conformanceHost runs every conformance check of the game, in parallel
// with the other games' (the longest cell: every AI of the game plays).
func conformanceHost(t *testing.T, g games.Game) {
	t.Parallel()
	require.NotNil(t, g.Conformance, "every registered game has its conformance checks")
	checks := g.Conformance()
	require.NotEmpty(t, checks)
	for _, c := range checks {
		t.Run(c.Name, func(t *testing.T) { c.Run(t) })
	}
}

// humanHost plays kaisen play --human --against's library call
// (Game.HumanLocal) with a scripted person: the game's DefaultPlayers[0]
// types the seat's placement and actions through the game's Text
// (HumanOptions.Typist), in a series of two games (the person in both
// seats) against PlayDefault, twice: the same seed gives the same
// transcript, every typed line is taken, and the series ends with a tally
// of two decided or drawn games.
func humanHost(t *testing.T, g games.Game) {
	require.NotNil(t, g.HumanLocal, "every game has a terminal seat in-process")
	play := func() string {
		var out bytes.Buffer
		opt := games.HumanOptions{Against: g.PlayDefault, Seed: 26, Games: 2, Typist: g.DefaultPlayers[0]}
		require.NoError(t, g.HumanLocal(bufio.NewReader(strings.NewReader("")), &out, opt))
		return out.String()
	}
	got := play()
	require.Equal(t, got, play(), "the same seed twice")
	require.Equal(t, 2, strings.Count(got, human.EndHeader), "both games end")
	for _, refused := range []string{"end of input", "not sent", "not a ", "refused", "before (", "forfeit"} {
		require.NotContains(t, got, refused, "every line the typist types is taken and nobody forfeits")
	}
	var won, drew, lost int
	tally := got[strings.LastIndex(got, "\nyou against ")+1:]
	_, err := fmt.Sscanf(tally, "you against "+g.PlayDefault+", 2 games: won %d, drew %d, lost %d", &won, &drew, &lost)
	require.NoError(t, err, "the series' tally: %q", tally)
	require.Equal(t, 2, won+drew+lost)
}
