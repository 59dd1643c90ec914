package elo

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/internal/race"
)

func TestParseSPRT(t *testing.T) {
	tests := []struct {
		text string
		want SPRT
		err  bool
	}{
		{"elo0=0,elo1=5,alpha=0.05,beta=0.05", SPRT{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.05}, false},
		{"elo0=0,elo1=5", SPRT{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.05}, false},
		{"elo0=-1.5, elo1=2.5,alpha=0.1,beta=0.2,model=normalized", SPRT{Elo0: -1.5, Elo1: 2.5, Alpha: 0.1, Beta: 0.2, Model: Normalized}, false},
		{"elo0=0,elo1=5,model=logistic", SPRT{Elo1: 5, Alpha: 0.05, Beta: 0.05}, false},
		{"elo0=5,elo1=0", SPRT{}, true},
		{"elo0=0", SPRT{}, true},
		{"elo0=0,elo1=5,alpha=0", SPRT{}, true},
		{"elo0=0,elo1=5,beta=0.7", SPRT{}, true},
		{"elo0=0,elo1=5,model=bayes", SPRT{}, true},
		{"elo0=0,elo1=x", SPRT{}, true},
		{"elo0=0,elo1=5,elo1=6", SPRT{}, true},
		{"elo0=0,elo1=5,gamma=1", SPRT{}, true},
		{"", SPRT{}, true},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			got, err := ParseSPRT(tt.text)
			if tt.err {
				require.Error(t, err)
				require.True(t, errors.Is(err, ErrSPRT), "%v", err)
				return
			}
			require.NoError(t, err)
			require.Equal(t, tt.want, got)
			back, err := ParseSPRT(got.String())
			require.NoError(t, err)
			require.Equal(t, got, back, "String reads back")
		})
	}
}

func TestSPRTBoundsAndDecisions(t *testing.T) {
	s := SPRT{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.05}
	lower, upper := s.Bounds()
	assert.InDelta(t, -2.944438979166440, lower, 1e-12)
	assert.InDelta(t, 2.944438979166440, upper, 1e-12)
	tests := []struct {
		llr  float64
		want Decision
	}{{0, Continue}, {2.9, Continue}, {2.95, H1}, {-2.95, H0}, {-1, Continue}}
	for _, tt := range tests {
		assert.Equal(t, tt.want, s.Decide(tt.llr), "llr %v", tt.llr)
	}
	assert.InDelta(t, 1.0, s.Progress(upper), 1e-12)
	assert.InDelta(t, -1.0, s.Progress(lower), 1e-12)
	assert.Zero(t, s.LLR(Penta{}), "no pairs")
	assert.Zero(t, s.LLRTrinomial(WDL{}), "no games")
	// Every pair scoring the same has no variance: the prior's half pair
	// keeps the LLR finite, and it decides once the pairs are many.
	for _, tt := range []struct {
		name string
		p    Penta
		want Decision
	}{
		{"one pair won twice", Penta{0, 0, 0, 0, 1}, Continue},
		{"40 pairs won twice", Penta{0, 0, 0, 0, 40}, H1},
		{"one even pair", Penta{0, 0, 1, 0, 0}, Continue},
		{"400 even pairs", Penta{0, 0, 400, 0, 0}, H0},
	} {
		llr := s.LLR(tt.p)
		assert.False(t, math.IsInf(llr, 0) || math.IsNaN(llr), "%s: llr %v", tt.name, llr)
		assert.Equal(t, tt.want, s.Decide(llr), "%s: llr %v", tt.name, llr)
	}
}

// TestSPRTLLRAgainstReference checks the LLR against the normal
// approximation written out: n/(2σ²)·((μ−s0)² − (μ−s1)²), over the
// counts with the prior's half unit (package doc) added.
func TestSPRTLLRAgainstReference(t *testing.T) {
	p := Penta{30, 210, 430, 220, 38}
	prior := []float64{0.125, 0, 0.25, 0, 0.125}
	var n, sum, sq float64
	for k, c := range p {
		x := float64(k) / 4
		w := float64(c) + prior[k]
		n += w
		sum += w * x
		sq += w * x * x
	}
	mu := sum / n
	v := sq/n - mu*mu
	ref := func(s0, s1 float64) float64 { return n / (2 * v) * ((mu-s0)*(mu-s0) - (mu-s1)*(mu-s1)) }
	logistic := SPRT{Elo0: -2, Elo1: 6, Alpha: 0.05, Beta: 0.05}
	assert.InDelta(t, ref(ToScore(-2), ToScore(6)), logistic.LLR(p), 1e-9)
	// Normalized: s = 1/2 + nelo·√2·σ/(800/ln 10) with σ a pair's.
	normalized := logistic
	normalized.Model = Normalized
	c := 800 / math.Ln10
	sd := math.Sqrt2 * math.Sqrt(v)
	assert.InDelta(t, ref(0.5-2*sd/c, 0.5+6*sd/c), normalized.LLR(p), 1e-9)

	w := WDL{Wins: 380, Draws: 300, Losses: 320}
	wins, losses := float64(w.Wins)+0.25, float64(w.Losses)+0.25
	g := wins + float64(w.Draws) + losses
	mu = (wins + float64(w.Draws)/2) / g
	v = (wins*(1-mu)*(1-mu) + float64(w.Draws)*(0.5-mu)*(0.5-mu) + losses*mu*mu) / g
	assert.InDelta(t, g/(2*v)*((mu-ToScore(-2))*(mu-ToScore(-2))-(mu-ToScore(6))*(mu-ToScore(6))), logistic.LLRTrinomial(w), 1e-9)
}

// pairModel is a true strength: each game independently a win with
// probability win and a draw with probability draw.
type pairModel struct{ win, draw float64 }

// modelAt is the model of a draw ratio draw at a true difference of
// elo under the test's model: for nElo, the score whose normalised
// difference (with the game's own standard deviation) is elo.
func modelAt(m Model, elo, draw float64) pairModel {
	s := ToScore(elo)
	if m == Normalized {
		c := 800 / math.Ln10
		// s = 1/2 + elo·σ(s)/C, σ² = (s − d/2)(1−s)² + d(1/2−s)² + (1−s−d/2)s².
		f := func(s float64) float64 {
			sd := math.Sqrt((s-draw/2)*(1-s)*(1-s) + draw*(0.5-s)*(0.5-s) + (1-s-draw/2)*s*s)
			return s - 0.5 - elo*sd/c
		}
		s = bisect(f, 0.5-0.2, 0.5+0.2)
	}
	return pairModel{win: s - draw/2, draw: draw}
}

func (m pairModel) play(rng *rand.Rand) Outcome {
	u := rng.Float64()
	switch {
	case u < m.win:
		return Win
	case u < m.win+m.draw:
		return Draw
	}
	return Loss
}

// run plays pairs until the test decides (or maxPairs) and returns the
// decision and the games played.
func run(s SPRT, m pairModel, rng *rand.Rand, maxPairs int) (Decision, int) {
	var p Penta
	for i := 1; i <= maxPairs; i++ {
		p.Add(m.play(rng), m.play(rng))
		if d := s.Decide(s.LLR(p)); d != Continue {
			return d, 2 * i
		}
	}
	return Continue, 2 * maxPairs
}

// TestSPRTCalibrationFullSize simulates 1000 runs at a true difference
// of elo0 and 1000 at elo1, for each model: H1 is accepted at elo0 at
// most alpha of the time and H0 at elo1 at most beta, within a binomial
// margin (3 standard deviations above). The mean number of games of each
// is logged (go test ./elo -run SPRTCalibration -v) and quoted in
// docs/cli.md.
func TestSPRTCalibrationFullSize(t *testing.T) {
	race.SkipFullSize(t)
	sprtCalibration(t, 1000)
}

// TestSPRTCalibration is TestSPRTCalibrationFullSize on 200 runs each (its
// margin wider), which the race step runs.
func TestSPRTCalibration(t *testing.T) {
	sprtCalibration(t, 200)
}

// sprtCalibration simulates runs SPRT runs at elo0 and at elo1 for each
// model and checks how often each accepts the wrong hypothesis.
func sprtCalibration(t *testing.T, runs float64) {
	const maxPairs, draw = 100000, 0.3
	for _, model := range []Model{Logistic, Normalized} {
		s := SPRT{Elo0: 0, Elo1: 10, Alpha: 0.05, Beta: 0.05, Model: model}
		for _, h := range []struct {
			name  string
			elo   float64
			wrong Decision // the decision that is an error at this truth
			rate  float64  // its nominal rate
		}{{"at elo0", s.Elo0, H1, s.Alpha}, {"at elo1", s.Elo1, H0, s.Beta}} {
			t.Run(model.String()+" "+h.name, func(t *testing.T) {
				rng := rand.New(rand.NewPCG(2027, uint64(model)<<8|uint64(h.wrong)))
				m := modelAt(model, h.elo, draw)
				wrong, undecided, games := 0, 0, 0
				for range int(runs) {
					d, g := run(s, m, rng, maxPairs)
					games += g
					switch d {
					case h.wrong:
						wrong++
					case Continue:
						undecided++
					}
				}
				limit := runs*h.rate + 3*math.Sqrt(runs*h.rate*(1-h.rate))
				t.Logf("%s %s: %d of %d runs: %v (nominal %.0f, limit %.1f), mean %.0f games",
					s, h.name, wrong, int(runs), h.wrong, runs*h.rate, limit, float64(games)/runs)
				require.Zero(t, undecided, "every run decides before %d pairs", maxPairs)
				require.LessOrEqual(t, float64(wrong), limit)
			})
		}
	}
}
