package bsbelief

// The numeric passes on spans: the fast path of passes 3 and 4 for one
// limb.
//
// Each profile stores its fleet vector densely over the span of its useful
// entries, [first useful, last useful], instead of compactly (rank in the
// mask). A transition then moves a contiguous run of entries, the overlap of
// the source span shifted by the ship's stride with the destination span,
// in a plain loop with no rank computation; entries whose count of the
// finished length cannot grow are masked out with a table.
//
// The entries of a span that are not useful hold numbers too, but they
// never change a useful one: a useful entry only receives from entries
// that are useful (forward: the source entry a of a transition into useful
// a' has F[a] > 0 only if a is useful, since B[K-a] >= B[K-a'] > 0; when
// F[a] = 0 its value is exactly 0, as every number it was summed from is);
// backward symmetrically. So useful entries hold exactly the numbers of the
// compact passes, and a row-end product F[a]·B[K-a] over the span is 0 on
// entries that are not useful (one of the two numbers is exactly 0). A
// carry is reported only when it happens on a useful entry, so overflow
// restarts, work and budget decisions are those of the compact passes.

import (
	"math/bits"
	"slices"
)

// spanTables holds the per-length validity masks of the span passes:
// valid[l][a] is all ones when entry a can finish one more ship of length
// l, 0 otherwise (l = 0: always).
type spanTables struct {
	valid [][]uint64
}

func (d *counter) newSpanTables() *spanTables {
	st := &spanTables{valid: make([][]uint64, d.L+1)}
	for l := 0; l <= d.L; l++ {
		v := make([]uint64, d.P)
		for a := range d.P {
			if d.valid[l][a>>6]>>(a&63)&1 == 1 {
				v[a] = ^uint64(0)
			}
		}
		st.valid[l] = v
	}
	return st
}

// spanLayer is one boundary's spans and vector: per profile i its useful
// span [lo[i], hi[i]) (lo = hi = 0 when it has no useful entry) and the
// offset off[i] of its values in v (off has one more element: the total).
type spanLayer struct {
	lo, hi, off []int32
	v           []uint64
}

// fill sets l to the spans of boundary t with zero values, reusing l's
// memory.
func (l *spanLayer) fill(d *counter, t int) {
	pw, m := d.pw, d.masks[t]
	n := d.sizes[t]
	l.lo, l.hi, l.off = grow(l.lo, n), grow(l.hi, n), grow(l.off, n+1)
	total := int32(0)
	for i := range n {
		l.off[i] = total
		w := m[i*pw : (i+1)*pw]
		first, last := -1, -1
		for q, x := range w {
			if x == 0 {
				continue
			}
			if first < 0 {
				first = q<<6 + bits.TrailingZeros64(x)
			}
			last = q<<6 + 63 - bits.LeadingZeros64(x)
		}
		l.lo[i], l.hi[i] = 0, 0
		if first >= 0 {
			l.lo[i], l.hi[i] = int32(first), int32(last+1)
			total += int32(last + 1 - first)
		}
	}
	l.off[n] = total
	l.v = grow(l.v, int(total))
	clear(l.v)
}

// grow returns s resized to n, reallocated only when it is too small.
func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n, n+n/4)
	}
	return s[:n]
}

// clone returns a copy of l that owns its memory.
func (l *spanLayer) clone() spanLayer {
	return spanLayer{slices.Clone(l.lo), slices.Clone(l.hi), slices.Clone(l.off), slices.Clone(l.v)}
}

// movedUseful is the number of useful entries a transition with ship l
// moves from source mask ms to destination mask md (the work the compact
// passes charge for it).
func (d *counter) movedUseful(ms, md []uint64, l int) int {
	v := d.valid[l]
	s := 0
	if l > 0 {
		s = d.stride[l]
	}
	ws, bs := s>>6, uint(s&63)
	n := 0
	for q := range ms {
		var e uint64 // md >> s, word q
		if q+ws < len(md) {
			e = md[q+ws] >> bs
			if bs > 0 && q+ws+1 < len(md) {
				e |= md[q+ws+1] << (64 - bs)
			}
		}
		n += bits.OnesCount64(ms[q] & v[q] & e)
	}
	return n
}

func useful(m []uint64, a int) bool { return m[a>>6]>>(a&63)&1 == 1 }

// spanTransfer runs the transitions of cell t on spans: forward it adds
// src's values into dst, backward dst's into src. It returns errOverflow
// when a useful entry overflows, and charges the useful entries moved.
func (d *counter) spanTransfer(t int, st *spanTables, src, dst spanLayer, backward bool) error {
	pw := d.pw
	ms, md := d.masks[t], d.masks[t+1]
	var ov bool
	moved := 0
	for e, x := range d.trans[t] {
		if x == 0 {
			continue
		}
		i, j, ship := e/2, int(x>>6)-1, int(x&63)
		ls, hs, ld, hd := int(src.lo[i]), int(src.hi[i]), int(dst.lo[j]), int(dst.hi[j])
		if ls == hs || ld == hd {
			continue
		}
		s := 0
		if ship > 0 {
			s = d.stride[ship]
		}
		a0, a1 := max(ls, ld-s), min(hs, hd-s) // source entries moved
		if a0 >= a1 {
			continue
		}
		msi, mdj := ms[i*pw:(i+1)*pw], md[j*pw:(j+1)*pw]
		moved += d.movedUseful(msi, mdj, ship)
		vs := src.v[int(src.off[i])+a0-ls : int(src.off[i])+a1-ls]
		vd := dst.v[int(dst.off[j])+a0+s-ld : int(dst.off[j])+a1+s-ld]
		vd = vd[:len(vs)]
		var c uint64
		switch {
		case ship == 0 && !backward:
			for k, y := range vs {
				if vd[k], c = bits.Add64(vd[k], y, 0); c != 0 && useful(mdj, a0+k) {
					ov = true
				}
			}
		case ship == 0:
			for k, y := range vd {
				if vs[k], c = bits.Add64(vs[k], y, 0); c != 0 && useful(msi, a0+k) {
					ov = true
				}
			}
		case !backward:
			vm := st.valid[ship][a0:a1]
			vm = vm[:len(vs)]
			for k, y := range vs {
				if vd[k], c = bits.Add64(vd[k], y&vm[k], 0); c != 0 && useful(mdj, a0+s+k) {
					ov = true
				}
			}
		default:
			vm := st.valid[ship][a0:a1]
			vm = vm[:len(vs)]
			for k, y := range vd {
				if vs[k], c = bits.Add64(vs[k], y&vm[k], 0); c != 0 && useful(msi, a0+k) {
					ov = true
				}
			}
		}
	}
	if ov {
		return errOverflow
	}
	return d.charge(int64(moved) * workPerEntry)
}

// spanForward is pass 3 on spans: F at the row ends (and the last
// boundary), indexed by boundary.
func (d *counter) spanForward(st *spanTables) (map[int]spanLayer, error) {
	n := d.cells()
	out := map[int]spanLayer{}
	var cur, next spanLayer
	cur.fill(d, 0)
	if len(cur.v) > 0 {
		cur.v[0] = 1 // the empty prefix, entry 0 (its span is [0, 1))
	}
	for t := range n {
		if err := d.ctx.Err(); err != nil {
			return nil, err
		}
		d.tick()
		next.fill(d, t+1)
		if err := d.spanTransfer(t, st, cur, next, false); err != nil {
			return nil, err
		}
		cur, next = next, cur
		if _, ok := d.rowEnd(t + 1); ok || t+1 == n {
			out[t+1] = cur.clone()
		}
	}
	return out, nil
}

// spanBackward is pass 4 on spans: B, with combine called at every row
// end with the layer of that boundary.
func (d *counter) spanBackward(st *spanTables, combine func(r int, b spanLayer) error) error {
	n := d.cells()
	var cur, next spanLayer
	next.fill(d, n)
	for i := range d.sizes[n] {
		if next.lo[i] < next.hi[i] { // the only useful entry is K: nothing left to finish
			next.v[next.off[i]] = 1
		}
	}
	for t := n - 1; t >= 0; t-- {
		if err := d.ctx.Err(); err != nil {
			return err
		}
		d.tick()
		cur.fill(d, t)
		if err := d.spanTransfer(t, st, cur, next, true); err != nil {
			return err
		}
		cur, next = next, cur
		if r, ok := d.rowEnd(t); ok {
			if err := combine(r, next); err != nil {
				return err
			}
		}
	}
	return nil
}
