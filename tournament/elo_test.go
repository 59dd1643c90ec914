package tournament

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// simulate plays games between every pair under a Bradley-Terry model with
// draws: P(A wins) = pa·(1-draw), P(draw) = draw.
func simulate(elo []float64, games int, draw float64, seed uint64) []Score {
	rng := rand.New(rand.NewPCG(seed, 1))
	var out []Score
	for i := range elo {
		for j := i + 1; j < len(elo); j++ {
			pa := 1 / (1 + math.Pow(10, (elo[j]-elo[i])/400))
			s := Score{A: i, B: j}
			for range games {
				switch u := rng.Float64(); {
				case u < draw:
					s.Draws++
				case u < draw+(1-draw)*pa:
					s.Wins++
				default:
					s.Losses++
				}
			}
			out = append(out, s)
		}
	}
	return out
}

func TestFitEloRecoversKnownRatings(t *testing.T) {
	want := []float64{300, 100, -100, -300}
	scores := simulate(want, 2000, 0, 3)
	got, err := FitElo(len(want), scores)
	require.NoError(t, err)
	for i := range want {
		require.InDelta(t, want[i], got[i], 30, "player %d", i)
	}
	ci, err := Bootstrap(len(want), scores, 100, 5)
	require.NoError(t, err)
	for i := range want {
		require.Less(t, ci[i].Lo, got[i])
		require.Greater(t, ci[i].Hi, got[i])
		require.Less(t, ci[i].Hi-ci[i].Lo, 80.0, "2000 games per pair give a tight interval")
	}
	again, err := Bootstrap(len(want), scores, 100, 5)
	require.NoError(t, err)
	require.Equal(t, ci, again, "bootstrap is reproducible by seed")
}

func TestFitEloCases(t *testing.T) {
	tests := []struct {
		name   string
		n      int
		scores []Score
		check  func(t *testing.T, elo []float64)
		err    bool
	}{
		{name: "equal", n: 2, scores: []Score{{A: 0, B: 1, Wins: 10, Draws: 5, Losses: 10}}, check: func(t *testing.T, elo []float64) {
			require.InDelta(t, 0, elo[0], 1e-9)
			require.InDelta(t, 0, elo[1], 1e-9)
		}},
		{name: "draws are half wins", n: 2, scores: []Score{{A: 0, B: 1, Wins: 0, Draws: 100, Losses: 0}}, check: func(t *testing.T, elo []float64) {
			require.InDelta(t, elo[0], elo[1], 1e-9)
		}},
		{name: "perfect score stays finite", n: 2, scores: []Score{{A: 0, B: 1, Wins: 100}}, check: func(t *testing.T, elo []float64) {
			// 100.5 points to 0.5 with the prior: 400·log10(201) split in two.
			require.InDelta(t, 400*math.Log10(201)/2, elo[0], 1e-6)
			require.InDelta(t, -elo[0], elo[1], 1e-9)
		}},
		{name: "75 percent is about 191 Elo", n: 2, scores: []Score{{A: 0, B: 1, Wins: 7500, Losses: 2500}}, check: func(t *testing.T, elo []float64) {
			require.InDelta(t, 190.8, elo[0]-elo[1], 0.5)
		}},
		{name: "bad pair", n: 2, scores: []Score{{A: 0, B: 0, Wins: 1}}, err: true},
		{name: "no players", n: 0, err: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := FitElo(tt.n, tt.scores)
			if tt.err {
				require.ErrorIs(t, err, ErrFit)
				return
			}
			require.NoError(t, err)
			tt.check(t, got)
		})
	}
}
