package elo

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// ErrSPRT is wrapped by the errors of an invalid SPRT.
var ErrSPRT = errors.New("elo: invalid sprt")

// Model is the Elo model of an SPRT's hypotheses.
type Model int

// The models of fastchess's model=logistic|normalized.
const (
	// Logistic Elo: a difference of elo means an expected score of
	// ToScore(elo), whatever the draw ratio.
	Logistic Model = iota
	// Normalized Elo (nElo): a difference measured in standard deviations
	// of the score, 1/2 + nelo·σ/C with C = 800/ln 10, so that a test
	// needs about the same number of games whatever the draw ratio.
	Normalized
)

// String is the model's name in --sprt's model=.
func (m Model) String() string {
	if m == Normalized {
		return "normalized"
	}
	return "logistic"
}

// Decision is the state of an SPRT.
type Decision int

// The decisions of an SPRT.
const (
	Continue Decision = iota // neither bound crossed: play on
	H0                       // the lower bound is crossed: H0 (elo0) accepted
	H1                       // the upper bound is crossed: H1 (elo1) accepted
)

// String is the decision as fastchess words it.
func (d Decision) String() string {
	switch d {
	case H0:
		return "H0 was accepted"
	case H1:
		return "H1 was accepted"
	}
	return "continue"
}

// SPRT is a sequential probability ratio test of H0: the Elo difference
// is Elo0 against H1: it is Elo1 (Elo0 < Elo1), with false-positive rate
// Alpha (accepting H1 when H0 holds) and false-negative rate Beta.
type SPRT struct {
	Elo0, Elo1  float64
	Alpha, Beta float64
	Model       Model
}

// Validate checks the test's settings.
func (s SPRT) Validate() error {
	var errs []error
	if math.IsNaN(s.Elo0) || math.IsNaN(s.Elo1) || math.IsInf(s.Elo0, 0) || math.IsInf(s.Elo1, 0) || !(s.Elo0 < s.Elo1) {
		errs = append(errs, fmt.Errorf("%w: elo0 %g, elo1 %g: want finite elo0 < elo1", ErrSPRT, s.Elo0, s.Elo1))
	}
	for _, p := range []struct {
		name string
		v    float64
	}{{"alpha", s.Alpha}, {"beta", s.Beta}} {
		if !(p.v > 0 && p.v < 0.5) {
			errs = append(errs, fmt.Errorf("%w: %s %g: want 0 < %s < 0.5", ErrSPRT, p.name, p.v, p.name))
		}
	}
	if s.Model != Logistic && s.Model != Normalized {
		errs = append(errs, fmt.Errorf("%w: unknown model %d", ErrSPRT, s.Model))
	}
	return errors.Join(errs...)
}

// ParseSPRT reads a test written as fastchess's -sprt options, comma
// separated: "elo0=0,elo1=5,alpha=0.05,beta=0.05[,model=logistic|normalized]".
// elo0 and elo1 are required; alpha and beta default to 0.05 and the model
// to logistic.
func ParseSPRT(text string) (SPRT, error) {
	s := SPRT{Alpha: 0.05, Beta: 0.05}
	seen := map[string]bool{}
	for field := range strings.SplitSeq(text, ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(field), "=")
		if !ok || seen[k] {
			return SPRT{}, fmt.Errorf("%w: %q: want elo0=X,elo1=Y[,alpha=A][,beta=B][,model=logistic|normalized], each once", ErrSPRT, field)
		}
		seen[k] = true
		if k == "model" {
			switch v {
			case "logistic":
				s.Model = Logistic
			case "normalized":
				s.Model = Normalized
			default:
				return SPRT{}, fmt.Errorf("%w: model %q: want logistic or normalized", ErrSPRT, v)
			}
			continue
		}
		dst := map[string]*float64{"elo0": &s.Elo0, "elo1": &s.Elo1, "alpha": &s.Alpha, "beta": &s.Beta}[k]
		if dst == nil {
			return SPRT{}, fmt.Errorf("%w: unknown option %q (elo0, elo1, alpha, beta, model)", ErrSPRT, k)
		}
		x, err := strconv.ParseFloat(v, 64)
		if err != nil {
			return SPRT{}, fmt.Errorf("%w: %s=%q: %w", ErrSPRT, k, v, err)
		}
		*dst = x
	}
	if !seen["elo0"] || !seen["elo1"] {
		return SPRT{}, fmt.Errorf("%w: %q: elo0 and elo1 are required", ErrSPRT, text)
	}
	return s, s.Validate()
}

// String writes the test as ParseSPRT reads it.
func (s SPRT) String() string {
	return fmt.Sprintf("elo0=%g,elo1=%g,alpha=%g,beta=%g,model=%s", s.Elo0, s.Elo1, s.Alpha, s.Beta, s.Model)
}

// Bounds are the LLR's bounds: ln(β/(1−α)) below, ln((1−β)/α) above.
func (s SPRT) Bounds() (lower, upper float64) {
	return math.Log(s.Beta / (1 - s.Alpha)), math.Log((1 - s.Beta) / s.Alpha)
}

// LLR is the log-likelihood ratio of H1 against H0 after the pairs p
// (package doc), 0 before the first pair.
func (s SPRT) LLR(p Penta) float64 {
	xs, ns := p.units()
	return s.llr(xs, ns, pentaPrior[:], math.Sqrt2)
}

// LLRTrinomial is the log-likelihood ratio of H1 against H0 after the
// games c, each game an independent observation.
func (s SPRT) LLRTrinomial(c WDL) float64 {
	xs, ns := c.units()
	return s.llr(xs, ns, wdlPrior[:], 1)
}

// The priors added to the counts of the LLR (package doc): half a unit
// of an even score without draws, so that the variance is never 0.
var (
	pentaPrior = [5]float64{0.125, 0, 0.25, 0, 0.125} // half a pair of two independent games
	wdlPrior   = [3]float64{0.25, 0, 0.25}            // a quarter game lost, a quarter won
)

// llr is the LLR of the units scoring xs counted ns times, with prior
// counts added; a game's standard deviation is perGame times a unit's.
func (s SPRT) llr(xs []float64, ns []int, prior []float64, perGame float64) float64 {
	var n, mu, v float64
	for i, k := range ns {
		if k == 0 && prior[i] == 0 {
			continue
		}
		w := float64(k) + prior[i]
		n += w
		mu += w * xs[i]
	}
	total := 0
	for _, k := range ns {
		total += k
	}
	if total == 0 {
		return 0
	}
	mu /= n
	for i, k := range ns {
		d := xs[i] - mu
		v += (float64(k) + prior[i]) * d * d
	}
	v /= n
	s0, s1 := ToScore(s.Elo0), ToScore(s.Elo1)
	if s.Model == Normalized {
		sd := perGame * math.Sqrt(v) / (800 / math.Ln10)
		s0, s1 = 0.5+s.Elo0*sd, 0.5+s.Elo1*sd
	}
	return n * (s1 - s0) * (2*mu - s0 - s1) / (2 * v)
}

// Decide is the decision at log-likelihood ratio llr.
func (s SPRT) Decide(llr float64) Decision {
	lower, upper := s.Bounds()
	switch {
	case llr >= upper:
		return H1
	case llr <= lower:
		return H0
	}
	return Continue
}

// Progress is llr as a share of the bound it moves towards (fastchess's
// "(100.3%)"): llr/upper when llr >= 0, llr/|lower| otherwise.
func (s SPRT) Progress(llr float64) float64 {
	lower, upper := s.Bounds()
	if llr >= 0 {
		return llr / upper
	}
	return llr / -lower
}
