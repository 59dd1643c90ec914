package admiral

import (
	"encoding/binary"

	"github.com/kaisen-ai/kaisen/game/submarine"
)

// likelihoods remembers the policies' log-likelihoods of the enemy's
// actions in the views they were taken in. A policy's distribution is a
// function of the view (both fleets and the enemy's chart of us), and a long
// drawn game meets the same few views thousands of times, each costing
// every policy's distribution (the perfect policy's a solver search): a
// view met again adds the remembered values, the same float64s, so the
// posterior is the same to the bit.
type likelihoods struct {
	at  map[string]int // key -> offset in ll
	ll  []float64
	key []byte
	tmp []float64 // the values of a view too large to remember
}

const (
	// likelihoodsChart bounds the enemy's chart of us a remembered view
	// holds (larger charts are the early game's, which does not repeat).
	likelihoodsChart = 64
	// likelihoodsMax bounds the views remembered; more start again.
	likelihoodsMax = 1 << 13
)

// get returns the n log-likelihoods of action a in view v, and whether they
// were remembered; if not, the caller fills the slice returned, which is
// remembered (when the view is small enough).
func (l *likelihoods) get(r *submarine.Rules, v *modelView, a submarine.Action, n int) ([]float64, bool) {
	if len(v.chart) > likelihoodsChart {
		return l.scratch(n), false
	}
	k := l.key[:0]
	for _, f := range [2]*submarine.Fleet{v.them, v.us} {
		cells, hp := packFleet(r, f)
		k = binary.LittleEndian.AppendUint64(k, cells)
		k = binary.LittleEndian.AppendUint64(k, hp)
	}
	k = binary.LittleEndian.AppendUint32(k, uint32(packAction(a)))
	for _, p := range v.chart {
		k = binary.LittleEndian.AppendUint64(k, p)
	}
	l.key = k
	if off, ok := l.at[string(k)]; ok {
		return l.ll[off : off+n : off+n], true
	}
	if l.at == nil || len(l.at) >= likelihoodsMax {
		l.at, l.ll = make(map[string]int), l.ll[:0]
	}
	off := len(l.ll)
	l.at[string(k)] = off
	l.ll = append(l.ll, make([]float64, n)...)
	return l.ll[off : off+n : off+n], false
}

// scratch is a slice of n values not remembered.
func (l *likelihoods) scratch(n int) []float64 {
	if cap(l.tmp) < n {
		l.tmp = make([]float64, n)
	}
	return l.tmp[:n]
}
