package grid

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestSymmetries(t *testing.T) {
	tests := []struct {
		name  string
		board *Board
		want  int
	}{
		{"square", MustBoard(5, 5, nil), 8},
		{"rectangle", MustBoard(6, 4, nil), 4},
		{"centre rock", MustBoard(5, 5, []Cell{12}), 8},
		{"corner rock", MustBoard(5, 5, []Cell{0}), 2}, // the identity and the main diagonal
		{"off-centre rock", MustBoard(5, 5, []Cell{7}), 2},
		{"one row", MustBoard(7, 1, nil), 4}, // a flip of a single row changes no cell
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := tt.board
			syms := b.Symmetries()
			require.Len(t, syms, tt.want)
			id := make([]Cell, b.Size())
			for c := range id {
				id[c] = Cell(c)
			}
			require.Equal(t, id, syms[0], "the identity comes first")
			for _, s := range syms {
				// A permutation of the cells that keeps the usable set.
				sorted := slices.Clone(s)
				slices.Sort(sorted)
				require.Equal(t, id, sorted)
				for c := range b.Size() {
					require.Equal(t, b.IsUsable(Cell(c)), b.IsUsable(s[c]))
					if !b.IsUsable(Cell(c)) {
						continue
					}
					// Neighbourhoods and distances are preserved.
					var img Set
					for d := range b.Around(Cell(c)).All() {
						img.Add(s[d])
					}
					require.Equal(t, b.Around(s[c]), img)
					for d := range b.Size() {
						if b.IsUsable(Cell(d)) {
							require.Equal(t, b.Chebyshev(Cell(c), Cell(d)), b.Chebyshev(s[c], s[d]))
						}
					}
				}
			}
		})
	}
}

func TestSymmetriesWorked(t *testing.T) {
	// 3x3: cells 0 1 2 / 3 4 5 / 6 7 8. The quarter turn at index 5 sends
	// (x, y) to (h-1-y, x): the top-left corner to the top-right one.
	b := MustBoard(3, 3, nil)
	s := b.Symmetries()
	require.Equal(t, []Cell{2, 1, 0, 5, 4, 3, 8, 7, 6}, s[1], "left-right mirror")
	require.Equal(t, []Cell{0, 3, 6, 1, 4, 7, 2, 5, 8}, s[4], "transpose")
	require.Equal(t, []Cell{2, 5, 8, 1, 4, 7, 0, 3, 6}, s[5], "quarter turn")
}
