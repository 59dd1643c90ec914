package battleship

// Exact counting of fleet layouts: a transfer-matrix dynamic programme over a
// broken row profile.
//
// The board (transposed when it is wider than tall, so that the profile is
// the short side) is filled one cell at a time in row-major order; a layout
// is a 0/1 colouring. A colouring is a valid layout exactly when no two
// occupied cells touch diagonally (that alone makes every 4-connected group a
// straight segment, because any bent group contains an L of three cells whose
// ends touch diagonally) and the group lengths form the fleet.
//
// The state after cell (r, c) is the profile: one code per column, for the
// cells (r, 0..c) and (r-1, c+1..w-1):
//
//	E0  empty
//	E1  empty, and the cell above it is occupied (only for the cell just
//	    filled: the next cell needs to know its upper-left neighbour)
//	C   occupied, part of a horizontal ship that is already counted or will
//	    be counted by the run code to its right
//	Open(k, u)  occupied, the lowest cell of a vertical run of k cells (k = 1:
//	    a single cell) that may still grow downwards
//	Run(h, u)   occupied, the right end (so far) of a horizontal run of h >= 2
//	    cells in the current row
//
// u records whether the ship has at least one cell that is not a known hit:
// a ship made only of hits would have been reported sunk, so it is not a
// consistent layout. A ship is finished (and its length counted) when the cell
// below a vertical run, or right of a horizontal run, is filled empty.
//
// The fleet is not part of the key. Each profile carries a vector indexed by
// the multiset of finished ships a (mixed radix over the counts of each
// length, at most the remaining fleet's count; 120 entries for the Russian
// fleet): finishing a ship of length l shifts the vector by that length's
// stride, dropping entries that would exceed the fleet. So one profile
// transition moves a vector instead of doing one hash lookup per (profile,
// fleet) pair. Only the "useful" entries are stored (see counter).
//
// Per-cell counts come from a forward and a backward pass. F(t, s)[a] counts
// the fillings of the first t cells that end in profile s having finished
// ships a; B(t, s)[b] counts the fillings of the rest that finish ships b
// (open ships included). Layouts through s number sum_a F[a]·B[K-a], K the
// whole remaining fleet. After the last cell of row r the profile shows the
// whole row, so the count of layouts with a ship on (r, c) is that sum over
// the row-end profiles whose column c is occupied. The forward pass keeps F
// at row ends only, plus the transition table; the backward pass walks the
// table in reverse and combines at row ends. Every row end sees every layout
// once, so the row totals must agree: run checks that they do.
//
// Numbers are vectors of m 64-bit limbs; m = 1 is the fast path, and any
// overflow restarts the count with twice the limbs, so results are exact.

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"math/bits"
	"slices"
)

// ErrBudget is returned when counting would take more work than allowed.
var ErrBudget = errors.New("battleship: counting budget exceeded")

// errOverflow makes the counter restart with more limbs.
var errOverflow = errors.New("battleship: limb overflow")

// maxLimbs bounds the precision (64*maxLimbs bits per intermediate number).
const maxLimbs = 16

// Counts is the exact number of layouts consistent with a position.
type Counts struct {
	// Total is the number of layouts of the remaining fleet consistent with
	// the position (ships of equal length are not told apart).
	Total *big.Int
	// Cells holds, per cell index, how many of them put a ship on that cell:
	// Total for unsunk hits, 0 for misses, sunk ships and rocks.
	Cells []*big.Int
	// Remaining is the fleet not yet sunk, longest first.
	Remaining []int
	// States is the number of profiles the programme created; Work is the
	// work it did in units of about 10 ns (16 per profile created, 1 per
	// fleet-vector entry moved): the unit of CountOptions.MaxWork.
	States int
	Work   int64
}

// CountOptions tunes Count.
type CountOptions struct {
	// MaxWork bounds the work (0 = no bound; units as Counts.Work, about
	// 1e5 per millisecond on one core of the reference machine). A count
	// that needs more stops early with ErrBudget: as soon as the work done,
	// or the work done plus a proven lower bound of what remains, passes it.
	MaxWork int64
}

// Count returns the exact number of layouts of the remaining fleet consistent
// with the position, overall and per cell. It checks ctx between cells.
func Count(ctx context.Context, pos *Position, opt CountOptions) (*Counts, error) {
	return count(ctx, pos, opt, nil)
}

// Counter is Count for a sequence of positions, such as those of one game:
// it keeps the first pass of the programme of its last count (the profiles
// cell by cell, about 40 bytes each, at most maxCachedStates of them) and
// starts the next count from the last cell boundary that pass shares with
// it, the boundary before the first cell whose status changed, when the
// board and the remaining fleet are the same. Its results, errors and
// work, hence its budget decisions, are exactly those of Count. The zero
// value is ready to use; a Counter is not safe for concurrent use.
type Counter struct {
	last *enumCache
}

// Count is Count (the function), reusing the previous count's first pass.
func (cc *Counter) Count(ctx context.Context, pos *Position, opt CountOptions) (*Counts, error) {
	return count(ctx, pos, opt, cc)
}

func count(ctx context.Context, pos *Position, opt CountOptions, cc *Counter) (*Counts, error) {
	pr, err := newProblem(pos)
	if err != nil {
		return nil, err
	}
	var work int64
	for m := 1; m <= maxLimbs; m *= 2 {
		c := &counter{problem: pr, m: m, ctx: ctx, maxWork: opt.MaxWork, work: work}
		if cc != nil {
			c.reuse, c.keepAll = cc.last, true
		}
		res, err := c.run()
		if cc != nil {
			cc.last = c.cache()
		}
		work = c.work
		if errors.Is(err, errOverflow) {
			continue
		}
		if err != nil {
			return nil, err
		}
		res.Remaining = pr.remaining
		res.Work = work
		return res, nil
	}
	return nil, fmt.Errorf("battleship: count exceeds %d bits", 64*maxLimbs)
}

// maxCachedStates bounds the first pass a Counter keeps (about 40 bytes a
// profile); a larger one is dropped. A count within the density bot's
// default budget makes at most 312 500 profiles.
const maxCachedStates = 1 << 20

// enumCache is the first pass of one count, as a Counter keeps it: the
// profiles, forward supports and transitions of the boundaries it
// completed. Boundary t depends only on the frame, the remaining fleet
// and the statuses of cells 0..t-1, so it is valid for any problem that
// shares those.
type enumCache struct {
	w, h   int
	kc     []int
	status []uint8
	keys   [][]key    // per boundary 0..done
	fwd    [][]uint64 // per boundary 0..done
	trans  [][]uint32 // per cell 0..done-1
	done   int
	// failKeys > 0: cell done failed the budget once failKeys profiles of
	// boundary done+1 were made (a lower bound of their number).
	failKeys int
}

// cache returns the first pass of d for a later count, or nil.
func (d *counter) cache() *enumCache {
	if d.done == 0 && d.failKeys == 0 || d.states > maxCachedStates {
		return nil
	}
	return &enumCache{
		w: d.w, h: d.h, kc: d.kc, status: d.status,
		keys: d.keys[:d.done+1], fwd: d.fwd[:d.done+1], trans: d.trans[:d.done],
		done: d.done, failKeys: d.failKeys,
	}
}

// prefix reports whether the cache fits p's frame and fleet and, if so,
// the number of leading cells whose status is the same (d.cells() when all
// are: the virtual last row always is).
func (c *enumCache) prefix(p *problem) (int, bool) {
	if c.w != p.w || c.h != p.h || !slices.Equal(c.kc, p.kc) {
		return 0, false
	}
	for i, st := range p.status {
		if c.status[i] != st {
			return i, true
		}
	}
	return p.w * (p.h + 1), true
}

// Cell statuses in the programme.
const (
	stFree      uint8 = iota // unknown: may or may not hold a ship
	stForced                 // a hit: must hold a ship
	stForbidden              // miss, sunk, next to sunk, rock: no ship
)

// problem is a position reduced to what the programme needs.
type problem struct {
	w, h      int  // frame size: w is the profile width
	tr        bool // frame is the board transposed
	ow        int  // board width
	size      int  // board cells
	status    []uint8
	remaining []int
	L         int     // longest remaining ship
	kc        []int   // remaining ships by length, 0..L
	P         int     // fleet vector length
	K         int     // index of the whole remaining fleet (P-1)
	stride    []int   // by length
	lst       [][]int // by length: indices whose count of that length can grow
}

func newProblem(pos *Position) (*problem, error) {
	rem, err := pos.Remaining()
	if err != nil {
		return nil, err
	}
	b := pos.Rules.Board
	W, H := b.Width(), b.Height()
	p := &problem{w: W, h: H, ow: W, size: b.Size(), remaining: rem}
	if W > H {
		p.tr, p.w, p.h = true, H, W
	}
	if p.w > 16 {
		return nil, fmt.Errorf("battleship: count: board %dx%d is too wide (at most 16 on the short side)", W, H)
	}
	status := make([]uint8, b.Size())
	for c, m := range pos.Marks {
		switch m {
		case Unknown:
			status[c] = stFree
		case Damaged:
			status[c] = stForced
		default:
			status[c] = stForbidden
		}
	}
	for c := range pos.Set(Sunk).All() {
		for n := range b.Around(c).All() {
			status[n] = stForbidden // Remaining has checked that no hit is there
		}
	}
	p.status = make([]uint8, p.w*p.h)
	for i := range p.status {
		p.status[i] = status[p.orig(i)]
	}
	p.kc = CountByLength(rem)
	p.L = len(p.kc) - 1
	if p.L > MaxShipLen {
		return nil, fmt.Errorf("battleship: count: ship length %d is above %d", p.L, MaxShipLen)
	}
	p.P = 1
	p.stride = make([]int, p.L+1)
	for l := 1; l <= p.L; l++ {
		p.stride[l] = p.P
		p.P *= p.kc[l] + 1
		if p.P > 1<<16 {
			return nil, fmt.Errorf("battleship: count: the fleet %v has too many length combinations", rem)
		}
	}
	p.K = p.P - 1
	p.lst = make([][]int, p.L+1)
	for l := 1; l <= p.L; l++ {
		for j := range p.P {
			if (j/p.stride[l])%(p.kc[l]+1) < p.kc[l] {
				p.lst[l] = append(p.lst[l], j)
			}
		}
	}
	return p, nil
}

// orig maps a frame index to the board's cell index.
func (p *problem) orig(i int) int {
	if !p.tr {
		return i
	}
	r, c := i/p.w, i%p.w // frame row r is board column r, frame column c is board row c
	return c*p.ow + r
}

// Profile codes (see the top of the file).
const (
	cE0 uint8 = 0
	cE1 uint8 = 1
	cC  uint8 = 2
)

func (p *problem) openCode(k, u int) uint8 { return uint8(3 + 2*(k-1) + u) }
func (p *problem) runCode(h, u int) uint8  { return uint8(3 + 2*p.L + 2*(h-2) + u) }
func (p *problem) isOpen(x uint8) bool     { return x >= 3 && int(x) < 3+2*p.L }
func (p *problem) isRun(x uint8) bool      { return int(x) >= 3+2*p.L }

// open decodes Open(k, u); run decodes Run(h, u).
func (p *problem) open(x uint8) (k, u int) { return int(x-3)/2 + 1, int(x-3) & 1 }
func (p *problem) run(x uint8) (h, u int) {
	v := int(x) - 3 - 2*p.L
	return v/2 + 2, v & 1
}

// key is a profile: one byte per column, columns 0-7 in lo and 8-15 in hi
// (a struct rather than an array so that it travels in registers).
type key struct{ lo, hi uint64 }

func (k key) get(j int) uint8 {
	if j < 8 {
		return uint8(k.lo >> (uint(j) * 8))
	}
	return uint8(k.hi >> (uint(j-8) * 8))
}

func (k *key) set(j int, v uint8) {
	if j < 8 {
		sh := uint(j) * 8
		k.lo = k.lo&^(0xff<<sh) | uint64(v)<<sh
		return
	}
	sh := uint(j-8) * 8
	k.hi = k.hi&^(0xff<<sh) | uint64(v)<<sh
}

// keyTable maps profiles to their index in a layer: open addressing with
// linear probing over indices into the layer's key slice (faster than a Go
// map for 16-byte keys, and reset by clearing one slice). It is kept at
// most half full (put grows it), and small: its random accesses are most of
// the first pass's time.
type keyTable struct {
	slots []int32 // index+1, 0 = empty
	shift uint    // slot = hash >> shift
	mask  uint64
	n     int    // keys stored
	last  uint64 // slot of the last failed find, where put inserts
}

// reset empties the table and sizes it for n keys at load at most 1/2.
func (kt *keyTable) reset(n int) {
	size := 1024
	for size < 2*n {
		size <<= 1
	}
	if cap(kt.slots) < size {
		kt.slots = make([]int32, size)
	} else {
		kt.slots = kt.slots[:size]
		clear(kt.slots)
	}
	kt.mask = uint64(size - 1)
	kt.shift = uint(64 - bits.Len64(kt.mask))
	kt.n = 0
}

// hash mixes every byte of the key into the high bits (Fibonacci hashing:
// the slot is taken from the top).
func (k key) hash() uint64 {
	h := k.lo*0x9e3779b97f4a7c15 ^ k.hi*0xc2b2ae3d27d4eb4f
	h ^= h >> 32
	return h * 0xd6e8feb86659fd93
}

// find returns the index of k, looking its candidates up in keys.
func (kt *keyTable) find(k key, keys []key) (int32, bool) {
	for s := k.hash() >> kt.shift; ; s = (s + 1) & kt.mask {
		v := kt.slots[s]
		if v == 0 {
			kt.last = s
			return 0, false
		}
		if keys[v-1] == k {
			return v - 1, true
		}
	}
}

// put stores index j for the key of the last failed find, keys[j]; when
// that fills the table to more than one half, it doubles it and stores
// keys[0..j] again.
func (kt *keyTable) put(j int32, keys []key) {
	kt.slots[kt.last] = j + 1
	kt.n++
	if 2*kt.n <= len(kt.slots) {
		return
	}
	kt.reset(len(kt.slots))
	for i, k := range keys[:j+1] {
		s := k.hash() >> kt.shift
		for kt.slots[s] != 0 {
			s = (s + 1) & kt.mask
		}
		kt.slots[s] = int32(i) + 1
	}
	kt.n = int(j) + 1
}

// rule is one way to fill a cell, as a function of the codes of its upper
// and left neighbours: the codes that replace them in the profile (cur for
// the cell's column, newLeft for the column to its left), the length of the
// ship it finishes (0 for none), and whether it is allowed at all.
type rule struct {
	cur, newLeft uint8
	ship         uint8
	ok           bool
}

// cellRules lists the two ways to fill a cell of status st whose upper
// neighbour has code up and left neighbour code left (cE0 in column 0);
// rowEnd tells the last column. The occupied way also needs the upper-right
// neighbour to be empty (a code below cC, cE0 in the last column), which
// the caller checks: cellRules does not depend on it, so it can be tabled.
func (p *problem) cellRules(up, left uint8, rowEnd bool, st uint8) (empty, occ rule) {
	upLeftOcc := left == cE1
	if p.isOpen(left) {
		if kk, _ := p.open(left); kk >= 2 {
			upLeftOcc = true
		}
	}
	leftNorm := left
	if left == cE1 {
		leftNorm = cE0
	}

	if st != stForced {
		o := rule{ok: true, newLeft: leftNorm}
		ship := 0
		if p.isOpen(up) {
			l, u := p.open(up)
			ship, o.ok = l, u == 1
		}
		if p.isRun(left) {
			h, u := p.run(left)
			ship, o.ok = h, o.ok && u == 1
			o.newLeft = cC
		}
		o.cur = cE0
		if up >= cC && !rowEnd {
			o.cur = cE1
		}
		if ship > 0 && p.kc[ship] == 0 {
			o.ok = false
		}
		o.ship = uint8(ship)
		empty = o
	}
	if st != stForbidden && !upLeftOcc {
		o := rule{ok: true, newLeft: leftNorm}
		un := 0
		if st == stFree {
			un = 1
		}
		switch {
		case p.isOpen(up):
			l, u := p.open(up)
			if l+1 > p.L {
				o.ok = false
			} else {
				o.cur = p.openCode(l+1, u|un)
			}
		case p.isOpen(left): // a single cell to the left (upLeftOcc rules out longer)
			_, u := p.open(left)
			if 2 > p.L {
				o.ok = false
			} else {
				o.cur, o.newLeft = p.runCode(2, u|un), cC
			}
		case p.isRun(left):
			h, u := p.run(left)
			if h+1 > p.L {
				o.ok = false
			} else {
				o.cur, o.newLeft = p.runCode(h+1, u|un), cC
			}
		default:
			if p.L < 1 {
				o.ok = false
			} else {
				o.cur = p.openCode(1, un)
			}
		}
		if o.ok && rowEnd && p.isRun(o.cur) {
			h, u := p.run(o.cur)
			o.ship, o.ok, o.cur = uint8(h), u == 1 && p.kc[h] > 0, cC
		}
		occ = o
	}
	return empty, occ
}

// Packed rules: both rules of a cell in one word, the empty way in the low
// half and the occupied way in the high half, each as cur | newLeft<<8 |
// ship<<16 | ok<<24; bit 63 marks a computed table entry.
const (
	ruleOK     = 1 << 24
	occRuleOK  = ruleOK << 32
	ruleFilled = 1 << 63
)

func packRule(r rule) uint64 {
	x := uint64(r.cur) | uint64(r.newLeft)<<8 | uint64(r.ship)<<16
	if r.ok {
		x |= ruleOK
	}
	return x
}

func packRules(empty, occ rule) uint64 { return packRule(empty) | packRule(occ)<<32 | ruleFilled }

// maxTabledLen is the longest remaining ship for which forwardSupports
// tables cellRules (the tables have (4L+1)^2 entries per kind of cell).
const maxTabledLen = 8

// occupied reports whether a row-end profile code holds a ship.
func occupied(x uint8) bool { return x >= cC }

// counter runs the programme with m limbs per number. It works in four
// passes:
//
//  1. enumerate the profiles boundary by boundary (a hash map per boundary),
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
	reuse          *enumCache
	keepAll        bool // keep the profiles of every boundary (for a Counter)
	done, failKeys int
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
	d.completionSupports()
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
	n := d.cells()
	d.sizes = make([]int, n+1)
	d.fwd = make([][]uint64, n+1)
	d.keys = make([][]key, n+1)
	d.trans = make([][]uint32, n)
	d.keys[0] = []key{{}}
	d.fwd[0] = make([]uint64, pw)
	d.fwd[0][0] = 1
	d.sizes[0] = 1
	start := 0
	if c := d.reuse; c != nil {
		if p, ok := c.prefix(d.problem); ok {
			start = min(c.done, p)
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
			if c.failKeys > 0 && p > c.done && d.maxWork > 0 &&
				d.work+int64(c.failKeys)*workPerState > d.maxWork {
				d.failKeys = c.failKeys
				return d.charge(int64(c.failKeys) * workPerState)
			}
		}
	}
	keys, sf := d.keys[start], d.fwd[start]
	var idx keyTable
	// cellRules tabled per (row end, status): entry up*nc+left, 0 until used.
	nc := 4*d.L + 1
	var tabs []uint64
	if d.L <= maxTabledLen {
		tabs = make([]uint64, 2*3*nc*nc)
	}
	for t := start; t < n; t++ {
		if err := d.ctx.Err(); err != nil {
			return err
		}
		c, st := t%d.w, d.statusAt(t)
		rowEnd := c == d.w-1
		var tab []uint64
		if tabs != nil {
			v := int(st)
			if rowEnd {
				v += 3
			}
			tab = tabs[v*nc*nc : (v+1)*nc*nc]
		}
		// The layer is charged when it is complete; it fails the budget as
		// soon as it holds more profiles than the budget left allows.
		maxKeys := -1
		if d.maxWork > 0 {
			maxKeys = int((d.maxWork - d.work) / workPerState)
		}
		idx.reset(len(keys) + len(keys)/4)
		nkeys := make([]key, 0, len(keys)+len(keys)/2)
		nsf := make([]uint64, 0, cap(nkeys)*pw)
		tr := make([]uint32, 2*len(keys))
		for i, k := range keys {
			m := sf[i*pw : (i+1)*pw]
			if maskZero(m) {
				continue
			}
			up, left := k.get(c), cE0
			if c > 0 {
				left = k.get(c - 1)
			}
			var rr uint64
			if tab != nil {
				rr = tab[int(up)*nc+int(left)]
				if rr == 0 {
					rr = packRules(d.cellRules(up, left, rowEnd, st))
					tab[int(up)*nc+int(left)] = rr
				}
			} else {
				rr = packRules(d.cellRules(up, left, rowEnd, st))
			}
			if !rowEnd && k.get(c+1) >= cC {
				rr &^= occRuleOK // the upper-right neighbour is occupied
			}
			for oi := range 2 {
				r := uint32(rr >> (32 * oi))
				if r&ruleOK == 0 {
					continue
				}
				nk := k
				nk.set(c, uint8(r))
				if c > 0 {
					nk.set(c-1, uint8(r>>8))
				}
				ship := int(r >> 16 & 0xff)
				j, seen := idx.find(nk, nkeys)
				if !seen {
					j = int32(len(nkeys))
					nkeys = append(nkeys, nk)
					idx.put(j, nkeys)
					nsf = append(nsf, make([]uint64, pw)...)
					if len(nkeys) == maxKeys+1 {
						// The charge below cannot pass any more: fail now.
						d.failKeys = len(nkeys)
						return d.charge(int64(len(nkeys)) * workPerState)
					}
				}
				tr[2*i+oi] = uint32(j+1)<<6 | uint32(ship)
				d.orShiftUp(nsf[int(j)*pw:(int(j)+1)*pw], m, ship)
			}
		}
		if err := d.charge(int64(len(nkeys)) * workPerState); err != nil {
			d.failKeys = len(nkeys)
			return err
		}
		d.trans[t] = tr
		if _, ok := d.rowEnd(t); !ok && !d.keepAll {
			d.keys[t] = nil // only the row ends' profiles are needed later
		}
		keys, sf = nkeys, nsf
		d.keys[t+1], d.fwd[t+1] = keys, sf
		d.sizes[t+1] = len(keys)
		d.states += len(keys)
		d.done = t + 1
	}
	return nil
}

// completionSupports is pass 2: it walks the table backwards with the
// supports of the completion counts (entry a: B[K-a] > 0) and keeps in
// d.masks their intersection with the forward supports, the useful
// entries. It propagates the intersection rather than the completion
// support itself, which gives the same masks (an entry a of a profile with
// F[a] > 0 reaches, along any transition the table holds, an entry with
// F > 0) and leaves d.fwd as it is.
func (d *counter) completionSupports() {
	pw, n := d.pw, d.cells()
	d.masks = make([][]uint64, n+1)
	rb := make([]uint64, pw*d.sizes[n])
	for i := range d.sizes[n] {
		rb[i*pw+d.K>>6] |= 1 << (d.K & 63)
	}
	and := func(t int, rb []uint64) {
		for q, x := range d.fwd[t] {
			rb[q] &= x
		}
		d.masks[t] = rb
	}
	and(n, rb)
	for t := n - 1; t >= 0; t-- {
		cur := make([]uint64, pw*d.sizes[t])
		for e, x := range d.trans[t] {
			if x == 0 {
				continue
			}
			i, j, ship := e/2, int(x>>6)-1, int(x&63)
			d.orShiftDown(cur[i*pw:(i+1)*pw], rb[j*pw:(j+1)*pw], ship)
		}
		and(t, cur)
		rb = cur
	}
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
	n, m := d.cells(), d.m
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

// u128 is an unsigned 128-bit accumulator.
type u128 struct{ hi, lo uint64 }

func (a *u128) add(b u128) bool {
	var c uint64
	a.lo, c = bits.Add64(a.lo, b.lo, 0)
	a.hi, c = bits.Add64(a.hi, b.hi, c)
	return c != 0
}

func (a u128) big() *big.Int {
	x := new(big.Int).SetUint64(a.hi)
	x.Lsh(x, 64)
	return x.Or(x, new(big.Int).SetUint64(a.lo))
}

// limbsBig converts little-endian limbs to a big.Int.
func limbsBig(v []uint64) *big.Int {
	x := new(big.Int)
	for q := len(v) - 1; q >= 0; q-- {
		x.Lsh(x, 64)
		x.Or(x, new(big.Int).SetUint64(v[q]))
	}
	return x
}

func (d *counter) run() (*Counts, error) {
	if err := d.enumerate(); err != nil {
		return nil, err
	}
	if d.maxWork > 0 {
		// Each useful entry is moved at least once per numeric pass: stop
		// now if that alone breaks the budget.
		var entries int64
		for t := range d.cells() {
			for _, x := range d.masks[t] {
				entries += int64(bits.OnesCount64(x))
			}
		}
		if d.work+2*entries*workPerEntry > d.maxWork {
			return nil, fmt.Errorf("%w: more than %d work units", ErrBudget, d.maxWork)
		}
	}
	n := d.cells()
	before := d.work
	rowF, err := d.forwardValues(func(t int) bool { _, ok := d.rowEnd(t); return ok || t == n })
	if err != nil {
		return nil, err
	}
	if moved := d.work - before; d.maxWork > 0 && d.work+moved > d.maxWork {
		// The backward pass moves exactly the entries the forward pass
		// moved, so it would break the budget (a limb overflow on the way
		// would only make the count start again, with more work still):
		// stop now, as it would at the boundary where it passes the budget.
		if err := d.ctx.Err(); err != nil {
			return nil, err
		}
		return nil, fmt.Errorf("%w: more than %d work units", ErrBudget, d.maxWork)
	}
	m := d.m
	frameCells := make([]*big.Int, d.w*d.h)
	rowTotals := make([]*big.Int, d.h)
	fast := make([]u128, d.w*d.h) // m == 1
	fastTotals := make([]u128, d.h)
	combine := func(r int, b []uint64, off []int32) error {
		f := rowF[(r+1)*d.w]
		for i, k := range d.rowKeys(r) {
			lo, hi := int(off[i]), int(off[i+1])
			if lo == hi {
				continue
			}
			if m == 1 {
				var acc u128
				for q := lo; q < hi; q++ {
					h, l := bits.Mul64(f[q], b[q])
					if acc.add(u128{h, l}) {
						return errOverflow
					}
				}
				if fastTotals[r].add(acc) {
					return errOverflow
				}
				for c := range d.w {
					if occupied(k.get(c)) && fast[r*d.w+c].add(acc) {
						return errOverflow
					}
				}
				continue
			}
			acc := new(big.Int)
			for q := lo; q < hi; q++ {
				acc.Add(acc, new(big.Int).Mul(limbsBig(f[q*m:(q+1)*m]), limbsBig(b[q*m:(q+1)*m])))
			}
			if rowTotals[r] == nil {
				rowTotals[r] = new(big.Int)
			}
			rowTotals[r].Add(rowTotals[r], acc)
			for c := range d.w {
				if occupied(k.get(c)) {
					if frameCells[r*d.w+c] == nil {
						frameCells[r*d.w+c] = new(big.Int)
					}
					frameCells[r*d.w+c].Add(frameCells[r*d.w+c], acc)
				}
			}
		}
		return nil
	}
	if _, err := d.backwardValues(false, combine); err != nil {
		return nil, err
	}
	// The total: the count through the last boundary (the all-empty profile).
	total := new(big.Int)
	if last := rowF[n]; len(last) > 0 {
		total = limbsBig(last[:m])
	}
	res := &Counts{Total: total, Cells: make([]*big.Int, d.size), States: d.states}
	for i := range res.Cells {
		res.Cells[i] = new(big.Int)
	}
	for i := range frameCells {
		v := frameCells[i]
		if m == 1 {
			v = fast[i].big()
		}
		if v != nil {
			res.Cells[d.orig(i)] = v
		}
	}
	// Every row end sees every layout once: the row totals must agree.
	for r := range d.h {
		rt := rowTotals[r]
		if m == 1 {
			rt = fastTotals[r].big()
		}
		if rt == nil {
			rt = new(big.Int)
		}
		if rt.Cmp(total) != 0 {
			return nil, fmt.Errorf("battleship: count: internal error: row %d sees %v layouts, the whole board %v", r, rt, total)
		}
	}
	return res, nil
}

// FormatMap renders per-cell counts as rows of width numbers separated by one
// space, each divided by div (integer division, as the seed prints its map).
func FormatMap(cells []*big.Int, width int, div *big.Int) string {
	var sb []byte
	q := new(big.Int)
	for i, v := range cells {
		if i > 0 {
			if i%width == 0 {
				sb = append(sb, '\n')
			} else {
				sb = append(sb, ' ')
			}
		}
		q.Quo(v, div)
		sb = q.Append(sb, 10)
	}
	return string(sb)
}
