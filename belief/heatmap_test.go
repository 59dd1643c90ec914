package belief_test

import (
	"math"
	"testing"

	"github.com/kaisen-ai/kaisen/belief"
	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/stretchr/testify/require"
)

func TestHeatmap(t *testing.T) {
	b := grid.MustBoard(4, 2, []grid.Cell{3}) // cell 3 ([3,0]) is a rock
	tests := []struct {
		name  string
		p     []float64
		style belief.HeatStyle
		want  string
	}{
		{"percent", []float64{0, 0.004, 0.5, 0, 1, 0.125, math.NaN(), -1}, belief.Percent,
			"  .  <1  50   #\n100  13   .   .\n"},
		{"percent clamps and pads", []float64{2, 0.25}, belief.Percent,
			"100  25   .   #\n  .   .   .   .\n"},
		{"shade scales to the maximum", []float64{0, 0.01, 0.5, 0, 0.25, 0.125, 0.0625, 0.5}, belief.Shade,
			" .@X\n=:.@\n"},
		{"shade of all zero", nil, belief.Shade, "   X\n    \n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			require.Equal(t, tc.want, belief.Heatmap(b, tc.p, tc.style))
		})
	}
	require.Empty(t, belief.Heatmap(nil, nil, belief.Percent))
}

func TestShipsHeat(t *testing.T) {
	b := grid.MustBoard(3, 1, nil)
	s := belief.NewShips(testRules(b, 10, 1, 1))
	s.Restrict(0, grid.Of(0, 2))
	require.Equal(t, []float64{0.5, 0, 0.5}, s.Heat(0))
	s.Sink(0)
	require.Equal(t, []float64{0, 0, 0}, s.Heat(0))
	require.Equal(t, "  .   .   .\n", belief.Heatmap(b, s.Heat(0), belief.Percent))
}
