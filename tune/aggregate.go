package tune

import (
	"fmt"
	"math"
	"slices"
	"strings"
)

// DefaultTemperature is the soft-min temperature of `--objective min`, in
// win-rate units: opponents whose win rates lie within about this much of
// the worst one still share the gradient, so that SPSA does not chase the
// noise of whichever opponent happens to be lowest in one batch.
const DefaultTemperature = 0.05

// Aggregate says how the scores against the opponents of a pool make one
// objective value.
//
// The mean (the zero value) is the pooled score of all games: with the
// games shared equally, the average of the per-opponent win rates.
//
// The min is the worst opponent's win rate, made smooth for SPSA by a
// soft-min with temperature T over the per-opponent means m_1..m_n:
//
//	softmin_T(m) = −T · ln( (1/n) Σ exp(−m_i / T) )
//
// It lies between min(m) and mean(m); it tends to min(m) as T → 0 (T = 0
// is the plain minimum) and to mean(m) as T → ∞. Its gradient weights each
// opponent by exp(−m_i/T), so only the opponents within a few T of the
// worst one pull the weights.
type Aggregate struct {
	Min         bool
	Temperature float64 // of the soft-min, in win-rate units; 0 = plain minimum
}

// ParseAggregate reads "mean" or "min" (the latter with temperature t).
func ParseAggregate(name string, t float64) (Aggregate, error) {
	if err := checkTemperature(t); err != nil {
		return Aggregate{}, err
	}
	switch strings.ToLower(name) {
	case "", "mean":
		return Aggregate{}, nil
	case "min":
		return Aggregate{Min: true, Temperature: t}, nil
	}
	return Aggregate{}, fmt.Errorf("%w: objective %q, want mean or min", ErrObjective, name)
}

// checkTemperature refuses a soft-min temperature below 0 or not finite.
func checkTemperature(t float64) error {
	if t < 0 || math.IsNaN(t) || math.IsInf(t, 0) {
		return fmt.Errorf("%w: temperature %g, want 0 or more", ErrObjective, t)
	}
	return nil
}

// String names the aggregate: "mean", "min" (plain) or "min(T=0.05)".
func (a Aggregate) String() string {
	switch {
	case !a.Min:
		return "mean"
	case a.Temperature == 0:
		return "min"
	}
	return fmt.Sprintf("min(T=%g)", a.Temperature)
}

// Score is the objective value of s: its mean, or the (soft) minimum over
// its per-opponent Parts. A sample without parts is one opponent: its mean.
func (a Aggregate) Score(s Sample) float64 {
	if !a.Min || len(s.Parts) == 0 {
		return s.Mean()
	}
	means := make([]float64, len(s.Parts))
	for i, p := range s.Parts {
		means[i] = p.Mean()
	}
	return SoftMin(means, a.Temperature)
}

// SoftMin is −t·ln(mean of exp(−x_i/t)), computed without overflow; t = 0
// gives the minimum. It is 0 for no values.
func SoftMin(xs []float64, t float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	lo := slices.Min(xs)
	if t == 0 {
		return lo
	}
	sum := 0.0
	for _, x := range xs {
		sum += math.Exp(-(x - lo) / t)
	}
	return lo - t*math.Log(sum/float64(len(xs)))
}

// Worst is the index of the part with the lowest mean (-1 without parts).
func (s Sample) Worst() int {
	w := -1
	for i, p := range s.Parts {
		if w < 0 || p.Mean() < s.Parts[w].Mean() {
			w = i
		}
	}
	return w
}
