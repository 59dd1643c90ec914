package bsplayers

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	bsbelief "github.com/kaisen-ai/kaisen/belief/battleship"
	"github.com/kaisen-ai/kaisen/game/battleship"
	"github.com/kaisen-ai/kaisen/game/grid"
)

func rc(r *battleship.Rules, row, col int) grid.Cell {
	c, ok := r.Cell(row, col)
	if !ok {
		panic("off board")
	}
	return c
}

func names(r *battleship.Rules, cells []grid.Cell) []string {
	out := make([]string, len(cells))
	for i, c := range cells {
		out[i] = r.CellName(c)
	}
	return out
}

func newGrid(t *testing.T, r *battleship.Rules, pattern string) *GridBot {
	t.Helper()
	u, err := bsbelief.NewUniformPlacer(r)
	require.NoError(t, err)
	cfg := DefaultGridConfig()
	cfg.Pattern = pattern
	return NewGridBot(r, cfg, u, rand.New(rand.NewPCG(1, 2)))
}

// The order of the spec (shared/spec/battleship.md) and the seed's drawn
// grid (shared/seeds/000-grid-bot-ru.md, cells numbered 1 to 26).
var diagonal4 = []string{
	"A1", "E1", "I1", "A5", "E5", "I5", "A9", "E9", "I9",
	"B2", "F2", "J2", "B6", "F6", "J6", "B10", "F10", "J10",
	"C3", "G3", "C7", "G7",
	"D4", "H4", "D8", "H8",
}

func TestGridBotDiagonalOrder(t *testing.T) {
	r := battleship.DefaultRules()
	b := newGrid(t, r, PatternDiagonal)
	require.Equal(t, diagonal4, names(r, b.HuntCells(4)))
	// With every shot a miss the bot fires exactly these 26 first, in order.
	var fired []grid.Cell
	for range 26 {
		c := b.Shoot()
		fired = append(fired, c)
		b.Observe(battleship.Event{Mine: true, Result: battleship.Result{At: c, Outcome: battleship.Miss}})
	}
	require.Equal(t, diagonal4, names(r, fired))
	// Then n = 3: the cells with r mod 3 == c mod 3 still unknown, residue 0 first.
	c := b.Shoot()
	require.Equal(t, "D1", r.CellName(c), "(0,0) was shot at n=4")
	require.Equal(t, modeHunt, b.Mode())
}

func TestGridBotBlocks(t *testing.T) {
	r := battleship.DefaultRules()
	b := newGrid(t, r, PatternBlocks)
	cells := b.HuntCells(4)
	require.Len(t, cells, 36)
	require.Equal(t, []string{"A1", "B1", "E1", "F1", "I1", "J1", "A2"}, names(r, cells[:7]))
	require.Len(t, b.HuntCells(2), 100, "n <= 2 is every cell")
}

func TestGridBotHuntDegradesToEveryCell(t *testing.T) {
	r := battleship.DefaultRules()
	b := newGrid(t, r, PatternDiagonal)
	seen := map[grid.Cell]bool{}
	for range 100 {
		c := b.Shoot()
		require.False(t, seen[c], "cell %s fired twice", r.CellName(c))
		seen[c] = true
		b.Observe(battleship.Event{Mine: true, Result: battleship.Result{At: c, Outcome: battleship.Miss}})
	}
	require.Len(t, seen, 100)
}

// drive feeds the bot the answers of a real sea and returns the shots.
func drive(t *testing.T, r *battleship.Rules, b Player, layout battleship.Placement, n int) []grid.Cell {
	t.Helper()
	sea, err := battleship.NewSea(r, layout)
	require.NoError(t, err)
	var shots []grid.Cell
	for range n {
		c := b.Shoot()
		shots = append(shots, c)
		res, err := sea.Fire(c)
		require.NoError(t, err)
		b.Observe(battleship.Event{Mine: true, Result: res, Again: res.Again()})
		if sea.Afloat() == 0 {
			break
		}
	}
	return shots
}

func TestGridBotTargetsUpRightDownLeftThenAlongTheLine(t *testing.T) {
	r, err := battleship.NewRules(grid.MustBoard(10, 10, nil), []int{3})
	require.NoError(t, err)
	// A vertical 3-ship at [4,4]-[6,4]. The hunt (n = 3, the longest ship)
	// shoots [0,0] [0,3] [0,6] [0,9] [3,0] [3,3] [3,6] [3,9] [6,0] [6,3] [6,6]
	// [6,9] [9,0] ... residue 1: [1,1] [1,4] [1,7] [4,1] [4,4]: hit.
	b := newGrid(t, r, PatternDiagonal)
	layout := battleship.Placement{{rc(r, 4, 4), rc(r, 5, 4), rc(r, 6, 4)}}
	shots := names(r, drive(t, r, b, layout, 100))
	require.Equal(t, []string{
		"A1", "D1", "G1", "J1", "A4", "D4", "G4", "J4",
		"A7", "D7", "G7", "J7", "A10", "D10", "G10", "J10",
		"B2", "E2", "H2", "B5", "E5", // hit
		"E4", // up: miss
		"F5", // right: miss
		"E6", // down: hit, direction vertical
		"E7", // the low end [3,4] was a miss: beyond the high end, kill
	}, shots)
}

func TestGridBotDirectionBeyondLowEndFirst(t *testing.T) {
	r, err := battleship.NewRules(grid.MustBoard(6, 6, nil), []int{4})
	require.NoError(t, err)
	// Horizontal 4-ship at [2,1]-[2,4]; the hunt (n = 4) shoots [0,0] [0,4]
	// [4,0] [4,4] then [1,1] [1,5] [5,1] [5,5] then [2,2]: hit.
	b := newGrid(t, r, PatternDiagonal)
	layout := battleship.Placement{{rc(r, 2, 1), rc(r, 2, 2), rc(r, 2, 3), rc(r, 2, 4)}}
	shots := names(r, drive(t, r, b, layout, 100))
	require.Equal(t, []string{
		"A1", "E1", "A5", "E5", "B2", "F2", "B6", "F6",
		"C3", // hit
		"C2", // up: miss
		"D3", // right: hit, horizontal
		"B3", // beyond the low end: hit
		"A3", // beyond the low end again: miss
		"E3", // beyond the high end: kill
	}, shots)
}

func TestGridBotKillMarksSurroundingsImpossible(t *testing.T) {
	r, err := battleship.NewRules(grid.MustBoard(5, 5, nil), []int{2, 1})
	require.NoError(t, err)
	b := newGrid(t, r, PatternDiagonal)
	b.Observe(battleship.Event{Mine: true, Result: battleship.Result{At: rc(r, 1, 1), Outcome: battleship.Hit}})
	require.Equal(t, modeTarget, b.Mode())
	b.Observe(battleship.Event{Mine: true, Result: battleship.Result{At: rc(r, 1, 2), Outcome: battleship.Kill, Sunk: battleship.Ship{rc(r, 1, 1), rc(r, 1, 2)}}})
	require.Equal(t, modeHunt, b.Mode())
	for _, c := range []grid.Cell{rc(r, 0, 0), rc(r, 0, 3), rc(r, 2, 1), rc(r, 2, 3)} {
		require.Equal(t, gImpossible, b.marks[c])
	}
	require.Equal(t, gKilled, b.marks[rc(r, 1, 1)])
	require.Equal(t, 0, b.left[2])
	// The hunt (n = 2: [0,0] [0,2] [0,4] [2,0] ...) skips the impossible cells.
	require.Equal(t, "E1", r.CellName(b.Shoot()))
}

func TestGridBotSinksEveryFleet(t *testing.T) {
	r := battleship.DefaultRules()
	u, err := bsbelief.NewUniformPlacer(r)
	require.NoError(t, err)
	rng := rand.New(rand.NewPCG(3, 4))
	for _, pattern := range []string{PatternDiagonal, PatternBlocks} {
		for range 30 {
			layout, err := u.Place(rng)
			require.NoError(t, err)
			b := NewGridBot(r, GridConfig{Pattern: pattern}, u, rng)
			shots, err := Solo(context.Background(), r, b, layout)
			require.NoError(t, err)
			require.LessOrEqual(t, shots, 100)
			require.GreaterOrEqual(t, shots, 20)
		}
	}
}
