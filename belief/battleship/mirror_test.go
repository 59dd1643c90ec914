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

// mirroredMarks returns a position of rules with random misses and hits
// drawn from seed, each mirrored left to right (lr) and top to bottom
// (tb): the frame of a board wider than tall is its transpose, so its
// rows are the board's columns.
func mirroredMarks(rules *battleship.Rules, seed uint64, misses, hits int, lr, tb bool) *battleship.Position {
	rng := rand.New(rand.NewPCG(seed, 7))
	b := rules.Board
	w, h := b.Width(), b.Height()
	pos := battleship.NewPosition(rules)
	for i := range misses + hits {
		x, y := rng.IntN(w), rng.IntN(h)
		m := battleship.Water
		if i >= misses {
			m = battleship.Damaged
		}
		cells := []grid.Cell{grid.Cell(y*w + x)}
		if lr {
			cells = append(cells, grid.Cell(y*w+w-1-x))
		}
		if tb {
			cells = append(cells, grid.Cell((h-1-y)*w+x))
		}
		if lr && tb {
			cells = append(cells, grid.Cell((h-1-y)*w+w-1-x))
		}
		for _, c := range cells {
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

// countBothWays counts pos plainly and as Count does and checks that
// both give the same error, or the same total and map. It returns the
// problem and the two counts, got nil when pos is not consistent or the
// count fails.
func countBothWays(t *testing.T, pos *battleship.Position) (*problem, *Counts, *Counts) {
	t.Helper()
	pr, err := newProblem(pos)
	if err != nil {
		return nil, nil, nil // an inconsistent pattern (a hit next to a sunk ship)
	}
	want, wantErr := countPlain(t, pos)
	got, gotErr := Count(context.Background(), pos, CountOptions{})
	if wantErr != nil {
		require.EqualError(t, gotErr, wantErr.Error(), pos.Text())
		return pr, nil, nil
	}
	require.NoError(t, gotErr, pos.Text())
	require.Equal(t, want.Total.String(), got.Total.String(), pos.Text())
	for c := range want.Cells {
		require.Equal(t, want.Cells[c].String(), got.Cells[c].String(), "%s: cell %d", pos.Text(), c)
	}
	return pr, want, got
}

// eachSymmetricCount counts the positions gen makes from seeds 0..n-1
// (fewer under the race detector) both ways (countBothWays), checks each
// consistent one with check and every tenth on a small board against
// plain enumeration too.
func eachSymmetricCount(t *testing.T, n int, gen func(seed uint64) *battleship.Position, check func(pos *battleship.Position, pr *problem, want, got *Counts)) {
	t.Helper()
	if race.Enabled {
		n = max(2, n/5)
	}
	counted := 0
	for seed := range uint64(n) {
		pos := gen(seed)
		pr, want, got := countBothWays(t, pos)
		if got == nil {
			continue
		}
		check(pos, pr, want, got)
		counted++
		if seed%10 == 0 && pos.Rules.Board.Size() <= 40 {
			requireCountsEqual(t, pos, got)
		}
	}
	require.Positive(t, counted)
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
			eachSymmetricCount(t, tt.n, func(seed uint64) *battleship.Position {
				return mirroredMarks(tt.rules, seed, int(seed%7), int(seed%3), !tt.flip, tt.flip)
			}, func(pos *battleship.Position, pr *problem, want, got *Counts) {
				require.True(t, pr.symmetric, pos.Text())
				require.LessOrEqual(t, got.States, want.States, pos.Text())
				if got.Total.Sign() > 0 {
					require.Less(t, got.States, want.States, pos.Text())
				}
			})
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
			eachSymmetricCount(t, tt.n, func(seed uint64) *battleship.Position {
				return mirroredMarks(tt.rules, seed, int(seed%7), int(seed%3), tt.both, true)
			}, func(pos *battleship.Position, pr *problem, want, got *Counts) {
				require.True(t, pr.tbSymmetric(), pos.Text())
				if got.Total.Sign() > 0 {
					require.Less(t, got.Work, want.Work, pos.Text())
					require.LessOrEqual(t, got.States, want.States, pos.Text())
				}
			})
		})
	}
}
