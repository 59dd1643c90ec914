package players

import (
	"math/rand/v2"

	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/game/submarine"
)

// Random plays a uniformly random legal action, exactly:
//
//  1. it flips a fair coin between attack and move;
//  2. attack: a cell drawn uniformly from the set of cells it may attack (every
//     usable cell within distance 1 of a living own ship, each cell counted
//     once however many ships reach it);
//  3. move: a (ship, destination) pair drawn uniformly from all legal moves of
//     all living ships;
//  4. if the coin says move but no move is legal, it attacks (there is always a
//     legal attack: a ship's own cell).
//
// Placement is a uniformly random set of distinct usable cells, assigned to the
// ships in fleet order.
type Random struct {
	rules *submarine.Rules
	rng   *rand.Rand
	me    submarine.Fleet
}

var _ Player = (*Random)(nil)

// NewRandom returns a random player for rules.
func NewRandom(rules *submarine.Rules, rng *rand.Rand) *Random {
	return &Random{rules: rules, rng: rng}
}

// Place implements Player.
func (p *Random) Place() submarine.Placement {
	pl := RandomPlacement(p.rules, p.rng)
	p.me = submarine.NewFleet(p.rules, pl)
	return pl
}

// RandomPlacement draws distinct usable cells uniformly (a partial
// Fisher-Yates shuffle of the usable cells) for the ships in fleet order.
func RandomPlacement(rules *submarine.Rules, rng *rand.Rand) submarine.Placement {
	cells := rules.Board.Usable().Cells()
	pl := make(submarine.Placement, len(rules.Fleet))
	for i := range pl {
		j := i + rng.IntN(len(cells)-i)
		cells[i], cells[j] = cells[j], cells[i]
		pl[i] = cells[i]
	}
	return pl
}

// Act implements Player.
func (p *Random) Act() submarine.Action {
	if p.rng.IntN(2) == 1 {
		if a, ok := randomMove(p.rules, &p.me, p.rng); ok {
			return a
		}
	}
	reach := p.rules.Reach(&p.me)
	return submarine.AttackAt(reach.Nth(p.rng.IntN(reach.Count())))
}

// randomMove draws a legal move uniformly over all (ship, destination) pairs.
func randomMove(rules *submarine.Rules, f *submarine.Fleet, rng *rand.Rand) (submarine.Action, bool) {
	var targets [submarine.MaxShips]grid.Set
	var counts [submarine.MaxShips]int
	total := 0
	for i := range len(rules.Fleet) {
		targets[i] = rules.MoveTargets(f, i)
		counts[i] = targets[i].Count()
		total += counts[i]
	}
	if total == 0 {
		return submarine.Action{}, false
	}
	k := rng.IntN(total)
	for i := range len(rules.Fleet) {
		if k < counts[i] {
			return submarine.MoveTo(i, targets[i].Nth(k)), true
		}
		k -= counts[i]
	}
	panic("unreachable")
}

// Observe implements Player.
func (p *Random) Observe(_ submarine.Event, v *submarine.View) { p.me = v.Me }
