package belief

import (
	"cmp"
	"errors"
	"fmt"
	"iter"
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"

	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/game/submarine"
)

// DefaultMaxPlacements is the largest number of initial placements NewJoint
// accepts when no other limit is given.
const DefaultMaxPlacements = 16_000_000

var (
	// ErrTooLarge reports a fleet and board with too many placements to list.
	ErrTooLarge = errors.New("belief: too many placements")
	// ErrInconsistent reports an observation that no placement of the belief
	// can explain (the belief is left as it was).
	ErrInconsistent = errors.New("belief: observation contradicts every placement")
	// ErrObservation reports an observation that is malformed for the rules
	// (a cell off the board, an unknown or sunk ship); the belief is unchanged.
	ErrObservation = errors.New("belief: malformed observation")
)

// Joint is the exact belief about one hidden fleet: the set of every placement
// of its living ships (one cell each, all distinct, on usable cells) that is
// consistent with all public information so far. Placements of sunk ships are
// dropped when they sink, since nothing that follows depends on them: the
// state is the tuple of the living ships' cells. Probabilities are uniform over
// the placements in the set.
//
// Representation: one living ship is the pivot. The set is a list of entries,
// each the cells of the other living ships (packed in a uint64, byte i for
// ship i) with the set of cells the pivot may take with them (a grid.Set).
// On 5x5 with 3 ships the 13,800 initial placements are 600 entries. Every
// update is one pass over the entries, with bitset operations for the pivot.
// Per-cell statistics are computed on demand and cached until the next update.
//
// A Joint is not safe for concurrent use (queries fill caches); use Clone or
// CopyFrom to give each goroutine or search node its own.
type Joint struct {
	board *grid.Board
	n     int
	alive submarine.ShipMask
	pivot int // the living ship kept as a set; NoShip when none is alive
	ent   []entry
	total int // number of placements: the sum of the pivot sets' sizes

	// counts[i*size+c] is the number of placements with ship i on c.
	counts   []uint32
	countsOK bool
	// prefix[k] is the number of placements in entries before k.
	prefix   []int
	prefixOK bool
}

// entry is the placements that share the cells of every living ship but the
// pivot: rest has byte i = cell of ship i for those ships (0 in the pivot's
// byte and for sunk ships); piv is the pivot's possible cells, never empty and
// never holding a cell of rest. No two entries have the same rest.
type entry struct {
	rest uint64
	piv  grid.Set
}

// NewJoint lists every placement of the fleet of r (which must be valid) on
// its board. limit bounds the number of placements (<= 0:
// DefaultMaxPlacements); more is ErrTooLarge. On 5x5 with 3 ships there are
// 25*24*23 = 13,800 placements in 600 entries of 40 bytes; in general the
// memory is 40 bytes times placements / (usable cells - ships + 1).
func NewJoint(r *submarine.Rules, limit int) (*Joint, error) {
	if limit <= 0 {
		limit = DefaultMaxPlacements
	}
	if r == nil || r.Board == nil || len(r.Fleet) == 0 || len(r.Fleet) > submarine.MaxShips {
		return nil, fmt.Errorf("belief: new joint: %w", submarine.ErrRules)
	}
	n := len(r.Fleet)
	usableSet := r.Board.Usable()
	usable := usableSet.Cells()
	if len(usable) < n {
		return nil, fmt.Errorf("belief: new joint: %w: %d ships on %d cells", submarine.ErrRules, n, len(usable))
	}
	total := 1
	for i := range n {
		total *= len(usable) - i
		if total > limit {
			return nil, fmt.Errorf("%w: %d ships on %d usable cells exceed the limit of %d placements", ErrTooLarge, n, len(usable), limit)
		}
	}
	j := &Joint{board: r.Board, n: n, alive: r.AllShips(), pivot: n - 1, total: total}
	j.ent = make([]entry, 0, total/(len(usable)-n+1))
	var used grid.Set
	var rec func(i int, rest uint64)
	rec = func(i int, rest uint64) {
		if i == n-1 {
			j.ent = append(j.ent, entry{rest: rest, piv: usableSet.AndNot(used)})
			return
		}
		for _, c := range usable {
			if used.Has(c) {
				continue
			}
			used.Add(c)
			rec(i+1, rest|uint64(c)<<(8*i))
			used.Remove(c)
		}
	}
	rec(0, 0)
	return j, nil
}

// Clone returns an independent copy of j.
func (j *Joint) Clone() *Joint {
	c := &Joint{}
	c.CopyFrom(j)
	return c
}

// CopyFrom makes j a copy of src, reusing j's memory when it is large enough
// (the cheap way to reset a scratch belief in a search).
func (j *Joint) CopyFrom(src *Joint) {
	j.board, j.n, j.alive, j.pivot, j.total = src.board, src.n, src.alive, src.pivot, src.total
	j.ent = append(j.ent[:0], src.ent...)
	j.countsOK, j.prefixOK = src.countsOK, src.prefixOK
	if src.countsOK {
		j.counts = append(j.counts[:0], src.counts...)
	}
	if src.prefixOK {
		j.prefix = append(j.prefix[:0], src.prefix...)
	}
}

// Board is the board of the tracked game.
func (j *Joint) Board() *grid.Board { return j.board }

// Len is the number of ships of the fleet (sunk ones included).
func (j *Joint) Len() int { return j.n }

// Alive is the set of ships not known to be sunk.
func (j *Joint) Alive() submarine.ShipMask { return j.alive }

// Count is the number of consistent placements of the living ships (1, the
// empty placement, once every ship is sunk).
func (j *Joint) Count() int { return j.total }

// Entropy is the entropy in bits of the uniform distribution over the
// consistent placements: log2(Count()).
func (j *Joint) Entropy() float64 {
	if j.total == 0 {
		return 0
	}
	return math.Log2(float64(j.total))
}

// weight is the number of placements of an entry.
func (j *Joint) weight(e *entry) int {
	if j.pivot == submarine.NoShip {
		return 1
	}
	return e.piv.Count()
}

// AppendPacked appends every consistent placement to dst in the order of
// Placement (k = 0, 1, ..., Count()-1), packed: byte i is the cell of ship
// i, 0 for a sunk ship. It reads the belief once, where a call of
// Placement for each k searches for its entry.
func (j *Joint) AppendPacked(dst []uint64) []uint64 {
	dst = slices.Grow(dst, j.total)
	for e := range j.ent {
		en := &j.ent[e]
		if j.pivot == submarine.NoShip {
			dst = append(dst, en.rest)
			continue
		}
		sh := 8 * uint(j.pivot)
		for c := range en.piv.All() {
			dst = append(dst, en.rest|uint64(uint8(c))<<sh)
		}
	}
	return dst
}

// Placement returns the k-th consistent placement (0 <= k < Count(); others
// give nil) in fleet order, sunk ships at grid.None. It reuses dst when it
// has room.
func (j *Joint) Placement(k int, dst submarine.Placement) submarine.Placement {
	if k < 0 || k >= j.total {
		return nil
	}
	if !j.prefixOK {
		j.prefix = slices.Grow(j.prefix[:0], len(j.ent))[:len(j.ent)]
		sum := 0
		for e := range j.ent {
			j.prefix[e] = sum
			sum += j.weight(&j.ent[e])
		}
		j.prefixOK = true
	}
	// prefix is strictly increasing (entries are never empty): the entry is
	// the last one starting at or before k.
	e, found := slices.BinarySearch(j.prefix, k)
	if !found {
		e--
	}
	dst = slices.Grow(dst[:0], j.n)[:j.n]
	for i := range j.n {
		switch {
		case !j.alive.Has(i):
			dst[i] = grid.None
		case i == j.pivot:
			dst[i] = j.ent[e].piv.Nth(k - j.prefix[e])
		default:
			dst[i] = grid.Cell(uint8(j.ent[e].rest >> (8 * i)))
		}
	}
	return dst
}

// All iterates over the consistent placements in the order of Placement,
// yielding each index with its placement (fleet order, sunk ships at
// grid.None). The placement slice is reused between steps: copy it to keep
// it. Cheaper than calling Placement for every index.
func (j *Joint) All() iter.Seq2[int, submarine.Placement] {
	return func(yield func(int, submarine.Placement) bool) {
		p := make(submarine.Placement, j.n)
		for i := range p {
			p[i] = grid.None
		}
		k := 0
		for e := range j.ent {
			en := &j.ent[e]
			for i := range j.n {
				if j.alive.Has(i) && i != j.pivot {
					p[i] = grid.Cell(uint8(en.rest >> (8 * i)))
				}
			}
			if j.pivot == submarine.NoShip {
				if !yield(k, p) {
					return
				}
				k++
				continue
			}
			for c := range en.piv.All() {
				p[j.pivot] = c
				if !yield(k, p) {
					return
				}
				k++
			}
		}
	}
}

// Contains reports whether p (cells by fleet index; entries of sunk ships
// are ignored) is one of the consistent placements.
func (j *Joint) Contains(p submarine.Placement) bool {
	if len(p) != j.n {
		return false
	}
	var rest uint64
	for i, c := range p {
		if j.alive.Has(i) {
			if !j.board.IsUsable(c) {
				return false
			}
			if i != j.pivot {
				rest |= uint64(c) << (8 * i)
			}
		}
	}
	for e := range j.ent {
		if j.ent[e].rest == rest {
			return j.pivot == submarine.NoShip || j.ent[e].piv.Has(p[j.pivot])
		}
	}
	return false
}

// Sample draws a consistent placement uniformly (see Placement); it returns
// nil when the belief is empty.
func (j *Joint) Sample(rng *rand.Rand, dst submarine.Placement) submarine.Placement {
	if j.total == 0 {
		return nil
	}
	return j.Placement(rng.IntN(j.total), dst)
}

// restShips lists the byte shifts and fleet indices of the living ships other
// than the pivot.
func (j *Joint) restShips() (shift [submarine.MaxShips]uint8, idx [submarine.MaxShips]int8, m int) {
	for i := range j.n {
		if i != j.pivot && j.alive.Has(i) {
			shift[m], idx[m] = uint8(8*i), int8(i)
			m++
		}
	}
	return shift, idx, m
}

// commit ends a filter that wrote its kept entries to a prefix of j.ent:
// kept entries with total placements. Filters read each entry into a copy
// and write it back, at an index never past the one read, only when it is
// kept; so with none kept nothing was written and the belief is left as it
// was.
func (j *Joint) commit(kept, total int) error {
	if kept == 0 {
		return ErrInconsistent
	}
	j.ent = j.ent[:kept]
	j.total = total
	j.countsOK, j.prefixOK = false, false
	return nil
}

// shipTables is, for every living non-pivot ship k (in restShips order), a
// 0/1 table of the cells it may be on.
type shipTables [submarine.MaxShips][256]uint8

// restOK reports, as 0 or 1, whether every non-pivot ship of rest is on a
// cell of its table.
func restOK(rest uint64, ok *shipTables, shift *[submarine.MaxShips]uint8, m int) uint8 {
	if m == 2 { // the default fleet has 2 ships besides the pivot
		return ok[0][uint8(rest>>shift[0])] & ok[1][uint8(rest>>shift[1])]
	}
	f := uint8(1)
	for k := range m {
		f &= ok[k][uint8(rest>>shift[k])]
	}
	return f
}

// filterShips keeps the placements in which every non-pivot living ship k is
// on a cell of ok[k] and the pivot on a cell of pivOK: a constraint on each
// ship alone.
func (j *Joint) filterShips(ok *shipTables, pivOK grid.Set) error {
	shift, _, m := j.restShips()
	ent := j.ent
	kept, total := 0, 0
	if j.pivot == submarine.NoShip {
		pivOK = grid.Of(0) // the dummy set of the empty placement
	}
	if j.oneWord() {
		p0 := pivOK[0]
		for k := range ent {
			e := &ent[k]
			w := e.piv[0] & p0
			if w == 0 || restOK(e.rest, ok, &shift, m) == 0 {
				continue
			}
			ent[kept] = entry{rest: e.rest, piv: grid.Set{w}}
			kept++
			total += bits.OnesCount64(w)
		}
		return j.commit(kept, total)
	}
	for k := range ent {
		e := ent[k]
		if restOK(e.rest, ok, &shift, m) == 0 {
			continue
		}
		e.piv = e.piv.Intersect(pivOK)
		if e.piv.Empty() {
			continue
		}
		ent[kept] = e
		kept++
		total += j.weight(&e)
	}
	return j.commit(kept, total)
}

// ObserveAttack applies an attack on the tracked fleet at cell at: hit is the
// ship that was hit (submarine.NoShip for none), sunk whether it sank, near
// the other living ships within distance 1 of at. A placement survives when it
// explains the answer exactly: the hit ship on at (no ship on at when nothing
// was hit), every ship of near within distance 1 of at but not on it, every
// other living ship farther. A sunk ship is then dropped from every placement
// (all of them had it on at, so no two placements merge).
func (j *Joint) ObserveAttack(at grid.Cell, hit int, sunk bool, near submarine.ShipMask) error {
	if !j.board.IsUsable(at) {
		return fmt.Errorf("%w: attack on cell %d", ErrObservation, at)
	}
	if hit != submarine.NoShip && !j.alive.Has(hit) {
		return fmt.Errorf("%w: hit on ship %d, which is not alive", ErrObservation, hit)
	}
	if near&^j.alive != 0 || near.Has(hit) {
		return fmt.Errorf("%w: near set %b is not a set of other living ships", ErrObservation, near)
	}
	around := j.board.Around(at)
	ring := around
	ring.Remove(at)
	far := j.board.Usable().AndNot(around)
	allowed := func(i int) grid.Set {
		switch {
		case i == hit:
			return grid.Of(at)
		case near.Has(i):
			return ring
		default:
			return far
		}
	}
	_, idx, m := j.restShips()
	var ok shipTables
	for k := range m {
		for c := range allowed(int(idx[k])).All() {
			ok[k][c] = 1
		}
	}
	if err := j.filterShips(&ok, allowed(j.pivot)); err != nil {
		return err
	}
	if hit != submarine.NoShip && sunk {
		j.sink(hit)
	}
	return nil
}

// sink drops ship i, on the same cell in every placement.
func (j *Joint) sink(i int) {
	j.alive = j.alive.Without(i)
	j.countsOK, j.prefixOK = false, false
	if i != j.pivot {
		mask := ^(uint64(0xff) << (8 * i))
		for e := range j.ent {
			j.ent[e].rest &= mask
		}
		return
	}
	// The pivot sank: every placement is its rest. Pick a new pivot and group
	// the rests that differ only in its cell.
	j.pivot = submarine.NoShip
	for k := j.n - 1; k >= 0; k-- {
		if j.alive.Has(k) {
			j.pivot = k
			break
		}
	}
	if j.pivot == submarine.NoShip {
		j.ent = append(j.ent[:0], entry{piv: grid.Of(0)}) // the empty placement
		j.total = 1
		return
	}
	sh := uint(8 * j.pivot)
	mask := ^(uint64(0xff) << sh)
	slices.SortFunc(j.ent, func(a, b entry) int {
		return cmp.Or(cmp.Compare(a.rest&mask, b.rest&mask), cmp.Compare(a.rest, b.rest))
	})
	out := j.ent[:0]
	for _, e := range j.ent {
		c := grid.Cell(uint8(e.rest >> sh))
		rest := e.rest & mask
		if len(out) > 0 && out[len(out)-1].rest == rest {
			out[len(out)-1].piv.Add(c)
			continue
		}
		out = append(out, entry{rest: rest, piv: grid.Of(c)})
	}
	j.ent = out
}

// Restrict keeps the placements that have ship i on a cell of allowed:
// knowledge from outside the public events (a placement model, a test).
func (j *Joint) Restrict(i int, allowed grid.Set) error {
	if i < 0 || i >= j.n || !j.alive.Has(i) {
		return fmt.Errorf("%w: restrict ship %d, which is not alive", ErrObservation, i)
	}
	_, idx, m := j.restShips()
	var ok shipTables
	for k := range m {
		for c := range j.board.Size() {
			if int(idx[k]) != i || allowed.Has(grid.Cell(c)) {
				ok[k][c] = 1
			}
		}
	}
	pivOK := j.board.Usable()
	if i == j.pivot {
		pivOK = allowed
	}
	return j.filterShips(&ok, pivOK)
}

// ObserveMove applies a move of tracked ship i by (dx, dy). A placement
// survives when the move is legal from it (the destination is on the board,
// not a rock and not another living ship of the fleet); ship i is then moved.
// Moving is a one-to-one map on placements, so no two placements merge.
func (j *Joint) ObserveMove(i, dx, dy int) error {
	if i < 0 || i >= j.n || !j.alive.Has(i) {
		return fmt.Errorf("%w: move of ship %d, which is not alive", ErrObservation, i)
	}
	if (dx == 0) == (dy == 0) {
		return fmt.Errorf("%w: move by (%d,%d) is not along a row or column", ErrObservation, dx, dy)
	}
	b := j.board
	var to [256]uint8
	var src grid.Set // start cells from which the move stays on usable cells
	for c := range b.Usable().All() {
		x, y := b.XY(c)
		if nc, on := b.At(x+dx, y+dy); on && b.IsUsable(nc) {
			to[c] = uint8(nc)
			src.Add(c)
		}
	}
	shift, _, m := j.restShips()
	if i == j.pivot {
		return j.movePivot(src, dy*b.Width()+dx, &shift, m)
	}
	const ones, low7 = 0x0101010101010101, 0x7f7f7f7f7f7f7f7f
	sh := uint(8 * i)
	var others uint64 // 0x80 in the byte of every other non-pivot living ship
	for k := range m {
		if uint(shift[k]) != sh {
			others |= 0x80 << shift[k]
		}
	}
	keepOthers := ^(uint64(0xff) << sh)
	ent := j.ent
	kept, total := 0, 0
	if j.oneWord() {
		for k := range ent {
			e := &ent[k]
			c := uint8(e.rest >> sh)
			nc := uint64(to[c])
			x := e.rest ^ nc*ones
			w := e.piv[0] &^ (1 << (nc & 63)) // the pivot cannot be on the destination
			if !src.Has(grid.Cell(c)) || ^((x&low7+low7)|x|low7)&others != 0 || w == 0 {
				continue
			}
			ent[kept] = entry{rest: e.rest&keepOthers | nc<<sh, piv: grid.Set{w}}
			kept++
			total += bits.OnesCount64(w)
		}
		return j.commit(kept, total)
	}
	for k := range ent {
		e := &ent[k]
		c := grid.Cell(uint8(e.rest >> sh))
		if !src.Has(c) {
			continue
		}
		nc := uint64(to[c])
		// x has a zero byte exactly where a ship sits on nc; z has the high
		// bit of exactly those bytes set (no false positives).
		x := e.rest ^ nc*ones
		if ^((x&low7+low7)|x|low7)&others != 0 {
			continue
		}
		piv := e.piv
		piv.Remove(grid.Cell(nc)) // the pivot cannot be on the destination
		if piv.Empty() {
			continue
		}
		ent[kept] = entry{rest: e.rest&keepOthers | nc<<sh, piv: piv}
		kept++
		total += piv.Count()
	}
	return j.commit(kept, total)
}

// movePivot moves the pivot by offset cells (a displacement whose legal start
// cells are src): its set is shifted, and cells of the other ships leave it.
func (j *Joint) movePivot(src grid.Set, offset int, shift *[submarine.MaxShips]uint8, m int) error {
	ent := j.ent
	kept, total := 0, 0
	if j.oneWord() {
		s0 := src[0]
		for k := range ent {
			e := &ent[k]
			w := e.piv[0] & s0
			if offset >= 0 {
				w <<= uint(offset)
			} else {
				w >>= uint(-offset)
			}
			for r := range m {
				w &^= 1 << (uint8(e.rest>>shift[r]) & 63)
			}
			if w == 0 {
				continue
			}
			ent[kept] = entry{rest: e.rest, piv: grid.Set{w}}
			kept++
			total += bits.OnesCount64(w)
		}
		return j.commit(kept, total)
	}
	for k := range ent {
		e := ent[k]
		var others grid.Set
		for r := range m {
			others.Add(grid.Cell(uint8(e.rest >> shift[r])))
		}
		e.piv = shiftSet(e.piv.Intersect(src), offset).AndNot(others)
		if e.piv.Empty() {
			continue
		}
		ent[kept] = e
		kept++
		total += e.piv.Count()
	}
	return j.commit(kept, total)
}

// oneWord reports whether every cell index of the board fits in the first
// word of a grid.Set (boards of at most 64 cells), for the fast paths.
func (j *Joint) oneWord() bool { return j.board.Size() <= 64 && j.pivot != submarine.NoShip }

// shiftSet moves every cell of s by k indices (k may be negative); cells
// shifted past either end disappear.
func shiftSet(s grid.Set, k int) grid.Set {
	var out grid.Set
	n := len(s)
	if k >= 0 {
		w, b := k/64, uint(k%64)
		for i := n - 1; i >= w; i-- {
			v := s[i-w] << b
			if b > 0 && i-w-1 >= 0 {
				v |= s[i-w-1] >> (64 - b)
			}
			out[i] = v
		}
		return out
	}
	k = -k
	w, b := k/64, uint(k%64)
	for i := 0; i+w < n; i++ {
		v := s[i+w] >> b
		if b > 0 && i+w+1 < n {
			v |= s[i+w+1] << (64 - b)
		}
		out[i] = v
	}
	return out
}

// ObserveFire applies a legal attack at cell at made BY the tracked fleet: a
// placement survives when some living ship is within distance 1 of at.
func (j *Joint) ObserveFire(at grid.Cell) error {
	if !j.board.IsUsable(at) {
		return fmt.Errorf("%w: fire at cell %d", ErrObservation, at)
	}
	if j.pivot == submarine.NoShip {
		return ErrInconsistent // no ship left to fire
	}
	around := j.board.Around(at)
	var in [256]uint8
	for c := range around.All() {
		in[c] = 1
	}
	shift, _, m := j.restShips()
	ent := j.ent
	kept, total := 0, 0
	if j.oneWord() {
		a0 := around[0]
		s0, s1 := shift[0], shift[1]
		for k := range ent {
			e := &ent[k]
			var f uint8
			switch m { // the default fleet has 2 ships besides the pivot
			case 2:
				f = in[uint8(e.rest>>s0)] | in[uint8(e.rest>>s1)]
			default:
				for r := range m {
					f |= in[uint8(e.rest>>shift[r])]
				}
			}
			w := e.piv[0]
			if f == 0 { // then the pivot fired
				w &= a0
				if w == 0 {
					continue
				}
			}
			ent[kept] = entry{rest: e.rest, piv: grid.Set{w}}
			kept++
			total += bits.OnesCount64(w)
		}
		return j.commit(kept, total)
	}
	for k := range ent {
		e := &ent[k]
		f := uint8(0)
		for r := range m {
			f |= in[uint8(e.rest>>shift[r])]
		}
		piv := e.piv
		if f == 0 { // then the pivot fired
			piv = piv.Intersect(around)
			if piv.Empty() {
				continue
			}
		}
		ent[kept] = entry{rest: e.rest, piv: piv}
		kept++
		total += piv.Count()
	}
	return j.commit(kept, total)
}

// Observe applies one event as told to the player who keeps this belief;
// side says which fleet the belief tracks (Enemy: the opponent's; Own: the
// player's own, as the opponent can know it). Attacks on the tracked fleet go
// to ObserveAttack, its moves to ObserveMove and its own attacks to
// ObserveFire; illegal actions end the game and are ignored. The error is
// ErrObservation or ErrInconsistent (wrapped); either way the belief is
// unchanged.
func (j *Joint) Observe(ev submarine.Event, side Side) error {
	if ev.Illegal {
		return nil
	}
	switch ev.Kind {
	case submarine.Attack:
		if byTracked(&ev, side) {
			return j.ObserveFire(ev.At)
		}
		return j.ObserveAttack(ev.At, ev.Hit, ev.Sunk, ev.Near)
	case submarine.Move:
		if byTracked(&ev, side) {
			return j.ObserveMove(ev.Ship, ev.DX, ev.DY)
		}
	}
	return nil
}

func trailingZeros(w uint64) int { return bits.TrailingZeros64(w) }
