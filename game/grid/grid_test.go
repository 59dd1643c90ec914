package grid

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestBoardGeometry(t *testing.T) {
	b := MustBoard(5, 5, nil)
	c, ok := b.At(2, 1)
	require.True(t, ok)
	require.Equal(t, Cell(7), c)
	x, y := b.XY(c)
	require.Equal(t, [2]int{2, 1}, [2]int{x, y})
	_, ok = b.At(5, 0)
	require.False(t, ok)
	_, ok = b.At(-1, 0)
	require.False(t, ok)

	tests := []struct {
		name string
		got  Set
		want []Cell
	}{
		{"around corner", b.Around(0), []Cell{0, 1, 5, 6}},
		{"around centre", b.Around(12), []Cell{6, 7, 8, 11, 12, 13, 16, 17, 18}},
		{"around edge", b.Around(4), []Cell{3, 4, 8, 9}},
		{"row", b.Row(7), []Cell{5, 6, 7, 8, 9}},
		{"col", b.Col(7), []Cell{2, 7, 12, 17, 22}},
		{"lines", b.Lines(0), []Cell{1, 2, 3, 4, 5, 10, 15, 20}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.Equal(t, tt.want, tt.got.Cells())
		})
	}
	require.Equal(t, 2, b.Chebyshev(0, 12))
}

func TestRocksAndShapes(t *testing.T) {
	b, err := Rounded(6, 5)
	require.NoError(t, err)
	require.Equal(t, []Cell{0, 5, 24, 29}, b.Rocks())
	require.False(t, b.IsUsable(0))
	require.True(t, b.IsUsable(1))
	require.False(t, b.Around(1).Has(0), "rocks are never in a neighbourhood")
	require.Equal(t, []string{".####.", "######", "######", "######", ".####."}, b.Shape())

	s, err := ParseShape(b.Shape())
	require.NoError(t, err)
	require.Equal(t, b.Usable(), s.Usable())

	bad := []struct {
		rows []string
		want string
	}{
		{nil, "no rows"},
		{[]string{"##", "#"}, "row 1 has 1 cells"},
		{[]string{"#x"}, "'x'"},
		{[]string{".."}, "every cell is a rock"},
	}
	for _, tt := range bad {
		_, err := ParseShape(tt.rows)
		require.ErrorIs(t, err, ErrBoard)
		require.ErrorContains(t, err, tt.want)
	}
	_, err = NewBoard(17, 17, nil)
	require.ErrorContains(t, err, "at most 256")
	_, err = NewBoard(0, 3, nil)
	require.ErrorIs(t, err, ErrBoard)
	_, err = NewBoard(2, 2, []Cell{9})
	require.ErrorContains(t, err, "off the")
}

func TestShift(t *testing.T) {
	b := MustBoard(4, 3, []Cell{5})
	s := Of(0, 1, 4, 11)
	// right by one: 0->1, 1->2, 4->5 (a rock: gone), 11 leaves the board.
	require.Equal(t, []Cell{1, 2}, b.Shift(s, 1, 0).Cells())
	require.Equal(t, []Cell{4, 8}, b.Shift(Of(0, 4), 0, 1).Cells())
	require.True(t, b.Shift(s, 0, -3).Empty())
}

// TestSetAgainstMap checks every Set operation against a map model.
func TestSetAgainstMap(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	random := func() (Set, map[Cell]bool) {
		var s Set
		m := map[Cell]bool{}
		for range rng.IntN(60) {
			c := Cell(rng.IntN(MaxCells))
			s.Add(c)
			m[c] = true
		}
		return s, m
	}
	for range 200 {
		a, am := random()
		b, bm := random()
		require.Equal(t, len(am), a.Count())
		inter, union, diff := 0, len(am), 0
		for c := range bm {
			if am[c] {
				inter++
			} else {
				union++
			}
		}
		for c := range am {
			if !bm[c] {
				diff++
			}
		}
		require.Equal(t, inter, a.Intersect(b).Count())
		require.Equal(t, union, a.Union(b).Count())
		require.Equal(t, diff, a.AndNot(b).Count())
		require.Equal(t, inter > 0, a.Intersects(b))
		cells := a.Cells()
		for k, c := range cells {
			require.Equal(t, c, a.Nth(k))
			require.True(t, am[c])
		}
		require.Equal(t, None, a.Nth(len(cells)))
		if len(cells) > 0 {
			require.Equal(t, cells[0], a.First())
			a.Remove(cells[0])
			require.False(t, a.Has(cells[0]))
		}
	}
	require.Equal(t, 256, Full(256).Count())
	require.Equal(t, 70, Full(70).Count())
	require.True(t, Set{}.Empty())
	require.Equal(t, None, Set{}.First())
	require.Equal(t, "{1 5}", Of(5, 1).String())
}

func ExampleBoard_Around() {
	b, _ := Rounded(5, 5)
	fmt.Println(b.Around(6).Cells()) // [1,1] and its neighbours, without the rock at [0,0]
	// Output: [1 2 5 6 7 10 11 12]
}

func TestByColumn(t *testing.T) {
	rounded, err := Rounded(3, 3)
	require.NoError(t, err)
	tests := []struct {
		name string
		b    *Board
		want []Cell
	}{
		{"rectangle", MustBoard(3, 2, nil), []Cell{0, 3, 1, 4, 2, 5}},
		{"rock", MustBoard(2, 2, []Cell{1}), []Cell{0, 2, 3}},
		{"rounded", rounded, []Cell{3, 1, 4, 7, 5}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.Equal(t, tt.want, tt.b.ByColumn())
		})
	}
}

// TestLinesAreRowAndColumn: on every board shape, Lines(c) is Row(c) ∪
// Col(c) without c, for every cell.
func TestLinesAreRowAndColumn(t *testing.T) {
	rounded, err := Rounded(6, 5)
	require.NoError(t, err)
	for _, tc := range []struct {
		name string
		b    *Board
	}{
		{"square", MustBoard(5, 5, nil)},
		{"rocks", MustBoard(7, 4, []Cell{0, 9, 10, 27})},
		{"rounded", rounded},
		{"one row", MustBoard(9, 1, nil)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for c := range Cell(tc.b.Size()) {
				want := tc.b.Row(c).Union(tc.b.Col(c))
				want.Remove(c)
				require.Equal(t, want, tc.b.Lines(c), "cell %d", c)
			}
		})
	}
}
