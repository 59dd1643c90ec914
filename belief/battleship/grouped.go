package bsbelief

// Pass 1 without a hash table: the profiles a cell makes, found in groups.
//
// Filling the cell of column c changes at most the codes of columns c-1
// and c (newLeft and cur), so two profiles made from parents that differ
// in another column differ there too. If the parents that agree on every
// column but cl = c-1 (cyclically: w-1 for c = 0) and c are next to each
// other in the layer (a group), the profiles made from a group are new
// to the layer, and the group finds its own duplicates in a small table
// indexed by the two codes of columns cl and c (the local key): no
// hashing, and no random access into a large table.
//
// A cell walks its parents in an order that makes the groups contiguous:
// lexicographic over the columns (most significant first) c-2, c-3, ...,
// c+1 (descending, cyclically), then cl, then c (order S(c)). The groups
// taken in that order make profiles in that order too when each emits
// its profiles sorted by local key, and a stable sort of that layer by
// its code in column cl, which moves that column to the front, gives the
// order S(c+1) up to the order of columns c and c+1 within a group, which
// the next cell does not need: it sorts each group's profiles itself. So
// the profiles are stored in the order they are made, and the next cell
// walks them through a permutation, a counting sort by one code (order).
//
// At a row end whose profiles are merged with their mirror images
// (counter.mirror), the mirror image changes every column: that cell
// finds its profiles in a hash table (hashStep), and the first cell of
// the next row walks them sorted by every column (a radix sort). The
// order of the profiles in a layer changes nothing that a count
// returns: only sums over them.

import "slices"

// groupPass is the memory of pass 1's grouped steps, reused from cell to
// cell (not safe for concurrent use).
type groupPass struct {
	nc int // profile codes: local keys are b1*nc + b2
	// Per local key: the index in the layer of its profile, the group
	// that last used it (stamp == epoch: the current one) and the profile.
	slot  []int32
	stamp []uint32
	keyOf []key
	epoch uint32
	used  []int32      // local keys of the current group
	pend  []groupChild // transitions of the current group
	// The layer being made (step).
	nkeys []key
	nsf   []uint64
	// order's permutation and scratch.
	perm, tmp []int32
	cnt       []int32
	// A split step: the other workers' memory, and for such a worker
	// the buffer it makes its profiles in.
	sub  []*groupPass
	ownK []key
}

// groupChild is one transition of a group, kept until the group's
// profiles have their indices.
type groupChild struct {
	e, src, lk int32 // the transition (2*parent + way), its parent, the local key it makes
	ship       int32
}

// newGroupPass returns the grouped steps' memory, or nil when the cell
// rules are not tabled (then the codes are too many for small tables).
func newGroupPass(d *counter) *groupPass {
	if d.L > maxTabledLen {
		return nil
	}
	nc := 4*d.L + 1 // the codes: cE0, cE1, cC, Open(1..L, u), Run(2..L, u)
	return &groupPass{
		nc: nc, slot: make([]int32, nc*nc), stamp: make([]uint32, nc*nc), keyOf: make([]key, nc*nc),
		epoch: 1, cnt: make([]int32, nc+1),
	}
}

// order returns the parents of cell t (layer keys) in the order S(c) of
// its column c: the layer was made in the order S(c-1) (a grouped step)
// and a stable sort by column c-2 gives S(c) up to the order within
// groups; at the start of a row after a hash step (mirror images merged)
// the layer is in no order, and is sorted by every column.
func (g *groupPass) order(d *counter, t int, keys []key) []int32 {
	n, w, c := len(keys), d.w, t%d.w
	// Grown as append grows (the layers grow cell by cell).
	g.perm, g.tmp = slices.Grow(g.perm[:0], n)[:n], slices.Grow(g.tmp[:0], n)[:n]
	perm := g.perm
	for i := range perm {
		perm[i] = int32(i)
	}
	if n <= 1 {
		return perm
	}
	if c == 0 && d.mirror && t > 0 {
		// S(0), least significant column first: 0, w-1, 1, 2, ..., w-2.
		g.sortBy(keys, 0)
		if w > 1 {
			g.sortBy(keys, w-1)
		}
		for col := 1; col < w-1; col++ {
			g.sortBy(keys, col)
		}
		return g.perm
	}
	g.sortBy(keys, (c+2*w-2)%w)
	return g.perm
}

// sortBy sorts g.perm, stably, by the code of column col of its profiles.
func (g *groupPass) sortBy(keys []key, col int) {
	perm, tmp, cnt := g.perm, g.tmp, g.cnt
	clear(cnt)
	for _, i := range perm {
		cnt[keys[i].get(col)+1]++
	}
	for b := 1; b < len(cnt); b++ {
		cnt[b] += cnt[b-1]
	}
	for _, i := range perm {
		b := keys[i].get(col)
		tmp[cnt[b]] = i
		cnt[b]++
	}
	g.perm, g.tmp = tmp, perm
}

// step makes layer t+1 of pass 1 as hashStep does (same arguments and
// results), walking the parents in order S(c) (order) and making the
// layer in that order. Without a budget a large layer is split over d's
// workers at group boundaries: each walks its range of groups, and the
// layer is their concatenation in range order, the serial layer itself
// (so pass 1 makes the same layers for any number of workers).
func (g *groupPass) step(d *counter, t int, cs *cellStep, keys []key, sf []uint64, tr []uint32, nkeys []key, nsf []uint64, maxKeys int) (_ []key, _ []uint64, ok bool) {
	lm := g.localMask(d, cs.c)
	perm := g.order(d, t, keys)
	k := 1
	if maxKeys < 0 {
		k = d.parts(16 * len(keys)) // a parent costs about as much as 8 span entries per way, as in pass 2
	}
	if k == 1 {
		return g.walk(d, cs, lm, perm, keys, sf, tr, nkeys, nsf, maxKeys)
	}
	b := groupBounds(perm, keys, lm, k)
	cs.fill(d) // the workers read the rules table: fill it first
	for len(g.sub) < k-1 {
		g.sub = append(g.sub, newGroupPass(d))
	}
	// Range p makes at most two profiles per parent: the first into
	// nkeys and nsf, the others their profiles into their own buffer
	// and their supports in place in nsf, from index 2*b[p] on (their
	// transitions counting from there); they are moved down after.
	pw := d.pw
	nsf = nsf[:2*len(keys)*pw]
	made := make([]int, k)
	runParts(b, func(p, lo, hi int) {
		a := 2 * lo
		if p == 0 {
			nkeys, _, _ = g.walk(d, cs, lm, perm[lo:hi], keys, sf, tr, nkeys, nsf[:0:2*hi*pw], -1)
			made[0] = len(nkeys)
			return
		}
		w := g.sub[p-1]
		w.ownK, _, _ = w.walk(d, cs, lm, perm[lo:hi], keys, sf, tr, w.ownK[:0], nsf[a*pw:a*pw:2*hi*pw], -1)
		made[p] = len(w.ownK)
	})
	n := made[0]
	for p := 1; p < k; p++ {
		a := 2 * b[p]
		nkeys = append(nkeys, g.sub[p-1].ownK...)
		copy(nsf[n*pw:], nsf[a*pw:(a+made[p])*pw])
		// Zeroed room again for the arena's next layer; the range's
		// transitions count from its start.
		clear(nsf[(n+made[p])*pw : (a+made[p])*pw])
		off := uint32(n) << 6
		for _, i := range perm[b[p]:b[p+1]] {
			for e := 2 * i; e < 2*i+2; e++ {
				if tr[e] != 0 {
					tr[e] += off
				}
			}
		}
		n += made[p]
	}
	return nkeys, nsf[:n*pw], true
}

// localMask returns the key with the bytes of the local key's columns
// (cl = c-1 cyclically, and c) all ones.
func (g *groupPass) localMask(d *counter, c int) key {
	var lm key
	lm.set((c+d.w-1)%d.w, 0xff)
	lm.set(c, 0xff)
	return lm
}

// groupBounds cuts the parents perm into k ranges of about equal size
// that start at a group (parents that differ outside the local key lm).
func groupBounds(perm []int32, keys []key, lm key, k int) []int {
	n := len(perm)
	gk := func(x int) key { y := keys[perm[x]]; return key{lo: y.lo &^ lm.lo, hi: y.hi &^ lm.hi} }
	b := make([]int, k+1)
	b[k] = n
	for p := 1; p < k; p++ {
		x := max(b[p-1], n*p/k)
		for x > 0 && x < n && gk(x) == gk(x-1) {
			x++
		}
		b[p] = x
	}
	return b
}

// walk makes the profiles of the parents perm (whole groups, in order
// S(c)) into nkeys and nsf (see step).
func (g *groupPass) walk(d *counter, cs *cellStep, lm key, perm []int32, keys []key, sf []uint64, tr []uint32, nkeys []key, nsf []uint64, maxKeys int) (_ []key, _ []uint64, ok bool) {
	pw, nc, c := d.pw, g.nc, cs.c
	cl := (c + d.w - 1) % d.w
	g.nkeys, g.nsf = nkeys, nsf
	defer func() { g.nkeys, g.nsf = nil, nil }()
	var cur key // the current group: its parents without columns cl and c
	open := false
	for _, i32 := range perm {
		i := int(i32)
		m := sf[i*pw : (i+1)*pw]
		if maskZero(m) {
			continue
		}
		k := keys[i]
		gk := key{lo: k.lo &^ lm.lo, hi: k.hi &^ lm.hi}
		if open && gk != cur && !g.flush(d, sf, tr, maxKeys) {
			return g.nkeys, g.nsf, false
		}
		cur, open = gk, true
		rr := cs.rules(d, k)
		for oi := range 2 {
			nk, ship, ok := cs.child(d, k, rr, oi)
			if !ok {
				continue
			}
			lk := int32(int(nk.get(cl))*nc + int(nk.get(c)))
			if g.stamp[lk] != g.epoch {
				g.stamp[lk] = g.epoch
				g.used = append(g.used, lk)
				g.keyOf[lk] = nk
			}
			g.pend = append(g.pend, groupChild{e: int32(2*i + oi), src: i32, lk: lk, ship: int32(ship)})
		}
	}
	if open && !g.flush(d, sf, tr, maxKeys) {
		return g.nkeys, g.nsf, false
	}
	return g.nkeys, g.nsf, true
}

// flush appends the current group's profiles to the layer, in order of
// local key, and writes its transitions. It returns false once the layer
// holds maxKeys+1 profiles.
func (g *groupPass) flush(d *counter, sf []uint64, tr []uint32, maxKeys int) bool {
	pw := d.pw
	used := g.used
	for a := 1; a < len(used); a++ { // a few keys: insertion sort
		x, b := used[a], a
		for ; b > 0 && used[b-1] > x; b-- {
			used[b] = used[b-1]
		}
		used[b] = x
	}
	ok := true
	for _, lk := range used {
		g.slot[lk] = int32(len(g.nkeys))
		g.nkeys = append(g.nkeys, g.keyOf[lk])
		g.nsf = g.nsf[:len(g.nsf)+pw] // zeroed room (step)
		if len(g.nkeys) == maxKeys+1 {
			ok = false
			break
		}
	}
	if ok {
		nsf := g.nsf
		for _, ch := range g.pend {
			j := int(g.slot[ch.lk])
			tr[ch.e] = uint32(j+1)<<6 | uint32(ch.ship)
			d.orShiftUp(nsf[j*pw:(j+1)*pw], sf[int(ch.src)*pw:(int(ch.src)+1)*pw], int(ch.ship))
		}
	}
	g.used, g.pend = used[:0], g.pend[:0]
	if g.epoch++; g.epoch == 0 { // wrapped: every stamp is old again
		clear(g.stamp)
		g.epoch = 1
	}
	return ok
}
