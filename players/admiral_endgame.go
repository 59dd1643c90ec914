package players

import (
	"fmt"

	"github.com/kaisen-ai/kaisen/endgame"
	"github.com/kaisen-ai/kaisen/game/submarine"
)

// Perfect play once the game has become one of perfect information: when
// admiral's joint beliefs of both fleets hold one placement each, both sides
// know everything (our exposure belief is what a perfect opponent knows of
// us), and the exact solver (package endgame) values every legal action.
// Admiral takes the fastest win, never steps from the position's value into
// a worse one (so never from a draw into a loss), and among the actions that
// keep the value chooses by its own search, which keeps probing for an
// opponent's mistakes; with only losses left it delays the longest.

// solved is the solver's verdict on this turn's position.
type solved struct {
	on      bool                      // the position is one of perfect information and was solved
	value   endgame.Value             // the position's value for us
	allowed map[submarine.Action]bool // the actions that keep it
	best    submarine.Action          // the solver's best action
}

// solve values the position when both beliefs are exact singletons.
func (p *planner) solve() (solved, error) {
	a := p.a
	sv := a.shared.solver
	if sv == nil || a.enemyJ == nil || a.enemyJ.Count() != 1 || a.ownJ.Count() != 1 {
		return solved{}, nil
	}
	enemy := a.enemyJ.Placement(0, nil)
	pos, err := endgame.Known(a.rules, a.me, enemy, a.enemyHP)
	if err != nil {
		return solved{}, fmt.Errorf("admiral: endgame position: %w", err)
	}
	acts, err := sv.Actions(pos)
	if err != nil {
		return solved{}, fmt.Errorf("admiral: endgame: %w", err)
	}
	if a.perfectAt == 0 {
		a.perfectAt = a.actions + 1
	}
	s := solved{on: true, value: acts[0].Value, best: acts[0].Action, allowed: map[submarine.Action]bool{}}
	for _, sa := range acts {
		if sa.Value.Compare(s.value) == 0 {
			s.allowed[sa.Action] = true
		}
	}
	return s, nil
}

// keepAllowed drops the candidates the solver's verdict rules out.
func (p *planner) keepAllowed(s *solved) {
	if !s.on {
		return
	}
	kept := p.cands[:0]
	for _, c := range p.cands {
		if s.allowed[c.act] {
			kept = append(kept, c)
		}
	}
	if len(kept) == 0 {
		// Never expected (the solver's actions are the legal ones): keep
		// its best.
		kept = append(kept, scored{act: s.best})
	}
	p.cands = kept
}

// PerfectAt is the number of the action (both sides counted, from 1) at
// which the game first became one of perfect information for this player
// and the exact solver took over, 0 if it never did.
func (a *Admiral) PerfectAt() int { return a.perfectAt }
