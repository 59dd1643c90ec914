package players

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"

	"github.com/kaisen-ai/kaisen/explain"
	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/game/submarine"
	"github.com/kaisen-ai/kaisen/players/chart"
)

// JointGreedy is a one-ply player on exact joint beliefs of both fleets, the
// family of the published hirota_player (docs/hirota.md). It keeps the set
// of every placement of the enemy fleet consistent with the public history
// and the same for its own fleet as the enemy can know it (chart.Chart), and
// each turn, in this order:
//
//  1. flee: when the enemy has located one of our ships and it is in the
//     enemy's reach, and we are not ahead on hp, the threatened ship with
//     the safest refuge moves to the reachable cell least likely in the
//     enemy's reach, if that cell is safe enough;
//  2. attack the cell in reach of highest score, sum over enemy ships of
//     P(ship on cell)/hp^e (+ a weight on the answer's information), ties
//     at random, when that score is worth it;
//  3. otherwise, when ahead on hp, approach: move a ship towards a cell of
//     high score;
//  4. otherwise pass: attack the cell in reach where the enemy most expects
//     our ships (or, with some probability, move to a safe cell).
//
// Every threshold and weight is a JointGreedyConfig field; hirota is the
// point DefaultHirotaConfig of the family.
type JointGreedy struct {
	sh    *jgShared
	rules *submarine.Rules
	cfg   *JointGreedyConfig
	rng   *rand.Rand

	enemy, own chart.Chart
	me         submarine.Fleet
	enemyHP    [submarine.MaxShips]int8
	broken     int // observations the charts could not explain (should stay 0)

	last    jgChoice
	buckets []int32
	ties    []grid.Cell
	flees   []jgFlee
}

var (
	_ Player            = (*JointGreedy)(nil)
	_ explain.Explainer = (*JointGreedy)(nil)
)

// jgShared is what every game of one factory shares (read-only).
type jgShared struct {
	rules  *submarine.Rules
	cfg    JointGreedyConfig
	all    []uint64    // every placement: the belief before any event
	order  []grid.Cell // usable cells, column by column (grid.Board.ByColumn, read only), the scan order of hirota_player
	places []uint64    // the placements the prior allows
	cum    []float64   // cumulative prior weights of places (nil: uniform)
}

func newJGShared(rules *submarine.Rules, cfg JointGreedyConfig) (*jgShared, error) {
	all, err := chart.Enumerate(rules, chart.MaxPlacements)
	if err != nil {
		return nil, err
	}
	sh := &jgShared{rules: rules, cfg: cfg, all: all, order: rules.Board.ByColumn()}
	sh.places, sh.cum = jgPrior(rules, &cfg.Placement, all)
	return sh, nil
}

// jgPrior filters every placement by the placement prior: pairwise distance
// at least MinDistance (lowered until some placement qualifies), the first
// ship off the low edges when asked (dropped when impossible), weighted by
// the edge and corner weights (cum is nil when uniform).
func jgPrior(r *submarine.Rules, pc *JGPlacement, all []uint64) (places []uint64, cum []float64) {
	b, n := r.Board, len(r.Fleet)
	spread := func(p uint64) int {
		d := math.MaxInt
		for i := range n {
			for j := i + 1; j < n; j++ {
				d = min(d, b.Chebyshev(chart.Cell(p, i), chart.Cell(p, j)))
			}
		}
		return d
	}
	lowEdge := func(p uint64) bool {
		x, y := b.XY(chart.Cell(p, 0))
		return x == 0 || y == 0
	}
	for _, quirk := range []bool{pc.FirstOffLowEdges, false} {
		for d := int(pc.MinDistance); d >= 0 && len(places) == 0; d-- {
			for _, p := range all {
				if spread(p) >= d && !(quirk && lowEdge(p)) {
					places = append(places, p)
				}
			}
		}
		if len(places) > 0 {
			break
		}
	}
	if pc.Edge == 0 && pc.Corner == 0 {
		return places, nil
	}
	w, h := b.Width(), b.Height()
	cum = make([]float64, len(places))
	acc := 0.0
	for k, p := range places {
		e := 0.0
		for i := range n {
			x, y := b.XY(chart.Cell(p, i))
			ex, ey := x == 0 || x == w-1, y == 0 || y == h-1
			if ex || ey {
				e += pc.Edge
			}
			if ex && ey {
				e += pc.Corner
			}
		}
		acc += math.Exp(e)
		cum[k] = acc
	}
	return places, cum
}

// NewJointGreedy returns a player of the family with weights cfg (which must
// be valid) for rules (which must be valid and small enough for an explicit
// joint belief), drawing every random choice from rng.
func NewJointGreedy(rules *submarine.Rules, cfg JointGreedyConfig, rng *rand.Rand) (*JointGreedy, error) {
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("players: joint-greedy: %w", err)
	}
	sh, err := newJGShared(rules, cfg)
	if err != nil {
		return nil, fmt.Errorf("players: joint-greedy: %w", err)
	}
	return newJointGreedy(sh, rng), nil
}

func newJointGreedy(sh *jgShared, rng *rand.Rand) *JointGreedy {
	p := &JointGreedy{sh: sh, rules: sh.rules, cfg: &sh.cfg, rng: rng}
	n := len(sh.rules.Fleet)
	p.enemy.Reset(sh.rules.Board, n, sh.cfg.Belief.HitNear, sh.all)
	p.own.Reset(sh.rules.Board, n, sh.cfg.Belief.HitNear, sh.all)
	p.buckets = make([]int32, (n+1)<<n)
	for i, s := range sh.rules.Fleet {
		p.enemyHP[i] = int8(s.HP)
	}
	return p
}

// Place draws a placement from the prior.
func (p *JointGreedy) Place() submarine.Placement {
	sh := p.sh
	var k int
	if sh.cum == nil {
		k = p.rng.IntN(len(sh.places))
	} else {
		u := p.rng.Float64() * sh.cum[len(sh.cum)-1]
		k = min(sort.SearchFloat64s(sh.cum, u), len(sh.cum)-1)
	}
	pl := make(submarine.Placement, len(p.rules.Fleet))
	for i := range pl {
		pl[i] = chart.Cell(sh.places[k], i)
	}
	p.me = submarine.NewFleet(p.rules, pl)
	return pl
}

// Observe updates both charts with what both sides are told.
func (p *JointGreedy) Observe(ev submarine.Event, v *submarine.View) {
	p.me, p.enemyHP = v.Me, v.EnemyHP
	if !p.enemy.Observe(ev, false) {
		p.broken++
	}
	if !p.own.Observe(ev, true) {
		p.broken++
	}
}

// Broken is the number of observations the beliefs could not explain (they
// were left as they were). It stays 0 against a legal opponent.
func (p *JointGreedy) Broken() int { return p.broken }

// advantage is our total hp minus the enemy's.
func (p *JointGreedy) advantage() int {
	a := 0
	for i := range p.rules.Fleet {
		a += int(p.me.HP[i]) - int(p.enemyHP[i])
	}
	return a
}

// hitScore is sum over living enemy ships of P(ship on c) / hp^e.
func (p *JointGreedy) hitScore(c grid.Cell) float64 {
	s := 0.0
	for i := range p.rules.Fleet {
		if k := p.enemy.Count(i, c); k > 0 {
			s += float64(k) / math.Pow(float64(p.enemyHP[i]), p.cfg.Attack.HPExponent)
		}
	}
	return s / float64(p.enemy.Total())
}

// jgEps: scores closer than this are ties (they are sums of a few ratios of
// integers, equal exactly when equal as fractions).
const jgEps = 1e-12

// Act chooses this turn's action (see JointGreedy).
func (p *JointGreedy) Act() submarine.Action {
	p.last = jgChoice{cands: p.last.cands[:0]}
	reach := p.rules.Reach(&p.me)
	adv := p.advantage()
	p.last.adv = adv
	if a, ok := p.flee(reach, adv); ok {
		return a
	}
	best := 0.0
	ties := p.ties[:0]
	for _, c := range p.sh.order {
		if !reach.Has(c) {
			continue
		}
		s := p.hitScore(c)
		if p.cfg.Attack.Info > 0 {
			s += p.cfg.Attack.Info * p.enemy.Gain(c, p.buckets)
		}
		p.last.add(submarine.AttackAt(c), s)
		if len(ties) == 0 || s > best+jgEps {
			best, ties = s, ties[:0]
		}
		if s >= best-jgEps {
			ties = append(ties, c)
		}
	}
	p.ties = ties
	if len(ties) > 0 && best > p.cfg.Attack.Min {
		p.last.state, p.last.score, p.last.n = "attack", best, len(ties)
		return submarine.AttackAt(ties[p.rng.IntN(len(ties))])
	}
	if float64(adv) > p.cfg.Approach.Ahead {
		if a, ok := p.approach(); ok {
			return a
		}
	}
	if m := p.cfg.Idle.Move; m > 0 && (m >= 1 || p.rng.Float64() < m) {
		if a, ok := p.wander(); ok {
			return a
		}
	}
	return p.pass(reach)
}

// jgFlee is one threatened ship's escape.
type jgFlee struct {
	risk float64 // P(refuge in the enemy's reach)
	hp   int8
	name string
	ship int
	to   grid.Cell
	seen float64 // P(the enemy knows the ship's cell)
}

func (p *JointGreedy) flee(reach grid.Set, adv int) (submarine.Action, bool) {
	f := &p.cfg.Flee
	et, ot := float64(p.enemy.Total()), float64(p.own.Total())
	flees := p.flees[:0]
	targetChecked, target := false, false
	for i, s := range p.rules.Fleet {
		if !p.me.Alive.Has(i) {
			continue
		}
		pos := p.me.Pos[i]
		seen := float64(p.own.Count(i, pos))
		if seen < f.Located*ot || float64(p.enemy.Covered(pos)) < f.Reach*et {
			continue
		}
		if !targetChecked {
			targetChecked, target = true, p.locatedTarget(reach)
		}
		if !(float64(adv) < f.AheadWithTarget || (!target && float64(adv) < f.Ahead)) {
			continue
		}
		to, low := grid.None, et
		targets := p.rules.MoveTargets(&p.me, i)
		for _, c := range p.sh.order {
			if targets.Has(c) {
				if k := float64(p.enemy.Covered(c)); k < low {
					to, low = c, k
				}
			}
		}
		if to == grid.None {
			continue
		}
		flees = append(flees, jgFlee{risk: low / et, hp: p.me.HP[i], name: s.Name, ship: i, to: to, seen: seen / ot})
	}
	p.flees = flees
	if len(flees) == 0 {
		return submarine.Action{}, false
	}
	slices.SortStableFunc(flees, func(a, b jgFlee) int {
		return cmp.Or(cmp.Compare(a.risk, b.risk), cmp.Compare(a.hp, b.hp), cmp.Compare(a.name, b.name))
	})
	for _, c := range flees {
		p.last.add(submarine.MoveTo(c.ship, c.to), -c.risk)
	}
	best := flees[0]
	if best.risk > f.Safe || (f.Rate < 1 && (f.Rate <= 0 || p.rng.Float64() >= f.Rate)) {
		p.last.cands = p.last.cands[:0]
		return submarine.Action{}, false
	}
	p.last.state, p.last.ship, p.last.to, p.last.score, p.last.seen = "flee", best.ship, best.to, best.risk, best.seen
	return submarine.MoveTo(best.ship, best.to), true
}

// locatedTarget reports whether an enemy ship is located (P >= TargetSure)
// on a cell in reach.
func (p *JointGreedy) locatedTarget(reach grid.Set) bool {
	need := p.cfg.Flee.TargetSure * float64(p.enemy.Total())
	for c := range reach.All() {
		for i := range p.rules.Fleet {
			if k := p.enemy.Count(i, c); k > 0 && float64(k) >= need {
				return true
			}
		}
	}
	return false
}

// approach moves a ship towards a cell of high attack score, or into the
// enemy's likely reach.
func (p *JointGreedy) approach() (submarine.Action, bool) {
	if p.cfg.Approach.Target == JGApproachReach {
		return p.approachReach()
	}
	dests := p.ties[:0]
	record := 0.0
	for _, c := range p.sh.order {
		if s := p.hitScore(c); s > record {
			record = s
			dests = append(dests, c)
		}
	}
	p.ties = dests
	if len(dests) == 0 {
		return submarine.Action{}, false
	}
	dest := dests[p.rng.IntN(len(dests))]
	target, tk := submarine.NoShip, 0
	for i := range p.rules.Fleet {
		if k := p.enemy.Count(i, dest); k > tk {
			target, tk = i, k
		}
	}
	b := p.rules.Board
	dx, dy := b.XY(dest)
	et := float64(p.enemy.Total())
	ship, to, low := submarine.NoShip, grid.None, math.Inf(1)
	for i := range p.rules.Fleet {
		if !p.me.Alive.Has(i) || float64(p.me.HP[i]-p.enemyHP[target]) < p.cfg.Approach.HPEdge {
			continue
		}
		targets := p.rules.MoveTargets(&p.me, i)
		for _, c := range p.sh.order {
			if !targets.Has(c) {
				continue
			}
			x, y := b.XY(c)
			d := float64(abs(dx-x) + abs(dy-y))
			if p.cfg.Approach.Safety > 0 {
				d += p.cfg.Approach.Safety * float64(p.enemy.Covered(c)) / et
			}
			if d < low {
				ship, to, low = i, c, d
			}
		}
	}
	if ship == submarine.NoShip {
		return submarine.Action{}, false
	}
	p.last.state, p.last.ship, p.last.to, p.last.dest, p.last.score = "approach", ship, to, dest, low
	p.last.add(submarine.MoveTo(ship, to), -low)
	return submarine.MoveTo(ship, to), true
}

// approachReach moves the ship and cell most likely in the enemy's reach
// (the last of the scan among equals), among the ships at least HPEdge
// stronger than the enemy's strongest living ship.
func (p *JointGreedy) approachReach() (submarine.Action, bool) {
	strongest := int8(0)
	for i := range p.rules.Fleet {
		strongest = max(strongest, p.enemyHP[i])
	}
	ship, to, most := submarine.NoShip, grid.None, -1
	for i := range p.rules.Fleet {
		if !p.me.Alive.Has(i) || float64(p.me.HP[i]-strongest) < p.cfg.Approach.HPEdge {
			continue
		}
		targets := p.rules.MoveTargets(&p.me, i)
		for _, c := range p.sh.order {
			if k := p.enemy.Covered(c); targets.Has(c) && k >= most {
				ship, to, most = i, c, k
			}
		}
	}
	if ship == submarine.NoShip {
		return submarine.Action{}, false
	}
	risk := float64(most) / float64(p.enemy.Total())
	p.last.state, p.last.ship, p.last.to, p.last.dest, p.last.score = "approach", ship, to, to, risk
	p.last.add(submarine.MoveTo(ship, to), risk)
	return submarine.MoveTo(ship, to), true
}

// wander moves a ship to the cell least likely in the enemy's reach.
func (p *JointGreedy) wander() (submarine.Action, bool) {
	var moves []submarine.Action
	low := math.MaxInt
	for i := range p.rules.Fleet {
		targets := p.rules.MoveTargets(&p.me, i)
		for _, c := range p.sh.order {
			if !targets.Has(c) {
				continue
			}
			k := p.enemy.Covered(c)
			if k < low {
				low, moves = k, moves[:0]
			}
			if k == low {
				moves = append(moves, submarine.MoveTo(i, c))
			}
		}
	}
	if len(moves) == 0 {
		return submarine.Action{}, false
	}
	a := moves[p.rng.IntN(len(moves))]
	p.last.state, p.last.ship, p.last.to = "wander", a.Ship, a.To
	p.last.score = float64(low) / float64(p.enemy.Total())
	for _, m := range moves {
		p.last.add(m, -p.last.score)
	}
	return a, true
}

// pass attacks the cell in reach where the enemy most expects our ships
// (the last such cell of the scan, as hirota_player).
func (p *JointGreedy) pass(reach grid.Set) submarine.Action {
	p.last.cands = p.last.cands[:0]
	at, most := grid.None, -1
	for _, c := range p.sh.order {
		if !reach.Has(c) {
			continue
		}
		k := 0
		for i := range p.rules.Fleet {
			k += p.own.Count(i, c)
		}
		p.last.add(submarine.AttackAt(c), float64(k)/float64(p.own.Total()))
		if k >= most {
			at, most = c, k
		}
	}
	p.last.state, p.last.to = "pass", at
	p.last.score = float64(most) / float64(p.own.Total())
	return submarine.AttackAt(at)
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

// jgChoice records how the last action was chosen, for Explain.
type jgChoice struct {
	state    string
	adv      int
	ship     int
	to, dest grid.Cell
	score    float64 // attack: best score; flee: refuge risk; approach: distance; pass: exposure
	seen     float64 // flee: P(the enemy knows the ship's cell)
	n        int     // attack: tied cells
	cands    []jgCand
}

type jgCand struct {
	a     submarine.Action
	score float64
}

func (c *jgChoice) add(a submarine.Action, score float64) {
	c.cands = append(c.cands, jgCand{a, score})
}

// Explain implements explain.Explainer: the rule that chose the last action,
// why, and what it compared (attack scores, refuges by risk, approach
// distances, exposure of the cells a pass may hit), best first.
func (p *JointGreedy) Explain() explain.Decision {
	r, c := p.rules, &p.last
	name := func(i int) string {
		if i >= 0 && i < len(r.Fleet) {
			return r.Fleet[i].Name
		}
		return "?"
	}
	d := explain.Decision{State: c.state}
	switch c.state {
	case "flee":
		d.Reason = fmt.Sprintf("%s is located (P=%.2f) in the enemy's reach and we are not ahead (hp %+d): it flees to %s, in reach with P=%.2f",
			name(c.ship), c.seen, c.adv, r.CellName(c.to), c.score)
	case "attack":
		d.Reason = fmt.Sprintf("best attack score %.3f (P(ship)/hp^%g", c.score, p.cfg.Attack.HPExponent)
		if p.cfg.Attack.Info > 0 {
			d.Reason += fmt.Sprintf(" + %g x bits", p.cfg.Attack.Info)
		}
		if c.n > 1 {
			d.Reason += fmt.Sprintf("), %d cells tied, one drawn at random", c.n)
		} else {
			d.Reason += ")"
		}
	case "approach":
		if p.cfg.Approach.Target == JGApproachReach {
			d.Reason = fmt.Sprintf("nothing worth attacking and ahead (hp %+d): %s enters the enemy's likely reach at %s (P=%.2f)",
				c.adv, name(c.ship), r.CellName(c.to), c.score)
			break
		}
		d.Reason = fmt.Sprintf("nothing worth attacking and ahead (hp %+d): %s moves towards %s (cost %.2f)",
			c.adv, name(c.ship), r.CellName(c.dest), c.score)
	case "wander":
		d.Reason = fmt.Sprintf("nothing worth attacking (hp %+d): %s moves to %s, in the enemy's reach with P=%.2f",
			c.adv, name(c.ship), r.CellName(c.to), c.score)
	case "pass":
		d.Reason = fmt.Sprintf("nothing worth attacking and not ahead (hp %+d): attack %s, where the enemy expects our ships most (%.2f), to tell it the least",
			c.adv, r.CellName(c.to), c.score)
	}
	cs := slices.Clone(c.cands)
	slices.SortStableFunc(cs, func(a, b jgCand) int { return cmp.Compare(b.score, a.score) })
	d.Candidates = make([]explain.Candidate, len(cs))
	for i, cand := range cs {
		act := "attack " + r.CellName(cand.a.To)
		if cand.a.Kind == submarine.Move {
			act = "move " + name(cand.a.Ship) + " " + r.CellName(cand.a.To)
		}
		d.Candidates[i] = explain.Candidate{Action: act, Score: cand.score}
	}
	return d
}
