package bsbelief

import (
	"context"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/game/battleship"
	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/internal/race"
)

func TestKeyMirror(t *testing.T) {
	for _, w := range []int{1, 2, 5, 8, 9, 16} {
		var k key
		for j := range w {
			k.set(j, uint8(3+j))
		}
		m := k.mirror(w)
		for j := range w {
			require.Equal(t, k.get(w-1-j), m.get(j), "width %d column %d", w, j)
		}
		for j := w; j < 16; j++ {
			require.Zero(t, m.get(j), "width %d: column %d beyond the profile", w, j)
		}
		require.Equal(t, k, m.mirror(w), "width %d: twice is the identity", w)
		if w > 1 {
			require.NotEqual(t, k.less(m), m.less(k), "width %d: one of the two is the representative", w)
		}
	}
}

// symmetricMarks returns a position of rules with random misses and hits
// mirrored left to right (top to bottom when flip is set: the frame of a
// board wider than tall is its transpose) from seed.
func symmetricMarks(rules *battleship.Rules, seed uint64, misses, hits int, flip bool) *battleship.Position {
	rng := rand.New(rand.NewPCG(seed, 7))
	b := rules.Board
	w, h := b.Width(), b.Height()
	pos := battleship.NewPosition(rules)
	for i := range misses + hits {
		x, y := rng.IntN(w), rng.IntN(h)
		mx, my := w-1-x, y
		if flip {
			mx, my = x, h-1-y
		}
		m := battleship.Water
		if i >= misses {
			m = battleship.Damaged
		}
		for _, c := range []grid.Cell{grid.Cell(y*w + x), grid.Cell(my*w + mx)} {
			if b.IsUsable(c) {
				pos.Marks[c] = m
			}
		}
	}
	return pos
}

// countPlain counts pos without merging mirror images and with a forward
// pass over every row (the programme as it runs on boards that are not
// symmetric).
func countPlain(t *testing.T, pos *battleship.Position) (*Counts, error) {
	t.Helper()
	pr, err := newProblem(pos)
	require.NoError(t, err)
	var work int64
	for m := 1; ; m *= 2 {
		c := &counter{problem: pr, m: m, ctx: context.Background(), plain: true, work: work}
		res, err := c.run()
		work = c.work
		if err == errOverflow && m < maxLimbs {
			continue
		}
		if err == nil {
			res.Work = work
		}
		return res, err
	}
}

// TestMirrorCountsEqualPlainCounts counts symmetric positions with mirror
// images merged (as Count does) and without: the totals and every cell of
// the map agree, with fewer profiles; every tenth also against plain
// enumeration. Square boards symmetric top to bottom only are counted
// transposed, merged too.
func TestMirrorCountsEqualPlainCounts(t *testing.T) {
	shaped, err := grid.ParseShape([]string{"#.#.#", "#####", "##.##", "#####", "#.#.#"})
	require.NoError(t, err)
	tests := []struct {
		name  string
		rules *battleship.Rules
		flip  bool
		n     int
	}{
		{"6x5 transposed", mustRules(t, grid.MustBoard(6, 5, nil), 3, 2, 2, 1), true, 60},
		{"5x6 odd width", mustRules(t, grid.MustBoard(5, 6, nil), 3, 2, 1, 1), false, 60},
		{"6x6 top to bottom", mustRules(t, grid.MustBoard(6, 6, nil), 3, 2, 2, 1), true, 60},
		{"7x4 transposed", mustRules(t, grid.MustBoard(7, 4, nil), 3, 2, 1), true, 40},
		{"4x7", mustRules(t, grid.MustBoard(4, 7, nil), 3, 2, 1), false, 40},
		{"5x5 shaped", mustRules(t, shaped, 3, 2, 1), false, 40},
		{"4x40 overflow", mustRules(t, grid.MustBoard(4, 40, nil), 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1), false, 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n := tt.n
			if race.Enabled {
				n = max(2, n/5)
			}
			merged := 0
			for seed := range uint64(n) {
				pos := symmetricMarks(tt.rules, seed, int(seed%7), int(seed%3), tt.flip)
				pr, err := newProblem(pos)
				if err != nil {
					continue // an inconsistent pattern (a hit next to a sunk ship)
				}
				require.True(t, pr.symmetric, pos.Text())
				want, wantErr := countPlain(t, pos)
				got, gotErr := Count(context.Background(), pos, CountOptions{})
				if wantErr != nil {
					require.EqualError(t, gotErr, wantErr.Error(), pos.Text())
					continue
				}
				require.NoError(t, gotErr, pos.Text())
				require.Equal(t, want.Total.String(), got.Total.String(), pos.Text())
				for c := range want.Cells {
					require.Equal(t, want.Cells[c].String(), got.Cells[c].String(), "%s: cell %d", pos.Text(), c)
				}
				require.LessOrEqual(t, got.States, want.States, pos.Text())
				if got.Total.Sign() > 0 {
					require.Less(t, got.States, want.States, pos.Text())
				}
				merged++
				if seed%10 == 0 && tt.rules.Board.Size() <= 40 {
					requireCountsEqual(t, pos, got)
				}
			}
			require.Positive(t, merged)
		})
	}
}

// TestMirrorOnlyWhenSymmetric checks that a position that is not symmetric
// is counted without merging, and a symmetric one with it.
func TestMirrorOnlyWhenSymmetric(t *testing.T) {
	rules := mustRules(t, grid.MustBoard(6, 6, nil), 3, 2, 1)
	pos := battleship.NewPosition(rules)
	pr, err := newProblem(pos)
	require.NoError(t, err)
	require.True(t, pr.symmetric)
	require.False(t, pr.tr)
	pos.Marks[grid.Cell(1)] = battleship.Water
	pos.Marks[grid.Cell(5*6+1)] = battleship.Water
	pr, err = newProblem(pos)
	require.NoError(t, err)
	require.True(t, pr.symmetric, "symmetric top to bottom: counted transposed")
	require.True(t, pr.tr)
	pos.Marks[grid.Cell(6+2)] = battleship.Water
	pr, err = newProblem(pos)
	require.NoError(t, err)
	require.False(t, pr.symmetric)
	want, err := countPlain(t, pos)
	require.NoError(t, err)
	got, err := Count(context.Background(), pos, CountOptions{})
	require.NoError(t, err)
	require.Equal(t, want.States, got.States)
	requireCountsEqual(t, pos, got)
}

// bothWaysMarks returns a position of rules with random misses and hits
// mirrored top to bottom, and left to right too when both is set.
func bothWaysMarks(rules *battleship.Rules, seed uint64, misses, hits int, both bool) *battleship.Position {
	rng := rand.New(rand.NewPCG(seed, 11))
	b := rules.Board
	w, h := b.Width(), b.Height()
	pos := battleship.NewPosition(rules)
	for i := range misses + hits {
		x, y := rng.IntN(w), rng.IntN(h)
		m := battleship.Water
		if i >= misses {
			m = battleship.Damaged
		}
		cells := []grid.Cell{grid.Cell(y*w + x), grid.Cell((h-1-y)*w + x)}
		if both {
			cells = append(cells, grid.Cell(y*w+w-1-x), grid.Cell((h-1-y)*w+w-1-x))
		}
		for _, c := range cells {
			if b.IsUsable(c) {
				pos.Marks[c] = m
			}
		}
	}
	return pos
}

// TestHalfCountsEqualPlainCounts counts positions symmetric top to bottom
// (in the frame), where the forward pass stops at the middle row and the
// map of the rows below it is mirrored, against the plain count: same
// totals and maps, same profiles, less work; every tenth also against
// plain enumeration. Odd and even heights, symmetric both ways or top to
// bottom only, counts above 64 bits (the compact passes), one goroutine
// (the passes in turn).
func TestHalfCountsEqualPlainCounts(t *testing.T) {
	tests := []struct {
		name  string
		rules *battleship.Rules
		both  bool
		n     int
		procs int
	}{
		{"5x7 top to bottom", mustRules(t, grid.MustBoard(5, 7, nil), 3, 2, 1, 1), false, 60, 0},
		{"6x6 both ways", mustRules(t, grid.MustBoard(6, 6, nil), 3, 2, 2, 1), true, 60, 0},
		{"4x5 odd height in turn", mustRules(t, grid.MustBoard(4, 5, nil), 3, 2, 1), false, 40, 1},
		{"3x2 two rows", mustRules(t, grid.MustBoard(3, 2, nil), 2, 1), true, 10, 0},
		{"4x40 overflow", mustRules(t, grid.MustBoard(4, 40, nil), 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1), false, 4, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.procs > 0 {
				defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(tt.procs))
			}
			n := tt.n
			if race.Enabled {
				n = max(2, n/5)
			}
			halved := 0
			for seed := range uint64(n) {
				pos := bothWaysMarks(tt.rules, seed, int(seed%7), int(seed%3), tt.both)
				pr, err := newProblem(pos)
				if err != nil {
					continue // an inconsistent pattern (a hit next to a sunk ship)
				}
				require.True(t, pr.tbSymmetric(), pos.Text())
				want, wantErr := countPlain(t, pos)
				got, gotErr := Count(context.Background(), pos, CountOptions{})
				if wantErr != nil {
					require.EqualError(t, gotErr, wantErr.Error(), pos.Text())
					continue
				}
				require.NoError(t, gotErr, pos.Text())
				require.Equal(t, want.Total.String(), got.Total.String(), pos.Text())
				for c := range want.Cells {
					require.Equal(t, want.Cells[c].String(), got.Cells[c].String(), "%s: cell %d", pos.Text(), c)
				}
				if !pr.symmetric {
					require.Equal(t, want.States, got.States, pos.Text())
				}
				if got.Total.Sign() > 0 {
					require.Less(t, got.Work, want.Work, pos.Text())
				}
				halved++
				if seed%10 == 0 && tt.rules.Board.Size() <= 40 {
					requireCountsEqual(t, pos, got)
				}
			}
			require.Positive(t, halved)
		})
	}
}
