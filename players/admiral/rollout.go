package admiral

import (
	"slices"

	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/game/submarine"
)

// The play-out policy: the determinized game after a candidate action.

// rollState is the scratch state of one rollout.
type rollState struct {
	ecell   [submarine.MaxShips]grid.Cell
	ehp     [submarine.MaxShips]int8
	known   [submarine.MaxShips]grid.Cell
	ealive  submarine.ShipMask
	eship   []float64 // the enemy's belief about each of our ships
	first   []float64 // ourMass of every cell before the first reply (firstMass)
	moved   [][2]grid.Cell
	cleared []grid.Cell
}

// rollout plays the game on in world w (an enemy placement consistent with
// the answer sl to our candidate action) for search.depth enemy replies,
// with our fleet us after the action, and values the result for us.
//
// The enemy follows the reply model (AdmiralModel) on what it knows of us:
// the exposure x after our action, updated by what its own attacks in the
// play-out reveal (a hit locates a ship, a near set confines one). We
// follow a simple rule on what we know: attack a located enemy ship in
// reach, else the likeliest cell in reach when it holds a ship with
// probability at least model.attack, else wait. Located enemy ships (pinned
// by the answer, hit since, moved by a known displacement) are tracked
// exactly; the others through the answer's occupancy. The value adds hits,
// sinks and the win (ours positive, the enemy's negative), discounted per
// reply, and ends with the follow-up term.
func (p *planner) rollout(w uint64, sl *slot, x *exposure, us submarine.Fleet, bold float64) float64 {
	a := p.a
	b := a.rules.Board
	v := &a.cfg.Value
	m := &a.cfg.Model
	ro := &p.ro
	// Enemy fleet in this world after our action.
	ro.ealive = 0
	for _, i := range p.pe.ships {
		ro.ecell[i] = cellOf(w, i)
		ro.ehp[i] = a.enemyHP[i]
		ro.known[i] = sl.pinned[i]
		if i == sl.hit {
			ro.ehp[i]--
		}
		if ro.ehp[i] > 0 {
			ro.ealive = ro.ealive.With(i)
		} else {
			ro.known[i] = grid.None
		}
	}
	copy(ro.eship, x.ship)  // what the enemy believes of us
	ro.moved = ro.moved[:0] // (from, to) of located enemy ships that moved
	ro.cleared = ro.cleared[:0]
	inv := 1 / float64(sl.count)
	val, disc := 0.0, 1.0
	for ply := 0; ; ply++ {
		// The enemy's reply.
		var ereach, eocc grid.Set
		for i := range p.nf {
			if ro.ealive.Has(i) {
				eocc.Add(ro.ecell[i])
				ereach = ereach.Union(b.Around(ro.ecell[i]))
			}
		}
		target, tp := grid.None, -1.0
		for c := range ereach.All() {
			q := ro.first[c] // before the first reply: the same in every world
			if ply > 0 {
				q = p.ourMass(ro.eship, &us, c)
			}
			if q > tp {
				target, tp = c, q
			}
		}
		fled := tp < m.Sure && p.rolloutFlee(x, eocc)
		last := ply+1 >= a.cfg.Search.Depth
		if !fled && target != grid.None {
			hit := us.ShipAt(target)
			if !last {
				// (After the last reply nothing reads the enemy's belief.)
				p.enemyLearns(&us, target, hit)
			}
			if hit != submarine.NoShip {
				// The stall rule's boldness discounts no hit by a located
				// enemy ship at least as strong as ours.
				k := caution(bold, us.HP[hit], p.rolloutGuard(target))
				val -= disc * k * v.Hurt
				us.HP[hit]--
				if us.HP[hit] <= 0 {
					val -= disc * k * v.Lost
					us.Alive = us.Alive.Without(hit)
					us.Occupied.Remove(target)
					if us.Alive == 0 {
						return val - disc*k*v.Win
					}
				}
			}
		}
		reach := a.rules.Reach(&us)
		if last {
			// The endgame the position leads to: whose strongest ship has
			// more hp decides who can seek contact once all is known.
			edge := float64(strongest(&us.HP, us.Alive)) - float64(strongest(&ro.ehp, ro.ealive))
			return val + disc*(v.Next*p.rolloutNext(sl, &reach, inv)+v.Edge*edge)
		}
		disc *= a.cfg.Search.Discount
		// Our turn: a located enemy ship in reach, else the likeliest cell.
		at, ap := grid.None, -1.0
		for c := range reach.All() {
			q := p.rolloutProb(sl, c, inv)
			if q > ap {
				at, ap = c, q
			}
		}
		if at == grid.None || ap < m.Attack {
			continue
		}
		for i := range p.nf {
			if ro.ealive.Has(i) && ro.ecell[i] == at {
				val += disc * v.Hit
				ro.ehp[i]--
				ro.known[i] = at
				if ro.ehp[i] <= 0 {
					val += disc * v.Sink
					ro.ealive = ro.ealive.Without(i)
					ro.known[i] = grid.None
					ro.moved = append(ro.moved, [2]grid.Cell{at, grid.None})
					if ro.ealive == 0 {
						return val + disc*v.Win
					}
				}
				break
			}
		}
		if ap < 1 {
			ro.cleared = append(ro.cleared, at) // hit or not, the cell is resolved
		}
	}
}

// ourMass is the probability mass of our living ships on c in the enemy's
// belief eship (ship by ship, in fleet order).
func (p *planner) ourMass(eship []float64, us *submarine.Fleet, c grid.Cell) float64 {
	q := 0.0
	for j := range p.nf {
		if us.Alive.Has(j) {
			q += eship[j*p.size+int(c)]
		}
	}
	return q
}

// firstMass fills ro.first, ourMass of every cell in the exposure x after
// the candidate (our fleet us): the enemy's first reply in every world of
// the candidate's play-outs reads it.
func (p *planner) firstMass(x *exposure, us *submarine.Fleet) {
	p.ro.first = slices.Grow(p.ro.first[:0], p.size)[:p.size]
	for c := range p.size {
		p.ro.first[c] = p.ourMass(x.ship, us, grid.Cell(c))
	}
}

// rolloutFlee is the modelled enemy's flight, when no attack of its reach
// is sure (eocc: the cells of its living ships): if one of its located
// ships is within our reach with probability at least model.flee, it
// moves that ship to the safest cell of its row or column, if that cell's
// risk is below the ship's and at most model.refuge. It reports whether
// the enemy fled.
func (p *planner) rolloutFlee(x *exposure, eocc grid.Set) bool {
	b := p.a.rules.Board
	m := &p.a.cfg.Model
	ro := &p.ro
	// The risk of a cell in the enemy's eyes: exact at 0 and 1 for the
	// refuge rule (refuge < 1), sampled otherwise.
	exact := m.Refuge < 1
	ship, worst := -1, -1.0
	for i := range p.nf {
		if c := ro.known[i]; c != grid.None && ro.ealive.Has(i) && x.risk(c, exact) > worst {
			ship, worst = i, x.risk(c, exact)
		}
	}
	if ship < 0 || worst < m.Flee {
		return false
	}
	c := ro.known[ship]
	dest, dr, dd := grid.None, 2.0, -1
	for d := range b.Lines(c).AndNot(eocc).All() {
		r := x.risk(d, exact)
		dist := b.Chebyshev(c, d)
		if r < dr || (r == dr && dist > dd) {
			dest, dr, dd = d, r, dist
		}
	}
	if dest == grid.None || dr >= worst || dr > m.Refuge {
		return false
	}
	ro.moved = append(ro.moved, [2]grid.Cell{c, dest})
	ro.known[ship], ro.ecell[ship] = dest, dest
	return true
}

// enemyLearns updates the rollout's model of the enemy's belief about our
// ships after its attack on target (hit: our ship hit there, or NoShip): the
// hit ship is located, a ship reported near is within 1 of target, every
// other one is not. A belief left empty by the approximations collapses to
// the ship's true cell.
func (p *planner) enemyLearns(us *submarine.Fleet, target grid.Cell, hit int) {
	b := p.a.rules.Board
	around := b.Around(target)
	for j := range p.nf {
		if !us.Alive.Has(j) {
			continue
		}
		row := p.ro.eship[j*p.size : (j+1)*p.size]
		if j == hit {
			clear(row)
			row[target] = 1
			continue
		}
		// A ship reported near is on a cell around target (target
		// excluded), any other one off them all.
		keep := around
		if b.Chebyshev(us.Pos[j], target) > 1 {
			keep = b.Usable().AndNot(around)
		}
		keep.Remove(target)
		sum := 0.0
		for c, q := range row {
			if !keep.Has(grid.Cell(c)) {
				row[c] = 0
				continue
			}
			sum += q
		}
		if sum <= 0 {
			clear(row)
			row[us.Pos[j]] = 1
			continue
		}
		for c, q := range row {
			if q != 0 { // (0 off keep)
				row[c] = q / sum
			}
		}
	}
}

// rolloutProb is the probability (as we know it in the rollout) that an
// enemy ship is on c.
func (p *planner) rolloutProb(sl *slot, c grid.Cell, inv float64) float64 {
	ro := &p.ro
	for i := range p.nf {
		if ro.known[i] == c && ro.ealive.Has(i) {
			return 1
		}
	}
	if slices.Contains(ro.cleared, c) {
		return 0
	}
	q := float64(sl.occ[c]) * inv
	for _, mv := range ro.moved {
		if mv[0] == c {
			q -= 1
		}
	}
	// Clamped to [0, 1] (q is never NaN).
	switch {
	case q < 0:
		return 0
	case q > 1:
		return 1
	}
	return q
}

// rolloutNext is the probability that our best attack hits at the end of a
// rollout.
func (p *planner) rolloutNext(sl *slot, reach *grid.Set, inv float64) float64 {
	best := 0.0
	for c := range reach.All() {
		best = max(best, p.rolloutProb(sl, c, inv))
	}
	return best
}

// rolloutGuard is the largest hp of the located enemy ships of the rollout
// that can attack target (0 if none).
func (p *planner) rolloutGuard(target grid.Cell) int8 {
	ro := &p.ro
	b := p.a.rules.Board
	var g int8
	for i := range p.nf {
		if ro.ealive.Has(i) && ro.known[i] != grid.None && b.Chebyshev(ro.known[i], target) <= 1 {
			g = max(g, ro.ehp[i])
		}
	}
	return g
}
