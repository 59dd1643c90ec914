package bsbelief

// The frame the programme walks (the board reduced to cell statuses,
// transposed when wide), the profile codes and their hash table, and the
// rules that fill one cell given its neighbours' codes.

import (
	"fmt"
	"math/bits"
	"slices"

	"github.com/kaisen-ai/kaisen/game/battleship"
)

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
	symmetric bool // every row of the frame reads the same right to left (mirrorSymmetric)
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

func newProblem(pos *battleship.Position) (*problem, error) {
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
		case battleship.Unknown:
			status[c] = stFree
		case battleship.Damaged:
			status[c] = stForced
		default:
			status[c] = stForbidden
		}
	}
	for c := range pos.Set(battleship.Sunk).All() {
		for n := range b.Around(c).All() {
			status[n] = stForbidden // Remaining has checked that no hit is there
		}
	}
	p.status = make([]uint8, p.w*p.h)
	for i := range p.status {
		p.status[i] = status[p.orig(i)]
	}
	p.symmetric = p.mirrorSymmetric()
	if W == H && !p.symmetric {
		// A square board symmetric top to bottom only is symmetric left to
		// right transposed: count it transposed.
		q := *p
		q.tr = true
		q.status = make([]uint8, p.w*p.h)
		for i := range q.status {
			q.status[i] = status[q.orig(i)]
		}
		if q.mirrorSymmetric() {
			q.symmetric = true
			*p = q
		}
	}
	p.kc = battleship.CountByLength(rem)
	p.L = len(p.kc) - 1
	if p.L > battleship.MaxShipLen {
		return nil, fmt.Errorf("battleship: count: ship length %d is above %d", p.L, battleship.MaxShipLen)
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

// mirrorSymmetric reports whether every row of the frame reads the same
// right to left.
func (p *problem) mirrorSymmetric() bool {
	for r := range p.h {
		row := p.status[r*p.w : (r+1)*p.w]
		for c := range p.w / 2 {
			if row[c] != row[p.w-1-c] {
				return false
			}
		}
	}
	return true
}

// tbSymmetric reports whether every row of the frame has the statuses of
// its mirror row, top to bottom.
func (p *problem) tbSymmetric() bool {
	for r := range p.h / 2 {
		if !slices.Equal(p.status[r*p.w:(r+1)*p.w], p.status[(p.h-1-r)*p.w:(p.h-r)*p.w]) {
			return false
		}
	}
	return true
}

// orig maps a frame index to the board's cell index.
func (p *problem) orig(i int) int {
	if !p.tr {
		return i
	}
	r, c := i/p.w, i%p.w // frame row r is board column r, frame column c is board row c
	return c*p.ow + r
}

// Profile codes (see the top of count.go).
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

// mirror returns the profile of w columns read right to left.
func (k key) mirror(w int) key {
	// Reverse all 16 bytes, then shift the w codes down to columns 0..w-1.
	lo, hi := bits.ReverseBytes64(k.hi), bits.ReverseBytes64(k.lo)
	s := uint(8 * (16 - w))
	if s >= 64 {
		return key{lo: hi >> (s - 64)}
	}
	return key{lo: lo>>s | hi<<(64-s), hi: hi >> s}
}

// less orders profiles (any fixed total order does: it picks the
// representative of a profile and its mirror image).
func (k key) less(o key) bool { return k.hi < o.hi || k.hi == o.hi && k.lo < o.lo }

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
// map for 16-byte keys, and reset by clearing one slice). Each slot also
// holds 32 bits of its key's hash, so that a probe reads the key itself
// only when they match. It is kept at most half full (put grows it), and
// small: its random accesses cost most where it is used on large layers
// (pass 1 uses it only at row ends merged with mirror images, grouped.go,
// and where the cell rules are not tabled).
type keyTable struct {
	slots []uint64 // hash bits<<32 | index+1, 0 = empty
	shift uint     // slot = hash >> shift
	mask  uint64
	n     int    // keys stored
	last  uint64 // slot of the last failed find, where put inserts
	tag   uint64 // hash bits of the last failed find
}

// reset empties the table and sizes it for n keys at load at most 1/2.
func (kt *keyTable) reset(n int) {
	size := 1024
	for size < 2*n {
		size <<= 1
	}
	if cap(kt.slots) < size {
		kt.slots = make([]uint64, size)
	} else {
		kt.slots = kt.slots[:size]
		clear(kt.slots)
	}
	kt.mask = uint64(size - 1)
	kt.shift = uint(64 - bits.Len64(kt.mask))
	kt.n = 0
}

// hash mixes every byte of the key into the high bits (Fibonacci hashing:
// the slot is taken from the top; the tag from the low half).
func (k key) hash() uint64 {
	h := k.lo*0x9e3779b97f4a7c15 ^ k.hi*0xc2b2ae3d27d4eb4f
	h ^= h >> 32
	return h * 0xd6e8feb86659fd93
}

// find returns the index of k, looking its candidates up in keys.
func (kt *keyTable) find(k key, keys []key) (int32, bool) {
	h := k.hash()
	tag := h << 32
	for s := h >> kt.shift; ; s = (s + 1) & kt.mask {
		v := kt.slots[s]
		if v == 0 {
			kt.last, kt.tag = s, tag
			return 0, false
		}
		if v&^0xffffffff == tag && keys[uint32(v)-1] == k {
			return int32(uint32(v)) - 1, true
		}
	}
}

// put stores index j for the key of the last failed find, keys[j]; when
// that fills the table to more than one half, it doubles it and stores
// keys[0..j] again.
func (kt *keyTable) put(j int32, keys []key) {
	kt.slots[kt.last] = kt.tag | uint64(j+1)
	kt.n++
	if 2*kt.n <= len(kt.slots) {
		return
	}
	kt.reset(len(kt.slots))
	for i, k := range keys[:j+1] {
		h := k.hash()
		s := h >> kt.shift
		for kt.slots[s] != 0 {
			s = (s + 1) & kt.mask
		}
		kt.slots[s] = h<<32 | uint64(i+1)
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
