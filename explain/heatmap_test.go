package explain_test

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/explain"
)

func TestNewHeatmap(t *testing.T) {
	tests := []struct {
		name string
		w, h int
		p    []float64
		want []float64
	}{
		{"rounded to 4 decimals", 2, 1, []float64{1.0 / 3, 0.99995}, []float64{0.3333, 1}},
		{"clamped, NaN is 0", 3, 1, []float64{-0.5, 1.5, math.NaN()}, []float64{0, 1, 0}},
		{"missing values are 0", 2, 2, []float64{0.25}, []float64{0.25, 0, 0, 0}},
		{"extra values are dropped", 1, 1, []float64{0.5, 0.7}, []float64{0.5}},
		{"empty board", 0, 3, []float64{0.5}, []float64{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := explain.NewHeatmap("w", explain.SideEnemy, tt.w, tt.h, tt.p)
			require.Equal(t, explain.Heatmap{Name: "w", Side: explain.SideEnemy, W: tt.w, H: tt.h, Cells: tt.want}, h)
		})
	}
}

// mapper explains itself and draws one heatmap.
type mapper struct{ thinker }

func (mapper) Heatmaps() []explain.Heatmap {
	return []explain.Heatmap{explain.NewHeatmap("any ship", explain.SideOwn, 1, 1, []float64{0.5})}
}

func TestFull(t *testing.T) {
	plain := &thinker{last: explain.Decision{State: "attack"}}
	require.Equal(t, explain.Decision{State: "attack"}, explain.Full(plain), "a player that draws nothing")

	m := &mapper{thinker{last: explain.Decision{State: "attack"}}}
	d := explain.Full(m)
	require.Equal(t, "attack", d.State)
	require.Equal(t, m.Heatmaps(), d.Heatmaps)
	require.Empty(t, m.Explain().Heatmaps, "Explain alone does not draw")
}
