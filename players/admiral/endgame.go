package admiral

import (
	"fmt"
	"slices"

	"github.com/kaisen-ai/kaisen/explain"

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
	on      bool               // the position is one of perfect information and was solved
	value   endgame.Value      // the position's value for us
	allowed []submarine.Action // the actions that keep it (the planner's buffer)
	best    submarine.Action   // the solver's best action
	pos     endgame.Position   // the position, us to move
	// partial: we know the enemy fleet but it does not know ours exactly.
	// The value is then what an enemy that knew it could force: a floor.
	partial bool
}

// solve values the position when the enemy fleet is known: with on set
// when our exposure belief is a singleton too (perfect information);
// otherwise partial: a forced win is then played (the solver assumes an
// enemy that knows our fleet, so its win is forced against any enemy), and
// a draw is what the opponent model's search may improve on when it may
// run (see exploit); without the search only a win is kept.
func (p *planner) solve() (solved, error) {
	a := p.a
	sv := a.shared.solver
	if sv == nil || a.enemyJ == nil || a.enemyJ.Count() != 1 {
		return solved{}, nil
	}
	known := a.ownJ.Count() == 1
	searchable := known || p.exploitable()
	enemy := a.enemyJ.Placement(0, nil)
	pos, err := endgame.Known(a.rules, a.me, enemy, a.enemyHP)
	if err != nil {
		return solved{}, fmt.Errorf("admiral: endgame position: %w", err)
	}
	if p.memo.sv != sv {
		p.memo = actionsMemo{sv: sv}
	}
	acts, err := p.memo.actions(pos)
	if err != nil {
		return solved{}, fmt.Errorf("admiral: endgame: %w", err)
	}
	s := solved{on: known, partial: !known, value: acts[0].Value, best: acts[0].Action, allowed: p.allowed[:0], pos: pos}
	if !known && s.value.Outcome != endgame.Win && (s.value.Outcome != endgame.Draw || !searchable) {
		// A loss (or unproved) against an enemy that knew our fleet says
		// little against one that does not: admiral's search decides. So
		// does a draw, unless the opponent model's search may use it.
		return solved{}, nil
	}
	if known && a.perfectAt == 0 {
		a.perfectAt = a.actions + 1
	}
	for _, sa := range acts {
		if sa.Value.Compare(s.value) == 0 {
			s.allowed = append(s.allowed, sa.Action)
		}
	}
	p.allowed = s.allowed
	return s, nil
}

// keeps reports whether act keeps the solver's value (a short list: a
// scan beats a map, which every solved turn would build).
func (s *solved) keeps(act submarine.Action) bool { return slices.Contains(s.allowed, act) }

// keepAllowed drops the candidates the solver's verdict rules out (with
// perfect information only).
func (p *planner) keepAllowed(s *solved) {
	if !s.on {
		return
	}
	kept := p.cands[:0]
	for _, c := range p.cands {
		if s.keeps(c.act) {
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

// exploitable reports whether the opponent model is sure enough of a
// policy it can search against, and the enemy's chart of us small enough.
func (p *planner) exploitable() bool {
	a := p.a
	o := &a.cfg.Opponent
	return a.model.pols != nil && !a.pubBroken && o.ExploitNodes > 0 &&
		a.pub.Total() <= modelSearchChart && a.model.exploitable() >= o.ExploitMin
}

// modelSearchChart bounds the enemy's chart of us the search carries.
const modelSearchChart = 64

// exploit looks, in a position the solver calls drawn (or cannot prove)
// with the enemy fleet known, for a win forced against the opponent model
// among the actions that keep the solver's value (model_search.go).
// When the enemy does not know our fleet exactly the solver's value is a
// floor (it assumes the enemy knows it), so the actions kept are safe
// either way.
func (p *planner) exploit(s *solved) (submarine.Action, explain.Decision, bool) {
	a := p.a
	o := &a.cfg.Opponent
	if !(s.on || s.partial) || s.value.Outcome == endgame.Loss || !p.exploitable() {
		return submarine.Action{}, explain.Decision{}, false
	}
	ms := &p.ms
	if ms.m == nil {
		*ms = modelSearch{r: a.rules, sv: a.shared.solver, m: &a.model, support: o.ExploitSupport}
	}
	ms.reset(p.lean.budget(o, a.lastHit, a.pub.Total()))
	root := msState{us: s.pos.Mover, them: s.pos.Other, chart: slices.Clone(a.pub.Placements())}
	act, depth, ok := ms.exploit(root, s.keeps, o.ExploitDepth)
	p.lean.after(ok, ms.aborted())
	if !ok {
		return submarine.Action{}, explain.Decision{}, false
	}
	a.exploits++
	top, w := a.model.top()
	dec := explain.Decision{State: "exploit", Reason: fmt.Sprintf(
		"enemy fleet known (%s against an enemy that knew ours); a win forced in %d moves of ours against the model (%s %.2f; enemy's chart of us %d placements; %d nodes), every action keeping the solver's value",
		s.value, depth, top, w, len(root.chart), ms.nodes)}
	dec.Candidates = []explain.Candidate{{Action: a.actionName(act), Score: 1}}
	return act, dec, true
}

// Exploits is the number of decisions in which the model's search found a
// win forced against the opponent model and played it.
func (a *Admiral) Exploits() int { return a.exploits }
