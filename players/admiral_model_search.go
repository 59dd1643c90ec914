package players

import (
	"math"

	"github.com/kaisen-ai/kaisen/endgame"
	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/game/submarine"
)

// Exploiting solved draws (docs/admiral.md): in a position of perfect
// information that the exact solver calls drawn (or cannot prove), admiral
// looks for a win forced against the opponent model: an AND-OR search in
// which our side chooses among the actions that keep the solver's value
// (never a step from a draw into a loss) and the opponent's replies are the
// actions the posterior mixture gives at least exploit_support probability
// (every one of them must lose for it). A proof is played; otherwise, or
// when the posterior says the opponent plays perfectly or at random, the
// plain draw-keeping choice stands. The search counts nodes, not time, so a
// game replays from its seed.

// msKey packs a position (both fleets' cells and hp, a hash of the
// enemy's chart of us) for the transposition tables.
type msKey [5]uint64

// msState is a position of the search: both fleets, and the enemy's chart
// of ours (the placements of our living ships it holds possible).
type msState struct {
	us, them submarine.Fleet
	chart    []uint64
}

func chartHash(chart []uint64) uint64 {
	h := uint64(14695981039346656037)
	for _, p := range chart {
		h ^= p
		h *= 1099511628211
	}
	return h ^ uint64(len(chart))
}

// chartFired is the chart after our attack at `at`: some living ship of
// ours is within 1 of it.
func chartFired(r *submarine.Rules, chart []uint64, alive submarine.ShipMask, at grid.Cell) []uint64 {
	around := r.Board.Around(at)
	return chartKeep(chart, func(p uint64) bool {
		for i := range len(r.Fleet) {
			if alive.Has(i) && around.Has(jgCell(p, i)) {
				return true
			}
		}
		return false
	})
}

// chartKeep is the chart filtered by ok (a new slice; the chart as it was
// when nothing would survive, as jgChart.keep).
func chartKeep(chart []uint64, ok func(uint64) bool) []uint64 {
	var out []uint64
	for _, p := range chart {
		if ok(p) {
			out = append(out, p)
		}
	}
	if len(out) == 0 {
		return chart
	}
	return out
}

// chartMoved is the chart after our ship i moved by (dx, dy).
func chartMoved(r *submarine.Rules, chart []uint64, alive submarine.ShipMask, i, dx, dy int) []uint64 {
	b := r.Board
	var out []uint64
	mask := ^(uint64(0xff) << (8 * i))
next:
	for _, p := range chart {
		x, y := b.XY(jgCell(p, i))
		to, ok := b.At(x+dx, y+dy)
		if !ok || !b.IsUsable(to) {
			continue
		}
		for j := range len(r.Fleet) {
			if j != i && alive.Has(j) && jgCell(p, j) == to {
				continue next
			}
		}
		out = append(out, p&mask|uint64(to)<<(8*i))
	}
	if len(out) == 0 {
		return chart
	}
	return out
}

// chartAttacked is the chart after the enemy's attack at `at` on us (our
// fleet before it), with hirota's update: a hit keeps the placements with
// the hit ship there, a miss those with no ship there and exactly the near
// set within 1.
func chartAttacked(r *submarine.Rules, chart []uint64, us *submarine.Fleet, at grid.Cell) []uint64 {
	hit := us.ShipAt(at)
	if hit != submarine.NoShip {
		return chartKeep(chart, func(p uint64) bool { return jgCell(p, hit) == at })
	}
	around := r.Board.Around(at)
	var near submarine.ShipMask
	for i := range len(r.Fleet) {
		if us.Alive.Has(i) && around.Has(us.Pos[i]) {
			near = near.With(i)
		}
	}
	return chartKeep(chart, func(p uint64) bool {
		for i := range len(r.Fleet) {
			if !us.Alive.Has(i) {
				continue
			}
			c := jgCell(p, i)
			if c == at || near.Has(i) != around.Has(c) {
				return false
			}
		}
		return true
	})
}

func packFleet(r *submarine.Rules, f *submarine.Fleet) (cells, hp uint64) {
	for i := range len(r.Fleet) {
		c := uint64(0xff)
		if f.Alive.Has(i) {
			c = uint64(uint8(f.Pos[i]))
		}
		cells |= c << (8 * i)
		hp |= uint64(uint8(f.HP[i])) << (8 * i)
	}
	return cells, hp
}

// modelSearch is one decision's AND-OR search against the model.
type modelSearch struct {
	r       *submarine.Rules
	sv      *endgame.Solver
	m       *oppModel
	support float64
	budget  int
	nodes   int
	// tt: positions (us to move) proved won (depth -1) or not won within
	// the stored number of our moves. It and the replies are kept from
	// turn to turn (stalled games revisit the same positions) while the
	// posterior stays within modelDrift of w0.
	tt      map[msKey]int
	replyTT map[msKey][]submarine.Action
	w0      []float64
	buf     []actProb
}

// modelDrift is the L1 distance of the posterior from the one the tables
// were filled under beyond which they are cleared.
const modelDrift = 0.05

// reset prepares a decision: the budget, and the tables cleared if the
// posterior moved.
func (s *modelSearch) reset(budget int) {
	s.budget, s.nodes = budget, 0
	d := 0.0
	if len(s.w0) != len(s.m.w) {
		d = 2
	}
	for k := range s.w0 {
		d += math.Abs(s.w0[k] - s.m.w[k])
	}
	if s.tt == nil || d > modelDrift {
		s.tt = make(map[msKey]int)
		s.replyTT = make(map[msKey][]submarine.Action)
		s.w0 = append(s.w0[:0], s.m.w...)
	}
}

func (s *modelSearch) aborted() bool { return s.nodes > s.budget }

const msWon = -1

func (s *modelSearch) key(st *msState) msKey {
	a, b := packFleet(s.r, &st.us)
	c, d := packFleet(s.r, &st.them)
	return msKey{a, b, c, d, chartHash(st.chart)}
}

// solverSays is the solver's outcome for the side to move, when its
// tablebase answers without search (Unknown otherwise).
func (s *modelSearch) solverSays(mover, other *submarine.Fleet) endgame.Outcome {
	if !s.sv.Tablebase().Covers(mover.Alive.Count(), other.Alive.Count()) {
		return endgame.Unknown
	}
	pos, err := endgame.NewPosition(s.r, *mover, *other)
	if err != nil {
		return endgame.Unknown
	}
	v, err := s.sv.Solve(pos)
	if err != nil {
		return endgame.Unknown
	}
	return v.Outcome
}

// attack applies an attack at c on f, reporting whether it hit.
func attackFleet(f *submarine.Fleet, c grid.Cell) bool {
	i := f.ShipAt(c)
	if i == submarine.NoShip {
		return false
	}
	f.HP[i]--
	if f.HP[i] <= 0 {
		f.HP[i] = 0
		f.Alive = f.Alive.Without(i)
		f.Occupied.Remove(c)
	}
	return true
}

func moveFleet(f *submarine.Fleet, i int, to grid.Cell) {
	f.Occupied.Remove(f.Pos[i])
	f.Occupied.Add(to)
	f.Pos[i] = to
}

// ourActions lists our candidate actions in st: attacks on enemy ships in
// reach, every move, and one pass: the attack on an empty cell that tells
// the enemy least (keeps the most of its chart), among those ok allows.
func (s *modelSearch) ourActions(st *msState, ok func(submarine.Action) bool, out []submarine.Action) []submarine.Action {
	us, them := &st.us, &st.them
	pass, kept := grid.None, -1
	for c := range s.r.Reach(us).All() {
		a := submarine.AttackAt(c)
		if ok != nil && !ok(a) {
			continue
		}
		if them.Occupied.Has(c) {
			out = append(out, a)
		} else if k := len(chartFired(s.r, st.chart, us.Alive, c)); k > kept {
			pass, kept = c, k
		}
	}
	for i := range len(s.r.Fleet) {
		for c := range s.r.MoveTargets(us, i).All() {
			if a := submarine.MoveTo(i, c); ok == nil || ok(a) {
				out = append(out, a)
			}
		}
	}
	if pass != grid.None {
		out = append(out, submarine.AttackAt(pass))
	}
	return out
}

// replies are the opponent's modelled replies (them to move against us):
// the actions the mixture gives at least the support probability.
func (s *modelSearch) replies(st *msState) []submarine.Action {
	k := s.key(st)
	if r, ok := s.replyTT[k]; ok {
		return r
	}
	s.nodes++
	v := modelView{them: &st.them, us: &st.us, chart: st.chart}
	s.buf = s.m.mixture(s.r, &v, s.m.unmodelled, 0.01, s.buf[:0])
	total := 0.0
	for _, ap := range s.buf {
		total += ap.p
	}
	var out []submarine.Action
	for _, ap := range s.buf {
		if ap.p >= s.support*total {
			out = append(out, ap.a)
		}
	}
	s.replyTT[k] = out
	return out
}

// after is our action a applied to st: the position after it and whether
// it won.
func (s *modelSearch) after(st msState, a submarine.Action) (msState, bool) {
	if a.Kind == submarine.Attack {
		st.chart = chartFired(s.r, st.chart, st.us.Alive, a.To)
		attackFleet(&st.them, a.To)
		return st, st.them.Alive == 0
	}
	b := s.r.Board
	fx, fy := b.XY(st.us.Pos[a.Ship])
	tx, ty := b.XY(a.To)
	st.chart = chartMoved(s.r, st.chart, st.us.Alive, a.Ship, tx-fx, ty-fy)
	moveFleet(&st.us, a.Ship, a.To)
	return st, false
}

// reply is the enemy's action b applied to st: the position after it, and
// whether it sank our last ship.
func (s *modelSearch) reply(st msState, b submarine.Action) (msState, bool) {
	if b.Kind == submarine.Attack {
		st.chart = chartAttacked(s.r, st.chart, &st.us, b.To)
		attackFleet(&st.us, b.To)
		return st, st.us.Alive == 0
	}
	moveFleet(&st.them, b.Ship, b.To)
	return st, false
}

// wins reports whether we (to move) force a win against the model's
// replies within depth of our moves, never choosing an action the table
// says loses.
func (s *modelSearch) wins(st *msState, depth int) bool {
	us, them := &st.us, &st.them
	if depth <= 0 {
		return s.solverSays(us, them) == endgame.Win
	}
	k := s.key(st)
	if d, ok := s.tt[k]; ok && (d == msWon || d >= depth) {
		return d == msWon
	}
	s.nodes++
	if s.aborted() {
		return false
	}
	switch s.solverSays(us, them) {
	case endgame.Win:
		s.tt[k] = msWon
		return true
	case endgame.Loss:
		return false
	}
	won := false
	for _, a := range s.ourActions(st, nil, nil) {
		if s.proves(*st, a, depth) {
			won = true
			break
		}
		if s.aborted() {
			return false // unfinished: nothing learnt
		}
	}
	if won {
		s.tt[k] = msWon
	} else {
		s.tt[k] = depth
	}
	return won
}

// proves reports whether our action a wins against every modelled reply
// within depth of our moves (a included).
func (s *modelSearch) proves(st msState, a submarine.Action, depth int) bool {
	s.nodes++
	st2, won := s.after(st, a)
	if won {
		return true
	}
	if s.solverSays(&st2.them, &st2.us) == endgame.Win {
		return false // a step into a loss under perfect play: never
	}
	replies := s.replies(&st2)
	if len(replies) == 0 {
		return false
	}
	for _, b := range replies {
		st3, lost := s.reply(st2, b)
		if lost || !s.wins(&st3, depth-1) || s.aborted() {
			return false
		}
	}
	return true
}

// unmodelled reports whether policy k is one the search cannot exploit
// (perfect or uniform): the search reads the others' mixture.
func (m *oppModel) unmodelled(k int) bool {
	switch m.pols[k].(type) {
	case perfectPolicy, uniformPolicy:
		return true
	}
	return false
}

// exploitable is the posterior weight of the policies the search reads.
func (m *oppModel) exploitable() float64 {
	w := 0.0
	for k := range m.pols {
		if !m.unmodelled(k) {
			w += m.w[k]
		}
	}
	return w
}

// exploit looks for a win forced against the model from the position of
// perfect information (us to move), among the allowed root actions, by
// iterative deepening up to maxDepth of our moves within budget nodes. It
// returns the first action of the shortest proof found.
func (s *modelSearch) exploit(root0 msState, allowed func(submarine.Action) bool, maxDepth int) (submarine.Action, int, bool) {
	root := s.ourActions(&root0, allowed, nil)
	for d := 1; d <= maxDepth; d++ {
		for _, a := range root {
			if s.proves(root0, a, d) && !s.aborted() {
				return a, d, true
			}
			if s.aborted() {
				return submarine.Action{}, 0, false
			}
		}
	}
	return submarine.Action{}, 0, false
}
