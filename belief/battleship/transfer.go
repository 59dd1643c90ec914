package bsbelief

// The passes of the transfer-matrix programme: profile enumeration with
// forward and completion supports, then the forward and backward
// numeric passes over the useful fleet-vector entries.

import (
	"context"
	"fmt"
	"math/bits"
	"slices"
	"sync"
)

// counter runs the programme with m limbs per number. It works in four
// passes:
//
//  1. enumerate the profiles boundary by boundary (in groups, grouped.go),
//     with the transition table and, per profile, the set of fleet vectors
//     a with F[a] > 0 (a bit mask: sums of positive numbers never cancel, so
//     supports propagate exactly as masks);
//  2. walk the table backwards with the masks of the vectors a whose
//     completion count B[K-a] is positive, and keep per profile only the
//     "useful" entries, positive both ways (19 % of them on the empty 10x10
//     board);
//  3. compute F on the useful entries only, stored compactly (rank of the
//     entry in its mask), keeping F at row ends;
//  4. compute B the same way backwards and combine at row ends.
type counter struct {
	*problem
	m       int // limbs per number
	pw      int // mask words per profile
	ctx     context.Context
	maxWork int64
	work    int64
	states  int
	sizes   []int      // profiles per boundary 0..n
	masks   [][]uint64 // per boundary: useful entries, pw words per profile
	trans   [][]uint32 // per cell: two per profile, (dst+1)<<6 | ship, 0 = none
	keys    [][]key    // per boundary: the profiles
	fwd     [][]uint64 // per boundary: forward supports (entries a with F[a] > 0), pw words per profile
	valid   [][]uint64 // per ship length (0: all): entries whose count of that length can grow
	// reuse is a first pass to start from (Counter); done is the number of
	// cells pass 1 completed, failKeys the profiles it had made at the cell
	// that failed the budget (0 if none did).
	reuse   *enumCache
	keepAll bool // keep the profiles of every boundary (for a Counter)
	compact bool // run passes 3 and 4 on compact vectors even with one limb (the reference)
	hashed  bool // pass 1 finds every profile in a hash table (the tests' reference for grouped.go)
	// spanMode: pass 2 also records what the span passes need (sp) and
	// keeps the masks of the row ends only.
	spanMode bool
	// mirror: the frame is symmetric left to right (problem.symmetric) and
	// the row-end profiles are merged with their mirror images. The
	// programme then runs on orbits: at a row end a state stands for a
	// profile s and its mirror image s' (one profile when s = s'), its
	// forward values are the sum of F over the orbit and its backward
	// values B of either profile (B(s) = B(s'), as the rest of the board
	// is symmetric too). From a row end the next row's cells start from
	// one profile per orbit and its transitions land on the orbits of the
	// next row end, so forward values stay orbit sums (the layouts from
	// s to an orbit number those from s' to it) and backward values stay
	// per profile; a row end's F·B is the layouts through the orbit. The
	// cells of each row are counted for the representative and folded
	// (cellAcc.result): about half the profiles, the same numbers.
	mirror bool
	// half: the frame is symmetric top to bottom (each row has the
	// statuses of its mirror row), so the forward numeric pass stops after
	// row R = (h-1)/2 and the map of the rows below it is the mirror image
	// of the rows above (fwdEnd). On compact vectors the backward pass
	// still walks every cell, down to row 0, and the rows 0..R are
	// combined as usual; on spans the halves are joined (join).
	half bool
	// join: half, on spans: the halves are joined at row J = R (join.go):
	// passes 1 and 3 walk the rows down to h-1-J, passes 2 and 4 the
	// rows up from J, and jp holds the join between passes 2 and 4.
	join           bool
	jp             *joinPlan
	plain          bool // no half (the tests' reference; mirror is set by the caller)
	sp             *spanPlan
	done, failKeys int
	progress       func(done, total int) // CountOptions.Progress
	// workers is the most goroutines a step is split over (1: none);
	// minSplit the least weight (entries, transitions) of a step split.
	workers, minSplit int
	ticks             int // cells of the long passes done
	tickMu            sync.Mutex
}

// tick reports one more cell of a long pass to d.progress.
// The two numeric passes may run at the same time: calls are serialized.
func (d *counter) tick() {
	if d.progress != nil {
		d.tickMu.Lock()
		defer d.tickMu.Unlock()
		d.ticks++
		d.progress(d.ticks, d.enumEnd()+d.bwdStart()+d.fwdEnd())
	}
}

// halfRow is the last row the forward numeric pass walks when it stops at
// the middle (half): the rows below it are the mirror images of rows above.
func (d *counter) halfRow() int { return (d.h - 1) / 2 }

// fwdEnd is the number of cells the forward numeric pass walks: every
// cell, or the rows down to halfRow (half).
func (d *counter) fwdEnd() int {
	if d.join {
		return d.enumEnd()
	}
	if d.half {
		return (d.halfRow() + 1) * d.w
	}
	return d.cells()
}

// cells is the number of cells the programme walks: the board plus one
// virtual row of forbidden cells that closes every open ship.
func (d *counter) cells() int { return d.w * (d.h + 1) }

func (d *counter) statusAt(t int) uint8 {
	if t >= d.w*d.h {
		return stForbidden
	}
	return d.status[t]
}

// rowEnd returns r when boundary t follows the last cell of board row r.
func (d *counter) rowEnd(t int) (int, bool) {
	if t > 0 && t%d.w == 0 && t/d.w <= d.h {
		return t/d.w - 1, true
	}
	return 0, false
}

// Work units charged per profile created (hashing, masks) and per useful
// entry moved in a numeric pass.
const (
	workPerState = 16
	workPerEntry = 1
)

func (d *counter) charge(units int64) error {
	d.work += units
	if d.maxWork > 0 && d.work > d.maxWork {
		return fmt.Errorf("%w: more than %d work units", ErrBudget, d.maxWork)
	}
	return nil
}

func (d *counter) init() {
	d.pw = (d.P + 63) / 64
	d.valid = make([][]uint64, d.L+1)
	for l := 0; l <= d.L; l++ {
		v := make([]uint64, d.pw)
		if l == 0 {
			for j := range d.P {
				v[j>>6] |= 1 << (j & 63)
			}
		} else {
			for _, j := range d.lst[l] {
				v[j>>6] |= 1 << (j & 63)
			}
		}
		d.valid[l] = v
	}
}

// orShift does dst |= (src & valid[l]) << stride[l] (up, forward) or
// dst |= (src >> stride[l]) & valid[l] (down, backward); l = 0 is dst |= src.
func (d *counter) orShift(dst, src []uint64, l int, up bool) {
	if l == 0 {
		for q := range dst {
			dst[q] |= src[q]
		}
		return
	}
	s := d.stride[l]
	ws, bs := s>>6, uint(s&63)
	v := d.valid[l]
	get := func(q int) uint64 { // (src & valid) word q, or src word q
		if q < 0 || q >= len(src) {
			return 0
		}
		if up {
			return src[q] & v[q]
		}
		return src[q]
	}
	for q := range dst {
		var x uint64
		if up {
			x = get(q-ws) << bs
			if bs > 0 {
				x |= get(q-ws-1) >> (64 - bs)
			}
		} else {
			x = get(q+ws) >> bs
			if bs > 0 {
				x |= get(q+ws+1) << (64 - bs)
			}
			x &= v[q]
		}
		dst[q] |= x
	}
}

// orShiftUp is orShift(dst, src, l, true), unrolled for masks of one or
// two words (at most 128 fleet vectors, the classic fleet has 120).
func (d *counter) orShiftUp(dst, src []uint64, l int) {
	if d.pw > 2 {
		d.orShift(dst, src, l, true)
		return
	}
	if l == 0 {
		dst[0] |= src[0]
		if d.pw == 2 {
			dst[1] |= src[1]
		}
		return
	}
	s, v := uint(d.stride[l]), d.valid[l]
	if d.pw == 1 {
		dst[0] |= (src[0] & v[0]) << s // s < 64: the vectors fit one word
		return
	}
	a0, a1 := src[0]&v[0], src[1]&v[1]
	if s < 64 {
		dst[0] |= a0 << s
		dst[1] |= a1<<s | a0>>(64-s)
	} else {
		dst[1] |= a0 << (s - 64)
	}
}

// orShiftDown is orShift(dst, src, l, false), unrolled like orShiftUp.
func (d *counter) orShiftDown(dst, src []uint64, l int) {
	if d.pw > 2 {
		d.orShift(dst, src, l, false)
		return
	}
	if l == 0 {
		dst[0] |= src[0]
		if d.pw == 2 {
			dst[1] |= src[1]
		}
		return
	}
	s, v := uint(d.stride[l]), d.valid[l]
	if d.pw == 1 {
		dst[0] |= src[0] >> s & v[0]
		return
	}
	var x0, x1 uint64
	if s < 64 {
		x0, x1 = src[0]>>s|src[1]<<(64-s), src[1]>>s
	} else {
		x0 = src[1] >> (s - 64)
	}
	dst[0] |= x0 & v[0]
	dst[1] |= x1 & v[1]
}

// arena hands out slices carved from large chunks: fewer, larger
// allocations for the many slices of the first pass, without the spare
// capacity of slices grown by append.
type arena[T any] struct{ free []T }

// arenaChunk is the size of an arena's chunks, in elements.
const arenaChunk = 1 << 16

// alloc returns a zeroed slice of n elements whose capacity is n.
func (a *arena[T]) alloc(n int) []T {
	if n > len(a.free) {
		if n > arenaChunk/4 {
			return make([]T, n)
		}
		a.free = make([]T, arenaChunk)
	}
	s := a.free[:n:n]
	a.free = a.free[n:]
	return s
}

// grab returns room for up to n elements (zeroed) at the start of the
// free part of a chunk, a new one of at least 4n elements if the current
// one has less, as a slice of length 0; commit(k) then keeps its first k
// elements and leaves the rest free: a layer of unknown size built in
// place, with no copy.
func (a *arena[T]) grab(n int) []T {
	if n > len(a.free) {
		a.free = make([]T, max(arenaChunk, 4*n))
	}
	return a.free[:0:n]
}

// commit keeps the first k elements of the last grab.
func (a *arena[T]) commit(k int) { a.free = a.free[k:] }

func maskZero(m []uint64) bool {
	for _, x := range m {
		if x != 0 {
			return false
		}
	}
	return true
}

// enumerate runs passes 1 and 2.
func (d *counter) enumerate() error {
	if err := d.forwardSupports(); err != nil {
		return err
	}
	if err := d.completionSupports(); err != nil {
		return err
	}
	if !d.keepAll {
		d.fwd = nil
	}
	return nil
}

// forwardSupports is pass 1: the profiles of every boundary, their forward
// supports (d.fwd) and the transition table. It starts from the boundaries
// of d.reuse that are valid for this problem, charging them as if it had
// built them, and records in d.done, d.failKeys what it completed.
func (d *counter) forwardSupports() error {
	d.init()
	pw := d.pw
	d.sizes = make([]int, d.cells()+1)
	d.fwd = make([][]uint64, d.cells()+1)
	d.keys = make([][]key, d.cells()+1)
	d.trans = make([][]uint32, d.cells())
	n := d.enumEnd()
	d.keys[0] = []key{{}}
	d.fwd[0] = make([]uint64, pw)
	d.fwd[0][0] = 1
	d.sizes[0] = 1
	start := 0
	if c := d.reuse; c != nil {
		if p, ok := c.prefix(d.problem); ok {
			start = min(c.done, p, n)
			copy(d.keys[:start+1], c.keys[:start+1])
			copy(d.fwd[:start+1], c.fwd[:start+1])
			copy(d.trans[:start], c.trans[:start])
			for t := range start {
				d.sizes[t+1] = len(d.keys[t+1])
				d.states += len(d.keys[t+1])
				if err := d.charge(int64(len(d.keys[t+1])) * workPerState); err != nil {
					return err
				}
				d.done = t + 1
			}
			// Cell c.done failed the budget with failKeys profiles made: if
			// it is unchanged it makes them again and fails with this
			// budget too.
			if c.failKeys > 0 && p > c.done && c.done < n && d.maxWork > 0 &&
				d.work+int64(c.failKeys)*workPerState > d.maxWork {
				d.failKeys = c.failKeys
				return d.charge(int64(c.failKeys) * workPerState)
			}
		}
	}
	d.ticks += start // reused cells count as done
	keys, sf := d.keys[start], d.fwd[start]
	var idx keyTable
	var kbuf [2][]key
	fwdArena, trArena, keyArena := arena[uint64]{}, arena[uint32]{}, arena[key]{}
	rules := newCellRules(d)
	gp := newGroupPass(d)
	if d.hashed {
		gp = nil
	}
	for t := start; t < n; t++ {
		if err := d.ctx.Err(); err != nil {
			return err
		}
		d.tick()
		cs := rules.cell(d, t)
		// The layer is charged when it is complete; it fails the budget as
		// soon as it holds more profiles than the budget left allows.
		maxKeys := -1
		if d.maxWork > 0 {
			maxKeys = int((d.maxWork - d.work) / workPerState)
		}
		// The layer is built in place, in room for its largest size (two
		// profiles from each), and keeps its size: its forward supports
		// always, its profiles for a Counter, which keeps them all; else
		// the profiles are built in one of two scratch buffers, each
		// reused two cells on, and copied where they are kept (a row end,
		// the end).
		nkeys := kbuf[(t-start)&1][:0]
		if d.keepAll {
			nkeys = keyArena.grab(2 * len(keys))
		}
		nsf := fwdArena.grab(2 * len(keys) * pw)
		tr := trArena.alloc(2 * len(keys))
		// A step makes the layer with the groups of profiles that only its
		// cell changes (grouped.go), but at a row end whose profiles are
		// merged with their mirror images, which change every column: there
		// a hash table finds the profiles made before.
		var ok bool
		if gp != nil && !(cs.rowEnd && d.mirror) {
			nkeys, nsf, ok = gp.step(d, t, &cs, keys, sf, tr, nkeys, nsf, maxKeys)
		} else {
			nkeys, nsf, ok = d.hashStep(&idx, &cs, keys, sf, tr, nkeys, nsf, maxKeys)
		}
		if !ok {
			// The layer has more profiles than the budget left allows.
			d.failKeys = len(nkeys)
			return d.charge(int64(len(nkeys)) * workPerState)
		}
		if err := d.charge(int64(len(nkeys)) * workPerState); err != nil {
			d.failKeys = len(nkeys)
			return err
		}
		d.trans[t] = tr
		if _, ok := d.rowEnd(t); !ok && !d.keepAll {
			d.keys[t] = nil // only the row ends' profiles are needed later
		}
		fwdArena.commit(len(nsf))
		sf = nsf[:len(nsf):len(nsf)]
		keys = nkeys
		if d.keepAll {
			keyArena.commit(len(nkeys))
			keys = nkeys[:len(nkeys):len(nkeys)]
		} else {
			kbuf[(t-start)&1] = nkeys // keep the grown buffer
			if _, ok := d.rowEnd(t + 1); ok || t+1 == n {
				keys = slices.Clone(nkeys)
			}
		}
		d.keys[t+1], d.fwd[t+1] = keys, sf
		d.sizes[t+1] = len(keys)
		d.states += len(keys)
		d.done = t + 1
	}
	return nil
}

// hashStep makes layer t+1 of pass 1 from the profiles keys (forward
// supports sf) of layer t, with cell step cs, finding the profiles made
// before in the table idx: the new profiles are appended to nkeys, their
// supports to nsf (zeroed room for two per profile of keys), the
// transitions written to tr. ok is false, with the layer as far as it
// was made, once it holds maxKeys+1 profiles (never when maxKeys < 0).
func (d *counter) hashStep(idx *keyTable, cs *cellStep, keys []key, sf []uint64, tr []uint32, nkeys []key, nsf []uint64, maxKeys int) (_ []key, _ []uint64, ok bool) {
	pw := d.pw
	idx.reset(len(keys) + len(keys)/4)
	for i, k := range keys {
		m := sf[i*pw : (i+1)*pw]
		if maskZero(m) {
			continue
		}
		rr := cs.rules(d, k)
		for oi := range 2 {
			nk, ship, ok := cs.child(d, k, rr, oi)
			if !ok {
				continue
			}
			j, seen := idx.find(nk, nkeys)
			if !seen {
				j = int32(len(nkeys))
				nkeys = append(nkeys, nk)
				idx.put(j, nkeys)
				nsf = nsf[:len(nsf)+pw] // zeroed by grab
				if len(nkeys) == maxKeys+1 {
					return nkeys, nsf, false
				}
			}
			tr[2*i+oi] = uint32(j+1)<<6 | uint32(ship)
			d.orShiftUp(nsf[int(j)*pw:(int(j)+1)*pw], m, ship)
		}
	}
	return nkeys, nsf, true
}

// cellRules tables the rules of the cells of pass 1 per (row end,
// status): entry up*nc+left, 0 until used (not safe for concurrent use).
type cellRules struct {
	nc   int
	tabs []uint64
}

func newCellRules(d *counter) *cellRules {
	cr := &cellRules{nc: 4*d.L + 1}
	if d.L <= maxTabledLen {
		cr.tabs = make([]uint64, 2*3*cr.nc*cr.nc)
	}
	return cr
}

// cellStep is what the profiles of one cell of pass 1 need: the cell's
// column, status and rules.
type cellStep struct {
	c      int
	st     uint8
	rowEnd bool
	nc     int
	tab    []uint64 // nil: not tabled
}

// cell returns the step of cell t.
func (cr *cellRules) cell(d *counter, t int) cellStep {
	c, st := t%d.w, d.statusAt(t)
	cs := cellStep{c: c, st: st, rowEnd: c == d.w-1, nc: cr.nc}
	if cr.tabs != nil {
		v := int(st)
		if cs.rowEnd {
			v += 3
		}
		cs.tab = cr.tabs[v*cr.nc*cr.nc : (v+1)*cr.nc*cr.nc]
	}
	return cs
}

// rules returns the two ways to fill the cell from profile k, packed.
func (cs *cellStep) rules(d *counter, k key) uint64 {
	c := cs.c
	up, left := k.get(c), cE0
	if c > 0 {
		left = k.get(c - 1)
	}
	var rr uint64
	if cs.tab != nil {
		rr = cs.tab[int(up)*cs.nc+int(left)]
		if rr == 0 {
			rr = packRules(d.cellRules(up, left, cs.rowEnd, cs.st))
			cs.tab[int(up)*cs.nc+int(left)] = rr
		}
	} else {
		rr = packRules(d.cellRules(up, left, cs.rowEnd, cs.st))
	}
	if !cs.rowEnd && k.get(c+1) >= cC {
		rr &^= occRuleOK // the upper-right neighbour is occupied
	}
	return rr
}

// fill computes every entry of the step's rules table, which rules
// otherwise fills as it meets them: the table can then be read by
// several goroutines.
func (cs *cellStep) fill(d *counter) {
	for up := range cs.nc {
		for left := range cs.nc {
			if cs.tab != nil && cs.tab[up*cs.nc+left] == 0 {
				cs.tab[up*cs.nc+left] = packRules(d.cellRules(uint8(up), uint8(left), cs.rowEnd, cs.st))
			}
		}
	}
}

// child returns the profile that way oi of rules rr makes from k and
// the ship it finishes, ok false when that way is not allowed.
func (cs *cellStep) child(d *counter, k key, rr uint64, oi int) (nk key, ship int, ok bool) {
	r := uint32(rr >> (32 * oi))
	if r&ruleOK == 0 {
		return key{}, 0, false
	}
	nk = k
	nk.set(cs.c, uint8(r))
	if cs.c > 0 {
		nk.set(cs.c-1, uint8(r>>8))
	}
	if cs.rowEnd && d.mirror {
		if mk := nk.mirror(d.w); mk.less(nk) {
			nk = mk // a profile and its mirror image are one state (see mirror)
		}
	}
	return nk, int(r >> 16 & 0xff), true
}

// completionSupports is pass 2: it walks the table backwards with the
// supports of the completion counts (entry a: B[K-a] > 0) and keeps in
// d.masks their intersection with the forward supports, the useful
// entries. It propagates the intersection rather than the completion
// support itself, which gives the same masks (an entry a of a profile with
// F[a] > 0 reaches, along any transition the table holds, an entry with
// F > 0) and leaves d.fwd as it is.
func (d *counter) completionSupports() error {
	pw := d.pw
	d.masks = make([][]uint64, d.cells()+1)
	if d.spanMode {
		d.sp = newSpanPlan(d)
	}
	and := func(t int, rb []uint64) {
		for q, x := range d.fwd[t] {
			rb[q] &= x
		}
		d.masks[t] = rb
		if !d.keepAll {
			d.fwd[t] = nil
		}
	}
	// The walk starts at the last boundary pass 1 built: the end, with
	// only entry K complete, or row J' (join), with the entries that meet
	// a top half (joinSupports); at row J the join's completion supports
	// apply too.
	n := d.enumEnd()
	var rb, comp []uint64
	if d.join {
		var err error
		if comp, rb, err = d.joinSupports(); err != nil {
			return err
		}
	} else {
		rb = make([]uint64, pw*d.sizes[n])
		for i := range d.sizes[n] {
			rb[i*pw+d.K>>6] |= 1 << (d.K & 63)
		}
	}
	t0 := d.bwdStart()
	if n == t0 && comp != nil {
		for q, x := range comp {
			rb[q] &= x
		}
	}
	and(n, rb)
	if d.spanMode {
		d.sp.record(d, n)
	}
	var spare []uint64 // a dropped mask to reuse (span mode)
	maxSize := slices.Max(d.sizes)
	for t := n - 1; t >= 0; t-- {
		var cur []uint64
		_, kept := d.rowEnd(t)
		kept = kept || !d.spanMode || t == 0
		switch {
		case kept:
			cur = make([]uint64, pw*d.sizes[t])
		case spare != nil:
			cur = spare[:pw*d.sizes[t]] // dropped after the cell before: reuse it
			clear(cur)
			spare = nil
		default:
			cur = make([]uint64, pw*d.sizes[t], pw*maxSize)
		}
		d.masks[t] = cur // complete once the step below is
		if d.spanMode {
			d.sp.begin(d, t)
		}
		comp := comp
		if t != t0 {
			comp = nil
		}
		size := d.sizes[t]
		values, moved := 0, 0
		if k := d.parts(16 * size); k == 1 { // a transition costs about as much as 8 span entries
			values, moved = d.supportsStep(t, cur, rb, comp, 0, size)
		} else {
			vs, ms := make([]int, k), make([]int, k)
			runParts(splitRanges(size, k, func(i int) int64 { return int64(i) }), func(p, lo, hi int) {
				vs[p], ms[p] = d.supportsStep(t, cur, rb, comp, lo, hi)
			})
			for p := range k {
				values, moved = values+vs[p], moved+ms[p]
			}
		}
		if !d.keepAll {
			d.fwd[t] = nil
		}
		if d.spanMode {
			d.sp.end(d, t, values, moved)
			if _, ok := d.rowEnd(t + 1); !ok && t+1 < n {
				d.masks[t+1] = nil // the span passes need the masks of the row ends only
				spare = rb
			}
		}
		rb = cur
	}
	return nil
}

// supportsStep is one cell of pass 2 for the profiles lo..hi-1 of
// boundary t: their completion supports in cur from those of boundary t+1
// (rb), intersected with comp (when set) and the forward supports, then,
// in span mode, their spans and work (spanPlan.recordRange, whose values
// and moved it returns).
func (d *counter) supportsStep(t int, cur, rb, comp []uint64, lo, hi int) (values, moved int) {
	pw, tr := d.pw, d.trans[t]
	for e := 2 * lo; e < 2*hi; e++ {
		x := tr[e]
		if x == 0 {
			continue
		}
		i, j, ship := e/2, int(x>>6)-1, int(x&63)
		d.orShiftDown(cur[i*pw:(i+1)*pw], rb[j*pw:(j+1)*pw], ship)
	}
	f := d.fwd[t]
	for q := lo * pw; q < hi*pw; q++ {
		if comp != nil {
			cur[q] &= comp[q]
		}
		cur[q] &= f[q]
	}
	if d.spanMode {
		return d.sp.recordRange(d, t, lo, hi)
	}
	return 0, 0
}

// rowKeys returns the profiles at the boundary after board row r.
func (d *counter) rowKeys(r int) []key { return d.keys[(r+1)*d.w] }

// offsets returns, per profile of boundary t, the index of its first useful
// entry in a compact vector (and the total at the end).
func (d *counter) offsets(t int) []int32 {
	pw, m := d.pw, d.masks[t]
	off := make([]int32, d.sizes[t]+1)
	total := 0
	for i := range d.sizes[t] {
		off[i] = int32(total)
		for _, x := range m[i*pw : (i+1)*pw] {
			total += bits.OnesCount64(x)
		}
	}
	off[d.sizes[t]] = int32(total)
	return off
}

// move adds values along one transition, for every useful entry a of the
// source profile (mask ms) whose successor a' = a + stride[l] is useful in
// the destination profile (mask md). Forward: vd[a'] += vs[a]. Backward:
// vs[a] += vd[a']. vs and vd are the profiles' compact vectors. It returns
// the overflow flag and the entries moved.
func (d *counter) move(ms, md []uint64, l int, vs, vd []uint64, backward bool) (ov uint64, moved int) {
	if d.m == 1 && d.pw <= 2 {
		return d.move1(ms, md, l, vs, vd, backward)
	}
	stride := 0
	if l > 0 {
		stride = d.stride[l]
	}
	v := d.valid[l]
	m := d.m
	rank := 0
	for q, w := range ms {
		for w != 0 {
			b := bits.TrailingZeros64(w)
			w &= w - 1
			r := rank
			rank++
			if v[q]>>uint(b)&1 == 0 {
				continue
			}
			a2 := q<<6 + b + stride
			q2, b2 := a2>>6, uint(a2&63)
			if md[q2]>>b2&1 == 0 {
				continue
			}
			r2 := bits.OnesCount64(md[q2] & (1<<b2 - 1))
			for k := range q2 {
				r2 += bits.OnesCount64(md[k])
			}
			moved++
			if m == 1 {
				var c uint64
				if backward {
					vs[r], c = bits.Add64(vs[r], vd[r2], 0)
				} else {
					vd[r2], c = bits.Add64(vd[r2], vs[r], 0)
				}
				ov |= c
				continue
			}
			src, dst := vs[r*m:(r+1)*m], vd[r2*m:(r2+1)*m]
			if backward {
				src, dst = dst, src
			}
			var c uint64
			for k := range m {
				dst[k], c = bits.Add64(dst[k], src[k], c)
			}
			ov |= c
		}
	}
	return ov, moved
}

// move1 is move for one limb and at most 128 fleet vectors: it computes the
// set of entries to move with word operations (source entries whose
// successor is useful) and finds both ranks with two popcounts.
func (d *counter) move1(ms, md []uint64, l int, vs, vd []uint64, backward bool) (ov uint64, moved int) {
	var s0, s1, d0, d1, v0, v1 uint64
	s0, d0, v0 = ms[0], md[0], d.valid[l][0]
	if d.pw == 2 {
		s1, d1, v1 = ms[1], md[1], d.valid[l][1]
	}
	stride := uint(0)
	if l > 0 {
		stride = uint(d.stride[l])
	}
	// md >> stride, as 128 bits.
	var e0, e1 uint64
	switch {
	case stride == 0:
		e0, e1 = d0, d1
	case stride < 64:
		e0, e1 = d0>>stride|d1<<(64-stride), d1>>stride
	default:
		e0 = d1 >> (stride - 64)
	}
	x0, x1 := s0&v0&e0, s1&v1&e1
	moved = bits.OnesCount64(x0) + bits.OnesCount64(x1)
	ps := bits.OnesCount64(s0)
	// Branch-free ranks: (1<<x)-1 is every bit below x, all ones from x = 64
	// (Go shifts of 64 or more give 0); neg clears the high word's mask when
	// the entry lies in the low word.
	rank2 := func(a2 uint) int {
		hi := int(a2) - 64
		neg := uint64(hi >> 63)
		return bits.OnesCount64(d0&(1<<a2-1)) + bits.OnesCount64(d1&((1<<uint(hi)-1)&^neg))
	}
	if backward {
		for x := x0; x != 0; x &= x - 1 {
			b := uint(bits.TrailingZeros64(x))
			r, r2 := bits.OnesCount64(s0&(1<<b-1)), rank2(b+stride)
			var c uint64
			vs[r], c = bits.Add64(vs[r], vd[r2], 0)
			ov |= c
		}
		for x := x1; x != 0; x &= x - 1 {
			b := uint(bits.TrailingZeros64(x))
			r, r2 := ps+bits.OnesCount64(s1&(1<<b-1)), rank2(64+b+stride)
			var c uint64
			vs[r], c = bits.Add64(vs[r], vd[r2], 0)
			ov |= c
		}
		return ov, moved
	}
	for x := x0; x != 0; x &= x - 1 {
		b := uint(bits.TrailingZeros64(x))
		r, r2 := bits.OnesCount64(s0&(1<<b-1)), rank2(b+stride)
		var c uint64
		vd[r2], c = bits.Add64(vd[r2], vs[r], 0)
		ov |= c
	}
	for x := x1; x != 0; x &= x - 1 {
		b := uint(bits.TrailingZeros64(x))
		r, r2 := ps+bits.OnesCount64(s1&(1<<b-1)), rank2(64+b+stride)
		var c uint64
		vd[r2], c = bits.Add64(vd[r2], vs[r], 0)
		ov |= c
	}
	return ov, moved
}

// forwardValues is pass 3: F on the useful entries, kept where keep says.
func (d *counter) forwardValues(keep func(t int) bool) ([][]uint64, error) {
	n, m := d.fwdEnd(), d.m
	out := make([][]uint64, n+1)
	off := d.offsets(0)
	vec := make([]uint64, int(off[len(off)-1])*m)
	if len(vec) > 0 {
		vec[0] = 1 // the empty prefix, entry 0 (it is the only entry of boundary 0)
	}
	if keep(0) {
		out[0] = vec
	}
	for t := range n {
		if err := d.ctx.Err(); err != nil {
			return nil, err
		}
		d.tick()
		noff := d.offsets(t + 1)
		nvec := make([]uint64, int(noff[len(noff)-1])*m)
		if err := d.transfer(t, off, noff, vec, nvec, false); err != nil {
			return nil, err
		}
		off, vec = noff, nvec
		if keep(t + 1) {
			out[t+1] = vec
		}
	}
	return out, nil
}

// transfer runs the transitions from cell boundary t (entry offsets off, values
// a) to boundary t+1 (offsets noff, values b): forward it adds a's values
// into b, backward b's into a (move's backward flag), and charges the work.
func (d *counter) transfer(t int, off, noff []int32, a, b []uint64, backward bool) error {
	pw, m := d.pw, d.m
	ms, md := d.masks[t], d.masks[t+1]
	var ov uint64
	moved := 0
	for e, x := range d.trans[t] {
		if x == 0 {
			continue
		}
		i, j, ship := e/2, int(x>>6)-1, int(x&63)
		if off[i] == off[i+1] || noff[j] == noff[j+1] {
			continue
		}
		o, k := d.move(ms[i*pw:(i+1)*pw], md[j*pw:(j+1)*pw], ship,
			a[int(off[i])*m:int(off[i+1])*m], b[int(noff[j])*m:int(noff[j+1])*m], backward)
		ov |= o
		moved += k
	}
	if ov != 0 {
		return errOverflow
	}
	return d.charge(int64(moved) * workPerEntry)
}

// backwardValues is pass 4: B on the useful entries (entry a holds
// B[K-a]), with combine called at every row end; keepAll keeps B at every
// boundary.
func (d *counter) backwardValues(keepAll bool, combine func(r int, b []uint64, off []int32) error) ([][]uint64, error) {
	n, m := d.cells(), d.m
	var all [][]uint64
	if keepAll {
		all = make([][]uint64, n+1)
	}
	noff := d.offsets(n)
	next := make([]uint64, int(noff[len(noff)-1])*m)
	for i := range d.sizes[n] {
		if noff[i] < noff[i+1] { // the only useful entry is K: nothing left to finish
			next[int(noff[i])*m] = 1
		}
	}
	if keepAll {
		all[n] = next
	}
	for t := n - 1; t >= 0; t-- {
		if err := d.ctx.Err(); err != nil {
			return nil, err
		}
		d.tick()
		off := d.offsets(t)
		cur := make([]uint64, int(off[len(off)-1])*m)
		if err := d.transfer(t, off, noff, cur, next, true); err != nil {
			return nil, err
		}
		next, noff = cur, off
		if keepAll {
			all[t] = cur
		}
		if r, ok := d.rowEnd(t); ok && combine != nil {
			if err := combine(r, cur, off); err != nil {
				return nil, err
			}
		}
	}
	return all, nil
}
