package players

import (
	"math"
	"slices"

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

func (o order) at(k int) int { return (o.start + k*o.step) % o.n }

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
		p.fromJoint(&p.pe, a.enemyJ.Count(), a.enemyJ.Alive(), limit, a.enemyJ.Placement)
		p.fromJoint(&p.po, a.ownJ.Count(), a.ownJ.Alive(), limit, a.ownJ.Placement)
	} else {
		p.fromShips(&p.pe, true)
		p.fromShips(&p.po, false)
	}
	p.oe = p.newOrder(len(p.pe.tup))
	p.oo = p.newOrder(len(p.po.tup))
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

func (p *planner) fromJoint(dst *pool, count int, alive submarine.ShipMask, cap int, get func(int, submarine.Placement) submarine.Placement) {
	dst.alive = alive
	dst.ships = dst.ships[:0]
	for i := range p.nf {
		if alive.Has(i) {
			dst.ships = append(dst.ships, i)
		}
	}
	dst.full = count
	m := min(count, cap)
	dst.tup = slices.Grow(dst.tup[:0], m)[:m]
	for k := range m {
		idx := k
		if m < count {
			idx = int(int64(k) * int64(count) / int64(m))
		}
		p.buf = get(idx, p.buf)
		var t uint64
		for _, i := range dst.ships {
			t |= uint64(uint8(p.buf[i])) << (8 * i)
		}
		dst.tup[k] = t
	}
}

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
