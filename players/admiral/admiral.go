package admiral

import (
	"fmt"
	"math/rand/v2"

	"github.com/kaisen-ai/kaisen/belief"
	"github.com/kaisen-ai/kaisen/explain"
	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/game/submarine"
	"github.com/kaisen-ai/kaisen/players"
	"github.com/kaisen-ai/kaisen/players/chart"
)

// Admiral is Kaisen's strongest submarine player (docs/admiral.md). It keeps
// two exact joint beliefs (belief.Joint): where the enemy fleet may be, from
// everything public (our attacks' answers, the enemy's moves and the cells
// the enemy attacks, which reveal an enemy ship within 1), and where the
// enemy may believe our fleet is (our exposure), updated from the same
// events. Every turn it scores every legal action in two stages:
//
//  1. one-ply expectimax over the enemy belief: the exact distribution of
//     the attack's answer (hit, sink, near set) gives the expected hits and
//     sinks and the expected information gain in bits; the exposure belief
//     gives the information the action leaks about us in bits; and a
//     follow-up term is the probability that our best attack next turn hits;
//  2. a determinized expectimax for the best candidates: enemy placements
//     (worlds) are drawn from the joint belief, stratified by the attack's
//     answer, the action is played out in each world, the enemy replies by a
//     model of a strong player that knows exactly what we leaked (take a sure
//     hit, else move a pinned ship that our reach threatens to the safest
//     cell, else attack where our ships most likely are), and the position
//     after the reply is valued by what we lost and by our best attack's hit
//     probability next turn.
//
// Games are finished, not drawn: moves back into a recent formation are
// penalised, and after a stretch without hits the player gives less weight to
// leaks and to the risk of being hit. Placement avoids the cells that an
// opponent's first attacks favour, spreads the fleet, and is drawn at random
// among good placements (seeded), so it is neither the reference players'
// corners nor predictable.
//
// Boards too large for an exact joint belief (config belief.max_joint) fall
// back to per-ship beliefs (belief.Ships, careful updates) sampled into
// placements, with the same search.
type Admiral struct {
	rules  *submarine.Rules
	cfg    AdmiralConfig
	rng    *rand.Rand
	shared *admiralShared

	me      submarine.Fleet
	enemyHP [submarine.MaxShips]int8
	// enemyDisp is each enemy ship's summed displacement: its current cell
	// minus its initial one (every move tells it).
	enemyDisp [submarine.MaxShips][2]int
	// learnt is the enemy placement prior learnt over a series
	// (series.go), nil outside one.
	learnt *learntPrior

	enemyJ, ownJ *belief.Joint // nil in the per-ship fallback
	enemyS, ownS belief.Ships  // always kept (careful updates)

	actions   int // actions observed (both sides)
	lastHit   int // value of actions at the last hit by either side
	history   []uint64
	placement submarine.Placement
	// firstAttack is the cell of the enemy's attack when it was the
	// game's first action (the opening book reads it), else grid.None.
	firstAttack grid.Cell

	opp opponentStats
	// model is the posterior over opponent policies (model.go);
	// pols is nil when opponent.model is off.
	model oppModel
	// pub is our fleet as a joint-greedy opponent that ignores the near
	// report of a hit (hirota) knows it: the chart the model's policies read.
	pub       chart.Chart
	pubBroken bool // pub could not explain an event (never expected)
	// perfectAt is the action at which the exact solver first took over.
	perfectAt int
	exploits  int // decisions played from a proof against the model
	gambles   int // decisions played from a gamble against the model
	plan      planner
	dec       explain.Decision
	noted     bool // dec is still to be written from plan.note (Explain)
	beliefEr  int  // observations a belief refused (should stay 0)
}

var (
	_ players.Player    = (*Admiral)(nil)
	_ explain.Explainer = (*Admiral)(nil)
)

// NewAdmiral returns an Admiral for rules (which must be valid) with weights
// cfg (which must be valid), drawing every random choice from rng.
func NewAdmiral(rules *submarine.Rules, cfg AdmiralConfig, rng *rand.Rand) *Admiral {
	return newAdmiral(rules, cfg, rng, newAdmiralShared(rules, cfg))
}

func newAdmiral(rules *submarine.Rules, cfg AdmiralConfig, rng *rand.Rand, sh *admiralShared) *Admiral {
	a := &Admiral{rules: rules, cfg: cfg, rng: rng, shared: sh, learnt: sh.corpus, firstAttack: grid.None}
	a.enemyS = belief.NewShips(rules)
	a.ownS = belief.NewShips(rules)
	if cfg.Belief.MaxJoint > 0 {
		if j, err := belief.NewJoint(rules, cfg.Belief.MaxJoint); err == nil {
			a.enemyJ = j
			a.ownJ = j.Clone()
		}
	}
	for i, s := range rules.Fleet {
		a.enemyHP[i] = int8(s.HP)
	}
	if cfg.Opponent.Model && a.enemyJ != nil {
		if all, err := sh.chartPlacements(rules); err == nil {
			a.model = newOppModel(modelFamily(sh.solver), cfg.Opponent.Epsilon)
			a.pub.Reset(rules.Board, len(rules.Fleet), false, all)
		}
	}
	a.plan.init(a)
	return a
}

// Exact reports whether the player keeps exact joint beliefs (false: the
// per-ship fallback for boards too large).
func (a *Admiral) Exact() bool { return a.enemyJ != nil }

// Place implements Player.
func (a *Admiral) Place() submarine.Placement {
	pl := a.shared.place(a.rules, &a.cfg.Placement, a.rng)
	a.placement = pl
	a.me = submarine.NewFleet(a.rules, pl)
	return pl
}

// Act implements Player.
func (a *Admiral) Act() submarine.Action {
	if act, ok := a.bookAct(); ok {
		a.dec = explain.Decision{State: "opening", Reason: "opening book: the search's choice for this position, found once for the default rules and weights",
			Candidates: []explain.Candidate{{Action: a.actionName(act), Score: 0}}}
		a.noted = false
		return act
	}
	act, dec := a.plan.decide()
	a.dec, a.noted = dec, dec.State == ""
	return act
}

// Explain implements Explainer: the phase, why, and the best candidates with
// their values (in hits). A searched decision's explanation is written
// here, from the note the search left (most are never asked for).
func (a *Admiral) Explain() explain.Decision {
	if a.noted {
		a.dec, a.noted = a.plan.note.explain(a), false
	}
	return a.dec
}

// Observe implements Player.
func (a *Admiral) Observe(ev submarine.Event, v *submarine.View) {
	a.actions++
	if a.actions == 1 && !ev.Mine && !ev.Illegal && ev.Kind == submarine.Attack {
		a.firstAttack = ev.At
	}
	if !ev.Mine && !ev.Illegal {
		a.observeModel(ev) // before the view: the position the enemy acted in
	}
	if v != nil {
		a.me = v.Me
		a.enemyHP = v.EnemyHP
	}
	if ev.Illegal {
		return
	}
	if ev.Kind == submarine.Attack && ev.Hit != submarine.NoShip {
		a.lastHit = a.actions
	}
	if !ev.Mine {
		a.observeOpponent(ev)
		if ev.Kind == submarine.Move && ev.Ship >= 0 && ev.Ship < submarine.MaxShips {
			a.enemyDisp[ev.Ship][0] += ev.DX
			a.enemyDisp[ev.Ship][1] += ev.DY
		}
	}
	if a.enemyJ != nil {
		if err := a.enemyJ.Observe(ev, belief.Enemy); err != nil {
			a.beliefEr++
		}
		if err := a.ownJ.Observe(ev, belief.Own); err != nil {
			a.beliefEr++
		}
	}
	a.observeChart(ev)
	a.enemyS.ObserveCareful(ev, belief.Enemy)
	a.ownS.ObserveCareful(ev, belief.Own)
	// A sinking reported through the view only (never expected, but cheap).
	for i := range len(a.rules.Fleet) {
		if a.enemyHP[i] == 0 && a.enemyS.Alive().Has(i) {
			a.enemyS.Sink(i)
		}
	}
	if ev.Mine {
		a.history = append(a.history, formation(&a.me, len(a.rules.Fleet)))
		if max := a.cfg.Endgame.Memory; len(a.history) > max {
			a.history = a.history[len(a.history)-max:]
		}
	}
}

// formation packs our living ships' cells (byte i = cell of ship i + 1, 0
// for a sunk ship).
func formation(f *submarine.Fleet, n int) uint64 {
	var h uint64
	for i := range n {
		if f.Alive.Has(i) {
			h |= uint64(uint8(f.Pos[i])+1) << (8 * i)
		}
	}
	return h
}

// BeliefErrors is the number of observations a belief refused as
// inconsistent (a bug if not 0; tests check it).
func (a *Admiral) BeliefErrors() int { return a.beliefEr }

// EnemyBelief returns the exact joint belief about the enemy fleet (nil in
// the per-ship fallback). It is the player's own: read it only.
func (a *Admiral) EnemyBelief() *belief.Joint { return a.enemyJ }

// OwnBelief returns the exact joint belief about our fleet as the enemy can
// know it (nil in the per-ship fallback). It is the player's own: read it only.
func (a *Admiral) OwnBelief() *belief.Joint { return a.ownJ }

func (a *Admiral) actionName(act submarine.Action) string {
	switch act.Kind {
	case submarine.Attack:
		return "attack " + a.rules.CellName(act.To)
	case submarine.Move:
		return fmt.Sprintf("move %s to %s", a.rules.Fleet[act.Ship].Name, a.rules.CellName(act.To))
	}
	return "invalid"
}

// cellOf extracts ship i's cell from a packed placement.
func cellOf(t uint64, i int) grid.Cell { return grid.Cell(uint8(t >> (8 * i))) }

// observeOpponent feeds the enemy's action ev to the opponent statistics,
// with the enemy ships our belief locates before it.
func (a *Admiral) observeOpponent(ev submarine.Event) {
	var locs [submarine.MaxShips]grid.Cell
	for i := range locs {
		locs[i] = grid.None
		if i >= len(a.rules.Fleet) || !a.enemyS.Alive().Has(i) {
			continue
		}
		var s grid.Set
		if a.enemyJ != nil {
			s = a.enemyJ.Support(i)
		} else {
			s = a.enemyS.Set(i)
		}
		if s.Count() == 1 {
			locs[i] = s.First()
		}
	}
	a.opp.observe(ev, &locs, &a.me, a.rules.Board)
}
