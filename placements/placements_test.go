package placements_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/game/battleship"
	bsrecord "github.com/kaisen-ai/kaisen/game/battleship/record"
	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/game/submarine"
	subrecord "github.com/kaisen-ai/kaisen/game/submarine/record"
	"github.com/kaisen-ai/kaisen/placements"
	"github.com/kaisen-ai/kaisen/replay"
)

// writeReplay writes, in dir/name, the header and placements of a
// submarine game between a (seat 0) and b (seat 1) under r, aborted
// before its first action.
func writeReplay(t *testing.T, dir, name string, r *submarine.Rules, a, b string, pa, pb submarine.Placement) {
	t.Helper()
	var buf bytes.Buffer
	w := subrecord.NewWriter(&buf, r, subrecord.Header{Players: [2]replay.SeatInfo{{Seat: 0, Name: a}, {Seat: 1, Name: b}}})
	w.Placement(0, pa)
	w.Placement(1, pb)
	w.Result(subrecord.Result{Outcome: replay.OutcomeAborted, Winner: -1})
	require.NoError(t, w.Flush())
	require.NoError(t, os.WriteFile(filepath.Join(dir, name), buf.Bytes(), 0o600))
}

// writeBattleship writes a Battleship replay header in dir/name.
func writeBattleship(t *testing.T, dir, name string) {
	t.Helper()
	b, err := grid.NewBoard(6, 6, nil)
	require.NoError(t, err)
	r, err := battleship.NewRules(b, []int{3, 2})
	require.NoError(t, err)
	var buf bytes.Buffer
	w := bsrecord.NewWriter(&buf, r, bsrecord.Header{Players: [2]replay.SeatInfo{{Seat: 0, Name: "x"}, {Seat: 1, Name: "bot"}}})
	require.NoError(t, w.Flush())
	require.NoError(t, os.WriteFile(filepath.Join(dir, name), buf.Bytes(), 0o600))
}

// cells are the cells of (x, y) pairs on the 5x5 board.
func cells(xy ...int) submarine.Placement {
	p := make(submarine.Placement, 0, len(xy)/2)
	for i := 0; i < len(xy); i += 2 {
		p = append(p, grid.Cell(xy[i+1]*5+xy[i]))
	}
	return p
}

// corpus is a directory of three games of "bot": two in the corners
// (seat 0, then seat 1), one illegal (two ships on a cell), plus a
// Battleship replay; and a loose file of a game without bot.
func corpus(t *testing.T) (dir, loose string) {
	t.Helper()
	r := submarine.DefaultRules()
	dir = t.TempDir()
	other := cells(2, 2, 2, 3, 2, 4)
	writeReplay(t, dir, "a.jsonl", r, "bot", "random", cells(0, 0, 4, 0, 4, 4), other)
	writeReplay(t, dir, "b.jsonl", r, "simple", "bot", other, cells(0, 0, 4, 4, 0, 4))
	writeReplay(t, dir, "c.jsonl", r, "bot", "random", cells(1, 1, 1, 1, 3, 3), other)
	writeBattleship(t, dir, "d.jsonl")
	require.NoError(t, os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("not a replay"), 0o600))
	loose = filepath.Join(t.TempDir(), "e.jsonl")
	writeReplay(t, filepath.Dir(loose), "e.jsonl", r, "random", "simple", other, other)
	return dir, loose
}

func TestRead(t *testing.T) {
	dir, loose := corpus(t)
	s, err := placements.Read("bot", []string{dir, loose})
	require.NoError(t, err)
	require.Equal(t, 2, s.Games)
	require.Equal(t, 4, s.Replays)
	require.Equal(t, 1, s.Skipped)
	require.Equal(t, 1, s.Illegal)
	require.Equal(t, map[int]int{4: 2}, s.MinDist, "corners 4 apart")

	ships := s.Ships()
	require.Len(t, ships, len(submarine.DefaultFleet()))
	want := []struct {
		at           []grid.Cell
		corner, edge float64
	}{
		{[]grid.Cell{0}, 1, 1},      // (0,0) twice
		{[]grid.Cell{4, 24}, 1, 1},  // (4,0), (4,4)
		{[]grid.Cell{24, 20}, 1, 1}, // (4,4), (0,4)
	}
	for i, sh := range ships {
		n := 0
		for _, c := range want[i].at {
			require.Positive(t, sh.Counts[c], "ship %d cell %d", i, c)
		}
		for _, k := range sh.Counts {
			n += k
		}
		require.Equal(t, 2, n, "ship %d: one count a game", i)
		require.Equal(t, want[i].corner, sh.Corner)
		require.Equal(t, want[i].edge, sh.Edge)
	}
	require.InDelta(t, 4.0/25, placements.UniformShare(s.Rules.Board, true), 1e-12)
	require.InDelta(t, 16.0/25, placements.UniformShare(s.Rules.Board, false), 1e-12)
}

func TestReadRefusals(t *testing.T) {
	dir, loose := corpus(t)
	wide := t.TempDir()
	r6 := &submarine.Rules{Board: grid.MustBoard(6, 5, nil), Fleet: submarine.DefaultFleet(), DrawLimit: submarine.DefaultDrawLimit}
	writeReplay(t, wide, "w.jsonl", r6, "bot", "random", cells(0, 0, 4, 0, 4, 4), cells(2, 2, 2, 3, 2, 4))
	long := t.TempDir()
	r := submarine.DefaultRules()
	r.DrawLimit *= 2
	writeReplay(t, long, "l.jsonl", r, "bot", "random", cells(0, 0, 4, 0, 4, 4), cells(2, 2, 2, 3, 2, 4))
	bsOnly := t.TempDir()
	writeBattleship(t, bsOnly, "b.jsonl")

	s, err := placements.Read("bot", []string{dir, long})
	require.NoError(t, err, "another draw limit: the same board and fleet")
	require.Equal(t, 3, s.Games)

	_, err = placements.Read("bot", []string{dir, wide})
	var other *placements.OtherRulesError
	require.ErrorAs(t, err, &other)
	require.Equal(t, filepath.Join(wide, "w.jsonl"), other.Path)

	_, err = placements.Read("nobody", []string{dir, loose})
	var none *placements.NotFoundError
	require.ErrorAs(t, err, &none)
	require.Equal(t, []string{"bot", "random", "simple"}, none.Others)
	require.Equal(t, 4, none.Replays)

	_, err = placements.Read("bot", []string{bsOnly})
	require.ErrorIs(t, err, placements.ErrNoReplays)
	_, err = placements.Read("bot", []string{filepath.Join(dir, "missing")})
	require.ErrorIs(t, err, os.ErrNotExist)
	_, err = placements.Read("bot", []string{filepath.Join(dir, "notes.txt")})
	require.Error(t, err, "a file given by name must be a replay")
}

func TestWriteAdmiralWeights(t *testing.T) {
	dir, _ := corpus(t)
	s, err := placements.Read("bot", []string{dir})
	require.NoError(t, err)
	var b bytes.Buffer
	require.NoError(t, s.WriteAdmiralWeights(&b, []string{"corpus/"}))
	want := `# Admiral weights: the placement prior of "bot" learnt by kaisen placements
# from 2 placements in the replays of corpus/
# (board 5x5). Every other weight keeps admiral's default. Use:
#   kaisen match --p1 admiral --p1-weights THIS.yaml --p2 bot
belief:
  # By ship (fleet order), the games it started on each cell, row-major.
  enemy_prior:
    - [2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0] # w
    - [0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1] # c
    - [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1] # s
`
	require.Equal(t, want, b.String())
}
