package tune

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// pool is a toy pool of two opponents for one weight x in [0, 1]: the
// tuned player beats A with probability x and B with probability
// (1 − x)/2. The mean of the two is best at x = 1 (where B is never
// beaten); the minimum is best where they cross, x = 1/3; the soft-min at
// temperature T peaks where the exp(−p/T) weights balance the slopes,
// x = (1/2 + T ln 2)/(3/2). Each evaluation plays n Bernoulli trials per
// opponent with uniforms drawn from the seed (common random numbers).
type pool struct{ n int }

func (p pool) rates(x []float64) []float64 { return []float64{x[0], (1 - x[0]) / 2} }

func (p pool) Evaluate(_ context.Context, x []float64, seed uint64) (Sample, error) {
	var s Sample
	for k, rate := range p.rates(x) {
		rng := rand.New(rand.NewPCG(seed, uint64(k)))
		var part Sample
		for range p.n {
			if rng.Float64() < rate {
				part.Sum++
				part.Wins++
			}
			part.N++
		}
		s = s.Add(Sample{Sum: part.Sum, N: part.N, Wins: part.Wins, Parts: make([]Sample, 2)})
		s.Parts[k] = part
	}
	return s, nil
}

func TestObjectiveMinAndMeanFindDifferentOptima(t *testing.T) {
	space := Space{{Key: "x", Min: 0, Max: 1, Default: 0.6}}
	softOpt := (0.5 + DefaultTemperature*math.Ln2) / 1.5
	tests := []struct {
		name string
		agg  Aggregate
		want float64
		tol  float64
	}{
		{name: "mean beats A always and gives up B", agg: Aggregate{}, want: 1, tol: 0.05},
		{name: "soft-min balances A and B", agg: Aggregate{Min: true, Temperature: DefaultTemperature}, want: softOpt, tol: 0.05},
		{name: "plain min balances A and B", agg: Aggregate{Min: true}, want: 1.0 / 3, tol: 0.05},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := DefaultSPSA(300, 11)
			o.Score = tt.agg.Score
			st, err := o.Run(context.Background(), space, pool{n: 200}, NewState(space, space.Defaults(), 11), nil)
			require.NoError(t, err)
			got := space.Denormalize(st.Best())[0]
			t.Logf("%s: x = %.3f (want %.3f), rates %v", tt.agg, got, tt.want, pool{}.rates([]float64{got}))
			require.InDelta(t, tt.want, got, tt.tol)
		})
	}
}

func TestSoftMin(t *testing.T) {
	tests := []struct {
		name string
		xs   []float64
		t    float64
		want float64
		tol  float64
	}{
		{name: "zero temperature is the minimum", xs: []float64{0.7, 0.2, 0.9}, t: 0, want: 0.2},
		{name: "equal values", xs: []float64{0.4, 0.4}, t: 0.05, want: 0.4, tol: 1e-12},
		{name: "hot is the mean", xs: []float64{0.2, 0.6}, t: 1e6, want: 0.4, tol: 1e-6},
		{name: "cold is the minimum", xs: []float64{0.2, 0.6}, t: 1e-3, want: 0.2, tol: 1e-3},
		{name: "two values at T", xs: []float64{0, 1}, t: 0.5, want: -0.5 * math.Log((1+math.Exp(-2))/2), tol: 1e-12},
		{name: "tiny temperature does not overflow", xs: []float64{0, 1}, t: 1e-300, want: 0, tol: 1e-12},
		{name: "nothing", xs: nil, t: 0.05, want: 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := SoftMin(tt.xs, tt.t)
			require.InDelta(t, tt.want, got, tt.tol)
			if len(tt.xs) > 0 {
				lo, mean := tt.xs[0], 0.0
				for _, x := range tt.xs {
					lo = math.Min(lo, x)
					mean += x / float64(len(tt.xs))
				}
				require.GreaterOrEqual(t, got, lo-1e-12)
				require.LessOrEqual(t, got, mean+1e-12)
			}
		})
	}
}

func TestAggregateScoreAndParse(t *testing.T) {
	s := Sample{Sum: 9, N: 20, Wins: 9, Parts: []Sample{{Sum: 8, N: 10, Wins: 8}, {Sum: 1, N: 10, Wins: 1}}}
	tests := []struct {
		name, objective string
		temp            float64
		score           float64
		str             string
	}{
		{name: "mean", objective: "mean", temp: 0.05, score: 0.45, str: "mean"},
		{name: "default is the mean", objective: "", score: 0.45, str: "mean"},
		{name: "plain min", objective: "min", temp: 0, score: 0.1, str: "min"},
		{name: "soft min", objective: "MIN", temp: 0.05, score: SoftMin([]float64{0.8, 0.1}, 0.05), str: "min(T=0.05)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, err := ParseAggregate(tt.objective, tt.temp)
			require.NoError(t, err)
			require.Equal(t, tt.str, a.String())
			require.InDelta(t, tt.score, a.Score(s), 1e-12)
		})
	}
	min, err := ParseAggregate("min", 0)
	require.NoError(t, err)
	require.InDelta(t, 0.3, min.Score(Sample{Sum: 3, N: 10}), 1e-12, "one opponent: its mean")
	require.Equal(t, 1, s.Worst())
	require.Equal(t, -1, Sample{}.Worst())

	for _, bad := range []struct {
		objective string
		temp      float64
	}{{"max", 0.05}, {"min", -1}, {"min", math.NaN()}, {"mean", math.Inf(1)}} {
		_, err := ParseAggregate(bad.objective, bad.temp)
		require.ErrorIs(t, err, ErrObjective, "%v", bad)
	}
}

func TestSampleAddPoolsParts(t *testing.T) {
	a := Sample{Sum: 3, N: 4, Wins: 3, Parts: []Sample{{Sum: 1, N: 2, Wins: 1}, {Sum: 2, N: 2, Wins: 2}}}
	b := Sample{Sum: 1.5, N: 4, Wins: 1, Draws: 1, Parts: []Sample{{Sum: 0.5, N: 2, Draws: 1}, {Sum: 1, N: 2, Wins: 1}}}
	got := a.Add(b)
	require.Equal(t, Sample{Sum: 4.5, N: 8, Wins: 4, Draws: 1, Parts: []Sample{{Sum: 1.5, N: 4, Wins: 1, Draws: 1}, {Sum: 3, N: 4, Wins: 3}}}, got)
	require.Equal(t, a, Sample{}.Add(a))
	require.Nil(t, Sample{N: 1}.Add(Sample{N: 2}).Parts)
}
