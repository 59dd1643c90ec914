package bsoptimal

import (
	"fmt"
	"iter"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/kaisen-ai/kaisen/game/grid"
)

// Answers returns the probabilities of the answers to a shot at cell c
// (miss, hit, kill; those no consistent layout gives left out), each with
// the knowledge it leads to.
func (k *Knowledge) Answers(c grid.Cell) ([]float64, []*Knowledge) {
	ch := k.s.children(&k.st, int(c))
	ps := make([]float64, len(ch))
	ks := make([]*Knowledge, len(ch))
	for i, x := range ch {
		ps[i], ks[i] = x.p, k.s.knowledge(x.st)
	}
	return ps, ks
}

// Sunk reports whether the whole fleet is sunk.
func (k *Knowledge) Sunk() bool { return k.s.done(&k.st) }

// Share is the share of the consistent layouts with a ship on cell c.
func (k *Knowledge) Share(c grid.Cell) float64 { return float64(k.Count(c)) / float64(k.Layouts()) }

// Entropy is the entropy in bits of the answer to a shot at c.
func (k *Knowledge) Entropy(c grid.Cell) float64 {
	ps, _ := k.Answers(c)
	h := 0.0
	for _, p := range ps {
		h -= p * math.Log2(p)
	}
	return h
}

// Scored is the policy that shoots the cells with the highest score among
// those some consistent layout covers (scores within 1e-12 tie).
func Scored(score func(k *Knowledge, c grid.Cell) float64) Policy {
	return func(k *Knowledge) []grid.Cell {
		covered := func(yield func(grid.Cell) bool) {
			for c := range k.Unknown().All() {
				if k.Count(c) > 0 && !yield(c) {
					return
				}
			}
		}
		return topScored(covered, func(c grid.Cell) float64 { return score(k, c) })
	}
}

// topScored returns the cells of seq with the highest score, in seq's
// order (scores within 1e-12 tie).
func topScored(seq iter.Seq[grid.Cell], score func(grid.Cell) float64) []grid.Cell {
	var best []grid.Cell
	top := math.Inf(-1)
	for c := range seq {
		switch v := score(c); {
		case v > top+1e-12:
			top, best = v, []grid.Cell{c}
		case v >= top-1e-12:
			best = append(best, c)
		}
	}
	return best
}

// EntropyTieBreak is greedy whose ties go to the cells whose answer has
// the most entropy (density with lookahead: 1, lookahead_weight: 0 and a
// small entropy_weight).
func EntropyTieBreak(k *Knowledge) []grid.Cell {
	tied := Greedy(k)
	if len(tied) < 2 {
		return tied
	}
	return topScored(slices.Values(tied), k.Entropy)
}

// EntropyBonus scores a cell share + w × the entropy of its answer
// (density's entropy_weight, over every cell).
func EntropyBonus(w float64) Policy {
	return Scored(func(k *Knowledge, c grid.Cell) float64 { return k.Share(c) + w*k.Entropy(c) })
}

// Lookahead scores a cell share + E[share of the best next shot] over the
// answers (density's lookahead with weight 1, over every cell; a sunk
// fleet counts as a sure next hit, as density counts it).
func Lookahead(k *Knowledge, c grid.Cell) float64 {
	ps, ks := k.Answers(c)
	next := 0.0
	for i, q := range ks {
		if q.Sunk() {
			next += ps[i]
			continue
		}
		m := 0.0
		for n := range q.Unknown().All() {
			m = max(m, q.Share(n))
		}
		next += ps[i] * m
	}
	return k.Share(c) + next
}

// PolicyNames lists what ParsePolicy reads.
const PolicyNames = "greedy, entropy-tie, entropy:W (W a weight), lookahead"

// ParsePolicy reads a policy name: greedy, entropy-tie, entropy:W or
// lookahead.
func ParsePolicy(name string) (Policy, error) {
	switch {
	case name == "greedy":
		return Greedy, nil
	case name == "entropy-tie":
		return EntropyTieBreak, nil
	case name == "lookahead":
		return Scored(Lookahead), nil
	case strings.HasPrefix(name, "entropy:"):
		w, err := strconv.ParseFloat(strings.TrimPrefix(name, "entropy:"), 64)
		if err != nil || !(w >= 0 && w <= 10) {
			return nil, fmt.Errorf("bsoptimal: policy %q: the weight is not a number from 0 to 10", name)
		}
		return EntropyBonus(w), nil
	}
	return nil, fmt.Errorf("bsoptimal: unknown policy %q (want %s)", name, PolicyNames)
}
