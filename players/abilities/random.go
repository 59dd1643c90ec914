package abplayers

import (
	"math/rand/v2"

	bsbelief "github.com/kaisen-ai/kaisen/belief/battleship"
	"github.com/kaisen-ai/kaisen/game/abilities"
	"github.com/kaisen-ai/kaisen/game/battleship"
	"github.com/kaisen-ai/kaisen/game/grid"
)

// Random ("ab-random") plays uniformly among the sensible actions: on its
// turn it shoots a cell it has not fired at, or, with probability 1/4 each
// when it may, uses its salvo, its 3-deck or moves a 1-deck to a random free
// neighbour; as the defender it answers every question at random. It
// places uniformly.
type Random struct {
	rules  *abilities.Rules
	seat   int
	placer *bsbelief.UniformPlacer
	rng    *rand.Rand
	own    *ownFleet
	fired  grid.Set // cells it fired at
	used   [4]bool  // abilities used this turn, by ship length
}

var _ Player = (*Random)(nil)

// NewRandom returns a random player for seat.
func NewRandom(r *abilities.Rules, seat int, placer *bsbelief.UniformPlacer, rng *rand.Rand) *Random {
	return &Random{rules: r, seat: seat, placer: placer, rng: rng}
}

// Place implements Player.
func (p *Random) Place() battleship.Placement {
	l := placeOrEmpty(p.placer, p.rng)
	p.own = newOwnFleet(p.rules, l)
	return l
}

// Act implements Player.
func (p *Random) Act(q *abilities.Question) abilities.Action {
	if q != nil {
		return randomAnswer(q, p.rng)
	}
	b := p.rules.Base.Board
	left := b.Usable().AndNot(p.fired)
	if left.Empty() {
		left = b.Usable()
	}
	c := left.Nth(p.rng.IntN(left.Count()))
	if !p.used[abilities.MoverLen] && p.rng.IntN(4) == 0 {
		if moves := p.own.moves(); len(moves) > 0 {
			return moves[p.rng.IntN(len(moves))]
		}
	}
	if !p.used[abilities.SalvoLen] && p.own.has(abilities.SalvoLen) && p.rng.IntN(4) == 0 {
		if p.rules.Sides[p.seat] == abilities.Humans {
			if !b.Around(c).AndNot(p.fired).Empty() {
				return abilities.Action{Kind: abilities.Salvo, At: c, To: c}
			}
			return abilities.Action{Kind: abilities.Shoot, At: c}
		}
		for _, n := range abilities.Neighbours(b, c) {
			if !p.fired.Has(n) {
				return abilities.Action{Kind: abilities.Salvo, At: min(c, n), To: max(c, n)}
			}
		}
	}
	special := !p.used[abilities.SpecialLen] && p.own.has(abilities.SpecialLen) && p.rng.IntN(4) == 0
	return abilities.Action{Kind: abilities.Shoot, At: c, Special: special}
}

// Observe implements Player.
func (p *Random) Observe(ev abilities.Event) {
	p.own.observe(ev, p.seat)
	if ev.Attacker == p.seat {
		for _, r := range ev.Cells {
			p.fired.Add(r.At)
		}
		switch ev.Kind {
		case abilities.Move:
			p.used[abilities.MoverLen] = true
		case abilities.Salvo:
			p.used[abilities.SalvoLen] = true
		}
		p.used[abilities.SpecialLen] = p.used[abilities.SpecialLen] || ev.Special
	}
	if ev.TurnEnd {
		p.used = [4]bool{}
	}
}

// randomAnswer answers a question uniformly.
func randomAnswer(q *abilities.Question, rng *rand.Rand) abilities.Action {
	if q.Ask != abilities.AskReveal {
		return abilities.Action{Kind: abilities.Defend, Use: rng.IntN(2) == 0}
	}
	cells := q.Cells.Cells()
	rng.Shuffle(len(cells), func(i, j int) { cells[i], cells[j] = cells[j], cells[i] })
	return abilities.Action{Kind: abilities.Reveal, Cells: cells[:q.Count]}
}
