package tune

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
)

// Objective is what the optimiser maximises: a noisy score of a parameter
// vector (in parameter units). Evaluations with the same seed must use the
// same random numbers (for games: the same game seeds, seats and opponents),
// which is what makes SPSA's two-sided difference a common-random-numbers
// comparison.
type Objective interface {
	Evaluate(ctx context.Context, x []float64, seed uint64) (Sample, error)
}

// ObjectiveFunc adapts a function to Objective.
type ObjectiveFunc func(ctx context.Context, x []float64, seed uint64) (Sample, error)

// Evaluate implements Objective.
func (f ObjectiveFunc) Evaluate(ctx context.Context, x []float64, seed uint64) (Sample, error) {
	return f(ctx, x, seed)
}

// Sample is the result of one evaluation: N observations (games) whose
// scores, each in [0, 1], add up to Sum. Wins and Draws are for display.
// Parts, when the evaluation plays a pool of opponents, holds the share of
// each opponent in pool order (the parts add up to the whole).
type Sample struct {
	Sum   float64  `json:"sum"`
	N     int      `json:"n"`
	Wins  int      `json:"wins"`
	Draws int      `json:"draws"`
	Parts []Sample `json:"parts,omitempty"`
}

// Mean is Sum/N (0 when N is 0).
func (s Sample) Mean() float64 {
	if s.N == 0 {
		return 0
	}
	return s.Sum / float64(s.N)
}

// Add pools two samples, part by part.
func (s Sample) Add(t Sample) Sample {
	out := Sample{Sum: s.Sum + t.Sum, N: s.N + t.N, Wins: s.Wins + t.Wins, Draws: s.Draws + t.Draws}
	if n := max(len(s.Parts), len(t.Parts)); n > 0 {
		out.Parts = make([]Sample, n)
		for i := range out.Parts {
			if i < len(s.Parts) {
				out.Parts[i] = out.Parts[i].Add(s.Parts[i])
			}
			if i < len(t.Parts) {
				out.Parts[i] = out.Parts[i].Add(t.Parts[i])
			}
		}
	}
	return out
}

// SPSA holds the settings of the optimiser. Gains follow Spall's practical
// recommendations: a_k = A/(k+1+Stability)^Alpha (step) and
// c_k = C/(k+1)^Gamma (perturbation), in the normalised [0, 1] box.
type SPSA struct {
	Iterations int     // number of iterations (2 evaluations each)
	A          float64 // step gain a
	C          float64 // perturbation size c (fraction of each range)
	Alpha      float64 // step decay exponent (0.602)
	Gamma      float64 // perturbation decay exponent (0.101)
	Stability  float64 // stability constant (about 10% of Iterations)
	MaxStep    float64 // largest change of one coordinate per iteration
	Seed       uint64
	// Score turns an evaluation into the value maximised (nil: its mean;
	// Aggregate.Score for the worst opponent of a pool).
	Score func(Sample) float64
}

// DefaultSPSA returns the recommended settings for n iterations.
func DefaultSPSA(n int, seed uint64) SPSA {
	return SPSA{Iterations: n, A: 0.5, C: 0.1, Alpha: 0.602, Gamma: 0.101,
		Stability: math.Max(1, 0.1*float64(n)), MaxStep: 0.1, Seed: seed}
}

// Validate checks the settings.
func (o *SPSA) Validate() error {
	var errs []error
	if o.Iterations < 1 {
		errs = append(errs, fmt.Errorf("tune: spsa: %d iterations, want at least 1", o.Iterations))
	}
	if !(o.A > 0) || !(o.C > 0) || o.C > 0.5 {
		errs = append(errs, fmt.Errorf("tune: spsa: gains a=%g c=%g, want a > 0 and 0 < c <= 0.5", o.A, o.C))
	}
	if !(o.MaxStep > 0) {
		errs = append(errs, fmt.Errorf("tune: spsa: max step %g must be positive", o.MaxStep))
	}
	if o.Alpha < 0 || o.Gamma < 0 || o.Stability < 0 {
		errs = append(errs, fmt.Errorf("tune: spsa: negative exponent or stability"))
	}
	return errors.Join(errs...)
}

// Record is one finished iteration.
type Record struct {
	Iter  int       `json:"iter"`
	Plus  Sample    `json:"plus"`
	Minus Sample    `json:"minus"`
	Theta []float64 `json:"theta"` // normalised iterate after the step
}

// State is the whole progress of a run, written as the checkpoint: a run
// started from a State continues exactly where it stopped.
type State struct {
	Seed    uint64    `json:"seed"`
	Keys    []string  `json:"keys"`
	Iter    int       `json:"iter"`    // iterations done
	Theta   []float64 `json:"theta"`   // current normalised iterate
	Avg     []float64 `json:"avg"`     // running mean of the iterates of the second half
	AvgN    int       `json:"avg_n"`   // how many iterates Avg holds
	Games   int       `json:"games"`   // observations spent so far
	History []Record  `json:"history"` // every iteration
}

// NewState starts a run at x0 (parameter units) in space s.
func NewState(s Space, x0 []float64, seed uint64) State {
	return State{Seed: seed, Keys: s.Keys(), Theta: s.Normalize(x0)}
}

// Best is the run's current estimate of the optimum, normalised: the
// average of the iterates of the second half of the run (Polyak-Ruppert
// averaging, which damps the noise of the last steps), or the current
// iterate before any of them is averaged.
func (st *State) Best() []float64 {
	if st.AvgN == 0 {
		return slices.Clone(st.Theta)
	}
	return slices.Clone(st.Avg)
}

// Recent pools the evaluations of the last n iterations (both sides): an
// estimate of the score around the current iterate.
func (st *State) Recent(n int) Sample {
	var s Sample
	for _, r := range st.History[max(0, len(st.History)-n):] {
		s = s.Add(r.Plus).Add(r.Minus)
	}
	return s
}

// derive mixes a seed with a stream number (splitmix64).
func derive(seed, stream uint64) uint64 {
	z := seed + 0x9e3779b97f4a7c15*(stream+1)
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// IterSeed is the evaluation seed of iteration k of a run with seed.
func IterSeed(seed uint64, k int) uint64 { return derive(seed, uint64(2*k+1)) }

// Run continues st until o.Iterations iterations are done, calling after
// (when not nil) after every iteration with the new state (to checkpoint and
// display progress). A cancelled context stops the run between evaluations
// and returns the state of the last finished iteration with ctx's error.
func (o *SPSA) Run(ctx context.Context, s Space, obj Objective, st State, after func(State) error) (State, error) {
	if err := o.Validate(); err != nil {
		return st, err
	}
	if err := s.Validate(); err != nil {
		return st, err
	}
	if len(st.Theta) != len(s) || !slices.Equal(st.Keys, s.Keys()) {
		return st, fmt.Errorf("%w: state has keys %v, space has %v", ErrSpace, st.Keys, s.Keys())
	}
	d := len(s)
	half := o.Iterations / 2
	for st.Iter < o.Iterations {
		if err := ctx.Err(); err != nil {
			return st, err
		}
		k := st.Iter
		ak := o.A / math.Pow(float64(k)+1+o.Stability, o.Alpha)
		ck := o.C / math.Pow(float64(k)+1, o.Gamma)
		rng := rand.New(rand.NewPCG(o.Seed, derive(o.Seed, uint64(2*k))))
		delta := make([]float64, d)
		plus := make([]float64, d)
		minus := make([]float64, d)
		for i := range d {
			delta[i] = float64(2*rng.IntN(2) - 1)
			// Keep both points inside the box: shift the centre inwards
			// rather than clipping one side (clipping would bias the
			// difference).
			centre := math.Min(math.Max(st.Theta[i], ck), 1-ck)
			plus[i] = centre + ck*delta[i]
			minus[i] = centre - ck*delta[i]
		}
		seed := IterSeed(o.Seed, k)
		yp, err := obj.Evaluate(ctx, s.Denormalize(plus), seed)
		if err != nil {
			return st, err
		}
		ym, err := obj.Evaluate(ctx, s.Denormalize(minus), seed)
		if err != nil {
			return st, err
		}
		score := o.Score
		if score == nil {
			score = Sample.Mean
		}
		diff := score(yp) - score(ym)
		theta := slices.Clone(st.Theta)
		for i := range d {
			g := diff / (2 * ck * delta[i])
			step := math.Max(-o.MaxStep, math.Min(o.MaxStep, ak*g))
			theta[i] = clamp01(theta[i] + step)
		}
		st.Theta = theta
		st.Iter++
		st.Games += yp.N + ym.N
		st.History = append(st.History, Record{Iter: k, Plus: yp, Minus: ym, Theta: slices.Clone(theta)})
		if st.Iter > half {
			if st.AvgN == 0 {
				st.Avg = make([]float64, d)
			}
			st.AvgN++
			for i := range d {
				st.Avg[i] += (theta[i] - st.Avg[i]) / float64(st.AvgN)
			}
		}
		if after != nil {
			if err := after(st); err != nil {
				return st, err
			}
		}
	}
	return st, nil
}
