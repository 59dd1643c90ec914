package endgame

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"sync"
	"sync/atomic"

	"github.com/kaisen-ai/kaisen/game/grid"
)

// DefaultTableLimit bounds the positions of one class pair a Tablebase
// solves: on 5x5 it admits every class with at most two ships a side and
// three against one (at most 720,000 positions a pair), and leaves three
// against two (16.6 million) and three against three to the search.
const DefaultTableLimit = 1 << 20

// ErrTooDeep reports a class whose distances or action counts do not fit
// the table's bytes (never seen on boards of the published sizes).
var ErrTooDeep = errors.New("endgame: class too deep for the tablebase")

// ErrNotInTable reports a position whose material the tablebase does not
// cover.
var ErrNotInTable = errors.New("endgame: material not in the tablebase")

// Tablebase holds exact values of every position whose material class it
// covers, computed by retrograde analysis on first use of a class and kept.
// It is safe for concurrent use: each class pair is solved once (later
// callers wait for it), and solved classes are read without locks.
//
// A class is the material of the side to move and of the other side (hp
// multisets: ship types do not matter). Its positions are indexed by the
// rank of each side's canonical placement. The game's hp never rise, so a
// class's hits lead to classes of less total hp, which are solved first;
// moves and passes stay in the pair of classes (A to move against B, B to
// move against A), which is solved as one retrograde analysis.
type Tablebase struct {
	board *grid.Board
	limit int
	// maxPl[k] is the number of ordered placements of k ships: the size
	// bound of a side with k ships that decides which classes are covered.
	maxPl []float64

	mu    sync.Mutex
	mats  map[material]*placements
	pairs map[[2]material]*pair
	// solved holds the pairs solved without error, copied on write (under
	// mu) and read without locks: a probe of a solved class takes no lock.
	solved atomic.Pointer[map[[2]material]*pair]
}

// placements lists every canonical placement of one material: cells of the
// ships in canonical order (equal-hp ships in ascending cells), and the
// inverse map from a cell tuple to its rank.
type placements struct {
	k     int
	n     int     // board size (cell indices, rocks included)
	count int     // number of placements
	cells []uint8 // count*k
	rank  []int32 // n^k, -1 for a tuple that is not canonical
	// Per placement: the cells the ships occupy and reach, and the number
	// of their moves.
	occ, reach []grid.Set
	moves      []uint16
	// next[first[r]:first[r+1]] are the ranks one move of a ship leads to
	// from placement r, by ship (canonical order) then destination: the
	// retrograde analysis's predecessors (moves are reversible).
	next  []int32
	first []int32
}

// pair is the unit of work: the class A-to-move-against-B and its mirror.
type pair struct {
	once sync.Once
	cls  [2]*class // cls[1] == cls[0] when A == B
	err  error
}

// class holds the values of one class: dist[rank(mover)*other.count +
// rank(other)] is 0 for a draw, an odd d for a win of the side to move in d
// plies, an even d for a loss in d plies.
type class struct {
	mover, other *placements
	dist         []uint8

	tallyOnce sync.Once
	tally     Tally
}

// NewTablebase returns an empty tablebase for board that covers every class
// pair of at most limit positions (counted as if every ship had a distinct
// hp; limit <= 0: DefaultTableLimit). Nothing is solved until asked for.
func NewTablebase(board *grid.Board, limit int) *Tablebase {
	if limit <= 0 {
		limit = DefaultTableLimit
	}
	t := &Tablebase{board: board, limit: limit, mats: map[material]*placements{}, pairs: map[[2]material]*pair{}}
	u := board.Usable().Count()
	pl := 1.0
	t.maxPl = append(t.maxPl, pl)
	for k := 1; k <= maxK && k <= u; k++ {
		pl *= float64(u - k + 1)
		t.maxPl = append(t.maxPl, pl)
	}
	return t
}

// Board is the board the tablebase solves.
func (t *Tablebase) Board() *grid.Board { return t.board }

// Covers reports whether the table answers positions with these numbers of
// living ships on the side to move and on the other side (the class of a
// side of mover ships against other ships, either to move, is in the table).
func (t *Tablebase) Covers(mover, other int) bool {
	if mover < 1 || other < 1 || mover >= len(t.maxPl) || other >= len(t.maxPl) {
		return false
	}
	return 2*t.maxPl[mover]*t.maxPl[other] <= float64(t.limit)
}

// probe returns the stored distance of st (see class.dist), solving its
// class pair first if needed.
func (t *Tablebase) probe(st *state) (uint8, error) {
	c, err := t.class(st.s[0].material(), st.s[1].material())
	if err != nil {
		return 0, err
	}
	return c.dist[c.index(st)], nil
}

func (c *class) index(st *state) int {
	return int(c.mover.rankOf(&st.s[0]))*c.other.count + int(c.other.rankOf(&st.s[1]))
}

// class returns the solved class of a against b (a to move).
func (t *Tablebase) class(a, b material) (*class, error) {
	if !t.Covers(int(a.n), int(b.n)) {
		return nil, fmt.Errorf("%w: %d ships against %d on %dx%d", ErrNotInTable, a.n, b.n, t.board.Width(), t.board.Height())
	}
	key, flip := [2]material{a, b}, 0
	if less(b, a) {
		key, flip = [2]material{b, a}, 1
	}
	if m := t.solved.Load(); m != nil {
		if p := (*m)[key]; p != nil {
			return p.cls[flip], nil
		}
	}
	t.mu.Lock()
	p := t.pairs[key]
	if p == nil {
		p = &pair{}
		t.pairs[key] = p
	}
	t.mu.Unlock()
	p.once.Do(func() { p.err = t.solve(p, key[0], key[1]) })
	if p.err != nil {
		return nil, p.err
	}
	t.publish(key, p)
	return p.cls[flip], nil
}

// publish adds the solved pair p to the lock-free map of solved pairs.
func (t *Tablebase) publish(key [2]material, p *pair) {
	t.mu.Lock()
	defer t.mu.Unlock()
	m := map[[2]material]*pair{}
	if old := t.solved.Load(); old != nil {
		if (*old)[key] != nil {
			return
		}
		m = maps.Clone(*old)
	}
	m[key] = p
	t.solved.Store(&m)
}

// less is a total order on materials (to name a pair once).
func less(a, b material) bool {
	if a.n != b.n {
		return a.n < b.n
	}
	for i := range a.hp {
		if a.hp[i] != b.hp[i] {
			return a.hp[i] < b.hp[i]
		}
	}
	return false
}

// placementsOf returns (building once) the canonical placements of m.
func (t *Tablebase) placementsOf(m material) *placements {
	t.mu.Lock()
	defer t.mu.Unlock()
	if p := t.mats[m]; p != nil {
		return p
	}
	k, n := int(m.n), t.board.Size()
	size := 1
	for range k {
		size *= n
	}
	p := &placements{k: k, n: n, rank: make([]int32, size)}
	for i := range p.rank {
		p.rank[i] = -1
	}
	usable := t.board.Usable().Cells()
	var cur [maxK]uint8
	var used grid.Set
	var rec func(j int)
	rec = func(j int) {
		if j == k {
			key := 0
			for i := range k {
				key = key*n + int(cur[i])
			}
			p.rank[key] = int32(p.count)
			p.cells = append(p.cells, cur[:k]...)
			p.count++
			var reach grid.Set
			moves := 0
			for i := range k {
				reach = reach.Union(t.board.Around(grid.Cell(cur[i])))
				moves += t.board.Lines(grid.Cell(cur[i])).AndNot(used).Count()
			}
			p.occ = append(p.occ, used)
			p.reach = append(p.reach, reach)
			p.moves = append(p.moves, uint16(moves))
			return
		}
		for _, c := range usable {
			if used.Has(c) || (j > 0 && m.hp[j] == m.hp[j-1] && uint8(c) < cur[j-1]) {
				continue
			}
			used.Add(c)
			cur[j] = uint8(c)
			rec(j + 1)
			used.Remove(c)
		}
	}
	rec(0)
	p.link(t.board, m)
	t.mats[m] = p
	return p
}

// link fills p.next and p.first: the placements one move leads to.
func (p *placements) link(b *grid.Board, m material) {
	p.first = make([]int32, 0, p.count+1)
	var sd, to side
	sd.n, sd.hp = p.k, m.hp
	for r := range p.count {
		p.first = append(p.first, int32(len(p.next)))
		p.fill(&sd, r)
		occ := p.occ[r]
		for j := range p.k {
			for c := range b.Lines(grid.Cell(sd.cell[j])).AndNot(occ).All() {
				to = sd
				to.cell[j] = uint8(c)
				to.fix(j)
				p.next = append(p.next, p.rankOf(&to))
			}
		}
	}
	p.first = append(p.first, int32(len(p.next)))
}

func (p *placements) rankOf(sd *side) int32 {
	key := 0
	for i := range p.k {
		key = key*p.n + int(sd.cell[i])
	}
	return p.rank[key]
}

// fill sets sd's cells to placement r of p (hp are the caller's).
func (p *placements) fill(sd *side, r int) {
	copy(sd.cell[:p.k], p.cells[r*p.k:(r+1)*p.k])
}

// noLoss marks a position that has an exit to a draw or a win, so it can
// never be lost.
const noLoss = math.MaxUint8

// solve runs the retrograde analysis of the pair a-against-b and
// b-against-a. Positions are numbered globally: class 0 (a to move) first,
// then class 1 (b to move) unless a == b.
func (t *Tablebase) solve(p *pair, a, b material) error {
	mats := [2]material{a, b}
	pl := [2]*placements{t.placementsOf(a), t.placementsOf(b)}
	same := a == b
	cls := [2]*class{{mover: pl[0], other: pl[1]}, {mover: pl[1], other: pl[0]}}
	n0 := pl[0].count * pl[1].count
	n := n0
	if !same {
		n *= 2
	}
	base := [2]int{0, n0}
	if same {
		base[1] = 0
	}
	dist := make([]uint8, n)
	cnt := make([]uint8, n)
	floor := make([]uint8, n) // smallest loss distance the exits allow
	var buckets [][]int32
	push := func(d int, g int) {
		for len(buckets) <= d {
			buckets = append(buckets, nil)
		}
		buckets[d] = append(buckets[d], int32(g))
	}
	var st state
	for c := range 2 {
		if c == 1 && same {
			break
		}
		mv, ot := pl[c], pl[1-c]
		// The class each hit leads to, by the hit ship's canonical index
		// (nil: the hit sinks the last ship).
		var hitCls [maxK]*class
		for j := range ot.k {
			var sd side
			sd.n, sd.hp = ot.k, mats[1-c].hp
			sd.cell = [maxK]uint8{0, 1, 2, 3, 4, 5, 6, 7} // any distinct cells
			sd.hit(j)
			if sd.n == 0 {
				continue
			}
			hc, err := t.class(sd.material(), mats[c])
			if err != nil {
				return fmt.Errorf("endgame: solve %v against %v: %w", a.hp[:a.n], b.hp[:b.n], err)
			}
			hitCls[j] = hc
		}
		// hitRank[j*ot.count+ro]: the rank, in the hit class's mover
		// placements, of placement ro of the other side after a hit on
		// its ship j.
		hitRank := make([]int32, ot.k*ot.count)
		st.s[1].n, st.s[1].hp = ot.k, mats[1-c].hp
		for j := range ot.k {
			if hitCls[j] == nil {
				continue
			}
			for ro := range ot.count {
				ot.fill(&st.s[1], ro)
				hit := st.s[1]
				hit.hit(j)
				hitRank[j*ot.count+ro] = hitCls[j].mover.rankOf(&hit)
			}
		}
		for rm := range mv.count {
			reach := mv.reach[rm]
			for ro := range ot.count {
				g := base[c] + rm*ot.count + ro
				moves := int(mv.moves[rm])
				if !reach.AndNot(ot.occ[ro]).Empty() {
					moves++
				}
				if moves >= noLoss {
					return fmt.Errorf("%w: %d actions from one position do not fit the table's counters", ErrTooDeep, moves)
				}
				cnt[g] = uint8(moves)
				win := 0
				for j := range ot.k {
					if !reach.Has(grid.Cell(ot.cells[ro*ot.k+j])) {
						continue
					}
					hc := hitCls[j]
					if hc == nil {
						win = 1
						break
					}
					d := hc.dist[int(hitRank[j*ot.count+ro])*hc.other.count+rm]
					switch {
					case d == 0:
						cnt[g] = noLoss
					case d%2 == 1:
						if d == math.MaxUint8 {
							return fmt.Errorf("%w: a loss longer than %d plies", ErrTooDeep, d)
						}
						floor[g] = max(floor[g], d+1)
					case win == 0 || int(d)+1 < win:
						win = int(d) + 1
					}
				}
				switch {
				case win > 0:
					cnt[g] = noLoss
					push(win, g)
				case cnt[g] == 0:
					push(int(floor[g]), g)
				}
			}
		}
	}
	for d := 1; d < len(buckets); d++ {
		for _, g32 := range buckets[d] {
			g := int(g32)
			if dist[g] != 0 {
				continue
			}
			if d >= math.MaxUint8 {
				return fmt.Errorf("%w: a result %d plies away", ErrTooDeep, d)
			}
			dist[g] = uint8(d)
			c, l := 0, g
			if l >= n0 {
				c, l = 1, l-n0
			}
			// Predecessors: the other side (placement qr, now the one not
			// to move) to move, in the other class, before a move of one
			// of its ships (moves are reversible) or before a pass.
			qc := 1 - c
			if same {
				qc = 0
			}
			mv, ot := pl[qc], pl[1-qc] // q's mover is the side not to move, q's other the side to move
			otRank, qr := l/mv.count, l%mv.count
			visit := func(q int) {
				if dist[q] != 0 {
					return
				}
				if d%2 == 0 {
					push(d+1, q)
					return
				}
				if cnt[q] == noLoss {
					return
				}
				cnt[q]--
				if cnt[q] == 0 {
					push(max(d+1, int(floor[q])), q)
				}
			}
			if !mv.reach[qr].AndNot(ot.occ[otRank]).Empty() { // a pass
				visit(base[qc] + qr*ot.count + otRank)
			}
			for _, r := range mv.next[mv.first[qr]:mv.first[qr+1]] {
				visit(base[qc] + int(r)*ot.count + otRank)
			}
		}
		buckets[d] = nil
	}
	cls[0].dist = dist[:n0]
	if same {
		cls[1] = cls[0]
	} else {
		cls[1].dist = dist[n0:]
	}
	t.mu.Lock() // Stats reads cls under mu
	p.cls = cls
	t.mu.Unlock()
	return nil
}
