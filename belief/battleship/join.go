package bsbelief

// The join of the two halves of a board symmetric top to bottom.
//
// Let J = halfRow and J' = h-1-J (J' = J on odd heights, J+1 on even
// ones). The board read bottom to top is the board itself, so the forward
// values at the row end of row J' (the profiles of rows 0..J', ships
// growing downwards) are also those of rows h-1..J read upwards: F'(s')
// counts the fillings of rows J..h-1 whose row J, with the lengths of its
// vertical runs counted downwards from it, is s'. A layout is then a
// top half s (rows 0..J) and a bottom half s' that agree on row J: the
// same occupied cells (so the same horizontal ships, counted in both
// halves), and in each occupied column that is not part of a horizontal
// ship a vertical ship of k + k' - 1 cells, k counted upwards in s and k'
// downwards in s', at most the longest ship and with a cell that is not a
// known hit. So the backward values at the row end of row J are
//
//	B(s)[a] = Σ F'(s')[a'] over s' agreeing with s, a + a' - horiz + merged = K,
//
// horiz the horizontal ships of row J and merged the vertical ships
// through it. The join computes them run by run, as a small transfer, in
// groups of profiles with the same skeleton (joinPlan): a state is row J
// with the vertical runs left of column c read as the top half (x codes)
// and the others as the bottom half (y codes); it starts from the
// bottom profiles s' (their fleet vectors reversed: entry z = a + merged
// holds F'[K + horiz - z]) and, at each column whose code is a vertical
// run Open(k', u'), replaces it by every top run Open(k, u) that fits,
// which finishes a ship of k + k' - 1 cells: a backward transition of the
// programme. The states left after the last column are top profiles.
//
// On a board that is also symmetric left to right the profiles at row
// ends are orbits of a profile and its mirror image (counter.mirror), with
// forward values summed over the orbit. The join starts from the bottom
// representatives r' with their orbit's values F(o') and ends at every top
// profile, representative or mirror image: J(s) sums compat(s, r') F(o')
// over the orbits. Since compat(mirror s, r') = compat(s, mirror r'),
// J(s) + J(mirror s) is twice the sum over the orbits of F(o')/|o'| times
// the matches of s with its members, which is B(s): B of a representative
// is (J(s) + J(mirror s)) / 2 (exact: the sum is even), and J(s) counts
// twice when s is its own mirror image.
//
// So the programme walks the rows 0..J' forward (passes 1 and 3) and
// 0..J backward (passes 2 and 4) instead of the whole board: pass 2 runs
// the join on the supports (joinSupports, recording the plan) and the
// numeric join (joinValues) replays it on the values between passes 3
// and 4. A row end's backward values only need to be exact on its useful
// entries: an entry (s', a') of row J' that meets a top half (s, a) with
// F(s)[a] > 0 ends fillings that all extend to whole layouts, so it is
// useful (J' = J) or only receives from useful entries of row J (J' =
// J+1), and its forward value is exact (see span.go).

import (
	"math/bits"
	"slices"
	"sync/atomic"
)

// joinBounds returns the boundaries after rows J and J' (see above).
func (d *counter) joinBounds() (t0, t1 int) {
	J := d.halfRow()
	return (J + 1) * d.w, (d.h - J) * d.w
}

// enumEnd is the last boundary pass 1 builds: the row end of row J' when
// the halves are joined, else the end.
func (d *counter) enumEnd() int {
	if d.join {
		_, t1 := d.joinBounds()
		return t1
	}
	return d.cells()
}

// bwdStart is the boundary the backward passes start from: the row end
// of row J when the halves are joined, else the end.
func (d *counter) bwdStart() int {
	if d.join {
		t0, _ := d.joinBounds()
		return t0
	}
	return d.cells()
}

// joinWork is the work of the numeric join (0 without one).
func (d *counter) joinWork() int64 {
	if d.jp == nil {
		return 0
	}
	return d.jp.work
}

// joinPlan groups the profiles of the join by their skeleton: the
// occupied cells of row J and which of them are vertical runs (the
// others are horizontal ships). A state only ever meets states of its
// own group, so each group is joined on its own, in small tables, and
// only at its vertical runs' columns. Pass 2 joins the supports
// (joinSupports); joinValues joins again, on the values, with the
// supports pass 2 left at the two row ends.
type joinPlan struct {
	groups []joinGroup
	// The bottom states: the profiles of row J' (representatives of
	// their orbits), and their index at t1.
	bKey []key
	bSrc []int32
	work int64 // entries the numeric join moves (work units)
}

// joinGroup is one skeleton: its vertical runs' columns, its bottom
// states and top profiles (at t0), K plus the index of its horizontal
// ships and the entries z that have them (all ones, else 0).
type joinGroup struct {
	skel  uint64 // the skeleton (joinPlan.units pairs it with its mirror image)
	opens []int
	bot   []int32
	// The top profiles of the skeleton (with mirror images of the
	// representatives, on a board symmetric left to right) and the index
	// at t0 of each (of its representative).
	topKeys []key
	top     []int32
	base    int
	geq     []uint64
	geqBits []uint64 // geq as a mask of pw words
	// What joinSupports leaves for joinValues: the bottom state of each
	// state of layer 0, the span [lo, hi) of the needed entries of every
	// state of every layer, the transitions of each step that carry
	// some, and the top profile of each state of the last layer (its
	// index at t0 times 2, plus 1 if it counts twice; -1 if none).
	b0       []int32
	lo, hi   [][]int32
	src, dst [][]int32
	final    []int32
}

// joinDP is one group joined on the supports: per layer (after 0..m of
// its vertical runs) the states and their supports, per step the
// transitions (source state, destination<<6 | ship). After finish, the
// supports hold the entries that meet a top profile (needed), and top
// holds the top profile of each state of the last layer (-1 if none).
type joinDP struct {
	keys  [][]key
	masks [][]uint64
	b0    []int32 // layer 0: the bottom state
	src   [][]int32
	dst   [][]int32
	top   []int32
	idx   keyTable
	tmp   []uint64
	rev   []uint64
	// cand[c*nc+y]: the top runs that fit bottom run y in column c, each
	// code | ship<<8 (nc = 3+2L codes).
	cand [][]uint16
}

// candidates fills dp.cand.
func (dp *joinDP) candidates(d *counter) {
	J, nc := d.halfRow(), 3+2*d.L
	dp.cand = make([][]uint16, d.w*nc)
	for c := range d.w {
		for y := 3; y < nc; y++ {
			k2, u2 := d.open(uint8(y))
			for k1 := 1; k1+k2-1 <= d.L; k1++ {
				l := k1 + k2 - 1
				if d.kc[l] == 0 {
					continue
				}
				for u1 := range 2 {
					if u1|u2 == 1 && d.topRunFits(J, c, k1, u1) {
						dp.cand[c*nc+y] = append(dp.cand[c*nc+y], uint16(d.openCode(k1, u1))|uint16(l)<<8)
					}
				}
			}
		}
	}
}

// digit returns the count of ships of length l in fleet vector a.
func (d *counter) digit(a, l int) int { return a / d.stride[l] % (d.kc[l] + 1) }

// rowShips returns the horizontal ships of a row-end profile as a fleet
// vector index and its count per length (nil when there is none).
func (d *counter) rowShips(k key) (int, []int) {
	var per []int
	idx, run := 0, 0
	for c := 0; c <= d.w; c++ {
		if c < d.w && k.get(c) == cC {
			run++
			continue
		}
		if run > 0 {
			if per == nil {
				per = make([]int, d.L+1)
			}
			per[run]++
			idx += d.stride[run]
			run = 0
		}
	}
	return idx, per
}

// reverseMask sets dst to the entries z = base - a of the entries a of
// src that are at least 0 (dst and src of the same length, pw words).
func reverseMask(dst, src []uint64, base int) {
	if len(src) > 2 {
		clear(dst)
		for q, x := range src {
			for ; x != 0; x &= x - 1 {
				if z := base - (q<<6 + bits.TrailingZeros64(x)); z >= 0 && z < len(dst)<<6 {
					dst[z>>6] |= 1 << (z & 63)
				}
			}
		}
		return
	}
	// As 128 bits: reversed, entry a is at 127 - a; shift it to base - a.
	var x0, x1 uint64
	x0 = src[0]
	if len(src) == 2 {
		x1 = src[1]
	}
	r0, r1 := bits.Reverse64(x1), bits.Reverse64(x0)
	switch s := 127 - base; {
	case s >= 128 || s <= -128:
		r0, r1 = 0, 0
	case s >= 64:
		r0, r1 = r1>>(s-64), 0
	case s > 0:
		r0, r1 = r0>>s|r1<<(64-s), r1>>s
	case s <= -64:
		r0, r1 = 0, r0<<(-s-64)
	case s < 0:
		r0, r1 = r0<<-s, r1<<-s|r0>>(64+s)
	}
	dst[0] = r0
	if len(dst) == 2 {
		dst[1] = r1
	}
}

// skeleton returns the group of a row-end profile: its occupied columns
// and its vertical runs' columns.
func (d *counter) skeleton(k key) uint64 {
	var occ, open uint64
	for c := range d.w {
		x := k.get(c)
		if occupied(x) {
			occ |= 1 << c
		}
		if d.isOpen(x) {
			open |= 1 << c
		}
	}
	return occ | open<<16
}

// topRunFits reports whether the top half can end in a vertical run of k
// cells with flag u in column c of row J: rows J-k+1..J exist and hold no
// forbidden cell, and u = 0 only if all of them are hits, u = 1 only if
// one is not.
func (d *counter) topRunFits(J, c, k, u int) bool {
	if J-k+1 < 0 {
		return false
	}
	free := false
	for r := J - k + 1; r <= J; r++ {
		switch d.status[r*d.w+c] {
		case stForbidden:
			return false
		case stFree:
			free = true
		}
	}
	return free == (u == 1)
}

// newJoinPlan groups the top profiles of row J and the bottom states of
// row J' (those whose mask in m1 is not empty) by skeleton; groups with
// no top profile are left out.
func (d *counter) newJoinPlan(m1 []uint64) *joinPlan {
	pw, w := d.pw, d.w
	t0, t1 := d.joinBounds()
	jp := &joinPlan{}
	groupOf := map[uint64]int32{}
	geqOf := map[int][]uint64{}
	tops := func(yield func(key, int32) bool) {
		for j, k := range d.keys[t0] {
			if !yield(k, int32(j)) {
				return
			}
			if mk := k.mirror(w); d.mirror && mk != k && !yield(mk, int32(j)) {
				return
			}
		}
	}
	for k, j := range tops {
		s := d.skeleton(k)
		g, ok := groupOf[s]
		if !ok {
			g = int32(len(jp.groups))
			groupOf[s] = g
			hidx, per := d.rowShips(k)
			// A row with more ships of a length than the fleet has (a
			// profile pass 1 made with no fleet vector) has an index
			// that is another row's: its geq (all zero) is kept apart.
			gk := hidx
			for l, n := range per {
				if n > d.kc[l] {
					gk = -1
				}
			}
			geq, ok := geqOf[gk]
			if !ok {
				geq = make([]uint64, d.P)
				for z := range d.P {
					geq[z] = ^uint64(0)
					for l := 1; l <= d.L && per != nil; l++ {
						if d.digit(z, l) < per[l] {
							geq[z] = 0
						}
					}
				}
				geqOf[gk] = geq
			}
			var opens []int
			for c := range w {
				if d.isOpen(k.get(c)) {
					opens = append(opens, c)
				}
			}
			gb := make([]uint64, pw)
			for z, x := range geq {
				if x != 0 {
					gb[z>>6] |= 1 << (z & 63)
				}
			}
			jp.groups = append(jp.groups, joinGroup{skel: s, opens: opens, base: d.K + hidx, geq: geq, geqBits: gb})
		}
		jp.groups[g].topKeys = append(jp.groups[g].topKeys, k)
		jp.groups[g].top = append(jp.groups[g].top, j)
	}
	for i, k := range d.keys[t1] {
		if maskZero(m1[i*pw : (i+1)*pw]) {
			continue
		}
		g, ok := groupOf[d.skeleton(k)]
		if !ok {
			continue
		}
		jp.groups[g].bot = append(jp.groups[g].bot, int32(len(jp.bKey)))
		jp.bKey = append(jp.bKey, k)
		jp.bSrc = append(jp.bSrc, int32(i))
	}
	return jp
}

// run joins group g on the supports: from the masks m1 of the bottom
// profiles (at t1) to the masks m0 of the top ones (at t0). It returns the
// states it made and the entries the numeric join moves.
func (dp *joinDP) run(d *counter, jp *joinPlan, g *joinGroup, m0, m1 []uint64) (states int, moved int64) {
	pw, m, nc := d.pw, len(g.opens), 3+2*d.L
	dp.keys, dp.masks = grow(dp.keys, m+1, 0), grow(dp.masks, m+1, 0)
	dp.src, dp.dst = grow(dp.src, m, 0), grow(dp.dst, m, 0)
	dp.tmp = grow(dp.tmp, pw, 0)
	// Layer 0: the bottom states, their fleet vectors reversed.
	keys, masks := dp.keys[0][:0], dp.masks[0][:0]
	dp.b0 = dp.b0[:0]
	for _, b := range g.bot {
		p := int(jp.bSrc[b])
		n := len(masks)
		masks = slices.Grow(masks, pw)[:n+pw]
		zm := masks[n:]
		reverseMask(zm, m1[p*pw:(p+1)*pw], g.base)
		for q := range zm {
			zm[q] &= g.geqBits[q]
		}
		if maskZero(zm) {
			masks = masks[:n]
			continue
		}
		keys = append(keys, jp.bKey[b])
		dp.b0 = append(dp.b0, b)
	}
	dp.keys[0], dp.masks[0] = keys, masks
	states += len(keys)
	tmp := dp.tmp
	for i, c := range g.opens {
		keys, masks := dp.keys[i], dp.masks[i]
		nkeys, nmasks := dp.keys[i+1][:0], dp.masks[i+1][:0]
		src, dst := dp.src[i][:0], dp.dst[i][:0]
		dp.idx.reset(len(keys))
		cand := dp.cand[c*nc : (c+1)*nc]
		for s, k := range keys {
			sm := masks[s*pw : (s+1)*pw]
			for _, x := range cand[k.get(c)] {
				l := int(x >> 8)
				clear(tmp)
				d.orShiftDown(tmp, sm, l)
				if maskZero(tmp) {
					continue
				}
				nk := k
				nk.set(c, uint8(x))
				j, seen := dp.idx.find(nk, nkeys)
				if !seen {
					j = int32(len(nkeys))
					nkeys = append(nkeys, nk)
					dp.idx.put(j, nkeys)
					nmasks = slices.Grow(nmasks, pw)[:len(nmasks)+pw]
					clear(nmasks[len(nmasks)-pw:])
				}
				for q, y := range tmp {
					nmasks[int(j)*pw+q] |= y
				}
				src = append(src, int32(s))
				dst = append(dst, j<<6|int32(l))
			}
		}
		dp.keys[i+1], dp.masks[i+1] = nkeys, nmasks
		dp.src[i], dp.dst[i] = src, dst
		states += len(nkeys)
	}
	// The last layer: the top profiles' entries.
	keys, masks = dp.keys[m], dp.masks[m]
	dp.idx.reset(len(g.topKeys))
	for t, k := range g.topKeys {
		dp.idx.find(k, g.topKeys)
		dp.idx.put(int32(t), g.topKeys)
	}
	dp.top = grow(dp.top, len(keys), 0)
	for s, k := range keys {
		need := masks[s*pw : (s+1)*pw]
		t, ok := dp.idx.find(k, g.topKeys)
		if !ok {
			dp.top[s] = -1 // no such top profile
			clear(need)
			continue
		}
		p := g.top[t]
		dp.top[s] = p << 1
		if d.mirror && k.mirror(d.w) == k {
			dp.top[s] |= 1 // its own mirror image: J(s) counts twice
		}
		for q := range need {
			need[q] &= m0[int(p)*pw+q]
		}
	}
	// Back through the steps: the entries that reach a needed one.
	for i := m - 1; i >= 0; i-- {
		masks, next := dp.masks[i], dp.masks[i+1]
		need := grow(tmp, len(masks), 0) // reused below: tmp is free here
		clear(need)
		for e, s := range dp.src[i] {
			j, l := int(dp.dst[i][e]>>6), int(dp.dst[i][e]&63)
			nj := next[j*pw : (j+1)*pw]
			d.orShiftUp(need[int(s)*pw:(int(s)+1)*pw], nj, l)
			for _, y := range nj {
				moved += int64(bits.OnesCount64(y))
			}
		}
		for q := range masks {
			masks[q] &= need[q]
		}
		dp.tmp = need
		tmp = need
	}
	for _, x := range dp.masks[0] {
		moved += int64(bits.OnesCount64(x))
	}
	dp.tmp = dp.tmp[:pw]
	return states, moved
}

// keep stores what joinValues needs of dp, the group joined on the
// supports.
func (g *joinGroup) keep(dp *joinDP, pw int) {
	m := len(g.opens)
	g.b0 = slices.Clone(dp.b0)
	g.final = slices.Clone(dp.top)
	g.lo, g.hi = make([][]int32, m+1), make([][]int32, m+1)
	for i := range m + 1 {
		g.lo[i], g.hi[i] = maskSpansInto(dp.masks[i], pw, nil, nil)
	}
	g.src, g.dst = make([][]int32, m), make([][]int32, m)
	for i := range m {
		lo, hi, nlo, nhi := g.lo[i], g.hi[i], g.lo[i+1], g.hi[i+1]
		for e, s := range dp.src[i] {
			j := dp.dst[i][e] >> 6
			if lo[s] < hi[s] && nlo[j] < nhi[j] {
				g.src[i] = append(g.src[i], s)
				g.dst[i] = append(g.dst[i], dp.dst[i][e])
			}
		}
	}
}

// joinSupports runs the join on the supports (pass 2) from the forward
// supports of rows J' and J, and keeps the plan in d.jp. It returns, per
// profile of row J, the entries whose completion count is positive
// (comp), and per profile of row J' those that meet a top half (pair),
// pw words each. It charges workPerState per state.
func (d *counter) joinSupports() (comp, pair []uint64, err error) {
	pw := d.pw
	t0, t1 := d.joinBounds()
	m0, m1 := d.fwd[t0], d.fwd[t1]
	jp := d.newJoinPlan(m1)
	d.jp = jp
	comp = make([]uint64, pw*d.sizes[t0])
	pair = make([]uint64, pw*d.sizes[t1])
	var proto joinDP
	proto.candidates(d)
	// A budgeted count charges group after group and stops at the first
	// that breaks the budget: it joins on one goroutine. Otherwise the
	// groups are shared out between workers, each with its own tables
	// and supports, or-ed together at the end; the states and work are
	// sums.
	k := 1
	if d.maxWork <= 0 {
		k = d.parts(d.sizes[t0] + d.sizes[t1])
	}
	if k == 1 {
		dp := proto
		for gi := range jp.groups {
			if err := d.ctx.Err(); err != nil {
				return nil, nil, err
			}
			states, moved := d.joinGroupSupports(&dp, &jp.groups[gi], m0, m1, comp, pair)
			d.states += states
			jp.work += moved * workPerEntry
			if err := d.charge(int64(states) * workPerState); err != nil {
				return nil, nil, err
			}
		}
		return comp, pair, nil
	}
	type part struct {
		comp, pair    []uint64
		states, moved int64
		err           error
	}
	parts := make([]part, k)
	var next atomic.Int64
	runWorkers(k, func(p int) { // the groups are taken one by one
		pt := &parts[p]
		pt.comp, pt.pair = comp, pair
		if p > 0 {
			pt.comp, pt.pair = make([]uint64, len(comp)), make([]uint64, len(pair))
		}
		dp := proto
		for {
			gi := int(next.Add(1) - 1)
			if gi >= len(jp.groups) {
				return
			}
			if err := d.ctx.Err(); err != nil {
				pt.err = err
				return
			}
			states, moved := d.joinGroupSupports(&dp, &jp.groups[gi], m0, m1, pt.comp, pt.pair)
			pt.states += int64(states)
			pt.moved += moved
		}
	})
	var states int64
	for p, pt := range parts {
		if pt.err != nil {
			return nil, nil, pt.err
		}
		states += pt.states
		jp.work += pt.moved * workPerEntry
		if p > 0 {
			orInto(comp, pt.comp)
			orInto(pair, pt.pair)
		}
	}
	d.states += int(states)
	if err := d.charge(states * workPerState); err != nil {
		return nil, nil, err
	}
	return comp, pair, nil
}

// orInto does dst |= src, word by word.
func orInto(dst, src []uint64) {
	for q, x := range src {
		dst[q] |= x
	}
}

// joinGroupSupports joins group g on the supports in dp (joinDP.run),
// ors what it finds into comp and pair (see joinSupports) and keeps the
// plan in g. It returns the states it made and the entries the numeric
// join will move.
func (d *counter) joinGroupSupports(dp *joinDP, g *joinGroup, m0, m1, comp, pair []uint64) (int, int64) {
	pw, jp := d.pw, d.jp
	states, moved := dp.run(d, jp, g, m0, m1)
	m := len(g.opens)
	for s, p := range dp.top {
		if p >= 0 {
			for q, x := range dp.masks[m][s*pw : (s+1)*pw] {
				comp[int(p>>1)*pw+q] |= x
			}
		}
	}
	dp.rev = grow(dp.rev, pw, 0)
	for s, b := range dp.b0 {
		p := int(jp.bSrc[b])
		reverseMask(dp.rev, dp.masks[0][s*pw:(s+1)*pw], g.base) // a = base - z
		for q, x := range dp.rev {
			pair[p*pw+q] |= x
		}
	}
	g.keep(dp, pw)
	return states, moved
}

// joinValues is the numeric join: from the forward values of row J' in
// layer f it fills layer out (boundary t0) with the backward values of
// row J, replaying each group's join as pass 2 left it (joinGroup.keep).
// It charges the work pass 2 recorded. The groups of a skeleton and of
// its mirror image write the same profiles of out (a top profile's
// mirror image adds to its representative), those of other skeletons
// others: a large join shares these units out between workers.
func (d *counter) joinValues(f, out *spanLayer) error {
	jp := d.jp
	t0, _ := d.joinBounds()
	out.fill(d, t0)
	clear(out.v)
	for i := range out.stamp {
		out.stamp[i] = out.epoch // written
	}
	units := jp.units(d)
	k := d.parts(len(out.v))
	ovs := make([]uint64, k)
	errs := make([]error, k)
	var next atomic.Int64
	runWorkers(k, func(p int) {
		var sc joinScratch
		for {
			u := int(next.Add(1) - 1)
			if u >= len(units) {
				return
			}
			if err := d.ctx.Err(); err != nil {
				errs[p] = err
				return
			}
			for _, gi := range units[u] {
				ovs[p] |= d.joinGroupValues(&jp.groups[gi], f, out, &sc)
				jp.groups[gi] = joinGroup{} // done: free it
			}
		}
	})
	var ov uint64
	for p := range k {
		if errs[p] != nil {
			return errs[p]
		}
		ov |= ovs[p]
	}
	if ov != 0 {
		return errOverflow
	}
	if d.mirror {
		for i, x := range out.v {
			out.v[i] = x >> 1 // (J(s) + J(mirror s)) / 2, exact on the useful entries
		}
	}
	return d.charge(jp.work)
}

// units returns the groups in units that write disjoint profiles of the
// join's output: each group alone, or with the group of the mirror image
// of its skeleton when the row ends are merged with their mirror images.
func (jp *joinPlan) units(d *counter) [][]int {
	out := make([][]int, 0, len(jp.groups))
	if !d.mirror {
		for gi := range jp.groups {
			out = append(out, []int{gi})
		}
		return out
	}
	unit := map[uint64]int{}
	for gi, g := range jp.groups {
		s, ms := g.skel, mirrorSkeleton(g.skel, d.w)
		if u, ok := unit[min(s, ms)]; ok {
			out[u] = append(out[u], gi)
			continue
		}
		unit[min(s, ms)] = len(out)
		out = append(out, []int{gi})
	}
	return out
}

// mirrorSkeleton returns the skeleton (see skeleton) of the mirror image
// of a profile of w columns with skeleton s.
func mirrorSkeleton(s uint64, w int) uint64 {
	rev := func(x uint64) uint64 { return uint64(bits.Reverse16(uint16(x))) >> (16 - w) }
	return rev(s&0xffff) | rev(s>>16&0xffff)<<16
}

// joinScratch is the memory of one worker of the numeric join: the
// offsets and values of two layers of a group.
type joinScratch struct {
	off [2][]int32
	buf [2][]uint64
}

// layout sets layer b's offsets for the spans [lo, hi) and sizes its
// values (not cleared).
func (sc *joinScratch) layout(b int, lo, hi []int32) {
	sc.off[b] = grow(sc.off[b], len(lo)+1, 2*cap(sc.off[b])) // doubling: few reallocations
	o := int32(0)
	for i := range lo {
		sc.off[b][i] = o
		o += hi[i] - lo[i]
	}
	sc.off[b][len(lo)] = o
	sc.buf[b] = grow(sc.buf[b], int(o), 2*cap(sc.buf[b]))
}

// joinGroupValues joins group g on the values (see joinValues) and adds
// what reaches its top profiles to out; it returns the carries.
func (d *counter) joinGroupValues(g *joinGroup, f, out *spanLayer, sc *joinScratch) uint64 {
	jp, valid := d.jp, d.sp.valid
	off, buf := &sc.off, &sc.buf
	var ov uint64
	// Layer 0: the reversed forward values.
	lo, hi := g.lo[0], g.hi[0]
	sc.layout(0, lo, hi)
	for s, b := range g.b0 {
		p := int(jp.bSrc[b])
		fs, flo, fhi := f.span(p), int(f.lo[p]), int(f.hi[p])
		l0, h0 := int(lo[s]), int(hi[s])
		v := buf[0][off[0][s]:off[0][s+1]]
		for z := l0; z < h0; z++ {
			a := g.base - z
			var x uint64
			if a >= flo && a < fhi {
				x = fs[a-flo] & g.geq[z]
			}
			v[z-l0] = x
		}
	}
	cur := 0
	for i := range g.opens {
		nx := 1 - cur
		nlo, nhi := g.lo[i+1], g.hi[i+1]
		sc.layout(nx, nlo, nhi)
		clear(buf[nx])
		for e, s := range g.src[i] {
			j, ship := int(g.dst[i][e]>>6), int(g.dst[i][e]&63)
			st := d.stride[ship]
			ls, hs := int(lo[s]), int(hi[s])
			ld, hd := int(nlo[j]), int(nhi[j])
			a0, a1 := max(ld, ls-st), min(hd, hs-st) // destination entries
			if a0 >= a1 {
				continue
			}
			o := buf[nx][int(off[nx][j])+a0-ld : int(off[nx][j])+a1-ld]
			r := buf[cur][int(off[cur][s])+a0+st-ls:]
			r = r[:len(o)]
			vm := valid[ship][a0:a1]
			vm = vm[:len(o)]
			var cy uint64
			for k, y := range r {
				o[k], cy = bits.Add64(o[k], y&vm[k], 0)
				ov |= cy
			}
		}
		cur, lo, hi = nx, nlo, nhi
	}
	// The top profiles (J(s), added to its representative's values).
	for s, f := range g.final {
		if f < 0 {
			continue
		}
		p := int(f >> 1)
		ls, hs := int(lo[s]), int(hi[s])
		ld, hd := int(out.lo[p]), int(out.hi[p])
		a0, a1 := max(ls, ld), min(hs, hd)
		if a0 >= a1 {
			continue
		}
		o := out.span(p)[a0-ld : a1-ld]
		r := buf[cur][int(off[cur][s])+a0-ls:]
		r = r[:len(o)]
		var cy uint64
		for k, y := range r {
			if f&1 == 1 {
				ov |= y >> 63
				y <<= 1
			}
			o[k], cy = bits.Add64(o[k], y, 0)
			ov |= cy
		}
	}
	return ov
}

// maskSpansInto returns the span [lo, hi) of each mask of pw words (lo =
// hi = 0 for an empty one), in lo and hi's memory.
func maskSpansInto(masks []uint64, pw int, lo, hi []int32) ([]int32, []int32) {
	n := len(masks) / pw
	lo, hi = grow(lo, n, 0), grow(hi, n, 0)
	for i := range n {
		f, l := -1, -1
		for q, x := range masks[i*pw : (i+1)*pw] {
			if x == 0 {
				continue
			}
			if f < 0 {
				f = q<<6 + bits.TrailingZeros64(x)
			}
			l = q<<6 + 63 - bits.LeadingZeros64(x)
		}
		lo[i], hi[i] = 0, 0
		if f >= 0 {
			lo[i], hi[i] = int32(f), int32(l+1)
		}
	}
	return lo, hi
}
