package admiral

import (
	"math"
	"math/bits"
	"slices"

	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/game/submarine"
)

// What the enemy knows of our fleet after a candidate action (exposure,
// leak, detection) and where the enemy can attack.

// exposure is what the enemy knows of our fleet after one of our actions:
// the enemy's exact belief about us, summarised.
type exposure struct {
	n      int       // placements of our fleet still consistent
	leak   float64   // bits the action gave away: log2(before/after)
	occ    []float64 // P(one of our ships is on c), in the enemy's eyes
	ship   []float64 // ship[j*size+c]: P(our ship j is on c), in the enemy's eyes
	reachP []float64 // P(c is within our reach), in the enemy's eyes (sampled)
	// Cells within our reach in every placement the enemy holds possible
	// (all), in at least one (any): exact, over all of them.
	reachAll, reachAny grid.Set
}

// risk is the probability, in the enemy's eyes, that c is within our
// reach: with exact, exact at 0 and 1 and sampled in between (kept
// strictly inside); otherwise the sample alone.
func (x *exposure) risk(c grid.Cell, exact bool) float64 {
	switch {
	case !exact:
		return x.reachP[c]
	case x.reachAll.Has(c):
		return 1
	case !x.reachAny.Has(c):
		return 0
	}
	return min(max(x.reachP[c], 1e-3), 1-1e-3)
}

const admiralReachSamples = 48

// admiralDetectWorlds is the number of enemy placements on which the
// enemy's next attack is modelled to measure what it would tell the enemy.
const admiralDetectWorlds = 16

// admiralDetectScan bounds the placements scanned per modelled attack.
const admiralDetectScan = 512

// detectBits is the expected information (bits) that the enemy's next attack
// gains about our fleet us after the candidate whose exposure is x: in each
// of a few enemy placements the enemy attacks the cell of its reach where our
// ships most likely are; our answer there (hit, near set) is known to us, and
// its information is log2 of the placements of our fleet still consistent
// before and after it.
func (p *planner) detectBits(x *exposure, us *submarine.Fleet) float64 {
	b := p.a.rules.Board
	n := min(len(p.pe.tup), admiralDetectWorlds)
	if n == 0 || len(p.survivors) == 0 {
		return 0
	}
	p.attackCells = p.attackCells[:0]
	for _, r := range p.detectReach[:n] {
		at, best := grid.None, -1.0
		for c := range r.All() {
			if x.occ[c] > best {
				at, best = c, x.occ[c]
			}
		}
		p.attackCells = append(p.attackCells, at)
	}
	slices.Sort(p.attackCells)
	ships := p.po.ships
	// The distinct attack cells (at most admiralDetectWorlds of them), each
	// with its share of the worlds, in increasing order.
	var ats [admiralDetectWorlds]grid.Cell
	var weights [admiralDetectWorlds]float64
	m := 0
	for i := 0; i < len(p.attackCells); {
		at := p.attackCells[i]
		j := i
		for j < len(p.attackCells) && p.attackCells[j] == at {
			j++
		}
		ats[m], weights[m] = at, float64(j-i)/float64(n)
		m++
		i = j
	}
	// Our answer to an attack on at, ship by ship: 2 hit, 1 near, 0
	// neither. A placement answers the same (the same hit ship and near
	// set) when every ship's code is ours. match[k][c] has bit j set when
	// ship ships[k] on c answers an attack on ats[j] as ours does, so that
	// one pass over the placements counts the same answers of every attack
	// cell at once.
	match := &p.detectMatch
	for k := range ships {
		clear(match[k][:p.size])
	}
	for j, at := range ats[:m] {
		var code [256]uint8
		for c := range b.Around(at).All() {
			code[c] = 1
		}
		code[at] = 2
		for k, sh := range ships {
			ours, row := code[us.Pos[sh]], match[k][:p.size]
			for c, o := range code[:p.size] {
				if o == ours {
					row[c] |= 1 << j
				}
			}
		}
	}
	// Count the survivors that answer the same (an even subsample of at
	// most admiralDetectScan of them).
	step := max(1, len(p.survivors)/admiralDetectScan)
	seen := (len(p.survivors) + step - 1) / step
	var same [admiralDetectWorlds]int
	all := admiralDetectMask(1)<<m - 1
	for i := 0; i < len(p.survivors); i += step {
		t := p.survivors[i]
		q := all
		for k, sh := range ships {
			q &= match[k][uint8(t>>(8*sh))]
		}
		for ; q != 0; q &= q - 1 {
			same[bits.TrailingZeros32(uint32(q))]++
		}
	}
	total := 0.0
	for j := range m {
		total += weights[j] * math.Log2(float64(seen)/float64(max(same[j], 1)))
	}
	return total
}

// admiralDetectMask holds one bit per distinct attack cell of detectBits.
type admiralDetectMask uint16

// A mask has a bit for every world's attack cell (a compile-time check).
const _ = admiralDetectMask(1<<admiralDetectWorlds - 1)

// enemyReach estimates, for every cell, the probability that the enemy can
// attack it (some enemy ship within 1), from up to admiralReachSamples
// placements of the enemy pool. It keeps the reach of the first
// admiralDetectWorlds of them (p.detectReach), the worlds in which
// detectBits models the enemy's next attack for every candidate.
func (p *planner) enemyReach() {
	b := p.a.rules.Board
	clear(p.reachCnt)
	n := min(len(p.pe.tup), admiralReachSamples)
	for k := range n {
		t := p.peSeq[k]
		var r grid.Set
		for _, i := range p.pe.ships {
			r = r.Union(b.Around(cellOf(t, i)))
		}
		if k < admiralDetectWorlds {
			p.detectReach[k] = r
		}
		for c := range r.All() {
			p.reachCnt[c]++
		}
	}
	for c := range p.size {
		p.reachE[c] = float64(p.reachCnt[c]) / float64(max(n, 1))
	}
}

// fireExposure is what the enemy learns from our attack on at: one of our
// ships is within 1 of it. The reach fields are filled only withReach.
func (p *planner) fireExposure(at grid.Cell, withReach bool) *exposure {
	b := p.a.rules.Board
	var near [256]bool
	for c := range b.Around(at).All() {
		near[c] = true
	}
	ships := p.po.ships
	out := p.survivors[:0]
	for _, t := range p.poSeq {
		for _, i := range ships {
			if near[cellOf(t, i)] {
				out = append(out, t)
				break
			}
		}
	}
	p.survivors = out
	return p.expose(withReach)
}

// moveExposure is what the enemy learns from our move of ship by (dx, dy):
// the ship's cell shifts, and placements from which the move was impossible
// drop out. The reach fields are filled only withReach.
func (p *planner) moveExposure(ship, dx, dy int, withReach bool) *exposure {
	b := p.a.rules.Board
	var to [256]int16
	for c := range p.size {
		to[c] = -1
		x, y := b.XY(grid.Cell(c))
		if nc, ok := b.At(x+dx, y+dy); ok && b.IsUsable(nc) && b.IsUsable(grid.Cell(c)) {
			to[c] = int16(nc)
		}
	}
	sh := uint(8 * ship)
	ships := p.po.ships
	out := p.survivors[:0]
scan:
	for _, t := range p.poSeq {
		nc := to[uint8(t>>sh)]
		if nc < 0 {
			continue
		}
		for _, i := range ships {
			if i != ship && int16(cellOf(t, i)) == nc {
				continue scan
			}
		}
		out = append(out, t&^(0xff<<sh)|uint64(nc)<<sh)
	}
	p.survivors = out
	return p.expose(withReach)
}

// expose summarises the placements of our exposure pool that survive the
// candidate action (p.survivors, in visiting order, filled by
// fireExposure or moveExposure). Only the play-outs read the reach fields
// (reachP, reachAll, reachAny): without withReach they are not computed
// (and not to be read), which saves the reach of every survivor in the
// one-ply pass over every candidate.
func (p *planner) expose(withReach bool) *exposure {
	x := &p.exp
	clear(p.expCount)
	clear(p.reachCnt)
	b := p.a.rules.Board
	sampled := 0
	x.reachAll, x.reachAny = b.Usable(), grid.Set{}
	n := len(p.survivors)
	ships := p.po.ships
	size := p.size
	for _, t := range p.survivors {
		for _, i := range ships {
			p.expCount[i*size+int(cellOf(t, i))]++
		}
		// The reach of a placement is needed for the sample and for as
		// long as some cell is within reach in all the placements so far
		// (reachAny is read from the counts below).
		if !withReach || (sampled == admiralReachSamples && x.reachAll.Empty()) {
			continue
		}
		var r grid.Set
		for _, i := range ships {
			r = r.Union(b.Around(cellOf(t, i)))
		}
		x.reachAll = x.reachAll.Intersect(r)
		if sampled < admiralReachSamples {
			sampled++
			for c := range r.All() {
				p.reachCnt[c]++
			}
		}
	}
	if withReach {
		// A cell is within reach in some placement when it is around a
		// cell on which some placement puts a ship.
		for k, m := range p.expCount {
			if m != 0 {
				x.reachAny = x.reachAny.Union(b.Around(grid.Cell(k % size)))
			}
		}
	}
	x.n = n
	if n == 0 {
		// Only possible with sampled beliefs: the enemy knows where we are.
		x.leak = math.Log2(float64(max(p.po.full, 2)))
		clear(x.occ)
		clear(x.ship)
		clear(x.reachP)
		x.reachAll = grid.Set{}
		for _, i := range p.po.ships {
			c := p.a.me.Pos[i]
			x.occ[c] = 1
			x.ship[i*p.size+int(c)] = 1
			for d := range b.Around(c).All() {
				x.reachP[d] = 1
			}
			x.reachAll = x.reachAll.Union(b.Around(c))
		}
		x.reachAny = x.reachAll
		return x
	}
	x.leak = math.Log2(float64(len(p.po.tup)) / float64(n))
	inv := 1 / float64(n)
	rinv := 1 / float64(sampled)
	clear(x.occ)
	for i := range p.nf {
		row, counts := x.ship[i*size:(i+1)*size], p.expCount[i*size:(i+1)*size]
		for c, k := range counts {
			q := float64(k) * inv
			row[c] = q
			x.occ[c] += q
		}
	}
	if withReach {
		for c := range p.size {
			x.reachP[c] = float64(p.reachCnt[c]) * rinv
		}
	}
	return x
}
