package admiral

import (
	"math"
	"slices"

	"github.com/kaisen-ai/kaisen/belief"
	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/game/submarine"
)

// The belief pools the search reads: packed placement lists of both fleets.

// pool is a list of placements of one fleet in packed form (byte i = cell of
// ship i, 0 for a sunk ship): the whole joint belief, an even subsample of it,
// or particles drawn from per-ship beliefs.
type pool struct {
	tup   []uint64
	alive submarine.ShipMask
	ships []int // living fleet indices
	full  int   // size of the belief the pool stands for
}

// order is a pseudo-random visiting order of a pool: index (start + k*step)
// mod n, step coprime with n, so that the first items seen form a random
// sample (the worlds of the search).
type order struct{ start, step, n int }

func gcd(a, b int) int {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// snapshot fills the pools from the beliefs.
func (p *planner) snapshot() {
	a := p.a
	limit := a.cfg.Search.EvalCap
	if a.enemyJ != nil && a.enemyJ.Count() > 0 && a.ownJ.Count() > 0 {
		if !p.weighEnemy(limit) {
			p.fromJoint(&p.pe, a.enemyJ, limit)
		}
		p.fromJoint(&p.po, a.ownJ, limit)
	} else {
		p.fromShips(&p.pe, true)
		p.fromShips(&p.po, false)
	}
	p.oe = p.newOrder(len(p.pe.tup))
	p.oo = p.newOrder(len(p.po.tup))
	p.peSeq = p.oe.visit(p.pe.tup, p.peSeq)
	p.poSeq = p.oo.visit(p.po.tup, p.poSeq)
	p.noneOK = false
}

// visit lists tup in the visiting order o (tup[start], tup[(start+step)
// mod n], ...) into dst, reused.
func (o order) visit(tup, dst []uint64) []uint64 {
	dst = slices.Grow(dst[:0], len(tup))
	for i, k := o.start, 0; k < len(tup); k++ {
		dst = append(dst, tup[i])
		if i += o.step; i >= o.n {
			i -= o.n
		}
	}
	return dst
}

func (p *planner) newOrder(n int) order {
	if n <= 1 {
		return order{0, 1, max(n, 1)}
	}
	start := p.a.rng.IntN(n)
	step := (n*618)/1000 | 1
	for gcd(step, n) != 1 {
		step++
	}
	return order{start, step, n}
}

// fromJoint fills dst from the joint belief j: every placement, or an
// evenly spaced subsample of cap of them.
func (p *planner) fromJoint(dst *pool, j *belief.Joint, cap int) {
	count, alive := j.Count(), j.Alive()
	dst.alive = alive
	dst.ships = dst.ships[:0]
	for i := range p.nf {
		if alive.Has(i) {
			dst.ships = append(dst.ships, i)
		}
	}
	dst.full = count
	m := min(count, cap)
	if m == count {
		dst.tup = j.AppendPacked(dst.tup[:0])
		return
	}
	dst.tup = slices.Grow(dst.tup[:0], m)[:m]
	if count <= admiralPackAll*m {
		// Listing the whole belief once is cheaper than finding each
		// placement of the subsample.
		p.packed = j.AppendPacked(p.packed[:0])
		for k := range m {
			dst.tup[k] = p.packed[int64(k)*int64(count)/int64(m)]
		}
		return
	}
	for k := range m {
		p.buf = j.Placement(int(int64(k)*int64(count)/int64(m)), p.buf)
		var t uint64
		for _, i := range dst.ships {
			t |= uint64(uint8(p.buf[i])) << (8 * i)
		}
		dst.tup[k] = t
	}
}

// admiralPackAll: a subsample of a joint belief is read from the whole
// belief listed at once (Joint.AppendPacked) when the belief is at most
// this many times its size.
const admiralPackAll = 16

// fromShips draws particles from the per-ship beliefs (the fallback): each
// living ship uniformly in its set, redrawn when two ships collide.
func (p *planner) fromShips(dst *pool, enemy bool) {
	a := p.a
	s := &a.ownS
	if enemy {
		s = &a.enemyS
	}
	dst.alive = s.Alive()
	dst.ships = dst.ships[:0]
	for i := range p.nf {
		if dst.alive.Has(i) {
			dst.ships = append(dst.ships, i)
		}
	}
	n := a.cfg.Belief.Particles
	dst.tup = dst.tup[:0]
	total := 1.0
	for _, i := range dst.ships {
		total *= float64(max(1, s.Count(i)))
	}
	dst.full = int(math.Min(total, 1<<40))
	for range n {
		for try := 0; try < 20; try++ {
			var t uint64
			var used grid.Set
			ok := true
			for _, i := range dst.ships {
				set := s.Set(i)
				k := set.Count()
				if k == 0 {
					ok = false
					break
				}
				c := set.Nth(a.rng.IntN(k))
				if used.Has(c) {
					ok = false
					break
				}
				used.Add(c)
				t |= uint64(uint8(c)) << (8 * i)
			}
			if ok {
				dst.tup = append(dst.tup, t)
				break
			}
		}
	}
	if !enemy && len(dst.tup) == 0 {
		// Our true fleet is always possible.
		var t uint64
		for _, i := range dst.ships {
			t |= uint64(uint8(a.me.Pos[i])) << (8 * i)
		}
		dst.tup = append(dst.tup, t)
	}
}

// admiralPriorMaxPool is the largest enemy belief the placement prior
// weighs (every placement is read each turn); a larger one is subsampled
// uniformly.
const admiralPriorMaxPool = 100_000

// admiralPriorCopies bounds the resampled pool at this many entries per
// placement of the belief (and at search.eval_cap).
const admiralPriorCopies = 8

// weighEnemy fills the enemy pool from the joint belief weighted by the
// placement prior (belief.spread_weight): systematic resampling in
// proportion to each placement's prior weight, so that every later count
// over the pool is a posterior probability. It reports false, leaving the
// pool alone, when the prior is off, the belief too large, or every
// placement weighs the same.
func (p *planner) weighEnemy(limit int) bool {
	a := p.a
	sp := a.shared.prior
	w := a.cfg.Belief.SpreadWeight
	count := a.enemyJ.Count()
	spreadOn := w > 0 && !sp.disabled
	if (!spreadOn && a.learnt == nil) || count > admiralPriorMaxPool {
		return false
	}
	p.fromJoint(&p.pall, a.enemyJ, count)
	ships := p.pall.ships
	plain, spread := 1.0, 1.0
	if spreadOn {
		plain, spread = sp.priorWeights(w, len(ships))
	}
	p.weights = slices.Grow(p.weights[:0], count)[:count]
	total, nSpread := 0.0, 0
	b := a.rules.Board
	for k, t := range p.pall.tup {
		q := plain
		if spreadOn && sp.spreadAt(b, t, ships, &a.enemyDisp) {
			q = spread
			nSpread++
		}
		if a.learnt != nil {
			q *= a.learnt.at(b, t, ships, &a.enemyDisp)
		}
		p.weights[k] = q
		total += q
	}
	if a.learnt == nil && (nSpread == 0 || nSpread == count) {
		return false
	}
	dst := &p.pe
	dst.alive, dst.full = p.pall.alive, count
	dst.ships = append(dst.ships[:0], ships...)
	m := min(limit, admiralPriorCopies*count)
	dst.tup = slices.Grow(dst.tup[:0], m)[:0]
	step := total / float64(m)
	u := a.rng.Float64() * step
	acc := 0.0
	for k, q := range p.weights {
		acc += q
		for u < acc && len(dst.tup) < m {
			dst.tup = append(dst.tup, p.pall.tup[k])
			u += step
		}
	}
	return true
}
