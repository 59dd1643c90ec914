package bsplayers

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	bsbelief "github.com/kaisen-ai/kaisen/belief/battleship"
	"github.com/kaisen-ai/kaisen/explain"
	"github.com/kaisen-ai/kaisen/game/battleship"
	"github.com/kaisen-ai/kaisen/game/grid"
)

// TestDensityHeatmaps checks the map behind each shot: on an empty 5x5
// board with one 3-ship it is the exact share of the 30 positions through
// each cell (the centre 6/30), with the shot on its largest cell; after a
// hit, the hit cell is 1 and the missed cells 0; with no budget the
// sampled shares are drawn instead. (Greedy: the lookahead of density
// fires elsewhere, on the same map.)
func TestDensityHeatmaps(t *testing.T) {
	r, err := battleship.NewRules(grid.MustBoard(5, 5, nil), []int{3})
	require.NoError(t, err)
	u, err := bsbelief.NewUniformPlacer(r)
	require.NoError(t, err)
	d := NewDensity(r, DefaultGreedyConfig(), u, rand.New(rand.NewPCG(3, 3)))
	require.Empty(t, d.Heatmaps(), "no shot yet")

	at := d.Shoot()
	hs := d.Heatmaps()
	require.Len(t, hs, 1)
	h := hs[0]
	require.Equal(t, explain.Heatmap{Name: MethodExact, Side: explain.SideEnemy, W: 5, H: 5, Cells: h.Cells}, h)
	require.Equal(t, 0.2, h.Cells[12], "the centre: 6 of 30 positions")
	require.Equal(t, 0.0667, h.Cells[0], "a corner: 2 of 30")
	sum := 0.0
	for c, v := range h.Cells {
		sum += v
		require.LessOrEqual(t, v, h.Cells[at], "cell %d", c)
	}
	require.InDelta(t, 3, sum, 1e-3, "the expected number of ship cells")

	d.Observe(battleship.Event{Mine: true, Result: battleship.Result{At: 12, Outcome: battleship.Hit}})
	d.Shoot()
	h = d.Heatmaps()[0]
	require.Equal(t, 1.0, h.Cells[12], "an unsunk hit")
	require.Zero(t, h.Cells[0], "a corner cannot hold the ship through the centre")

	cfg := DefaultDensityConfig()
	cfg.Budget = 0
	s := NewDensity(r, cfg, u, rand.New(rand.NewPCG(3, 3)))
	s.Shoot()
	h = s.Heatmaps()[0]
	require.Equal(t, MethodSampled, h.Name)
	require.InDelta(t, 0.2, h.Cells[12], 0.05)
}
