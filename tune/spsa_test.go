package tune

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// toy is a noisy objective with a known optimum: n Bernoulli trials whose
// success probability is 0.9 minus a quarter of the squared distance (in parameter units
// scaled to the box) to opt. The same seed draws the same uniforms, so two
// evaluations with one seed are a common-random-numbers pair.
type toy struct {
	space Space
	opt   []float64
	n     int
	calls int
}

func (t *toy) p(x []float64) float64 {
	u, o := t.space.Normalize(x), t.space.Normalize(t.opt)
	d := 0.0
	for i := range u {
		d += (u[i] - o[i]) * (u[i] - o[i])
	}
	return math.Max(0, 0.9-0.25*d)
}

func (t *toy) Evaluate(_ context.Context, x []float64, seed uint64) (Sample, error) {
	t.calls++
	rng := rand.New(rand.NewPCG(seed, 7))
	p := t.p(x)
	var s Sample
	for range t.n {
		if rng.Float64() < p {
			s.Sum++
			s.Wins++
		}
		s.N++
	}
	return s, nil
}

func toySpace() Space {
	return Space{
		{Key: "a", Min: 0, Max: 10, Default: 1},
		{Key: "b.c", Min: -1, Max: 1, Default: 0.8},
		{Key: "d", Min: 0, Max: 2, Default: 1.9},
	}
}

func TestSPSAFindsKnownOptimum(t *testing.T) {
	s := toySpace()
	obj := &toy{space: s, opt: []float64{7, -0.5, 0.4}, n: 200}
	o := DefaultSPSA(300, 42)
	o.A = 0.6
	st, err := o.Run(context.Background(), s, obj, NewState(s, s.Defaults(), 42), nil)
	require.NoError(t, err)
	require.Equal(t, 300, st.Iter)
	require.Equal(t, 600, obj.calls)
	require.Equal(t, 300*2*200, st.Games)
	got := s.Denormalize(st.Best())
	start := obj.p(s.Defaults())
	t.Logf("start p=%.3f, found %v p=%.3f", start, got, obj.p(got))
	require.Greater(t, obj.p(got), 0.88, "the optimum is p=0.9 at %v", obj.opt)
	for i, p := range s {
		require.InDelta(t, obj.opt[i], got[i], 0.1*(p.Max-p.Min), p.Key)
	}
}

func TestSPSAReproducibleAndResumable(t *testing.T) {
	s := toySpace()
	o := DefaultSPSA(20, 9)
	full, err := o.Run(context.Background(), s, &toy{space: s, opt: []float64{3, 0, 1}, n: 50}, NewState(s, s.Defaults(), 9), nil)
	require.NoError(t, err)
	again, err := o.Run(context.Background(), s, &toy{space: s, opt: []float64{3, 0, 1}, n: 50}, NewState(s, s.Defaults(), 9), nil)
	require.NoError(t, err)
	require.Equal(t, full, again)

	// Stop after 7 iterations through a checkpoint file, then resume.
	path := filepath.Join(t.TempDir(), "ck.json")
	meta := map[string]string{"player": "toy"}
	stop := errors.New("stop")
	_, err = o.Run(context.Background(), s, &toy{space: s, opt: []float64{3, 0, 1}, n: 50}, NewState(s, s.Defaults(), 9), func(st State) error {
		require.NoError(t, SaveCheckpoint(path, Checkpoint{Meta: meta, State: st}))
		if st.Iter == 7 {
			return stop
		}
		return nil
	})
	require.ErrorIs(t, err, stop)
	ck, err := LoadCheckpoint(path, meta)
	require.NoError(t, err)
	require.Equal(t, 7, ck.State.Iter)
	resumed, err := o.Run(context.Background(), s, &toy{space: s, opt: []float64{3, 0, 1}, n: 50}, ck.State, nil)
	require.NoError(t, err)
	require.Equal(t, full.Theta, resumed.Theta)
	require.Equal(t, full.Avg, resumed.Avg)
	require.Equal(t, full.Games, resumed.Games)

	_, err = LoadCheckpoint(path, map[string]string{"player": "other"})
	require.ErrorIs(t, err, ErrCheckpoint)
	none, err := LoadCheckpoint(filepath.Join(t.TempDir(), "missing.json"), meta)
	require.NoError(t, err)
	require.Nil(t, none)
}

func TestSPSACancel(t *testing.T) {
	s := toySpace()
	ctx, cancel := context.WithCancel(context.Background())
	o := DefaultSPSA(10, 1)
	st, err := o.Run(ctx, s, &toy{space: s, opt: []float64{3, 0, 1}, n: 5}, NewState(s, s.Defaults(), 1), func(st State) error {
		if st.Iter == 3 {
			cancel()
		}
		return nil
	})
	require.ErrorIs(t, err, context.Canceled)
	require.Equal(t, 3, st.Iter)
}

func TestSPSAValidate(t *testing.T) {
	s := toySpace()
	o := DefaultSPSA(0, 1)
	_, err := o.Run(context.Background(), s, &toy{space: s, n: 1}, NewState(s, s.Defaults(), 1), nil)
	require.ErrorContains(t, err, "iterations")
	o = DefaultSPSA(3, 1)
	_, err = o.Run(context.Background(), s[:2], &toy{space: s, n: 1}, NewState(s, s.Defaults(), 1), nil)
	require.ErrorIs(t, err, ErrSpace)
}
