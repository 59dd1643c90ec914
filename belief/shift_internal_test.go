package belief

import (
	"math/rand/v2"
	"testing"

	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/stretchr/testify/require"
)

// TestShiftSet checks the word-crossing bit shift against a cell-by-cell
// shift, on every offset of a 256-cell set.
func TestShiftSet(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for range 50 {
		var s grid.Set
		for i := range s {
			s[i] = rng.Uint64()
		}
		for k := -256; k <= 256; k++ {
			var want grid.Set
			for c := range s.All() {
				if d := int(c) + k; d >= 0 && d < grid.MaxCells {
					want.Add(grid.Cell(d))
				}
			}
			require.Equal(t, want, shiftSet(s, k), "offset %d", k)
		}
	}
}
