package admiral

import (
	"fmt"
	"math"
	"strings"

	"github.com/kaisen-ai/kaisen/endgame"
	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/game/submarine"
	"github.com/kaisen-ai/kaisen/players"
	"github.com/kaisen-ai/kaisen/players/chart"
)

// The online opponent model (docs/admiral.md, "Opponent modelling"): a
// posterior over a small family of opponent policies, updated after every
// enemy action taken in a position of perfect information (both of our
// joint beliefs hold one placement) by the probability each policy gives
// that action. It generalises the opponent kinds of opponent.go:
// the kinds are statistics of every action, the model predicts actions.
//
// The family, each policy played from the enemy's side of the known
// position:
//
//   - joint-greedy points (players/jointgreedy.go) with both charts holding
//     one placement: hirota (flees a located ship out of our reach only
//     when behind on hp, approaches when ahead), a camper (never flees,
//     never approaches), a chaser (approaches whatever the hp), an evader
//     (flees whenever located in reach);
//   - perfect: a uniform choice among the exact solver's best actions
//     (admiral's generic strong enemy, who never errs);
//   - uniform: every legal action equally likely (the catch-all).
//
// Every policy's probability is mixed with epsilon of the uniform one, so
// that one surprising action does not rule a policy out.

// actProb is one action of a policy's distribution.
type actProb struct {
	a submarine.Action
	p float64
}

// modelView is a position as the opponent sees it: its own fleet them
// (known exactly to both sides) to move, ours us, and chart, the
// placements of our living ships it holds possible (byte i of a placement
// is ship i's cell): the chart of a joint-greedy player that ignores the
// near report of a hit (hirota's), one placement once it knows us.
type modelView struct {
	them, us *submarine.Fleet
	chart    []uint64

	// statistics of chart, filled by stats
	ok    bool
	count []int32 // count[i*size+c]: placements with our ship i on c
	cover []int32 // cover[c]: placements with one of our ships within 1 of c
}

// knownView is the view of perfect information: the chart holds us.
func knownView(r *submarine.Rules, them, us *submarine.Fleet) *modelView {
	return &modelView{them: them, us: us, chart: []uint64{packLiving(r, us)}}
}

// packLiving packs the cells of f's living ships (0 for sunk ones).
func packLiving(r *submarine.Rules, f *submarine.Fleet) uint64 {
	var u uint64
	for i := range len(r.Fleet) {
		if f.Alive.Has(i) {
			u |= uint64(uint8(f.Pos[i])) << (8 * i)
		}
	}
	return u
}

func (v *modelView) stats(r *submarine.Rules) {
	if v.ok {
		return
	}
	b := r.Board
	size := b.Size()
	v.count = chart.Counts(v.count, len(r.Fleet)*size)
	v.cover = chart.Counts(v.cover, size)
	for _, p := range v.chart {
		var s grid.Set
		for i := range len(r.Fleet) {
			if v.us.Alive.Has(i) {
				c := chart.Cell(p, i)
				v.count[i*size+int(c)]++
				s = s.Union(b.Around(c))
			}
		}
		for c := range s.All() {
			v.cover[c]++
		}
	}
	v.ok = true
}

// modelPolicy is one point of the family: the distribution of the action
// of the side them (to move) in view v.
type modelPolicy interface {
	name() string
	dist(r *submarine.Rules, v *modelView, out []actProb) []actProb
}

// oppModel is the posterior over the family.
type oppModel struct {
	pols    []modelPolicy
	logw    []float64
	w       []float64 // normalised weights
	eps     float64
	updates int // enemy actions that updated the posterior
	buf     []actProb
	seen    likelihoods // the log-likelihoods of views met before
}

// modelFamily returns the default family. perfect is the solver's player
// (nil: left out).
func modelFamily(sv *endgame.Solver) []modelPolicy {
	hirota := players.DefaultHirotaConfig()
	camper := hirota
	camper.Flee.Rate = 0
	camper.Approach.Ahead = 7
	chaser := hirota
	chaser.Approach.Ahead = -7
	evader := hirota
	evader.Flee.Ahead, evader.Flee.AheadWithTarget = 1000, 1000
	pols := []modelPolicy{
		jgPolicy{label: "hirota", cfg: hirota},
		jgPolicy{label: "camper", cfg: camper},
		jgPolicy{label: "chaser", cfg: chaser},
		jgPolicy{label: "evader", cfg: evader},
	}
	if sv != nil {
		pols = append(pols, perfectPolicy{memo: &actionsMemo{sv: sv}})
	}
	return append(pols, uniformPolicy{})
}

func newOppModel(pols []modelPolicy, eps float64) oppModel {
	m := oppModel{pols: pols, eps: eps, logw: make([]float64, len(pols)), w: make([]float64, len(pols))}
	m.normalise()
	return m
}

func (m *oppModel) normalise() {
	hi := math.Inf(-1)
	for _, l := range m.logw {
		hi = max(hi, l)
	}
	sum := 0.0
	for k, l := range m.logw {
		m.w[k] = math.Exp(l - hi)
		sum += m.w[k]
	}
	for k := range m.w {
		m.w[k] /= sum
	}
}

// likelihood is the probability policy k gives action a in view v, mixed
// with eps of the uniform policy.
func (m *oppModel) likelihood(k int, r *submarine.Rules, v *modelView, a submarine.Action) float64 {
	m.buf = m.pols[k].dist(r, v, m.buf[:0])
	p := 0.0
	for _, ap := range m.buf {
		if ap.a == a {
			p += ap.p
		}
	}
	return (1-m.eps)*p + m.eps/float64(legalCount(r, v.them))
}

// update multiplies the posterior by each policy's likelihood of the
// enemy's action a, taken in view v.
func (m *oppModel) update(r *submarine.Rules, v *modelView, a submarine.Action) {
	ll, ok := m.seen.get(r, v, a, len(m.pols))
	if !ok {
		for k := range m.pols {
			ll[k] = math.Log(m.likelihood(k, r, v, a))
		}
	}
	for k := range m.pols {
		m.logw[k] += ll[k]
	}
	m.updates++
	m.normalise()
}

// top is the most likely policy and its weight.
func (m *oppModel) top() (string, float64) {
	best := 0
	for k := range m.w {
		if m.w[k] > m.w[best] {
			best = k
		}
	}
	return m.pols[best].name(), m.w[best]
}

func (m *oppModel) String() string {
	if m.updates == 0 {
		return "model: no known position yet"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "model after %d actions:", m.updates)
	for k, p := range m.pols {
		fmt.Fprintf(&b, " %s %.2f", p.name(), m.w[k])
	}
	return b.String()
}

// mixture appends the posterior mixture of the policies' distributions
// (without epsilon) in view v, merging equal actions; policies below
// weight floor or skipped are left out.
func (m *oppModel) mixture(r *submarine.Rules, v *modelView, skip func(int) bool, floor float64, out []actProb) []actProb {
	for k, pol := range m.pols {
		if m.w[k] <= floor || (skip != nil && skip(k)) {
			continue
		}
		m.buf = pol.dist(r, v, m.buf[:0])
	next:
		for _, ap := range m.buf {
			for j := range out {
				if out[j].a == ap.a {
					out[j].p += m.w[k] * ap.p
					continue next
				}
			}
			out = append(out, actProb{ap.a, m.w[k] * ap.p})
		}
	}
	return out
}

// legalCount is the number of legal actions of fleet f.
func legalCount(r *submarine.Rules, f *submarine.Fleet) int {
	n := r.Reach(f).Count()
	for i := range len(r.Fleet) {
		n += r.MoveTargets(f, i).Count()
	}
	return max(n, 1)
}

// uniformPolicy plays every legal action with equal probability.
type uniformPolicy struct{}

func (uniformPolicy) name() string { return "uniform" }

func (uniformPolicy) dist(r *submarine.Rules, v *modelView, out []actProb) []actProb {
	them := v.them
	n := legalCount(r, them)
	for c := range r.Reach(them).All() {
		out = append(out, actProb{submarine.AttackAt(c), 1 / float64(n)})
	}
	for i := range len(r.Fleet) {
		for c := range r.MoveTargets(them, i).All() {
			out = append(out, actProb{submarine.MoveTo(i, c), 1 / float64(n)})
		}
	}
	return out
}

// perfectPolicy chooses uniformly among the exact solver's best actions,
// as if it knew our fleet.
type perfectPolicy struct{ memo *actionsMemo }

func (perfectPolicy) name() string { return "perfect" }

func (p perfectPolicy) dist(r *submarine.Rules, v *modelView, out []actProb) []actProb {
	pos, err := endgame.NewPosition(r, *v.them, *v.us)
	if err != nil {
		return out
	}
	acts, err := p.memo.actions(pos)
	if err != nil || len(acts) == 0 {
		return out
	}
	n := 0
	for n < len(acts) && acts[n].Value.Compare(acts[0].Value) == 0 {
		n++
	}
	for _, sa := range acts[:n] {
		out = append(out, actProb{sa.Action, 1 / float64(n)})
	}
	return out
}

// jgPolicy is a joint-greedy point (JointGreedy.Act) in a position of
// perfect information: both of its charts hold one placement, so every
// probability it reads is 0 or 1 (P(ship on c), P(c in the enemy's reach)),
// and its random choices (ties, the approach's destination, flee.rate,
// idle.move) become the distribution's branches.
type jgPolicy struct {
	label string
	cfg   players.JointGreedyConfig
}

func (p jgPolicy) name() string { return p.label }

// jgScanOrder calls f on the usable cells of b column by column (x outer, y
// inner), the scan order of hirota_player, until f returns false.
func jgScanOrder(b *grid.Board, f func(grid.Cell) bool) {
	for _, c := range b.ByColumn() {
		if !f(c) {
			return
		}
	}
}

func (p jgPolicy) dist(r *submarine.Rules, v *modelView, out []actProb) []actProb {
	cfg := &p.cfg
	b := r.Board
	me, en := v.them, v.us
	v.stats(r)
	size, et := b.Size(), float64(len(v.chart))
	count := func(i int, c grid.Cell) int {
		if !en.Alive.Has(i) {
			return 0
		}
		return int(v.count[i*size+int(c)])
	}
	// hp^exponent of each of our ships, the divisor of its count
	var pw [submarine.MaxShips]float64
	for i := range r.Fleet {
		pw[i] = math.Pow(float64(en.HP[i]), cfg.Attack.HPExponent)
	}
	score := func(c grid.Cell) float64 {
		s := 0.0
		for i := range r.Fleet {
			if k := count(i, c); k > 0 {
				s += float64(k) / pw[i]
			}
		}
		return s / et
	}
	adv := 0
	for i := range r.Fleet {
		adv += int(me.HP[i]) - int(en.HP[i])
	}
	reach := r.Reach(me)
	mass := 1.0
	// 1. flee. Its own ships are known to us exactly (P(located) = 1).
	if f := cfg.Flee; f.Located <= 1 {
		target := false
	scan:
		for c := range reach.All() {
			for i := range r.Fleet {
				if k := count(i, c); k > 0 && float64(k) >= f.TargetSure*et {
					target = true
					break scan
				}
			}
		}
		type esc struct {
			risk float64
			hp   int8
			name string
			ship int
			to   grid.Cell
		}
		var best esc
		found := false
		for i, s := range r.Fleet {
			if !me.Alive.Has(i) || float64(v.cover[me.Pos[i]]) < f.Reach*et {
				continue
			}
			if !(float64(adv) < f.AheadWithTarget || (!target && float64(adv) < f.Ahead)) {
				continue
			}
			targets := r.MoveTargets(me, i)
			to, low := grid.None, et
			jgScanOrder(b, func(c grid.Cell) bool {
				if k := float64(v.cover[c]); targets.Has(c) && k < low {
					to, low = c, k
				}
				return true
			})
			if to == grid.None {
				continue
			}
			e := esc{risk: low / et, hp: me.HP[i], name: s.Name, ship: i, to: to}
			if !found || e.risk < best.risk || (e.risk == best.risk && (e.hp < best.hp || (e.hp == best.hp && e.name < best.name))) {
				best, found = e, true
			}
		}
		if found && best.risk <= f.Safe {
			if rate := min(max(f.Rate, 0), 1); rate > 0 {
				out = append(out, actProb{submarine.MoveTo(best.ship, best.to), rate})
				mass -= rate
			}
			if mass <= 0 {
				return out
			}
		}
	}
	// 2. attack the best score in reach, ties at random.
	var tieBuf [16]grid.Cell
	best, ties := 0.0, tieBuf[:0]
	for _, c := range b.ByColumn() { // jgScanOrder
		if !reach.Has(c) {
			continue
		}
		s := score(c)
		if cfg.Attack.Info > 0 {
			s += cfg.Attack.Info * chartGain(r, v, c)
		}
		if len(ties) == 0 || s > best+tieEps {
			best, ties = s, ties[:0]
		}
		if s >= best-tieEps {
			ties = append(ties, c)
		}
	}
	if len(ties) > 0 && best > cfg.Attack.Min {
		for _, c := range ties {
			out = append(out, actProb{submarine.AttackAt(c), mass / float64(len(ties))})
		}
		return out
	}
	// 3. approach when ahead.
	rest := mass
	if float64(adv) > cfg.Approach.Ahead {
		if cfg.Approach.Target == players.JGApproachReach {
			if a, ok := jgApproachReach(r, cfg, v); ok {
				return append(out, actProb{a, mass})
			}
		} else {
			var dests []grid.Cell
			record := 0.0
			jgScanOrder(b, func(c grid.Cell) bool {
				if s := score(c); s > record {
					record = s
					dests = append(dests, c)
				}
				return true
			})
			for _, d := range dests {
				if a, ok := jgApproachTo(r, cfg, v, d); ok {
					out = append(out, actProb{a, mass / float64(len(dests))})
					rest -= mass / float64(len(dests))
				}
			}
		}
	}
	if rest <= 1e-12 {
		return out
	}
	// 4. idle: wander with probability idle.move, else pass.
	if m := min(cfg.Idle.Move, 1); m > 0 {
		var moves []submarine.Action
		low := math.MaxInt
		for i := range r.Fleet {
			targets := r.MoveTargets(me, i)
			jgScanOrder(b, func(c grid.Cell) bool {
				if !targets.Has(c) {
					return true
				}
				k := int(v.cover[c])
				if k < low {
					low, moves = k, moves[:0]
				}
				if k == low {
					moves = append(moves, submarine.MoveTo(i, c))
				}
				return true
			})
		}
		if len(moves) > 0 {
			for _, a := range moves {
				out = append(out, actProb{a, rest * m / float64(len(moves))})
			}
			rest *= 1 - m
		}
	}
	if rest <= 1e-12 {
		return out
	}
	// pass: the last cell of the scan in reach holding one of its own
	// ships (where we, who know them, expect them: certainly).
	at := grid.None
	jgScanOrder(b, func(c grid.Cell) bool {
		if reach.Has(c) && (me.Occupied.Has(c) || at == grid.None) {
			at = c
		}
		return true
	})
	return append(out, actProb{submarine.AttackAt(at), rest})
}

// chartGain is chart.AnswerGain on the view's chart: the expected bits of the
// answer to an attack on at.
func chartGain(r *submarine.Rules, v *modelView, at grid.Cell) float64 {
	buckets := make([]int32, (len(r.Fleet)+1)<<len(r.Fleet))
	return chart.AnswerGain(r.Board, len(r.Fleet), v.us.Alive, v.chart, at, buckets)
}

// jgApproachTo is JointGreedy.approach towards dest: the ship and
// destination of least Manhattan distance to dest (+ safety x P(in our
// reach)), first of the scan, among ships hp_edge stronger than the
// likeliest ship of ours on dest.
func jgApproachTo(r *submarine.Rules, cfg *players.JointGreedyConfig, v *modelView, dest grid.Cell) (submarine.Action, bool) {
	b := r.Board
	me, en := v.them, v.us
	size, et := b.Size(), float64(len(v.chart))
	target, tk := submarine.NoShip, int32(0)
	for i := range r.Fleet {
		if k := v.count[i*size+int(dest)]; en.Alive.Has(i) && k > tk {
			target, tk = i, k
		}
	}
	if target == submarine.NoShip {
		return submarine.Action{}, false
	}
	dx, dy := b.XY(dest)
	ship, to, low := submarine.NoShip, grid.None, math.Inf(1)
	for i := range r.Fleet {
		if !me.Alive.Has(i) || float64(me.HP[i]-en.HP[target]) < cfg.Approach.HPEdge {
			continue
		}
		targets := r.MoveTargets(me, i)
		jgScanOrder(b, func(c grid.Cell) bool {
			if !targets.Has(c) {
				return true
			}
			x, y := b.XY(c)
			d := float64(abs(dx-x) + abs(dy-y))
			if cfg.Approach.Safety > 0 {
				d += cfg.Approach.Safety * float64(v.cover[c]) / et
			}
			if d < low {
				ship, to, low = i, c, d
			}
			return true
		})
	}
	if ship == submarine.NoShip {
		return submarine.Action{}, false
	}
	return submarine.MoveTo(ship, to), true
}

// jgApproachReach is JointGreedy.approachReach: the move into the cell
// most often in our reach (the last of the scan among equals) for the
// ships hp_edge stronger than our strongest.
func jgApproachReach(r *submarine.Rules, cfg *players.JointGreedyConfig, v *modelView) (submarine.Action, bool) {
	me, en := v.them, v.us
	strongest := int8(0)
	for i := range r.Fleet {
		strongest = max(strongest, en.HP[i])
	}
	ship, to, most := submarine.NoShip, grid.None, int32(-1)
	for i := range r.Fleet {
		if !me.Alive.Has(i) || float64(me.HP[i]-strongest) < cfg.Approach.HPEdge {
			continue
		}
		targets := r.MoveTargets(me, i)
		jgScanOrder(r.Board, func(c grid.Cell) bool {
			if k := v.cover[c]; targets.Has(c) && k >= most {
				ship, to, most = i, c, k
			}
			return true
		})
	}
	if ship == submarine.NoShip {
		return submarine.Action{}, false
	}
	return submarine.MoveTo(ship, to), true
}

// modelChartMax bounds the chart a view reads (its statistics cost one
// pass over it): larger charts mean an enemy that knows little of us, and
// the model waits.
const modelChartMax = 4096

// enemyKnown is the enemy fleet when our joint belief holds one placement,
// with ours as the view holds it.
func (a *Admiral) enemyKnown() (us, them submarine.Fleet, ok bool) {
	if a.enemyJ == nil || a.enemyJ.Count() != 1 {
		return us, them, false
	}
	pos, err := endgame.Known(a.rules, a.me, a.enemyJ.Placement(0, nil), a.enemyHP)
	if err != nil {
		return us, them, false
	}
	return pos.Mover, pos.Other, true
}

// observeModel updates the posterior with the enemy's action ev, taken in
// the position before it (called before the view updates our fleet and
// before the charts take ev).
func (a *Admiral) observeModel(ev submarine.Event) {
	if a.model.pols == nil || a.pubBroken || a.pub.Total() > modelChartMax {
		return
	}
	us, them, ok := a.enemyKnown()
	if !ok {
		return
	}
	var act submarine.Action
	switch ev.Kind {
	case submarine.Attack:
		act = submarine.AttackAt(ev.At)
	case submarine.Move:
		if !them.Alive.Has(ev.Ship) {
			return
		}
		x, y := a.rules.Board.XY(them.Pos[ev.Ship])
		to, ok := a.rules.Board.At(x+ev.DX, y+ev.DY)
		if !ok {
			return
		}
		act = submarine.MoveTo(ev.Ship, to)
	default:
		return
	}
	a.model.update(a.rules, &modelView{them: &them, us: &us, chart: a.pub.Placements()}, act)
}

// observeChart applies ev to pub, our fleet as a joint-greedy player that
// ignores the near report of a hit knows it.
func (a *Admiral) observeChart(ev submarine.Event) {
	if a.model.pols == nil || a.pubBroken {
		return
	}
	if !a.pub.Observe(ev, true) {
		a.pubBroken = true
	}
}

// tieEps is JointGreedy's tolerance for equal scores (players/jointgreedy.go
// jgEps): the model's joint-greedy policy must break ties as the player does.
const tieEps = 1e-12

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}
