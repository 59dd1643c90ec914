package replay_test

import (
	"bytes"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/arena"
	"github.com/kaisen-ai/kaisen/arena/arenatest"
	"github.com/kaisen-ai/kaisen/explain"
	"github.com/kaisen-ai/kaisen/game/battleship"
	bsrecord "github.com/kaisen-ai/kaisen/game/battleship/record"
	"github.com/kaisen-ai/kaisen/game/grid"
	bsplayers "github.com/kaisen-ai/kaisen/players/battleship"
)

// bsScript is a Battleship player that places and shoots as told; it
// panics on shot panicAt (from 1) or in Observe call observePanic (from 1).
type bsScript struct {
	place        battleship.Placement
	shots        []grid.Cell
	i, seen      int
	panicAt      int
	observePanic int
}

func (s *bsScript) Place() battleship.Placement { return s.place }

func (s *bsScript) Shoot() grid.Cell {
	s.i++
	if s.i == s.panicAt {
		panic("script: told to panic")
	}
	if s.i > len(s.shots) {
		return grid.None // off the board: forfeits
	}
	return s.shots[s.i-1]
}

func (s *bsScript) Observe(battleship.Event) {
	s.seen++
	if s.seen == s.observePanic {
		panic("script: deaf")
	}
}

// bsExplainer adds Explain to a bsScript.
type bsExplainer struct{ *bsScript }

func (e bsExplainer) Explain() explain.Decision {
	return explain.Decision{State: "scripted", Reason: "shot " + strconv.Itoa(e.i),
		Candidates: []explain.Candidate{{Action: "shoot", Score: 0.25}}}
}

// bsRules is a 6-column, 5-row board with a rock at row 2, column 3 (D3)
// and a fleet of 3, 2 and 1 cells.
func bsRules(t testing.TB) *battleship.Rules {
	r, err := battleship.NewRules(grid.MustBoard(6, 5, []grid.Cell{2*6 + 3}), []int{3, 2, 1})
	require.NoError(t, err)
	return r
}

// rc is the cell at row, col of the 6-column board.
func rc(row, col int) grid.Cell { return grid.Cell(row*6 + col) }

var (
	// alice: A1-C1, F3-F4, B5.
	aliceFleet = battleship.Placement{{rc(0, 0), rc(0, 1), rc(0, 2)}, {rc(2, 5), rc(3, 5)}, {rc(4, 1)}}
	// bob: A3-A5, D1-E1, C3.
	bobFleet = battleship.Placement{{rc(2, 0), rc(3, 0), rc(4, 0)}, {rc(0, 3), rc(0, 4)}, {rc(2, 2)}}
)

// playBS plays one arena game of p0 (seat 0, "alice") against p1 (seat 1,
// "bob") under r and returns its replay with the version pinned.
func playBS(t testing.TB, r *battleship.Rules, p0, p1 bsplayers.Player, explain bool) []byte {
	fam := arenatest.Battleship(r, "alice", func(*rand.Rand) bsplayers.Player { return p0 }, "bob", func(*rand.Rand) bsplayers.Player { return p1 })
	var buf bytes.Buffer
	_, err := fam.NewTable(nil).Play(arena.Deal{Seed: 99, MatchSeed: 7, Replay: &buf, Explain: explain})
	require.NoError(t, err)
	return pinBSVersion(t, buf.Bytes())
}

// pinBSVersion rewrites the header's version so fixtures do not depend on
// the build.
func pinBSVersion(t testing.TB, data []byte) []byte {
	return rewrite(t, data, bsrecord.Read, func(rp *bsrecord.Replay) { rp.Header.Version = "test" })
}

// bsScriptedGame: a miss, a hit and the same cell again (no extra shot),
// a hit and a kill, a repeated miss, a kill and a miss, then seat 0 sinks
// the rest and wins. Seat 0 explains its shots.
func bsScriptedGame(t testing.TB) []byte {
	alice := &bsScript{place: aliceFleet, shots: []grid.Cell{
		rc(0, 0), // #1 miss
		rc(0, 3), // #4 hit
		rc(0, 4), // #5 kill D1-E1
		rc(0, 0), // #6 again: miss
		rc(2, 2), // #9 kill C3
		rc(2, 0), // #10 hit
		rc(3, 0), // #11 hit
		rc(4, 0), // #12 kill A3-A5: the last ship
	}}
	bob := &bsScript{place: bobFleet, shots: []grid.Cell{
		rc(0, 1), // #2 hit
		rc(0, 1), // #3 again: hit, no extra shot
		rc(4, 1), // #7 kill B5
		rc(4, 5), // #8 miss
	}}
	return playBS(t, bsRules(t), bsExplainer{alice}, bob, true)
}

// bsRockGame: seat 0 misses, seat 1 fires at the rock and forfeits.
func bsRockGame(t testing.TB) []byte {
	alice := &bsScript{place: aliceFleet, shots: []grid.Cell{rc(1, 1)}}
	bob := &bsScript{place: bobFleet, shots: []grid.Cell{rc(2, 3)}}
	return playBS(t, bsRules(t), alice, bob, false)
}

// bsPlacementGame: seat 1's ships touch at a corner; it forfeits before
// the first shot.
func bsPlacementGame(t testing.TB) []byte {
	alice := &bsScript{place: aliceFleet}
	bob := &bsScript{place: battleship.Placement{{rc(2, 0), rc(3, 0), rc(4, 0)}, {rc(0, 3), rc(0, 4)}, {rc(1, 1)}}}
	return playBS(t, bsRules(t), alice, bob, false)
}

// bsBotGame is a gridbot-vs-bs-random game on the classic 10x10 board.
func bsBotGame(t testing.TB, seed uint64) []byte {
	r := battleship.DefaultRules()
	fam := bsFamily(t, r, "gridbot", "bs-random")
	var buf bytes.Buffer
	_, err := fam.NewTable(nil).Play(arena.Deal{Index: 1, Seed: arena.GameSeed(seed, 1), MatchSeed: seed, P1Seat: 1, Replay: &buf, Explain: true})
	require.NoError(t, err)
	return pinBSVersion(t, buf.Bytes())
}

func bsFamily(t testing.TB, r *battleship.Rules, p1, p2 string) arena.Family {
	f1, err := bsplayers.New(p1, r, nil)
	require.NoError(t, err)
	f2, err := bsplayers.New(p2, r, nil)
	require.NoError(t, err)
	return arenatest.Battleship(r, p1, f1, p2, f2)
}
