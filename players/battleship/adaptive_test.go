package bsplayers

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	bsbelief "github.com/kaisen-ai/kaisen/belief/battleship"
	"github.com/kaisen-ai/kaisen/game/battleship"
)

// TestPlacementModelSeesTheEdges: the uniform estimate puts each length's
// cells in the rings, layouts of the uniform placer leave every ratio near
// 1, those of the human-like placer (big ships on the border, single cells
// inside) raise the border ring of the big ships and lower that of the
// single cells.
func TestPlacementModelSeesTheEdges(t *testing.T) {
	r := battleship.DefaultRules()
	u := mustPlacer(t, r)
	m, err := NewPlacementModel(r, u, rand.New(rand.NewPCG(1, 1)), 1000)
	require.NoError(t, err)
	for l, want := range map[int]float64{4: 4, 3: 6, 2: 6, 1: 4} {
		total := 0.0
		for _, e := range m.expected[l] {
			total += e
		}
		require.InDelta(t, want, total, 1e-9, "cells of %d-ships per layout", l)
	}
	require.Nil(t, m.Weights(r.Fleet, 3, 1), "nothing learnt: the uniform prior")

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
	for _, l := range []int{4, 3, 2, 1} {
		for ring, x := range uni.Ratios(l, 3)[:2] { // the inner rings are small: noisy
			require.InDelta(t, 1, x, 0.25, "uniform, %d-ships, ring %d", l, ring)
		}
	}
	require.Greater(t, hum.Ratios(3, 3)[0], 1.3, "human: 3-ships on the border")
	require.Less(t, hum.Ratios(1, 3)[0], 0.8, "human: single cells off the border")
	w := hum.Weights([]int{1}, 3, 2)
	single := hum.Ratios(1, 3)
	require.InDelta(t, single[0]*single[0], w[0], 1e-12, "corner cell: border ring, squared")
	require.InDelta(t, single[4]*single[4], w[44], 1e-12, "centre cell")
	require.Equal(t, []float64{1}, hum.Ratios(5, 3), "no 5-ships in the fleet")
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
