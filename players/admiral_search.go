package players

import (
	"fmt"
	"github.com/kaisen-ai/kaisen/explain"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/game/submarine"
)

// pool is a list of placements of one fleet in packed form (byte i = cell of
// ship i, 0 for a sunk ship): the whole joint belief, an even subsample of it,
// or particles drawn from per-ship beliefs.
type pool struct {
	tup   []uint64
	alive submarine.ShipMask
	ships []int // living fleet indices
	full  int   // size of the belief the pool stands for
}

// order is a pseudo-random visiting order of a pool: index (start + k*step)
// mod n, step coprime with n, so that the first items seen form a random
// sample (the worlds of the search).
type order struct{ start, step, n int }

func (o order) at(k int) int { return (o.start + k*o.step) % o.n }

func gcd(a, b int) int {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// exposure is what the enemy knows of our fleet after one of our actions:
// the enemy's exact belief about us, summarised.
type exposure struct {
	n      int       // placements of our fleet still consistent
	leak   float64   // bits the action gave away: log2(before/after)
	occ    []float64 // P(one of our ships is on c), in the enemy's eyes
	ship   []float64 // ship[j*size+c]: P(our ship j is on c), in the enemy's eyes
	reachP []float64 // P(c is within our reach), in the enemy's eyes (sampled)
}

// slot is one possible answer to an attack (or the single "no answer" of a
// move) with the enemy placements that give it.
type slot struct {
	hit    int // enemy ship hit, or NoShip
	near   submarine.ShipMask
	count  int
	occ    []uint32                      // per cell: living enemy ships on it after the answer
	first  [submarine.MaxShips]grid.Cell // per enemy ship: its cell in the first placement seen
	same   [submarine.MaxShips]bool      // per enemy ship: every placement agrees (pinned)
	worlds []uint64                      // placements in visiting order (up to the quota)
	pinned [submarine.MaxShips]grid.Cell // filled from first/same after the pass
}

// scored is one evaluated candidate.
type scored struct {
	act          submarine.Action
	oneply, deep float64
	pHit, ig     float64
	leak, detect float64
}

// planner chooses Admiral's actions. Its buffers are reused between turns.
type planner struct {
	a    *Admiral
	size int
	nf   int // fleet size

	pe, po pool
	oe, oo order

	// scratch
	slots    []slot
	keySlot  []int16
	occBuf   []uint32
	exp      exposure
	expCount []uint32
	reachCnt []uint32
	buf      submarine.Placement
	cands    []scored
	reachE   []float64 // P(the enemy can attack c)
	// survivors: our placements still consistent after the candidate
	// action (filled by expose).
	survivors []uint64
	// attackCells: the enemy's modelled next attack in each sampled world.
	attackCells []grid.Cell
	ro          rollState
}

// rollState is the scratch state of one rollout.
type rollState struct {
	ecell   [submarine.MaxShips]grid.Cell
	ehp     [submarine.MaxShips]int8
	known   [submarine.MaxShips]grid.Cell
	ealive  submarine.ShipMask
	eship   []float64 // the enemy's belief about each of our ships
	moved   [][2]grid.Cell
	cleared []grid.Cell
}

const admiralReachSamples = 48

func (p *planner) init(a *Admiral) {
	p.a = a
	p.size = a.rules.Board.Size()
	p.nf = len(a.rules.Fleet)
	p.keySlot = make([]int16, (p.nf+1)<<p.nf)
	p.exp.occ = make([]float64, p.size)
	p.exp.ship = make([]float64, p.nf*p.size)
	p.exp.reachP = make([]float64, p.size)
	p.expCount = make([]uint32, p.nf*p.size)
	p.reachCnt = make([]uint32, p.size)
	p.ro.eship = make([]float64, p.nf*p.size)
	p.reachE = make([]float64, p.size)
}

// snapshot fills the pools from the beliefs.
func (p *planner) snapshot() {
	a := p.a
	limit := a.cfg.Search.EvalCap
	if a.enemyJ != nil && a.enemyJ.Count() > 0 && a.ownJ.Count() > 0 {
		p.fromJoint(&p.pe, a.enemyJ.Count(), a.enemyJ.Alive(), limit, a.enemyJ.Placement)
		p.fromJoint(&p.po, a.ownJ.Count(), a.ownJ.Alive(), limit, a.ownJ.Placement)
	} else {
		p.fromShips(&p.pe, true)
		p.fromShips(&p.po, false)
	}
	p.oe = p.newOrder(len(p.pe.tup))
	p.oo = p.newOrder(len(p.po.tup))
}

func (p *planner) newOrder(n int) order {
	if n <= 1 {
		return order{0, 1, max(n, 1)}
	}
	start := p.a.rng.IntN(n)
	step := (n*618)/1000 | 1
	for gcd(step, n) != 1 {
		step++
	}
	return order{start, step, n}
}

func (p *planner) fromJoint(dst *pool, count int, alive submarine.ShipMask, cap int, get func(int, submarine.Placement) submarine.Placement) {
	dst.alive = alive
	dst.ships = dst.ships[:0]
	for i := range p.nf {
		if alive.Has(i) {
			dst.ships = append(dst.ships, i)
		}
	}
	dst.full = count
	m := min(count, cap)
	dst.tup = slices.Grow(dst.tup[:0], m)[:m]
	for k := range m {
		idx := k
		if m < count {
			idx = int(int64(k) * int64(count) / int64(m))
		}
		p.buf = get(idx, p.buf)
		var t uint64
		for _, i := range dst.ships {
			t |= uint64(uint8(p.buf[i])) << (8 * i)
		}
		dst.tup[k] = t
	}
}

// fromShips draws particles from the per-ship beliefs (the fallback): each
// living ship uniformly in its set, redrawn when two ships collide.
func (p *planner) fromShips(dst *pool, enemy bool) {
	a := p.a
	s := &a.ownS
	if enemy {
		s = &a.enemyS
	}
	dst.alive = s.Alive()
	dst.ships = dst.ships[:0]
	for i := range p.nf {
		if dst.alive.Has(i) {
			dst.ships = append(dst.ships, i)
		}
	}
	n := a.cfg.Belief.Particles
	dst.tup = dst.tup[:0]
	total := 1.0
	for _, i := range dst.ships {
		total *= float64(max(1, s.Count(i)))
	}
	dst.full = int(math.Min(total, 1<<40))
	for range n {
		for try := 0; try < 20; try++ {
			var t uint64
			var used grid.Set
			ok := true
			for _, i := range dst.ships {
				set := s.Set(i)
				k := set.Count()
				if k == 0 {
					ok = false
					break
				}
				c := set.Nth(a.rng.IntN(k))
				if used.Has(c) {
					ok = false
					break
				}
				used.Add(c)
				t |= uint64(uint8(c)) << (8 * i)
			}
			if ok {
				dst.tup = append(dst.tup, t)
				break
			}
		}
	}
	if !enemy && len(dst.tup) == 0 {
		// Our true fleet is always possible.
		var t uint64
		for _, i := range dst.ships {
			t |= uint64(uint8(a.me.Pos[i])) << (8 * i)
		}
		dst.tup = append(dst.tup, t)
	}
}

// admiralDetectWorlds is the number of enemy placements on which the
// enemy's next attack is modelled to measure what it would tell the enemy.
const admiralDetectWorlds = 16

// admiralDetectScan bounds the placements scanned per modelled attack.
const admiralDetectScan = 512

// detectBits is the expected information (bits) that the enemy's next attack
// gains about our fleet us after the candidate whose exposure is x: in each
// of a few enemy placements the enemy attacks the cell of its reach where our
// ships most likely are; our answer there (hit, near set) is known to us, and
// its information is log2 of the placements of our fleet still consistent
// before and after it.
func (p *planner) detectBits(x *exposure, us *submarine.Fleet) float64 {
	b := p.a.rules.Board
	n := min(len(p.pe.tup), admiralDetectWorlds)
	if n == 0 || len(p.survivors) == 0 {
		return 0
	}
	p.attackCells = p.attackCells[:0]
	for k := range n {
		t := p.pe.tup[p.oe.at(k)]
		var r grid.Set
		for _, i := range p.pe.ships {
			r = r.Union(b.Around(cellOf(t, i)))
		}
		at, best := grid.None, -1.0
		for c := range r.All() {
			if x.occ[c] > best {
				at, best = c, x.occ[c]
			}
		}
		p.attackCells = append(p.attackCells, at)
	}
	slices.Sort(p.attackCells)
	total := 0.0
	for i := 0; i < len(p.attackCells); {
		at := p.attackCells[i]
		j := i
		for j < len(p.attackCells) && p.attackCells[j] == at {
			j++
		}
		weight := float64(j-i) / float64(n)
		i = j
		// Our answer to an attack on at, as a code: hit ship (+1) and near set.
		var code [256]uint8
		for c := range b.Around(at).All() {
			code[c] = 1
		}
		code[at] = 2
		ours := 0
		for _, sh := range p.po.ships {
			switch code[us.Pos[sh]] {
			case 2:
				ours |= (sh + 1) << submarine.MaxShips
			case 1:
				ours |= 1 << sh
			}
		}
		// Count the survivors that answer the same (an even subsample of at
		// most admiralDetectScan of them).
		step := max(1, len(p.survivors)/admiralDetectScan)
		same, seen := 0, 0
		for k := 0; k < len(p.survivors); k += step {
			t := p.survivors[k]
			seen++
			key := 0
			for _, sh := range p.po.ships {
				switch code[uint8(t>>(8*sh))] {
				case 2:
					key |= (sh + 1) << submarine.MaxShips
				case 1:
					key |= 1 << sh
				}
			}
			if key == ours {
				same++
			}
		}
		total += weight * math.Log2(float64(seen)/float64(max(same, 1)))
		continue
	}
	return total
}

// enemyReach estimates, for every cell, the probability that the enemy can
// attack it (some enemy ship within 1), from up to admiralReachSamples
// placements of the enemy pool.
func (p *planner) enemyReach() {
	b := p.a.rules.Board
	clear(p.reachCnt)
	n := min(len(p.pe.tup), admiralReachSamples)
	for k := range n {
		t := p.pe.tup[p.oe.at(k)]
		var r grid.Set
		for _, i := range p.pe.ships {
			r = r.Union(b.Around(cellOf(t, i)))
		}
		for c := range r.All() {
			p.reachCnt[c]++
		}
	}
	for c := range p.size {
		p.reachE[c] = float64(p.reachCnt[c]) / float64(max(n, 1))
	}
}

// boldness is the factor on every cost of ours (leak, danger, hp and ships
// lost, the lost game) after a long stretch without hits: a stalled game is
// heading for a draw, which counts no more than a loss, so the player takes
// more and more risk to decide it.
func (p *planner) boldness() float64 {
	e := p.a.cfg.Endgame
	quiet := (p.a.actions - p.a.lastHit) / 2 // our turns without a hit
	if quiet < e.Stall {
		return 1
	}
	return math.Pow(e.Boldness, float64(quiet/e.Stall))
}

// decide chooses the action of this turn.
func (p *planner) decide() (submarine.Action, explain.Decision) {
	a := p.a
	start := time.Now()
	reach := a.rules.Reach(&a.me)
	fallback := submarine.AttackAt(reach.First())
	p.snapshot()
	if len(p.pe.tup) == 0 {
		return fallback, explain.Decision{State: "lost", Reason: "no enemy placement is consistent; attacking the first reachable cell"}
	}
	bold := p.boldness()
	p.cands = p.cands[:0]
	limit := time.Duration(a.cfg.Search.MaxMillis) * time.Millisecond
	capped := false
	// Attacks first (cells most likely occupied first), then moves.
	for c := range reach.All() {
		p.cands = append(p.cands, scored{act: submarine.AttackAt(c)})
	}
	for i := range p.nf {
		for d := range a.rules.MoveTargets(&a.me, i).All() {
			p.cands = append(p.cands, scored{act: submarine.MoveTo(i, d)})
		}
	}
	p.enemyReach()
	for k := range p.cands {
		p.evaluate(&p.cands[k], bold, false)
	}
	byKey := func(key func(*scored) float64) func(x, y scored) int {
		return func(x, y scored) int {
			switch kx, ky := key(&x), key(&y); {
			case kx > ky:
				return -1
			case kx < ky:
				return 1
			}
			return 0
		}
	}
	oneply := func(s *scored) float64 { return s.oneply }
	key := oneply
	slices.SortStableFunc(p.cands, byKey(oneply))
	if a.cfg.Search.Worlds > 0 {
		// The best candidates by the one-ply value are played out.
		k := min(len(p.cands), a.cfg.Search.Candidates)
		evaluated := 0
		for i := range k {
			if limit > 0 && i > 0 && time.Since(start) > limit {
				capped = true
				break
			}
			p.evaluate(&p.cands[i], bold, true)
			evaluated++
		}
		p.cands = p.cands[:evaluated]
		key = func(s *scored) float64 { return s.deep }
		slices.SortStableFunc(p.cands, byKey(key))
	}
	best := p.cands[0]
	dec := explain.Decision{State: p.phase(), Reason: p.reason(&best, bold, capped)}
	for _, c := range p.cands[:min(6, len(p.cands))] {
		dec.Candidates = append(dec.Candidates, explain.Candidate{Action: a.actionName(c.act), Score: math.Round(key(&c)*1000) / 1000})
	}
	return best.act, dec
}

func (p *planner) phase() string {
	for _, i := range p.pe.ships {
		if p.pinnedEnemy(i) != grid.None {
			return "strike"
		}
	}
	return "hunt"
}

// pinnedEnemy reports the cell of enemy ship i when every placement agrees.
func (p *planner) pinnedEnemy(i int) grid.Cell {
	t0 := p.pe.tup[0]
	c := cellOf(t0, i)
	for _, t := range p.pe.tup {
		if cellOf(t, i) != c {
			return grid.None
		}
	}
	return c
}

func (p *planner) reason(s *scored, bold float64, capped bool) string {
	var b strings.Builder
	switch s.act.Kind {
	case submarine.Attack:
		fmt.Fprintf(&b, "hit %.0f%%, gain %.2f bits, leak %.2f bits", 100*s.pHit, s.ig, s.leak)
	default:
		fmt.Fprintf(&b, "reposition, leak %.2f bits", s.leak)
	}
	fmt.Fprintf(&b, "; one-ply %.3f, search %.3f; enemy belief %d placements, ours %d", s.oneply, s.deep, p.pe.full, p.po.full)
	if bold < 1 {
		fmt.Fprintf(&b, "; stalling: caution x%.2f", bold)
	}
	if capped {
		b.WriteString("; time cap reached")
	}
	return b.String()
}

// evaluate scores one candidate: one-ply and searched values.
func (p *planner) evaluate(s *scored, bold float64, deepen bool) {
	a := p.a
	s.pHit, s.ig = 0, 0
	v := &a.cfg.Value
	us := a.me // our fleet after the action
	var x *exposure
	switch s.act.Kind {
	case submarine.Attack:
		x = p.fireExposure(s.act.To)
		p.partitionAttack(s.act.To)
	default:
		from := us.Pos[s.act.Ship]
		fx, fy := a.rules.Board.XY(from)
		tx, ty := a.rules.Board.XY(s.act.To)
		x = p.moveExposure(s.act.Ship, tx-fx, ty-fy)
		us.Occupied.Remove(from)
		us.Occupied.Add(s.act.To)
		us.Pos[s.act.Ship] = s.act.To
		p.partitionNone()
	}
	s.leak = x.leak
	reach := a.rules.Reach(&us)
	// reach2: the cells we could attack after one more move.
	reach2 := reach
	if bold < 1 {
		for j := range p.nf {
			if us.Alive.Has(j) {
				for d := range a.rules.MoveTargets(&us, j).All() {
					reach2 = reach2.Union(a.rules.Board.Around(d))
				}
			}
		}
	}
	rep := 0
	if s.act.Kind == submarine.Move {
		f := formation(&us, p.nf)
		for _, h := range a.history {
			if h == f {
				rep++
			}
		}
	}
	if !deepen {
		s.detect = p.detectBits(x, &us) // kept for the deep pass
	}
	fixed := -bold*v.Leak*x.leak - v.Repeat*float64(rep) - bold*v.Detect*s.detect
	// One-ply danger: the chance that the enemy, attacking where it believes
	// each of our ships is, can reach it.
	danger := 0.0
	for j := range p.nf {
		if us.Alive.Has(j) {
			c := us.Pos[j]
			danger += p.reachE[c] * x.ship[j*p.size+int(c)]
		}
	}
	total := float64(len(p.pe.tup))
	oneply, deep, nextNow := 0.0, 0.0, 0.0
	living := p.pe.alive.Count()
	for k := range p.slots {
		sl := &p.slots[k]
		po := float64(sl.count) / total
		gain := 0.0
		sunk := false
		if sl.hit != submarine.NoShip {
			gain += v.Hit
			s.pHit += po
			if a.enemyHP[sl.hit] <= 1 {
				sunk = true
				gain += v.Sink
				if living == 1 {
					gain += v.Win
				}
			}
		}
		if po > 0 && s.act.Kind == submarine.Attack {
			s.ig -= po * math.Log2(po)
		}
		for i := range p.nf {
			sl.pinned[i] = grid.None
			if sl.same[i] && p.pe.alive.Has(i) && !(sunk && i == sl.hit) {
				sl.pinned[i] = sl.first[i]
			}
		}
		if sunk && living == 1 {
			oneply += po * gain
			deep += po * gain
			continue
		}
		next := p.bestNext(sl, &reach)
		nextNow += po * (next + p.bestNext(sl, &reach2)) / 2
		oneply += po * (gain + v.Next*next)
		if !deepen {
			continue
		}
		// Determinized play-out of the enemy's reply in this answer's worlds.
		if len(sl.worlds) > 0 {
			sum := 0.0
			for _, w := range sl.worlds {
				sum += p.rollout(w, sl, x, us, bold)
			}
			deep += po * (gain + sum/float64(len(sl.worlds)))
		} else {
			deep += po * gain
		}
	}
	s.oneply = oneply + v.Info*s.ig + fixed - bold*v.Hurt*danger + (1-bold)*v.Next*nextNow
	// A stalled game is decided by contact: as the player gets bolder, the
	// threat it poses next turn, and the turn after, counts whatever the
	// enemy may do about it.
	s.deep = deep + v.Info*s.ig + fixed + (1-bold)*v.Next*nextNow
}

// bestNext is the probability that our best attack next turn hits, under the
// answer's belief, with our reach.
func (p *planner) bestNext(sl *slot, reach *grid.Set) float64 {
	inv := 1 / float64(sl.count)
	best := 0.0
	for c := range reach.All() {
		best = math.Max(best, float64(sl.occ[c])*inv)
	}
	return math.Min(best, 1)
}

// rollout plays the game on in world w (an enemy placement consistent with
// the answer sl to our candidate action) for search.depth enemy replies,
// with our fleet us after the action, and values the result for us.
//
// The enemy follows the reply model (AdmiralModel) on what it knows of us:
// the exposure x after our action, updated by what its own attacks in the
// play-out reveal (a hit locates a ship, a near set confines one). We
// follow a simple rule on what we know: attack a located enemy ship in
// reach, else the likeliest cell in reach when it holds a ship with
// probability at least model.attack, else wait. Located enemy ships (pinned
// by the answer, hit since, moved by a known displacement) are tracked
// exactly; the others through the answer's occupancy. The value adds hits,
// sinks and the win (ours positive, the enemy's negative), discounted per
// reply, and ends with the follow-up term.
func (p *planner) rollout(w uint64, sl *slot, x *exposure, us submarine.Fleet, bold float64) float64 {
	a := p.a
	b := a.rules.Board
	v := &a.cfg.Value
	m := &a.cfg.Model
	ro := &p.ro
	// Enemy fleet in this world after our action.
	ro.ealive = 0
	for _, i := range p.pe.ships {
		ro.ecell[i] = cellOf(w, i)
		ro.ehp[i] = a.enemyHP[i]
		ro.known[i] = sl.pinned[i]
		if i == sl.hit {
			ro.ehp[i]--
		}
		if ro.ehp[i] > 0 {
			ro.ealive = ro.ealive.With(i)
		} else {
			ro.known[i] = grid.None
		}
	}
	copy(ro.eship, x.ship)  // what the enemy believes of us
	ro.moved = ro.moved[:0] // (from, to) of located enemy ships that moved
	ro.cleared = ro.cleared[:0]
	inv := 1 / float64(sl.count)
	val, disc := 0.0, 1.0
	for ply := 0; ; ply++ {
		// The enemy's reply.
		var ereach, eocc grid.Set
		for i := range p.nf {
			if ro.ealive.Has(i) {
				eocc.Add(ro.ecell[i])
				ereach = ereach.Union(b.Around(ro.ecell[i]))
			}
		}
		target, tp := grid.None, -1.0
		for c := range ereach.All() {
			q := 0.0
			for j := range p.nf {
				if us.Alive.Has(j) {
					q += ro.eship[j*p.size+int(c)]
				}
			}
			if q > tp {
				target, tp = c, q
			}
		}
		fled := false
		if tp < m.Sure {
			ship, risk := -1, -1.0
			for i := range p.nf {
				if c := ro.known[i]; c != grid.None && ro.ealive.Has(i) && x.reachP[c] > risk {
					ship, risk = i, x.reachP[c]
				}
			}
			if ship >= 0 && risk >= m.Flee {
				c := ro.known[ship]
				dest, dr, dd := grid.None, 2.0, -1
				for d := range b.Lines(c).AndNot(eocc).All() {
					r := x.reachP[d]
					dist := b.Chebyshev(c, d)
					if r < dr || (r == dr && dist > dd) {
						dest, dr, dd = d, r, dist
					}
				}
				if dest != grid.None && dr < risk {
					ro.moved = append(ro.moved, [2]grid.Cell{c, dest})
					ro.known[ship], ro.ecell[ship] = dest, dest
					fled = true
				}
			}
		}
		if !fled && target != grid.None {
			hit := us.ShipAt(target)
			p.enemyLearns(&us, target, hit)
			if hit != submarine.NoShip {
				val -= disc * bold * v.Hurt
				us.HP[hit]--
				if us.HP[hit] <= 0 {
					val -= disc * bold * v.Lost
					us.Alive = us.Alive.Without(hit)
					us.Occupied.Remove(target)
					if us.Alive == 0 {
						return val - disc*bold*v.Win
					}
				}
			}
		}
		reach := a.rules.Reach(&us)
		if ply+1 >= a.cfg.Search.Depth {
			return val + disc*v.Next*p.rolloutNext(sl, &reach, inv)
		}
		disc *= a.cfg.Search.Discount
		// Our turn: a located enemy ship in reach, else the likeliest cell.
		at, ap := grid.None, -1.0
		for c := range reach.All() {
			q := p.rolloutProb(sl, c, inv)
			if q > ap {
				at, ap = c, q
			}
		}
		if at == grid.None || ap < m.Attack {
			continue
		}
		for i := range p.nf {
			if ro.ealive.Has(i) && ro.ecell[i] == at {
				val += disc * v.Hit
				ro.ehp[i]--
				ro.known[i] = at
				if ro.ehp[i] <= 0 {
					val += disc * v.Sink
					ro.ealive = ro.ealive.Without(i)
					ro.known[i] = grid.None
					ro.moved = append(ro.moved, [2]grid.Cell{at, grid.None})
					if ro.ealive == 0 {
						return val + disc*v.Win
					}
				}
				break
			}
		}
		if ap < 1 {
			ro.cleared = append(ro.cleared, at) // hit or not, the cell is resolved
		}
	}
}

// enemyLearns updates the rollout's model of the enemy's belief about our
// ships after its attack on target (hit: our ship hit there, or NoShip): the
// hit ship is located, a ship reported near is within 1 of target, every
// other one is not. A belief left empty by the approximations collapses to
// the ship's true cell.
func (p *planner) enemyLearns(us *submarine.Fleet, target grid.Cell, hit int) {
	b := p.a.rules.Board
	around := b.Around(target)
	for j := range p.nf {
		if !us.Alive.Has(j) {
			continue
		}
		row := p.ro.eship[j*p.size : (j+1)*p.size]
		if j == hit {
			clear(row)
			row[target] = 1
			continue
		}
		near := b.Chebyshev(us.Pos[j], target) <= 1
		sum := 0.0
		for c := range row {
			in := around.Has(grid.Cell(c)) && grid.Cell(c) != target
			if in != near || grid.Cell(c) == target {
				row[c] = 0
			}
			sum += row[c]
		}
		if sum <= 0 {
			clear(row)
			row[us.Pos[j]] = 1
			continue
		}
		for c := range row {
			row[c] /= sum
		}
	}
}

// rolloutProb is the probability (as we know it in the rollout) that an
// enemy ship is on c.
func (p *planner) rolloutProb(sl *slot, c grid.Cell, inv float64) float64 {
	ro := &p.ro
	for i := range p.nf {
		if ro.known[i] == c && ro.ealive.Has(i) {
			return 1
		}
	}
	if slices.Contains(ro.cleared, c) {
		return 0
	}
	q := float64(sl.occ[c]) * inv
	for _, mv := range ro.moved {
		if mv[0] == c {
			q -= 1
		}
	}
	return max(0, min(1, q))
}

// rolloutNext is the probability that our best attack hits at the end of a
// rollout.
func (p *planner) rolloutNext(sl *slot, reach *grid.Set, inv float64) float64 {
	best := 0.0
	for c := range reach.All() {
		best = max(best, p.rolloutProb(sl, c, inv))
	}
	return best
}

// fireExposure is what the enemy learns from our attack on at: one of our
// ships is within 1 of it.
func (p *planner) fireExposure(at grid.Cell) *exposure {
	b := p.a.rules.Board
	var near [256]bool
	for c := range b.Around(at).All() {
		near[c] = true
	}
	return p.expose(func(t uint64) (uint64, bool) {
		for _, i := range p.po.ships {
			if near[cellOf(t, i)] {
				return t, true
			}
		}
		return 0, false
	})
}

// moveExposure is what the enemy learns from our move of ship by (dx, dy):
// the ship's cell shifts, and placements from which the move was impossible
// drop out.
func (p *planner) moveExposure(ship, dx, dy int) *exposure {
	b := p.a.rules.Board
	var to [256]int16
	for c := range p.size {
		to[c] = -1
		x, y := b.XY(grid.Cell(c))
		if nc, ok := b.At(x+dx, y+dy); ok && b.IsUsable(nc) && b.IsUsable(grid.Cell(c)) {
			to[c] = int16(nc)
		}
	}
	sh := uint(8 * ship)
	return p.expose(func(t uint64) (uint64, bool) {
		nc := to[uint8(t>>sh)]
		if nc < 0 {
			return 0, false
		}
		for _, i := range p.po.ships {
			if i != ship && int16(cellOf(t, i)) == nc {
				return 0, false
			}
		}
		return t&^(0xff<<sh) | uint64(nc)<<sh, true
	})
}

// expose filters (and maps) our exposure pool and summarises the survivors.
func (p *planner) expose(f func(uint64) (uint64, bool)) *exposure {
	x := &p.exp
	clear(p.expCount)
	clear(p.reachCnt)
	b := p.a.rules.Board
	n, sampled := 0, 0
	o := p.oo
	p.survivors = p.survivors[:0]
	for k := range len(p.po.tup) {
		t, ok := f(p.po.tup[o.at(k)])
		if !ok {
			continue
		}
		n++
		p.survivors = append(p.survivors, t)
		var r grid.Set
		for _, i := range p.po.ships {
			c := cellOf(t, i)
			p.expCount[i*p.size+int(c)]++
			if sampled < admiralReachSamples {
				r = r.Union(b.Around(c))
			}
		}
		if sampled < admiralReachSamples {
			sampled++
			for c := range r.All() {
				p.reachCnt[c]++
			}
		}
	}
	x.n = n
	if n == 0 {
		// Only possible with sampled beliefs: the enemy knows where we are.
		x.leak = math.Log2(float64(max(p.po.full, 2)))
		clear(x.occ)
		clear(x.ship)
		clear(x.reachP)
		for _, i := range p.po.ships {
			c := p.a.me.Pos[i]
			x.occ[c] = 1
			x.ship[i*p.size+int(c)] = 1
			for d := range b.Around(c).All() {
				x.reachP[d] = 1
			}
		}
		return x
	}
	x.leak = math.Log2(float64(len(p.po.tup)) / float64(n))
	inv := 1 / float64(n)
	rinv := 1 / float64(sampled)
	clear(x.occ)
	for k, n := range p.expCount {
		q := float64(n) * inv
		x.ship[k] = q
		x.occ[k%p.size] += q
	}
	for c := range p.size {
		x.reachP[c] = float64(p.reachCnt[c]) * rinv
	}
	return x
}

// slotFor returns the slot of answer key, creating it.
func (p *planner) slotFor(key int, hit int, near submarine.ShipMask) *slot {
	if s := p.keySlot[key]; s > 0 {
		return &p.slots[s-1]
	}
	k := len(p.slots)
	if k < cap(p.slots) {
		p.slots = p.slots[:k+1]
	} else {
		p.slots = append(p.slots, slot{})
	}
	sl := &p.slots[k]
	if need := (k + 1) * p.size; len(p.occBuf) < need {
		p.occBuf = append(p.occBuf, make([]uint32, need-len(p.occBuf))...)
		// Re-slice every slot: the buffer may have moved.
		for j := range k {
			p.slots[j].occ = p.occBuf[j*p.size : (j+1)*p.size]
		}
	}
	sl.occ = p.occBuf[k*p.size : (k+1)*p.size]
	clear(sl.occ)
	sl.hit, sl.near, sl.count = hit, near, 0
	sl.worlds = sl.worlds[:0]
	for i := range sl.same {
		sl.same[i], sl.first[i] = true, grid.None
	}
	p.keySlot[key] = int16(k + 1)
	return sl
}

func (p *planner) resetSlots() {
	p.slots = p.slots[:0]
	clear(p.keySlot)
}

// add counts placement t into slot sl.
func (p *planner) add(sl *slot, t uint64, skip int) {
	first := sl.count == 0
	sl.count++
	for _, i := range p.pe.ships {
		if i == skip {
			continue
		}
		c := cellOf(t, i)
		sl.occ[c]++
		if first {
			sl.first[i] = c
		} else if sl.first[i] != c {
			sl.same[i] = false
		}
	}
	if len(sl.worlds) < p.a.cfg.Search.Worlds {
		sl.worlds = append(sl.worlds, t)
	}
}

// partitionAttack splits the enemy pool by the answer an attack on at gets.
func (p *planner) partitionAttack(at grid.Cell) {
	p.resetSlots()
	b := p.a.rules.Board
	var code [256]uint8
	for c := range b.Around(at).All() {
		code[c] = 1
	}
	code[at] = 2
	o := p.oe
	for k := range len(p.pe.tup) {
		t := p.pe.tup[o.at(k)]
		hit, near := submarine.NoShip, submarine.ShipMask(0)
		for _, i := range p.pe.ships {
			switch code[cellOf(t, i)] {
			case 2:
				hit = i
			case 1:
				near = near.With(i)
			}
		}
		key := (hit+1)<<p.nf | int(near)
		sl := p.slotFor(key, hit, near)
		skip := submarine.NoShip
		if hit != submarine.NoShip && p.a.enemyHP[hit] <= 1 {
			skip = hit // sunk: it leaves the belief
		}
		p.add(sl, t, skip)
	}
	p.trimWorlds()
}

// partitionNone puts the whole enemy pool in one slot (a move tells us
// nothing about the enemy).
func (p *planner) partitionNone() {
	p.resetSlots()
	sl := p.slotFor(0, submarine.NoShip, 0)
	o := p.oe
	for k := range len(p.pe.tup) {
		p.add(sl, p.pe.tup[o.at(k)], submarine.NoShip)
	}
	p.trimWorlds()
}

// trimWorlds keeps, for every answer, a share of the worlds proportional to
// its probability (at least one): Worlds play-outs per candidate in all.
func (p *planner) trimWorlds() {
	total := float64(len(p.pe.tup))
	for k := range p.slots {
		sl := &p.slots[k]
		q := int(math.Ceil(float64(p.a.cfg.Search.Worlds) * float64(sl.count) / total))
		if q < len(sl.worlds) {
			sl.worlds = sl.worlds[:max(q, 1)]
		}
	}
}
