package abplayers

import (
	"slices"

	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/game/abilities"
	"github.com/kaisen-ai/kaisen/game/battleship"
	"github.com/kaisen-ai/kaisen/game/grid"
)

// ownFleet is what a player knows of its own fleet: where its ships are
// (1-decks move), which are sunk, which of its cells the enemy has shot,
// and which of its ships are suppressed this turn.
type ownFleet struct {
	rules    *abilities.Rules
	ships    battleship.Placement
	hits     []int    // by ship: cells hit
	shot     grid.Set // own cells the enemy fired at
	suppress []bool   // by ship: suppressed for the next own turn
	supNow   []bool   // by ship: suppressed this own turn
	enemyPos *battleship.Position
}

func newOwnFleet(r *abilities.Rules, p battleship.Placement) *ownFleet {
	p = p.Normalize()
	return &ownFleet{rules: r, ships: p, hits: make([]int, len(p)), suppress: make([]bool, len(p)),
		supNow: make([]bool, len(p)), enemyPos: battleship.NewPosition(r.Base)}
}

func (o *ownFleet) shipAt(c grid.Cell) int {
	for i, s := range o.ships {
		if slices.Contains(s, c) {
			return i
		}
	}
	return -1
}

func (o *ownFleet) afloat(i int) bool { return o.hits[i] < len(o.ships[i]) }

// has reports whether an afloat, unsuppressed ship of length l is left.
func (o *ownFleet) has(l int) bool {
	if o == nil {
		return false
	}
	for i, s := range o.ships {
		if len(s) == l && o.afloat(i) && !o.supNow[i] {
			return true
		}
	}
	return false
}

// moves lists the legal moves of the afloat, unsuppressed 1-decks.
func (o *ownFleet) moves() []abilities.Action {
	if o == nil {
		return nil
	}
	b := o.rules.Base.Board
	var out []abilities.Action
	for i, s := range o.ships {
		if len(s) != abilities.MoverLen || !o.afloat(i) || o.supNow[i] {
			continue
		}
		var others grid.Set
		for j, t := range o.ships {
			if j != i {
				others = others.Union(grid.Of(t...))
			}
		}
		for _, to := range abilities.Neighbours(b, s[0]) {
			if o.shot.Has(to) || others.Has(to) || (!o.rules.Options.MoveMayTouch && b.Around(to).Intersects(others)) {
				continue
			}
			out = append(out, abilities.Action{Kind: abilities.Move, At: s[0], To: to})
		}
	}
	return out
}

// observe follows the own fleet through an event seen by seat.
func (o *ownFleet) observe(ev abilities.Event, seat int) {
	if o == nil {
		return
	}
	if ev.Mine && ev.Kind == abilities.Move && ev.Moved {
		if i := o.shipAt(ev.From); i >= 0 {
			o.ships[i][0] = ev.To
		}
	}
	if ev.Attacker != seat {
		for _, r := range ev.Cells {
			if r.AirDefence {
				continue
			}
			o.shot.Add(r.At)
			res := battleship.Result{At: r.At, Outcome: r.Outcome, Sunk: r.Sunk, Repeat: r.Repeat}
			if r.FalseMiss {
				res.Outcome = battleship.Miss
			}
			o.enemyPos.Record(res)
			if i := o.shipAt(r.At); i >= 0 && !r.Repeat && !r.FalseMiss && r.Outcome != battleship.Miss {
				o.hits[i]++
			}
		}
		if ev.Special && o.rules.Sides[1-seat] == abilities.Humans && len(ev.Cells) > 0 && !ev.Cells[0].AirDefence {
			c := ev.Cells[0].At
			for i, s := range o.ships {
				for _, sc := range s {
					if o.afloat(i) && o.rules.Base.Board.Chebyshev(sc, c) <= 1 {
						o.suppress[i] = true
					}
				}
			}
		}
	}
	if ev.TurnEnd && ev.Status == game.Running {
		if ev.Next == seat {
			copy(o.supNow, o.suppress)
			clear(o.suppress)
		} else {
			clear(o.supNow)
		}
	}
}
