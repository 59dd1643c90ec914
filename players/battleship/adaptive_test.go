package bsplayers

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	bsbelief "github.com/kaisen-ai/kaisen/belief/battleship"
	"github.com/kaisen-ai/kaisen/game/battleship"
)

// TestPlacementModelSeesTheEdges: the uniform estimate puts the fleet's 20
// cells in the rings, layouts of the uniform placer leave every ring near
// 1, those of the edge-loving human placer raise the border ring above it.
func TestPlacementModelSeesTheEdges(t *testing.T) {
	r := battleship.DefaultRules()
	m, err := NewPlacementModel(r, rand.New(rand.NewPCG(1, 1)), 4000)
	require.NoError(t, err)
	total := 0.0
	for _, e := range m.expected {
		total += e
	}
	require.InDelta(t, 20, total, 1e-6, "a layout has 20 ship cells")
	require.Greater(t, m.expected[0], m.expected[4], "the border ring is the largest")
	require.Nil(t, m.Weights(3, 1), "nothing learnt: the uniform prior")

	u := mustPlacer(t, r)
	h, err := bsbelief.NewHumanPlacer(r)
	require.NoError(t, err)
	rng := rand.New(rand.NewPCG(2, 2))
	uni, hum := m.Fresh(), m.Fresh()
	for range 300 {
		l, err := u.Place(rng)
		require.NoError(t, err)
		uni.Learn(l)
		l, err = h.Place(rng)
		require.NoError(t, err)
		hum.Learn(l)
	}
	require.Equal(t, 300, uni.Games())
	require.Zero(t, m.Games(), "Fresh copies learn on their own")
	for ring, x := range uni.Ratios(3) {
		require.InDelta(t, 1, x, 0.1, "uniform, ring %d", ring)
	}
	hr := hum.Ratios(3)
	require.Greater(t, hr[0], 1.15, "human: the border ring")
	require.Less(t, hr[1], 0.95, "human: the ring inside it")
	w := hum.Weights(3, 2)
	require.InDelta(t, hr[0]*hr[0], w[0], 1e-12, "corner cell: border ring, squared")
	require.InDelta(t, hr[4]*hr[4], w[44], 1e-12, "centre cell")
}

// TestSeriesLearnsEveryLayout: an adaptive bot sinks every fleet of a
// series and its model grows by one layout a game; its first game is
// density's.
func TestSeriesLearnsEveryLayout(t *testing.T) {
	r := smallRules(t)
	f, err := New("adaptive", r, nil)
	require.NoError(t, err)
	a := f(rand.New(rand.NewPCG(1, 1))).(*Adaptive)
	u := mustPlacer(t, r)
	rng := rand.New(rand.NewPCG(7, 7))
	var layouts []battleship.Placement
	for range 4 {
		l, err := u.Place(rng)
		require.NoError(t, err)
		layouts = append(layouts, l)
	}
	seed := func(i int) *rand.Rand { return rand.New(rand.NewPCG(9, uint64(i))) }
	shots, err := Series(context.Background(), r, a, layouts, seed)
	require.NoError(t, err)
	require.Len(t, shots, 4)
	require.Equal(t, 4, a.Model().Games())
	d := NewDensity(r, DefaultDensityConfig(), u, seed(0))
	first, err := Solo(context.Background(), r, d, layouts[0])
	require.NoError(t, err)
	require.Equal(t, first, shots[0])
	require.NotNil(t, a.prior, "after a game the prior is learnt")
}
