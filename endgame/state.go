package endgame

import (
	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/game/submarine"
)

const maxK = submarine.MaxShips

// side is one fleet reduced to what the game's value depends on: the living
// ships' hp and cells. Ship types do not matter (two ships with the same hp
// are interchangeable), so a side is kept canonical: ships sorted by hp
// descending, then by cell ascending.
type side struct {
	n    int
	hp   [maxK]int8
	cell [maxK]uint8
}

// material is a side's hp multiset, sorted descending: the material class.
type material struct {
	n  int8
	hp [maxK]int8
}

// state is a position in canonical form; s[0] is the side to move.
type state struct{ s [2]side }

func (sd *side) material() material {
	m := material{n: int8(sd.n)}
	copy(m.hp[:], sd.hp[:sd.n])
	return m
}

// less orders ships canonically: hp descending, then cell ascending.
func (sd *side) less(i, j int) bool {
	if sd.hp[i] != sd.hp[j] {
		return sd.hp[i] > sd.hp[j]
	}
	return sd.cell[i] < sd.cell[j]
}

// sort restores canonical order (insertion sort: n is at most 8).
func (sd *side) sort() {
	for i := 1; i < sd.n; i++ {
		for j := i; j > 0 && sd.less(j, j-1); j-- {
			sd.hp[j], sd.hp[j-1] = sd.hp[j-1], sd.hp[j]
			sd.cell[j], sd.cell[j-1] = sd.cell[j-1], sd.cell[j]
		}
	}
}

// fix moves ship j, whose cell or hp just changed, to its canonical place.
func (sd *side) fix(j int) {
	for ; j > 0 && sd.less(j, j-1); j-- {
		sd.hp[j], sd.hp[j-1] = sd.hp[j-1], sd.hp[j]
		sd.cell[j], sd.cell[j-1] = sd.cell[j-1], sd.cell[j]
	}
	for ; j+1 < sd.n && sd.less(j+1, j); j++ {
		sd.hp[j], sd.hp[j+1] = sd.hp[j+1], sd.hp[j]
		sd.cell[j], sd.cell[j+1] = sd.cell[j+1], sd.cell[j]
	}
}

// hit takes one hp from ship j, removing it when it sinks.
func (sd *side) hit(j int) {
	sd.hp[j]--
	if sd.hp[j] > 0 {
		sd.fix(j)
		return
	}
	copy(sd.hp[j:sd.n], sd.hp[j+1:sd.n])
	copy(sd.cell[j:sd.n], sd.cell[j+1:sd.n])
	sd.n--
	sd.hp[sd.n], sd.cell[sd.n] = 0, 0
}

func (sd *side) occupied() grid.Set {
	var s grid.Set
	for j := range sd.n {
		s.Add(grid.Cell(sd.cell[j]))
	}
	return s
}

func (sd *side) reach(b *grid.Board) grid.Set {
	var s grid.Set
	for j := range sd.n {
		s = s.Union(b.Around(grid.Cell(sd.cell[j])))
	}
	return s
}

// fromFleet reduces a fleet to a canonical side.
func fromFleet(r *submarine.Rules, f *submarine.Fleet) side {
	var sd side
	for i := range len(r.Fleet) {
		if f.Alive.Has(i) && f.HP[i] > 0 {
			sd.hp[sd.n], sd.cell[sd.n] = f.HP[i], uint8(f.Pos[i])
			sd.n++
		}
	}
	sd.sort()
	return sd
}

func fromPosition(p *Position) state {
	return state{s: [2]side{fromFleet(p.Rules, &p.Mover), fromFleet(p.Rules, &p.Other)}}
}

// appendSuccessors appends to dst every distinct position the mover can
// reach in one action, with the other side to move (child.s[0] is the old
// other side): every hit first, then the pass when there is one, then every
// move. A child whose s[0] has no ships is a won game for the mover.
func appendSuccessors(b *grid.Board, st *state, dst []state) []state {
	mover, other := &st.s[0], &st.s[1]
	reach := mover.reach(b)
	swapped := state{s: [2]side{*other, *mover}}
	for j := range other.n {
		if !reach.Has(grid.Cell(other.cell[j])) {
			continue
		}
		// Two enemy ships never share a cell, so each hit is distinct.
		dst = append(dst, swapped)
		dst[len(dst)-1].s[0].hit(j)
	}
	if !reach.AndNot(other.occupied()).Empty() {
		dst = append(dst, swapped)
	}
	occ := mover.occupied()
	for j := range mover.n {
		for t := range b.Lines(grid.Cell(mover.cell[j])).AndNot(occ).All() {
			dst = append(dst, swapped)
			ch := &dst[len(dst)-1].s[1]
			ch.cell[j] = uint8(t)
			ch.fix(j)
		}
	}
	return dst
}
