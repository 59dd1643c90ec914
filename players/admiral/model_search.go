package admiral

import (
	"math"

	"github.com/kaisen-ai/kaisen/endgame"
	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/game/submarine"
	"github.com/kaisen-ai/kaisen/players/chart"
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

func chartHash(pl []uint64) uint64 {
	h := uint64(14695981039346656037)
	for _, p := range pl {
		h ^= p
		h *= 1099511628211
	}
	return h ^ uint64(len(pl))
}

// The search's charts live on a stack (modelSearch.charts): a chart made
// for a node is pushed, and popped when the node's proof returns, so the
// search allocates nothing per node. Each filter keeps the chart as it was
// when nothing would survive, as chart.Chart.keep.

// push makes the placements pushed since start the new chart, or returns
// chart when there are none.
func (s *modelSearch) push(pl []uint64, start int) []uint64 {
	if len(s.charts) == start {
		return pl
	}
	return s.charts[start:len(s.charts):len(s.charts)]
}

// fired is the chart after our attack at `at`: some living ship of ours
// is within 1 of it.
func (s *modelSearch) fired(pl []uint64, alive submarine.ShipMask, at grid.Cell) []uint64 {
	around := s.r.Board.Around(at)
	start := len(s.charts)
	for _, p := range pl {
		if chartNear(p, len(s.r.Fleet), alive, &around) {
			s.charts = append(s.charts, p)
		}
	}
	return s.push(pl, start)
}

// firedCount is len(s.fired(chart, alive, at)), without the chart.
func (s *modelSearch) firedCount(pl []uint64, alive submarine.ShipMask, at grid.Cell) int {
	around := s.r.Board.Around(at)
	n := 0
	for _, p := range pl {
		if chartNear(p, len(s.r.Fleet), alive, &around) {
			n++
		}
	}
	if n == 0 {
		return len(pl)
	}
	return n
}

// chartNear reports whether a living ship of placement p is in around.
func chartNear(p uint64, ships int, alive submarine.ShipMask, around *grid.Set) bool {
	for i := range ships {
		if alive.Has(i) && around.Has(chart.Cell(p, i)) {
			return true
		}
	}
	return false
}

// moved is the chart after our ship i moved by (dx, dy).
func (s *modelSearch) moved(pl []uint64, alive submarine.ShipMask, i, dx, dy int) []uint64 {
	b := s.r.Board
	start := len(s.charts)
	mask := ^(uint64(0xff) << (8 * i))
next:
	for _, p := range pl {
		x, y := b.XY(chart.Cell(p, i))
		to, ok := b.At(x+dx, y+dy)
		if !ok || !b.IsUsable(to) {
			continue
		}
		for j := range len(s.r.Fleet) {
			if j != i && alive.Has(j) && chart.Cell(p, j) == to {
				continue next
			}
		}
		s.charts = append(s.charts, p&mask|uint64(to)<<(8*i))
	}
	return s.push(pl, start)
}

// attacked is the chart after the enemy's attack at `at` on us (our fleet
// before it), with hirota's update: a hit keeps the placements with the
// hit ship there, a miss those with no ship there and exactly the near set
// within 1.
func (s *modelSearch) attacked(pl []uint64, us *submarine.Fleet, at grid.Cell) []uint64 {
	start := len(s.charts)
	if hit := us.ShipAt(at); hit != submarine.NoShip {
		for _, p := range pl {
			if chart.Cell(p, hit) == at {
				s.charts = append(s.charts, p)
			}
		}
		return s.push(pl, start)
	}
	around := s.r.Board.Around(at)
	var near submarine.ShipMask
	for i := range len(s.r.Fleet) {
		if us.Alive.Has(i) && around.Has(us.Pos[i]) {
			near = near.With(i)
		}
	}
next:
	for _, p := range pl {
		for i := range len(s.r.Fleet) {
			if !us.Alive.Has(i) {
				continue
			}
			c := chart.Cell(p, i)
			if c == at || near.Has(i) != around.Has(c) {
				continue next
			}
		}
		s.charts = append(s.charts, p)
	}
	return s.push(pl, start)
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
	tt      msTable
	replyTT msTable // position (them to move) -> its replies in acts
	acts    []msAction
	probs   []float32 // each reply's probability in the mixture, as acts
	// ctt: the gamble search's values of positions (us to move), keyed
	// with the depth they were searched to (model_chance.go); discount is
	// its gamble_discount.
	ctt      msTable
	discount float64
	// cgen counts the changes to ctt (every put, every clearing); groots
	// remembers the gambles that changed nothing (model_chance.go).
	cgen   uint64
	groots rootMemo
	w0     []float64
	buf    []actProb
	// charts and ours are stacks: the charts and our candidate actions of
	// the nodes on the current path.
	charts []uint64
	ours   []submarine.Action
	// the view of the replies' mixture: copies of the fleets and the
	// statistics buffers, reused from node to node
	view       modelView
	vthem, vus submarine.Fleet
	// gen counts the changes to the tables (every put, every clearing):
	// while it stands still the tables are as they were. roots remembers
	// the searches that changed nothing (exploit_memo.go).
	gen   uint64
	roots rootMemo
	// passes remembers, per root (rootKey without the budget), how many
	// depths of iterative deepening from 1 found every root action marked
	// failed at that depth or deeper: such a pass counts no node and
	// changes no table, and marks only deepen until the tables are
	// cleared, so the next search of the root starts past them. Cleared
	// with the tables.
	passes map[rootKey]int
}

// msAction is a reply packed for the reply table: kind, ship + 1, cell.
type msAction uint32

func packAction(a submarine.Action) msAction {
	return msAction(uint32(a.Kind)&0xff | uint32(a.Ship+1)&0xff<<8 | uint32(uint16(int16(a.To)))<<16)
}

func (m msAction) action() submarine.Action {
	return submarine.Action{Kind: submarine.Kind(m & 0xff), Ship: int(m>>8&0xff) - 1, To: grid.Cell(int16(m >> 16))}
}

// msEntry is one entry of an msTable.
type msEntry struct {
	key  msKey
	a, b int32
}

// msTable maps positions of the search to two numbers: a hash table with
// open addressing (linear probing, at most 3/4 full) that compares whole
// keys, as a map does, without an allocation per entry or pointers for
// the garbage collector to scan. A byte per slot (0: empty, else 0x80 and
// 7 bits of the hash) keeps most probes off the entries.
type msTable struct {
	tag []uint8
	e   []msEntry
	n   int
}

func (t *msTable) reset() {
	t.tag, t.e, t.n = make([]uint8, 1<<10), make([]msEntry, 1<<10), 0
}

func msHash(k *msKey) uint64 {
	h := uint64(0)
	for _, w := range k {
		h = (h ^ w) * 0x9e3779b97f4a7c15
		h ^= h >> 29
	}
	return h
}

// slot is the index of k's entry (found) or of the empty slot where it
// would go, and k's tag.
func (t *msTable) slot(k *msKey) (i uint64, tag uint8, found bool) {
	h := msHash(k)
	tag = uint8(h>>57) | 0x80
	mask := uint64(len(t.tag) - 1)
	for i = h & mask; ; i = (i + 1) & mask {
		switch g := t.tag[i]; {
		case g == 0:
			return i, tag, false
		case g == tag && sameKey(&t.e[i].key, k):
			return i, tag, true
		}
	}
}

// sameKey is x == y, word by word (the array comparison calls memequal).
func sameKey(x, y *msKey) bool {
	return x[0] == y[0] && x[1] == y[1] && x[2] == y[2] && x[3] == y[3] && x[4] == y[4]
}

func (t *msTable) get(k *msKey) (a, b int32, ok bool) {
	i, _, ok := t.slot(k)
	if !ok {
		return 0, 0, false
	}
	return t.e[i].a, t.e[i].b, true
}

func (t *msTable) put(k *msKey, a, b int32) {
	i, tag, ok := t.slot(k)
	if !ok {
		if 4*(t.n+1) > 3*len(t.tag) {
			t.grow()
			i, tag, _ = t.slot(k)
		}
		t.n++
		t.tag[i], t.e[i].key = tag, *k
	}
	t.e[i].a, t.e[i].b = a, b
}

func (t *msTable) grow() {
	tags, old := t.tag, t.e
	t.tag, t.e = make([]uint8, 2*len(tags)), make([]msEntry, 2*len(old))
	for j := range old {
		if tags[j] != 0 {
			i, tag, _ := t.slot(&old[j].key)
			t.tag[i], t.e[i] = tag, old[j]
		}
	}
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
	if s.tt.tag == nil || d > modelDrift {
		s.gen++
		clear(s.passes)
		s.tt.reset()
		s.replyTT.reset()
		s.ctt.reset()
		s.cgen++
		s.acts, s.probs = s.acts[:0], s.probs[:0]
		s.w0 = append(s.w0[:0], s.m.w...)
	}
}

func (s *modelSearch) aborted() bool { return s.nodes > s.budget }

const msWon int32 = -1

func (s *modelSearch) key(st *msState) msKey {
	a, b := packFleet(s.r, &st.us)
	c, d := packFleet(s.r, &st.them)
	return msKey{a, b, c, d, chartHash(st.chart)}
}

// solverSays is the solver's outcome for the side to move, when its
// tablebase answers without search (Unknown otherwise). The search's
// fleets are always ones endgame.NewPosition accepts unchanged (built by
// it, then changed only by legal actions), as Solver.Probe needs.
func (s *modelSearch) solverSays(mover, other *submarine.Fleet) endgame.Outcome {
	if !s.sv.Tablebase().Covers(mover.Alive.Count(), other.Alive.Count()) {
		return endgame.Unknown
	}
	v, ok, err := s.sv.Probe(s.r, mover, other)
	if !ok || err != nil {
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
		} else if k := s.firedCount(st.chart, us.Alive, c); k > kept {
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

// replies are the opponent's modelled replies (them to move against us),
// for a position of key k not yet in the reply table: the actions the
// mixture gives at least the support probability, and their offset in
// acts.
func (s *modelSearch) replies(st *msState, k *msKey) ([]msAction, int32) {
	s.nodes++
	s.vthem, s.vus = st.them, st.us
	v := &s.view
	*v = modelView{them: &s.vthem, us: &s.vus, chart: st.chart, count: v.count, cover: v.cover}
	s.buf = s.m.mixture(s.r, v, s.m.unmodelled, 0.01, s.buf[:0])
	total := 0.0
	for _, ap := range s.buf {
		total += ap.p
	}
	start := len(s.acts)
	for _, ap := range s.buf {
		if ap.p >= s.support*total {
			s.acts = append(s.acts, packAction(ap.a))
			s.probs = append(s.probs, float32(ap.p))
		}
	}
	end := len(s.acts)
	s.gen++
	s.replyTT.put(k, int32(start), int32(end-start))
	return s.acts[start:end:end], int32(start)
}

// A reply table entry holds the replies' offset in acts, and their count
// (the low bits) with the largest depth at which the position was searched
// to a failure (above msFailShift).
const (
	msFailShift       = 16
	msReplyMask int32 = 1<<msFailShift - 1
)

// failed records that the position of key k (them to move, its n replies
// at off in acts) holds no proof within depth of our moves.
func (s *modelSearch) failed(k *msKey, off int32, n, depth int) {
	s.gen++
	s.replyTT.put(k, off, int32(n)|int32(depth)<<msFailShift)
}

// after is our action a applied to st: the position after it and whether
// it won.
func (s *modelSearch) after(st msState, a submarine.Action) (msState, bool) {
	if a.Kind == submarine.Attack {
		st.chart = s.fired(st.chart, st.us.Alive, a.To)
		attackFleet(&st.them, a.To)
		return st, st.them.Alive == 0
	}
	b := s.r.Board
	fx, fy := b.XY(st.us.Pos[a.Ship])
	tx, ty := b.XY(a.To)
	st.chart = s.moved(st.chart, st.us.Alive, a.Ship, tx-fx, ty-fy)
	moveFleet(&st.us, a.Ship, a.To)
	return st, false
}

// reply is the enemy's action b applied to st: the position after it, and
// whether it sank our last ship.
func (s *modelSearch) reply(st msState, b submarine.Action) (msState, bool) {
	if b.Kind == submarine.Attack {
		st.chart = s.attacked(st.chart, &st.us, b.To)
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
	if d, _, ok := s.tt.get(&k); ok && (d == msWon || int(d) >= depth) {
		return d == msWon
	}
	s.nodes++
	if s.aborted() {
		return false
	}
	switch s.solverSays(us, them) {
	case endgame.Win:
		s.gen++
		s.tt.put(&k, msWon, 0)
		return true
	case endgame.Loss:
		return false
	}
	mark := len(s.ours)
	s.ours = s.ourActions(st, nil, s.ours)
	won := false
	for i := mark; i < len(s.ours); i++ {
		if s.proves(*st, s.ours[i], depth) {
			won = true
			break
		}
		if s.aborted() {
			s.ours = s.ours[:mark]
			return false // unfinished: nothing learnt
		}
	}
	s.ours = s.ours[:mark]
	s.gen++
	if won {
		s.tt.put(&k, msWon, 0)
	} else {
		s.tt.put(&k, int32(depth), 0)
	}
	return won
}

// proves reports whether our action a wins against every modelled reply
// within depth of our moves (a included).
func (s *modelSearch) proves(st msState, a submarine.Action, depth int) bool {
	mark := len(s.charts)
	ok := s.provesIn(st, a, depth)
	s.charts = s.charts[:mark] // the charts of this node and below
	return ok
}

// provesIn is proves without the charts' cleanup. A position after our
// action that an earlier search took to a failure at this depth or deeper
// fails again without a node counted: the tables hold facts about the
// model (cleared with it), so such a failure is final, and a stalled
// game's searches spend their budgets on positions not yet searched.
func (s *modelSearch) provesIn(st msState, a submarine.Action, depth int) bool {
	st2, won := s.after(st, a)
	if won {
		s.nodes++
		return true
	}
	k := s.key(&st2)
	off, nb, known := s.replyTT.get(&k)
	if known && int(nb>>msFailShift) >= depth {
		return false // marked positions passed the solver's check below
	}
	if s.solverSays(&st2.them, &st2.us) == endgame.Win {
		s.nodes++
		return false // a step into a loss under perfect play: never
	}
	s.nodes++
	var replies []msAction
	if known {
		n := nb & msReplyMask
		replies = s.acts[off : off+n : off+n]
	} else {
		replies, off = s.replies(&st2, &k)
	}
	if len(replies) == 0 {
		return false
	}
	for _, b := range replies {
		st3, lost := s.reply(st2, b.action())
		if lost || !s.wins(&st3, depth-1) {
			if !s.aborted() {
				s.failed(&k, off, len(replies), depth)
			}
			return false
		}
		if s.aborted() {
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
//
// A search that changed none of the tables is a function of its root,
// the tables and the budget alone: while the tables stay unchanged, the
// same root gets the remembered answer (and node count) without a search.
// Stalled games ask the same roots again and again (docs/admiral.md,
// "Performance").
func (s *modelSearch) exploit(root0 msState, allowed func(submarine.Action) bool, maxDepth int) (submarine.Action, int, bool) {
	root := s.ourActions(&root0, allowed, nil)
	key := s.roots.key(&root0, root, maxDepth, s.budget)
	if r, ok := s.roots.get(s.gen, &key); ok {
		s.nodes = r.nodes
		return r.act, r.depth, r.ok
	}
	gen := s.gen
	pk := key
	pk.budget = 0
	act, depth, ok := s.deepen(root0, root, maxDepth, &pk)
	if s.gen == gen {
		s.roots.put(gen, &key, rootResult{act: act, depth: depth, nodes: s.nodes, ok: ok})
	}
	return act, depth, ok
}

// deepen is exploit's search of the root actions, by iterative deepening,
// from the first depth whose pass is not known to fail without a node
// (passes); pk is the root's key there.
func (s *modelSearch) deepen(root0 msState, root []submarine.Action, maxDepth int, pk *rootKey) (submarine.Action, int, bool) {
	done := s.passes[*pk]
	for d := done + 1; d <= maxDepth; d++ {
		nodes, gen := s.nodes, s.gen
		for _, a := range root {
			if s.proves(root0, a, d) && !s.aborted() {
				return a, d, true
			}
			if s.aborted() {
				return submarine.Action{}, 0, false
			}
		}
		if d == done+1 && s.nodes == nodes && s.gen == gen {
			done = d
			if s.passes == nil || len(s.passes) >= rootMemoCap {
				s.passes = make(map[rootKey]int)
			}
			s.passes[*pk] = d
		}
	}
	return submarine.Action{}, 0, false
}
