package elo

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// bisect finds the root of a monotone f on [lo, hi] (f(lo), f(hi) of
// opposite signs) by 200 halvings, to the precision of a float64.
func bisect(f func(float64) float64, lo, hi float64) float64 {
	flo := f(lo)
	for range 200 {
		mid := (lo + hi) / 2
		if fm := f(mid); (fm < 0) == (flo < 0) {
			lo, flo = mid, fm
		} else {
			hi = mid
		}
	}
	return (lo + hi) / 2
}

// refScoreInterval is the reference 95% interval of a score: the
// proportions p the score test does not reject, (μ − p)² <= z²·p(1−p)/m
// with m the effective number of games, found by numeric inversion
// (bisection on each side of μ), independently of Wilson's closed form.
func refScoreInterval(mu, m float64) (lo, hi float64) {
	f := func(p float64) float64 { return (mu-p)*(mu-p) - Z95*Z95*p*(1-p)/m }
	// f < 0 strictly inside (0, 1) at μ: start each side just inside.
	in := min(max(mu, 1e-12), 1-1e-12)
	lo, hi = 0, 1
	if mu > 0 {
		lo = bisect(f, 0, in)
	}
	if mu < 1 {
		hi = bisect(f, in, 1)
	}
	return lo, hi
}

// refElo is the reference logistic Elo of a score, by numeric inversion of
// the expected score 1/(1 + 10^(−d/400)).
func refElo(s float64) float64 {
	switch s {
	case 0:
		return math.Inf(-1)
	case 1:
		return math.Inf(1)
	}
	return bisect(func(d float64) float64 { return 1/(1+math.Pow(10, -d/400)) - s }, -4000, 4000)
}

func TestTrinomialAgainstReference(t *testing.T) {
	tests := []struct {
		name string
		c    WDL
		m    float64 // effective games of the reference: n·μ(1−μ)/var
	}{
		{"55% without draws", WDL{550, 0, 450}, 1000},
		{"even without draws", WDL{500, 0, 500}, 1000},
		{"small sample", WDL{7, 0, 3}, 10},
		{"90% without draws", WDL{90, 0, 10}, 100},
		{"one loss in 100", WDL{99, 0, 1}, 100},
		{"perfect score", WDL{80, 0, 0}, 80},
		{"no point", WDL{0, 0, 80}, 80},
		{"one game won", WDL{1, 0, 0}, 1},
		// 40% wins, 30% draws: μ = 0.55, var = 0.4 + 0.075 − 0.3025 = 0.1725.
		{"with draws", WDL{400, 300, 300}, 1000 * 0.55 * 0.45 / 0.1725},
		// Every game drawn: no variance observed, counted as 100 games.
		{"all draws", WDL{0, 100, 0}, 100},
		// Wins and draws only: μ = 0.9, var = 0.8·0.01 + 0.2·0.16 = 0.04.
		{"unbeaten with draws", WDL{80, 20, 0}, 100 * 0.9 * 0.1 / 0.04},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Trinomial(tt.c)
			mu := (float64(tt.c.Wins) + float64(tt.c.Draws)/2) / float64(tt.c.Games())
			lo, hi := refScoreInterval(mu, tt.m)
			assert.InDelta(t, mu, got.Score, 1e-12)
			assert.InDelta(t, lo, got.ScoreLo, 1e-9)
			assert.InDelta(t, hi, got.ScoreHi, 1e-9)
			for _, p := range []struct{ got, score float64 }{{got.Elo, mu}, {got.Lo, lo}, {got.Hi, hi}} {
				want := refElo(p.score)
				if math.IsInf(want, 0) {
					assert.Equal(t, want, p.got, "score %v", p.score)
				} else {
					assert.InDelta(t, want, p.got, 1e-6, "score %v", p.score)
				}
			}
			assert.LessOrEqual(t, got.Lo, got.Elo)
			assert.LessOrEqual(t, got.Elo, got.Hi)
		})
	}
}

func TestPerfectScoresAreOneSided(t *testing.T) {
	tests := []struct {
		name         string
		est          Estimate
		upInf, loInf bool
	}{
		{"80-0-0", Trinomial(WDL{80, 0, 0}), true, false},
		{"0-0-80", Trinomial(WDL{0, 0, 80}), false, true},
		{"40 pairs won twice", Pentanomial(Penta{0, 0, 0, 0, 40}), true, false},
		{"40 pairs lost twice", Pentanomial(Penta{40, 0, 0, 0, 0}), false, true},
		{"nothing played", Trinomial(WDL{}), true, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := tt.est
			require.Equal(t, tt.upInf, math.IsInf(e.Hi, 1), "hi %v", e.Hi)
			require.Equal(t, tt.loInf, math.IsInf(e.Lo, -1), "lo %v", e.Lo)
			if !tt.loInf {
				require.False(t, math.IsInf(e.Lo, 0), "a finite lower bound")
			}
			if !tt.upInf {
				require.False(t, math.IsInf(e.Hi, 0), "a finite upper bound")
			}
			require.True(t, math.IsInf(e.HalfWidth(), 1))
		})
	}
	// 80 wins of 80: the score is at least 80/(80+z²), about +527 Elo.
	e := Trinomial(WDL{80, 0, 0})
	require.InDelta(t, 80/(80+Z95*Z95), e.ScoreLo, 1e-12)
	require.InDelta(t, 527.4, e.Lo, 0.1)
	require.InDelta(t, 1.0, e.LOS, 1e-15)
}

// TestPentanomialAgainstReference checks the pairs' interval against the
// score test inverted numerically with the variance of the pairs.
func TestPentanomialAgainstReference(t *testing.T) {
	tests := []struct {
		name string
		p    Penta
	}{
		{"balanced", Penta{10, 40, 100, 40, 10}},
		{"stronger", Penta{5, 20, 90, 60, 25}},
		{"no mixed pairs", Penta{30, 0, 0, 0, 70}},
		{"one pair lost", Penta{1, 0, 0, 0, 99}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var n, sum, sq float64
			for k, c := range tt.p {
				x := float64(k) / 4
				n += float64(c)
				sum += float64(c) * x
				sq += float64(c) * x * x
			}
			mu := sum / n
			v := sq/n - mu*mu
			lo, hi := refScoreInterval(mu, n*mu*(1-mu)/v)
			got := Pentanomial(tt.p)
			assert.InDelta(t, lo, got.ScoreLo, 1e-9)
			assert.InDelta(t, hi, got.ScoreHi, 1e-9)
			assert.InDelta(t, refElo(lo), got.Lo, 1e-6)
			assert.InDelta(t, refElo(hi), got.Hi, 1e-6)
			assert.Equal(t, 2*tt.p.Pairs(), got.Games)
		})
	}
}

// TestIntervalCoverage draws matches from known win rates and checks that
// the 95% interval holds the true Elo in about 95% of them.
func TestIntervalCoverage(t *testing.T) {
	tests := []struct {
		name      string
		win, draw float64
		games     int
		paired    bool
	}{
		{"55% with 30% draws", 0.40, 0.30, 400, false},
		{"even, no draws", 0.5, 0, 200, false},
		{"90% no draws", 0.9, 0, 200, false},
		{"97% small sample", 0.97, 0, 60, false},
		{"pairs 60%", 0.45, 0.30, 400, true},
	}
	const runs = 2000
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(27, uint64(len(tt.name))))
			truth := FromScore(tt.win + tt.draw/2)
			m := pairModel{win: tt.win, draw: tt.draw}
			play := func() Outcome { return m.play(rng) }
			covered := 0
			for range runs {
				var e Estimate
				if tt.paired {
					var p Penta
					for range tt.games / 2 {
						p.Add(play(), play())
					}
					e = Pentanomial(p)
				} else {
					var c WDL
					for range tt.games {
						c.Add(play())
					}
					e = Trinomial(c)
				}
				if e.Lo <= truth && truth <= e.Hi {
					covered++
				}
			}
			// 95% of 2000 runs is 1900 ± 9.7 (one standard deviation).
			assert.InDelta(t, 0.95, float64(covered)/runs, 0.025, "coverage %d of %d", covered, runs)
		})
	}
}

func TestLOSAndDrawRatio(t *testing.T) {
	tests := []struct {
		name      string
		c         WDL
		los, draw float64
	}{
		{"even", WDL{10, 5, 10}, 0.5, 0.2},
		{"all draws", WDL{0, 10, 0}, 0.5, 1},
		// Φ(20/√20) = Φ(4.472).
		{"perfect", WDL{20, 0, 0}, 0.9999961278917845, 0},
		// Φ(10/√100) = Φ(1).
		{"55 to 45", WDL{55, 20, 45}, 0.841344746068543, 20.0 / 120},
		{"nothing", WDL{}, 0.5, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.InDelta(t, tt.los, Trinomial(tt.c).LOS, 1e-9)
			assert.InDelta(t, tt.draw, tt.c.DrawRatio(), 1e-12)
		})
	}
}

func TestScoreConversions(t *testing.T) {
	for _, d := range []float64{-800, -100, 0, 10.4, 400} {
		assert.InDelta(t, d, FromScore(ToScore(d)), 1e-9)
	}
	assert.InDelta(t, 0.5, ToScore(0), 0)
	assert.InDelta(t, 10/11.0, ToScore(400), 1e-12)
	assert.True(t, math.IsNaN(FromScore(1.5)))
}
