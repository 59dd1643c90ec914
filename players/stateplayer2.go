package players

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/kaisen-ai/kaisen/belief"
	"github.com/kaisen-ai/kaisen/explain"
	"github.com/kaisen-ai/kaisen/fsm"
	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/game/submarine"
)

// StatePlayer2 is the finite-state player of the design document
// seeds/003-stateplayer2-ja.md (spec stateplayer2.md), ported faithfully
// except for the reference's known defects, and driven by the state machine
// of package fsm (states sakuteki, attack, escape, stealth).
//
// Beliefs: enemy (belief.Ships, side Enemy) is where each enemy ship may be;
// mine (belief.Ships, side Own) is where the enemy may believe each of my
// ships is — my exposure. A ship is pinned when its set has one cell.
//
// Every Act first applies the global rules (one ship left: stealth with it;
// otherwise, unless in stealth or escape, an enemy ship pinned: attack its
// cell), then runs the current state. A state either returns an action or
// fires an event (fsm.Table) and hands over to the next state within the same
// Act; after a bounded number of hand-overs a fallback attack (always legal)
// ends the turn, so the player never stalls and never acts illegally.
//
// Ties: every state enumerates its candidates in a fixed order and keeps the
// first one found among equal scores (a later candidate must score strictly
// more). Cells are enumerated in increasing cell index, i.e. row-major (row y
// from the top, then column x from the left); ships in fleet order (w, c, s);
// moves ship by ship, destinations in cell order; two-move plans ship by ship,
// first leg in cell order, then second leg in cell order; pinned enemy ships
// in fleet order.
//
// Deviations from the published reference player (each marked DEVIATION
// below, listed in docs/stateplayer2.md):
//
//  1. the danger zone is a set of cells and includes the pinned enemy's cell;
//  2. scores use float division (sakuteki splash term, stealth ratio);
//  3. sakuteki ignores cells no enemy ship can be on or next to (attacking
//     them tells nothing), the attack state gives up a target proven empty
//     in that sense or already fired at, and a target given up on counts as
//     searched, so no empty cell is attacked over and over;
//  4. the searched list is cleared when another state acts, not merely runs
//     (a failed attack that falls back to sakuteki keeps it);
//  5. the last ship avoids the cells it left recently (stealth.memory), so it
//     does not shuttle between two cells forever;
//  6. with belief.careful the beliefs also use what attacks reveal (a ship of
//     the attacker within 1 of the attacked cell) and that two ships of a
//     fleet never share a cell.
type StatePlayer2 struct {
	rules *submarine.Rules
	cfg   StatePlayer2Config
	rng   *rand.Rand
	m     *fsm.Machine

	me      submarine.Fleet
	enemyHP [submarine.MaxShips]int8
	enemy   belief.Ships // where each enemy ship may be
	mine    belief.Ships // where the enemy may believe each of my ships is

	// searched: cells attacked (or given up on) during this stretch of
	// sakuteki; cleared when another state acts.
	searched grid.Set
	// targetFired: the attack state has fired at its current target.
	targetFired bool
	// left is a ring of the cells my ships left most recently.
	left  [sp2MaxMemory]grid.Cell
	leftN int

	// scoring scratch, filled by prepScore
	nEnemy int
	eSet   [submarine.MaxShips]grid.Set
	eInv   [submarine.MaxShips]float64
	eAny   grid.Set // every cell that may hold an enemy ship
	// cleared: the searched list was already restarted during this Act.
	cleared bool

	// explanation of the last Act
	acted    fsm.State
	reason   string
	path     [sp2MaxPath]fsm.Event // events fired since the last action
	pathN    int
	lastPath [sp2MaxPath]fsm.Event
	lastN    int
	cands    []sp2Cand

	fsmErrs int // events the machine refused (a bug; tests require 0)
	lastErr error
}

type sp2Cand struct {
	a     submarine.Action
	score float64
}

const sp2MaxPath = 16

var (
	_ Player            = (*StatePlayer2)(nil)
	_ explain.Explainer = (*StatePlayer2)(nil)
)

// NewStatePlayer2 returns a StatePlayer2 for rules with weights cfg, drawing
// its placement from rng.
func NewStatePlayer2(rules *submarine.Rules, cfg StatePlayer2Config, rng *rand.Rand) (*StatePlayer2, error) {
	if err := rules.Validate(); err != nil {
		return nil, fmt.Errorf("players: stateplayer2: %w", err)
	}
	if err := cfg.CheckRules(rules); err != nil {
		return nil, fmt.Errorf("players: stateplayer2: %w", err)
	}
	return newStatePlayer2(rules, cfg, rng), nil
}

func newStatePlayer2(rules *submarine.Rules, cfg StatePlayer2Config, rng *rand.Rand) *StatePlayer2 {
	p := &StatePlayer2{
		rules: rules,
		cfg:   cfg,
		rng:   rng,
		m:     fsm.New(),
		enemy: belief.NewShips(rules),
		mine:  belief.NewShips(rules),
		cands: make([]sp2Cand, 0, 64),
	}
	for i := range p.me.Pos {
		p.me.Pos[i] = grid.None
	}
	return p
}

// State is the machine's current state.
func (p *StatePlayer2) State() fsm.State { return p.m.State() }

// Place implements Player: it samples cfg.Placement.Samples distinct usable
// cells and puts the fleet on the subset of them with the largest sum of
// squared pairwise (Euclidean) distances, ships in fleet order on the chosen
// samples in sample order. Subsets are compared in lexicographic order of
// sample indices; the first best wins.
func (p *StatePlayer2) Place() submarine.Placement {
	b := p.rules.Board
	cells := b.Usable().Cells()
	n, k := min(p.cfg.Placement.Samples, len(cells)), len(p.rules.Fleet)
	n = max(n, k)
	for i := range n {
		j := i + p.rng.IntN(len(cells)-i)
		cells[i], cells[j] = cells[j], cells[i]
	}
	sample := cells[:n]
	best := sp2Spread(b, sample, k)
	pl := make(submarine.Placement, k)
	for i := range k {
		pl[i] = sample[best[i]]
	}
	p.me = submarine.NewFleet(p.rules, pl)
	for i := range k {
		p.enemyHP[i] = int8(p.rules.Fleet[i].HP)
	}
	return pl
}

// sp2Spread returns the indices (increasing) of the k cells of sample with
// the largest sum of squared pairwise Euclidean distances. Subsets are
// enumerated in lexicographic order of indices and the first best wins.
func sp2Spread(b *grid.Board, sample []grid.Cell, k int) [submarine.MaxShips]int {
	n := len(sample)
	var idx, best [submarine.MaxShips]int
	for i := range k {
		idx[i] = i
		best[i] = i
	}
	if k > n {
		return best
	}
	bestScore := -1
	for {
		s := 0
		for a := range k {
			ax, ay := b.XY(sample[idx[a]])
			for c := a + 1; c < k; c++ {
				cx, cy := b.XY(sample[idx[c]])
				s += (ax-cx)*(ax-cx) + (ay-cy)*(ay-cy)
			}
		}
		if s > bestScore {
			bestScore, best = s, idx
		}
		// next k-combination of 0..n-1 in lexicographic order
		i := k - 1
		for i >= 0 && idx[i] == n-k+i {
			i--
		}
		if i < 0 {
			return best
		}
		idx[i]++
		for j := i + 1; j < k; j++ {
			idx[j] = idx[j-1] + 1
		}
	}
}

// Act implements Player.
func (p *StatePlayer2) Act() submarine.Action {
	a := p.decide()
	p.lastPath, p.lastN = p.path, p.pathN
	p.pathN = 0
	return a
}

func (p *StatePlayer2) decide() submarine.Action {
	p.cands = p.cands[:0]
	p.reason = ""
	p.cleared = false
	p.global()
	// Each state either acts or fires an event that hands over to another
	// state. The longest chain is sakuteki -exhausted-> attack -give_up->
	// sakuteki ... once per cell at most (every give-up marks a cell as
	// searched), so this bound is never reached in practice; the fallback
	// guarantees an action regardless.
	steps := 2*p.rules.Board.Size() + 8
	for range steps {
		st := p.m.State()
		var (
			a  submarine.Action
			ok bool
		)
		switch st {
		case fsm.Sakuteki:
			a, ok = p.sakuteki()
		case fsm.Attack:
			a, ok = p.attack()
		case fsm.Escape:
			a, ok = p.escape()
		case fsm.Stealth:
			a, ok = p.stealth()
		}
		if ok {
			if st != fsm.Sakuteki {
				// DEVIATION 4: the searched list is cleared when another
				// state acts (the reference clears it whenever another state
				// runs, even when that state only falls back to sakuteki).
				p.searched = grid.Set{}
			}
			p.acted = st
			return a
		}
	}
	return p.fallback()
}

// global applies the global rules before the state runs.
func (p *StatePlayer2) global() {
	if p.me.Alive.Count() == 1 {
		for i := range len(p.rules.Fleet) {
			if p.me.Alive.Has(i) {
				p.fire(fsm.LastShip, fsm.ShipMsg(i))
				return
			}
		}
	}
	if st := p.m.State(); st == fsm.Stealth || st == fsm.Escape {
		return
	}
	for k := range len(p.rules.Fleet) {
		if c, ok := p.enemy.Pinned(k); ok {
			p.fire(fsm.Pinned, fsm.CellMsg(c))
			p.targetFired = false
			return
		}
	}
}

// fire sends an event to the machine and records it for Explain when it
// changed the state or the target (re-firing the current state with the
// current target is a no-op).
func (p *StatePlayer2) fire(ev fsm.Event, msg fsm.Msg) {
	st, old := p.m.State(), p.m.Msg()
	if err := p.m.Fire(context.Background(), ev, msg); err != nil {
		p.fsmErrs++
		p.lastErr = err
		return
	}
	if p.m.State() == st && p.m.Msg() == old {
		return
	}
	if p.pathN < len(p.path) {
		p.path[p.pathN] = ev
		p.pathN++
	}
}

func (p *StatePlayer2) cand(a submarine.Action, s float64) {
	p.cands = append(p.cands, sp2Cand{a, s})
}

// prepScore caches the enemy sets and their 1/|S_T| factors for score.
func (p *StatePlayer2) prepScore() {
	p.nEnemy = 0
	p.eAny = p.enemy.Any()
	for t := range len(p.rules.Fleet) {
		n := p.enemy.Count(t)
		if n == 0 {
			continue
		}
		p.eSet[p.nEnemy] = p.enemy.Set(t)
		// DEVIATION 2: float division (the reference divides integers).
		p.eInv[p.nEnemy] = p.cfg.Sakuteki.Normaliser / float64(n)
		p.nEnemy++
	}
}

// informative reports whether attacking c can tell anything: some enemy ship
// may be on c or next to it. prepScore must have run.
func (p *StatePlayer2) informative(c grid.Cell) bool {
	return p.rules.Board.Around(c).Intersects(p.eAny)
}

// score is the sakuteki score of attacking c: summed over the living enemy
// ships T, Normaliser/|S_T| * (SplashWeight * |ring(c) ∩ S_T| +
// DirectHitBonus * [c ∈ S_T]). prepScore must have run.
func (p *StatePlayer2) score(c grid.Cell) float64 {
	around := p.rules.Board.Around(c)
	s := 0.0
	for t := range p.nEnemy {
		set := &p.eSet[t]
		k := around.Intersect(*set).Count()
		direct := 0.0
		if set.Has(c) {
			k--
			direct = p.cfg.Sakuteki.DirectHitBonus
		}
		s += p.eInv[t] * (p.cfg.Sakuteki.SplashWeight*float64(k) + direct)
	}
	return s
}

// sakuteki attacks the best unsearched cell in reach, or hands over to attack
// with the best unsearched cell out of reach.
func (p *StatePlayer2) sakuteki() (submarine.Action, bool) {
	p.cands = p.cands[:0]
	p.prepScore()
	reach := p.rules.Reach(&p.me)
	best, bestScore := grid.None, 0.0
	for c := range reach.AndNot(p.searched).All() {
		if !p.informative(c) {
			// DEVIATION 3: no enemy ship can be on or next to c; an attack
			// there tells nothing (the reference may attack it anyway).
			continue
		}
		s := p.score(c)
		p.cand(submarine.AttackAt(c), s)
		if best == grid.None || s > bestScore {
			best, bestScore = c, s
		}
	}
	if best != grid.None {
		p.searched.Add(best)
		p.reason = "sakuteki: best-scoring unsearched cell in reach"
		return submarine.AttackAt(best), true
	}
	// Every informative cell in reach has been searched: go for the best
	// unsearched one out of reach. (The design says "a cell out of reach that
	// was not searched"; Kaisen takes the one with the best sakuteki score.)
	target, ts := grid.None, 0.0
	for c := range p.rules.Board.Usable().AndNot(reach).AndNot(p.searched).All() {
		if !p.informative(c) {
			continue
		}
		if s := p.score(c); target == grid.None || s > ts {
			target, ts = c, s
		}
	}
	if target != grid.None {
		p.fire(fsm.Exhausted, fsm.CellMsg(target))
		p.targetFired = false
		return submarine.Action{}, false
	}
	if !p.searched.Empty() && !p.cleared {
		// Everything informative was searched: start a new stretch (once
		// per Act).
		p.searched = grid.Set{}
		p.cleared = true
		return submarine.Action{}, false
	}
	return p.fallback(), true
}

// expo is n^ExposureExponent.
func (p *StatePlayer2) expo(n int) float64 {
	switch e := p.cfg.Attack.ExposureExponent; e {
	case 2:
		return float64(n * n)
	case 1:
		return float64(n)
	default:
		return math.Pow(float64(n), e)
	}
}

// attack fires at the target cell, or moves a ship so that it can.
func (p *StatePlayer2) attack() (submarine.Action, bool) {
	p.cands = p.cands[:0]
	b := p.rules.Board
	target := p.m.Msg().Cell
	if p.targetFired || !b.IsUsable(target) {
		// DEVIATION 3: the target has been fired at; a still-pinned enemy
		// brings the machine back here through the global rule.
		return p.giveUp(target)
	}
	p.prepScore()
	if !p.informative(target) {
		// DEVIATION 3: no enemy ship can be on or next to the target any more.
		return p.giveUp(target)
	}
	ts := p.score(target)
	reach := p.rules.Reach(&p.me)
	if reach.Has(target) {
		p.targetFired = true
		p.cand(submarine.AttackAt(target), ts)
		p.reason = "attack: target in reach"
		return submarine.AttackAt(target), true
	}

	// Exposure of my fleet now: sum of |my field|^e.
	var cnt [submarine.MaxShips]int
	base := 0.0
	n := len(p.rules.Fleet)
	for j := range n {
		if p.me.Alive.Has(j) {
			cnt[j] = p.mine.Count(j)
			base += p.expo(cnt[j])
		}
	}
	around := b.Around(target)
	var best submarine.Action
	bestScore, found := 0.0, false

	// One move that brings the target within reach.
	for i := range n {
		if !p.me.Alive.Has(i) {
			continue
		}
		fx, fy := b.XY(p.me.Pos[i])
		ms := p.mine.Set(i)
		rest := base - p.expo(cnt[i])
		for d := range p.rules.MoveTargets(&p.me, i).Intersect(around).All() {
			dx, dy := b.XY(d)
			after := b.Shift(ms, dx-fx, dy-fy).Count()
			if sp2Pins(cnt[i], after) {
				continue
			}
			s := rest + p.expo(after)
			a := submarine.MoveTo(i, d)
			p.cand(a, s)
			if !found || s > bestScore {
				best, bestScore, found = a, s, true
			}
		}
	}
	if found {
		p.reason = "attack: one move brings the target in reach"
		return best, true
	}

	// Two-move plans: the first leg now, the second next turn. A plan is
	// scored by the exposure after both legs; neither leg may pin the ship.
	for i := range n {
		if !p.me.Alive.Has(i) {
			continue
		}
		from := p.me.Pos[i]
		fx, fy := b.XY(from)
		ms := p.mine.Set(i)
		rest := base - p.expo(cnt[i])
		others := p.me.Occupied
		others.Remove(from)
		for d1 := range p.rules.MoveTargets(&p.me, i).All() {
			x1, y1 := b.XY(d1)
			s1 := b.Shift(ms, x1-fx, y1-fy)
			n1 := s1.Count()
			if sp2Pins(cnt[i], n1) {
				continue
			}
			planBest, planFound := 0.0, false
			for d2 := range b.Lines(d1).AndNot(others).Intersect(around).All() {
				x2, y2 := b.XY(d2)
				after := b.Shift(s1, x2-x1, y2-y1).Count()
				if sp2Pins(n1, after) {
					continue
				}
				if s := rest + p.expo(after); !planFound || s > planBest {
					planBest, planFound = s, true
				}
			}
			if !planFound {
				continue
			}
			a := submarine.MoveTo(i, d1)
			p.cand(a, planBest)
			if !found || planBest > bestScore {
				best, bestScore, found = a, planBest, true
			}
		}
	}
	if found {
		p.reason = "attack: first leg of a two-move plan"
		return best, true
	}
	return p.giveUp(target)
}

// sp2Pins reports whether a move takes a ship's exposure from before cells
// to a single one. The design forbids moves "after which the moved ship would
// be pinned" (自艦の場所が一箇所に絞られてしまう: the move narrows it down to
// one cell); a ship the enemy has already pinned is not narrowed down by
// moving, so it may move (otherwise a located ship could never close in).
func sp2Pins(before, after int) bool { return after <= 1 && before > 1 }

// giveUp leaves attack for sakuteki, marking the target as searched so that
// sakuteki does not pick it again in this stretch (DEVIATION 3).
func (p *StatePlayer2) giveUp(target grid.Cell) (submarine.Action, bool) {
	if p.rules.Board.IsUsable(target) {
		p.searched.Add(target)
	}
	p.fire(fsm.GiveUp, fsm.NoMsg)
	return submarine.Action{}, false
}

// danger is the danger zone: every cell within distance 1 of a pinned enemy
// ship, the pinned cell included. DEVIATION 1: the reference adds raw
// coordinates instead of cells, so a pinned enemy's own cell is not avoided.
func (p *StatePlayer2) danger() grid.Set {
	var d grid.Set
	for k := range len(p.rules.Fleet) {
		if c, ok := p.enemy.Pinned(k); ok {
			d = d.Union(p.rules.Board.Around(c))
		}
	}
	return d
}

// escape moves the ship that was just hit.
func (p *StatePlayer2) escape() (submarine.Action, bool) {
	p.cands = p.cands[:0]
	b := p.rules.Board
	i := p.m.Msg().Ship
	if !p.me.Alive.Has(i) {
		p.fire(fsm.GiveUp, fsm.NoMsg)
		return submarine.Action{}, false
	}
	from := p.me.Pos[i]
	fx, fy := b.XY(from)
	danger := p.danger()
	var best submarine.Action
	bestScore, found := 0.0, false
	for d := range p.rules.MoveTargets(&p.me, i).AndNot(danger).All() {
		dx, dy := b.XY(d)
		s := p.cfg.Escape.DistanceWeight * float64(sp2Abs(dx-fx)+sp2Abs(dy-fy))
		cover := b.Around(d)
		for j := range len(p.rules.Fleet) {
			if j != i && p.me.Alive.Has(j) && cover.Has(p.me.Pos[j]) {
				s += p.cfg.Escape.AllyWeight * float64(p.me.HP[j]) * float64(p.mine.Count(j))
			}
		}
		if s <= 0 {
			continue
		}
		a := submarine.MoveTo(i, d)
		p.cand(a, s)
		if !found || s > bestScore {
			best, bestScore, found = a, s, true
		}
	}
	if found {
		p.reason = "escape: best safe destination"
		p.fire(fsm.Escaped, fsm.NoMsg)
		return best, true
	}
	reach := p.rules.Reach(&p.me)
	for k := range len(p.rules.Fleet) {
		if c, ok := p.enemy.Pinned(k); ok && reach.Has(c) {
			p.fire(fsm.Cornered, fsm.CellMsg(c))
			p.targetFired = false
			return submarine.Action{}, false
		}
	}
	p.fire(fsm.GiveUp, fsm.NoMsg)
	return submarine.Action{}, false
}

// stealth keeps the last ship moving.
func (p *StatePlayer2) stealth() (submarine.Action, bool) {
	p.cands = p.cands[:0]
	b := p.rules.Board
	i := p.m.Msg().Ship
	if !p.me.Alive.Has(i) {
		p.fire(fsm.GiveUp, fsm.NoMsg)
		return submarine.Action{}, false
	}
	reach := p.rules.Reach(&p.me)
	for k := range len(p.rules.Fleet) {
		if c, ok := p.enemy.Pinned(k); ok && reach.Has(c) {
			p.prepScore()
			p.cand(submarine.AttackAt(c), p.score(c))
			p.reason = "stealth: a pinned enemy ship is in reach"
			return submarine.AttackAt(c), true
		}
	}
	dests := p.rules.MoveTargets(&p.me, i).AndNot(p.danger())
	if dests.Empty() {
		p.fire(fsm.GiveUp, fsm.NoMsg)
		return submarine.Action{}, false
	}
	// DEVIATION 5: prefer destinations not left recently; the reference can
	// shuttle between two cells forever.
	if fresh := dests.AndNot(p.recent()); !fresh.Empty() {
		dests = fresh
	}
	from := p.me.Pos[i]
	fx, fy := b.XY(from)
	ms := p.mine.Set(i)
	before := float64(max(ms.Count(), 1))
	var best submarine.Action
	bestScore, found := 0.0, false
	for d := range dests.All() {
		dx, dy := b.XY(d)
		after := b.Shift(ms, dx-fx, dy-fy).Count()
		// DEVIATION 2: float ratio (the reference divides integers).
		s := p.cfg.Stealth.DistanceWeight*float64(sp2Abs(dx-fx)+sp2Abs(dy-fy)) +
			p.cfg.Stealth.ExposureWeight*float64(after)/before
		a := submarine.MoveTo(i, d)
		p.cand(a, s)
		if !found || s > bestScore {
			best, bestScore, found = a, s, true
		}
	}
	p.reason = "stealth: best move of the last ship"
	return best, true
}

// recent is the set of the last cfg.Stealth.Memory cells my ships left.
func (p *StatePlayer2) recent() grid.Set {
	var s grid.Set
	m := p.cfg.Stealth.Memory
	for k := range min(m, p.leftN) {
		s.Add(p.left[(p.leftN-1-k)%len(p.left)])
	}
	return s
}

// fallback attacks the best-scoring cell in reach (zero scores included): a
// legal action whatever the beliefs say.
func (p *StatePlayer2) fallback() submarine.Action {
	p.cands = p.cands[:0]
	p.prepScore()
	reach := p.rules.Reach(&p.me)
	best, bestScore := reach.First(), -1.0
	for c := range reach.All() {
		if s := p.score(c); s > bestScore {
			best, bestScore = c, s
		}
	}
	if best == grid.None { // no living ship: the game is over anyway
		best = p.rules.Board.Usable().First()
	}
	p.cand(submarine.AttackAt(best), max(bestScore, 0))
	p.reason = "fallback: best cell in reach"
	p.acted = p.m.State()
	return submarine.AttackAt(best)
}

// Observe implements Player: it updates both beliefs and reacts to a hit.
func (p *StatePlayer2) Observe(ev submarine.Event, v *submarine.View) {
	if ev.Mine && ev.Kind == submarine.Move && !ev.Illegal && ev.Ship >= 0 && ev.Ship < len(p.rules.Fleet) {
		if from := p.me.Pos[ev.Ship]; from != grid.None {
			p.left[p.leftN%len(p.left)] = from
			p.leftN++
		}
	}
	p.me = v.Me
	p.enemyHP = v.EnemyHP
	// DEVIATION 6 (belief.careful): also use what attacks reveal.
	if p.cfg.Belief.Careful {
		p.enemy.ObserveCareful(ev, belief.Enemy)
		p.mine.ObserveCareful(ev, belief.Own)
	} else {
		p.enemy.Observe(ev, belief.Enemy)
		p.mine.Observe(ev, belief.Own)
	}
	for i := range len(p.rules.Fleet) {
		if p.enemyHP[i] <= 0 && p.enemy.Alive().Has(i) {
			p.enemy.Sink(i)
		}
		if !p.me.Alive.Has(i) && p.mine.Alive().Has(i) {
			p.mine.Sink(i)
		}
	}
	if !ev.Mine && !ev.Illegal && ev.Kind == submarine.Attack && ev.Hit >= 0 && !ev.Sunk && p.me.Alive.Has(ev.Hit) {
		p.onHit(ev.Hit)
	}
}

// onHit reacts to the enemy hitting my ship t, which survived: counter-attack
// a pinned enemy ship in t's reach whose hp does not exceed t's (when
// counter.requires_hp), else escape with t.
func (p *StatePlayer2) onHit(t int) {
	reach := p.rules.Board.Around(p.me.Pos[t])
	for k := range len(p.rules.Fleet) {
		c, ok := p.enemy.Pinned(k)
		if !ok || !reach.Has(c) {
			continue
		}
		if p.cfg.Counter.RequiresHP && p.me.HP[t] < p.enemyHP[k] {
			continue
		}
		p.fire(fsm.Counter, fsm.CellMsg(c))
		p.targetFired = false
		return
	}
	p.fire(fsm.Hit, fsm.ShipMsg(t))
}

// Explain implements Explainer: the state that chose the last action, why,
// the events fired since the action before, and the candidates the acting
// state scored, best first (ties in enumeration order).
func (p *StatePlayer2) Explain() explain.Decision {
	d := explain.Decision{State: p.acted.String(), Reason: p.reason}
	if p.lastN > 0 {
		names := make([]string, p.lastN)
		for i, ev := range p.lastPath[:p.lastN] {
			names[i] = ev.String()
		}
		d.Reason += " (events: " + strings.Join(names, ", ") + ")"
	}
	cs := slices.Clone(p.cands)
	slices.SortStableFunc(cs, func(a, b sp2Cand) int {
		switch {
		case a.score > b.score:
			return -1
		case a.score < b.score:
			return 1
		}
		return 0
	})
	d.Candidates = make([]explain.Candidate, len(cs))
	for i, c := range cs {
		d.Candidates[i] = explain.Candidate{Action: p.actionName(c.a), Score: c.score}
	}
	return d
}

func (p *StatePlayer2) actionName(a submarine.Action) string {
	if a.Kind == submarine.Move {
		return fmt.Sprintf("move %s %s", p.rules.Fleet[a.Ship].Name, p.rules.CellName(a.To))
	}
	return "attack " + p.rules.CellName(a.To)
}

func sp2Abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}
