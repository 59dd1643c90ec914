package admiral

import (
	"math"

	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/game/submarine"
)

// The answers a candidate action can get: the enemy pool split by answer,
// with the worlds each answer keeps for the play-outs.

// slot is one possible answer to an attack (or the single "no answer" of a
// move) with the enemy placements that give it.
type slot struct {
	hit   int // enemy ship hit, or NoShip
	near  submarine.ShipMask
	skip  int // the enemy ship the answer sinks (it leaves the belief), or NoShip
	count int
	occ   []uint32 // per cell: living enemy ships on it after the answer
	sup   grid.Set // the cells whose occ is not 0
	// first is the first placement seen; diff has a bit set in byte i when
	// some placement puts ship i elsewhere (ship i is pinned when byte i
	// is 0).
	first, diff uint64
	worlds      []uint64                      // placements in visiting order (up to the quota)
	pinned      [submarine.MaxShips]grid.Cell // filled from first and diff after the pass
}

// bestNext is the probability that our best attack next turn hits, under the
// answer's belief, with our reach.
func (p *planner) bestNext(sl *slot, reach *grid.Set) float64 {
	inv := 1 / float64(sl.count)
	best := 0.0
	// A cell without an enemy ship counts 0: only the answer's support is read.
	for c := range reach.Intersect(sl.sup).All() {
		best = math.Max(best, float64(sl.occ[c])*inv)
	}
	return math.Min(best, 1)
}

// slotFor returns the slot of answer key, (hit+1)<<nf | near (0: no
// answer), creating it.
func (p *planner) slotFor(key int) *slot {
	if s := p.keySlot[key]; s != 0 {
		return &p.slots[s-1]
	}
	return p.newSlot(key)
}

// newSlot creates the slot of answer key.
func (p *planner) newSlot(key int) *slot {
	hit, near := key>>p.nf-1, submarine.ShipMask(key&(1<<p.nf-1))
	k := len(p.slots)
	if k < cap(p.slots) {
		p.slots = p.slots[:k+1]
	} else {
		p.slots = append(p.slots, slot{})
	}
	sl := &p.slots[k]
	if need := (k + 1) * p.size; len(p.occBuf) < need {
		p.occBuf = append(p.occBuf, make([]uint32, need-len(p.occBuf))...)
		// Re-slice every slot: the buffer may have moved.
		for j := range k {
			p.slots[j].occ = p.occBuf[j*p.size : (j+1)*p.size]
		}
	}
	sl.occ = p.occBuf[k*p.size : (k+1)*p.size]
	clear(sl.occ)
	sl.sup = grid.Set{}
	sl.hit, sl.near, sl.count = hit, near, 0
	sl.skip = submarine.NoShip
	if hit != submarine.NoShip && p.a.enemyHP[hit] <= 1 {
		sl.skip = hit
	}
	sl.first, sl.diff = 0, 0
	sl.worlds = sl.worlds[:0]
	p.keySlot[key] = int16(k + 1)
	return sl
}

func (p *planner) resetSlots() {
	p.slots = p.slots[:0]
	clear(p.keySlot)
}

// add counts placement t into slot sl (its support is filled by
// finishSlots).
func (p *planner) add(sl *slot, t uint64) {
	if sl.count == 0 {
		sl.first = t
	}
	sl.count++
	sl.diff |= t ^ sl.first
	occ := sl.occ
	for _, i := range p.pe.ships {
		if i != sl.skip {
			occ[cellOf(t, i)]++
		}
	}
	if len(sl.worlds) < p.worldsCap {
		sl.worlds = append(sl.worlds, t)
	}
}

// pinnedCell is the cell of enemy ship i when every placement of the slot
// agrees on it (and the answer leaves it in the belief), else None.
func (p *planner) pinnedCell(sl *slot, i int) grid.Cell {
	if !p.pe.alive.Has(i) || i == sl.skip || uint8(sl.diff>>(8*i)) != 0 {
		return grid.None
	}
	return cellOf(sl.first, i)
}

// finishSlots fills every slot's support from its occupancies and trims
// its worlds.
func (p *planner) finishSlots() {
	for k := range p.slots {
		sl := &p.slots[k]
		for c, n := range sl.occ {
			if n != 0 {
				sl.sup.Add(grid.Cell(c))
			}
		}
	}
	p.trimWorlds()
}

// partitionAttack splits the enemy pool by the answer an attack on at
// gets; the slots keep worlds for the play-outs only withWorlds.
func (p *planner) partitionAttack(at grid.Cell, withWorlds bool) {
	p.resetSlots()
	p.worldsCap = 0
	if withWorlds {
		p.worldsCap = p.a.cfg.Search.Worlds
	}
	b := p.a.rules.Board
	// part[c][k]: the bits of the answer key, (hit+1)<<nf | near, that the
	// pool's k-th living ship on cell c gives (at most one ship is hit).
	var part [256][submarine.MaxShips]uint16
	ships := p.pe.ships
	for c := range b.Around(at).All() {
		for k, i := range ships {
			part[c][k] = uint16(1) << i
		}
	}
	for k, i := range ships {
		part[at][k] = uint16(i+1) << p.nf
	}
	for _, t := range p.peSeq {
		key := 0
		for k, i := range ships {
			key |= int(part[uint8(t>>(8*i))][k])
		}
		p.add(p.slotFor(key), t)
	}
	p.finishSlots()
}

// partitionNone puts the whole enemy pool in one slot (a move tells us
// nothing about the enemy). The slot is the same for every move of a
// decision: it is counted once (p.none, cleared by snapshot) and copied.
func (p *planner) partitionNone() {
	p.resetSlots()
	sl := p.slotFor(0)
	if !p.noneOK {
		p.worldsCap = p.a.cfg.Search.Worlds
		for _, t := range p.peSeq {
			p.add(sl, t)
		}
		p.finishSlots()
		p.none.copyFrom(sl, p.size)
		p.noneOK = true
		return
	}
	sl.copyFrom(&p.none, p.size)
}

// copyFrom makes sl a copy of src (occupancies of size cells), keeping
// sl's own buffers.
func (sl *slot) copyFrom(src *slot, size int) {
	occ, worlds := sl.occ, sl.worlds
	if len(occ) < size {
		occ = make([]uint32, size)
	}
	*sl = *src
	sl.occ = append(occ[:0], src.occ...)
	sl.worlds = append(worlds[:0], src.worlds...)
}

// trimWorlds keeps, for every answer, a share of the worlds proportional to
// its probability (at least one): Worlds play-outs per candidate in all.
func (p *planner) trimWorlds() {
	total := float64(len(p.pe.tup))
	for k := range p.slots {
		sl := &p.slots[k]
		q := int(math.Ceil(float64(p.a.cfg.Search.Worlds) * float64(sl.count) / total))
		if q < len(sl.worlds) {
			sl.worlds = sl.worlds[:max(q, 1)]
		}
	}
}
