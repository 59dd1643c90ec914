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
// carry on any entry restarts the count with more limbs (on the compact
// passes): results stay exact, only the work can differ from theirs, and
// only on boards whose counts come near 2^64. The work charged is the
// compact passes' (the useful entries moved, recorded by pass 2), so
// budget decisions are theirs.

import (
	"errors"
	"math/big"
	"math/bits"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
)

// spanPlan is what the span passes need from pass 2, recorded as it
// walks back: the spans of every boundary (first and last useful entry;
// first > last when there is none), the work each cell charges (the useful
// entries its transitions move, as the compact passes count them), and the
// per-length validity masks: valid[l][a] is
// all ones when entry a can finish one more ship of length l, 0 otherwise
// (l = 0: always).
type spanPlan struct {
	first, last [][]uint16 // per boundary, per profile
	work        []int64    // per cell
	valid       [][]uint64
	maxProfiles int // profiles of the largest boundary
	maxValues   int // span values of the largest boundary
}

func newSpanPlan(d *counter) *spanPlan {
	n := d.cells()
	sp := &spanPlan{
		first: make([][]uint16, n+1), last: make([][]uint16, n+1),
		work: make([]int64, n), valid: make([][]uint64, d.L+1),
	}
	for l := 0; l <= d.L; l++ {
		v := make([]uint64, d.P)
		for a := range d.P {
			if d.valid[l][a>>6]>>(a&63)&1 == 1 {
				v[a] = ^uint64(0)
			}
		}
		sp.valid[l] = v
	}
	return sp
}

// numericWork is the work one numeric pass over every cell charges.
func (sp *spanPlan) numericWork() int64 { return sp.numericWorkTo(len(sp.work)) }

// numericWorkTo is the work of cells 0..n-1.
func (sp *spanPlan) numericWorkTo(n int) int64 {
	var w int64
	for _, x := range sp.work[:n] {
		w += x * workPerEntry
	}
	return w
}

// record notes the spans of boundary t and, below the last boundary, the
// work of cell t, from the masks of t and t+1.
func (sp *spanPlan) record(d *counter, t int) {
	sp.begin(d, t)
	values, moved := sp.recordRange(d, t, 0, d.sizes[t])
	sp.end(d, t, values, moved)
}

// begin makes room for the spans of boundary t.
func (sp *spanPlan) begin(d *counter, t int) {
	n := d.sizes[t]
	sp.first[t], sp.last[t] = make([]uint16, n), make([]uint16, n)
}

// end notes the totals of boundary t's ranges.
func (sp *spanPlan) end(d *counter, t, values, moved int) {
	sp.maxProfiles, sp.maxValues = max(sp.maxProfiles, d.sizes[t]), max(sp.maxValues, values)
	if t < d.enumEnd() {
		sp.work[t] = int64(moved)
	}
}

// recordRange records the spans of profiles lo..hi-1 of boundary t and
// returns their span values and the useful entries their transitions move.
func (sp *spanPlan) recordRange(d *counter, t, lo, hi int) (values, moved int) {
	pw, m := d.pw, d.masks[t]
	first, last := sp.first[t], sp.last[t]
	for i := lo; i < hi; i++ {
		w := m[i*pw : (i+1)*pw]
		f, l := 1, 0 // none
		for q, x := range w {
			if x == 0 {
				continue
			}
			if f > l {
				f = q<<6 + bits.TrailingZeros64(x)
			}
			l = q<<6 + 63 - bits.LeadingZeros64(x)
		}
		first[i], last[i] = uint16(f), uint16(l)
		if f <= l {
			values += l + 1 - f
		}
	}
	if t == d.enumEnd() {
		return values, 0
	}
	ms, md := m, d.masks[t+1]
	tr := d.trans[t]
	for e := 2 * lo; e < 2*hi; e++ {
		x := tr[e]
		if x == 0 {
			continue
		}
		i, j, ship := e/2, int(x>>6)-1, int(x&63)
		moved += d.movedUseful(ms[i*pw:(i+1)*pw], md[j*pw:(j+1)*pw], ship)
	}
	return values, moved
}

// spanLayer is one boundary's spans and vector: per profile i its useful
// span [lo[i], hi[i]) (lo = hi = 0 when it has no useful entry) and the
// offset off[i] of its values in v (off has one more element: the total).
//
// The values are not cleared when the layer is filled: the first
// transition that writes a profile's span (stamp[i] == epoch once one has)
// stores its values and zeroes the rest of the span, the next ones add. A
// profile that no transition writes keeps stale values: in the forward
// pass it has no useful entry (the transition that brings a useful entry
// its count writes it) and its values are never read where they matter
// (see above); the backward pass clears it, as every profile of the layer
// has its two transitions there.
type spanLayer struct {
	lo, hi, off []int32
	v           []uint64
	stamp       []uint32
	epoch       uint32
}

// fill sets l to the spans of boundary t, reusing l's memory; the values
// are left to the passes to clear.
func (l *spanLayer) fill(d *counter, t int) {
	first, last := d.sp.first[t], d.sp.last[t]
	n := d.sizes[t]
	mp := d.sp.maxProfiles
	l.lo, l.hi, l.off = grow(l.lo, n, mp), grow(l.hi, n, mp), grow(l.off, n+1, mp+1)
	total := int32(0)
	for i := range n {
		l.off[i] = total
		l.lo[i], l.hi[i] = 0, 0
		if f, e := int32(first[i]), int32(last[i])+1; f < e {
			l.lo[i], l.hi[i] = f, e
			total += e - f
		}
	}
	l.off[n] = total
	l.v = grow(l.v, int(total), d.sp.maxValues)
	if cap(l.stamp) < n {
		l.stamp = make([]uint32, n, mp) // zero: older than every epoch
	}
	l.stamp = l.stamp[:n]
	l.epoch++
}

// span returns profile i's values.
func (l *spanLayer) span(i int) []uint64 { return l.v[l.off[i]:l.off[i+1]] }

// grow returns s resized to n, reallocated only when it is too small, to
// size c at least (the largest boundary's).
func grow[T any](s []T, n, c int) []T {
	if cap(s) < n {
		return make([]T, n, max(n, c))
	}
	return s[:n]
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

// spanTransfer runs the transitions of cell t on spans: forward it adds
// src's values into dst, backward dst's into src. It returns errOverflow
// when an entry overflows (useful or not: a spurious overflow only makes
// the count start again with more limbs); the caller charges the work.
// A large layer is split over d's workers by the profiles written (the
// destinations forward, the sources backward): each profile's values get
// the same additions in the same order whatever the split.
func (d *counter) spanTransfer(t int, src, dst *spanLayer, backward bool) error {
	w := dst
	if backward {
		w = src
	}
	n := len(w.off) - 1
	var ov uint64
	if k := d.parts(int(w.off[n])); k == 1 {
		ov = d.spanMoves(t, src, dst, backward, 0, n)
	} else {
		ovs := make([]uint64, k)
		runParts(splitRanges(n, k, func(i int) int64 { return int64(w.off[i]) }), func(p, lo, hi int) {
			ovs[p] = d.spanMoves(t, src, dst, backward, lo, hi)
		})
		for _, x := range ovs {
			ov |= x
		}
	}
	if ov != 0 {
		return errOverflow
	}
	return nil
}

// spanMoves runs the transitions of cell t that write profiles lo..hi-1
// (destinations forward, sources backward) and returns the carries.
func (d *counter) spanMoves(t int, src, dst *spanLayer, backward bool, lo, hi int) uint64 {
	valid := d.sp.valid
	var ov uint64
	tr := d.trans[t]
	e0, e1 := 0, len(tr)
	if backward {
		e0, e1 = 2*lo, 2*hi
	}
	for e := e0; e < e1; e++ {
		x := tr[e]
		i := e / 2
		if x != 0 {
			j, ship := int(x>>6)-1, int(x&63)
			if !backward && (j < lo || j >= hi) {
				continue
			}
			ls, hs, ld, hd := int(src.lo[i]), int(src.hi[i]), int(dst.lo[j]), int(dst.hi[j])
			s := 0
			if ship > 0 {
				s = d.stride[ship]
			}
			a0, a1 := max(ls, ld-s), min(hs, hd-s) // source entries moved
			// w is the profile written (forward the destination, backward
			// the source), r the values read, at offset p0 in w.
			wl, w, p0, rl, rw, rp := dst, j, a0+s-ld, src, i, a0-ls
			if backward {
				wl, w, p0, rl, rw, rp = src, i, a0-ls, dst, j, a0+s-ld
			}
			var r []uint64
			if a0 < a1 {
				r = rl.span(rw)[rp : rp+a1-a0]
			}
			ws := wl.span(w)
			first := wl.stamp[w] != wl.epoch
			wl.stamp[w] = wl.epoch
			switch {
			case a0 >= a1:
				if first {
					clear(ws)
				}
			case first: // the first transition to write it: store, and zero the rest
				n := a1 - a0
				clear(ws[:p0])
				clear(ws[p0+n:])
				if ship == 0 {
					copy(ws[p0:p0+n], r[:n])
				} else {
					out, vm := ws[p0:p0+n], valid[ship][a0:a1]
					vm, r = vm[:len(out)], r[:len(out)]
					for k := range out {
						out[k] = r[k] & vm[k]
					}
				}
			case ship == 0:
				out := ws[p0 : p0+a1-a0]
				r = r[:len(out)]
				var c uint64
				for k, y := range r {
					out[k], c = bits.Add64(out[k], y, 0)
					ov |= c
				}
			default:
				out, vm := ws[p0:p0+a1-a0], valid[ship][a0:a1]
				vm, r = vm[:len(out)], r[:len(out)]
				var c uint64
				for k, y := range r {
					out[k], c = bits.Add64(out[k], y&vm[k], 0)
					ov |= c
				}
			}
		}
		if backward && e&1 == 1 && src.stamp[i] != src.epoch {
			clear(src.span(i)) // no transition wrote it
			src.stamp[i] = src.epoch
		}
	}
	return ov
}

// gatherUseful returns the useful entries of layer l at boundary t (a row
// end, whose masks are kept), in mask order, profile after profile, in a
// buffer from bufs.
func (d *counter) gatherUseful(t int, l *spanLayer, bufs *bufPool) []uint64 {
	pw, m := d.pw, d.masks[t]
	n := 0
	for _, x := range m {
		n += bits.OnesCount64(x)
	}
	out := bufs.get(n)[:0]
	for i := range d.sizes[t] {
		base := int(l.off[i]) - int(l.lo[i])
		for q, x := range m[i*pw : (i+1)*pw] {
			for ; x != 0; x &= x - 1 {
				out = append(out, l.v[base+q<<6+bits.TrailingZeros64(x)])
			}
		}
	}
	return out
}

// bufPool keeps the buffers of the row ends' values once combined, for
// the next row ends (safe for concurrent use).
type bufPool struct {
	mu   sync.Mutex
	free [][]uint64
}

// get returns a buffer of n elements, reused when one is large enough.
func (p *bufPool) get(n int) []uint64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	for i, b := range p.free {
		if cap(b) >= n {
			p.free = slices.Delete(p.free, i, i+1)
			return b[:n]
		}
	}
	return make([]uint64, n)
}

// put gives buffers back.
func (p *bufPool) put(bs ...[]uint64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.free = append(p.free, bs...)
}

// spanPass is what a numeric pass on spans calls back: charge with the
// work of each cell, row at each row end with the layer there (a row end
// is the boundary after board row r), and stop, when set, to give up early
// (the other pass failed).
type spanPass struct {
	charge func(units int64) error
	row    func(r int, l *spanLayer) error
	stop   *atomic.Bool
	// mem, when set, holds the two layers the pass works in (the memory
	// of a pass run before it, reused).
	mem *[2]spanLayer
}

// layers returns the two layers a pass works in.
func (p spanPass) layers() (*spanLayer, *spanLayer) {
	if p.mem == nil {
		p.mem = new([2]spanLayer)
	}
	return &p.mem[0], &p.mem[1]
}

// errStopped ends a pass that the other pass's failure made useless.
var errStopped = errors.New("battleship: count: stopped")

func (d *counter) checkPass(p spanPass) error {
	if p.stop != nil && p.stop.Load() {
		return errStopped
	}
	return d.ctx.Err()
}

// spanForward is pass 3 on spans; it returns the layer of its last
// boundary (fwdEnd).
func (d *counter) spanForward(p spanPass) (*spanLayer, error) {
	n := d.fwdEnd()
	cur, next := p.layers()
	cur.fill(d, 0)
	if len(cur.v) > 0 {
		cur.v[0] = 1 // the empty prefix, entry 0 (its span is [0, 1))
	}
	for t := range n {
		if err := d.checkPass(p); err != nil {
			return nil, err
		}
		d.tick()
		next.fill(d, t+1)
		if err := d.spanTransfer(t, cur, next, false); err != nil {
			return nil, err
		}
		if err := p.charge(d.sp.work[t] * workPerEntry); err != nil {
			return nil, err
		}
		cur, next = next, cur
		if r, ok := d.rowEnd(t + 1); ok && r < d.h {
			if err := p.row(r, cur); err != nil {
				return nil, err
			}
		}
	}
	return cur, nil
}

// spanTotal returns the total a forward pass over every cell ends with.
func (d *counter) spanTotal(last *spanLayer) uint64 {
	if len(last.v) > 0 {
		return last.v[0] // the last boundary: one profile, span [K, K+1)
	}
	return 0
}

// spanBackward is pass 4 on spans, from the end of the board.
func (d *counter) spanBackward(p spanPass) error {
	n := d.cells()
	if p.mem == nil {
		p.mem = new([2]spanLayer) // spanBackwardFrom works in the same layers
	}
	_, next := p.layers()
	next.fill(d, n)
	for i := range d.sizes[n] {
		if next.lo[i] < next.hi[i] { // the only useful entry is K: nothing left to finish
			next.v[next.off[i]] = 1
		}
	}
	return d.spanBackwardFrom(p, n)
}

// spanBackwardFrom runs pass 4 on spans from boundary n, whose values are
// in the second of p's layers.
func (d *counter) spanBackwardFrom(p spanPass, n int) error {
	cur, next := p.layers()
	for t := n - 1; t >= 0; t-- {
		if err := d.checkPass(p); err != nil {
			return err
		}
		d.tick()
		cur.fill(d, t)
		if err := d.spanTransfer(t, cur, next, true); err != nil {
			return err
		}
		if err := p.charge(d.sp.work[t] * workPerEntry); err != nil {
			return err
		}
		cur, next = next, cur
		if r, ok := d.rowEnd(t); ok {
			if err := p.row(r, next); err != nil {
				return err
			}
		}
	}
	return nil
}

// combineRow adds the layouts through each profile of row end r to acc:
// f and b are the forward and backward values of the row end's useful
// entries (gatherUseful).
func (d *counter) combineRow(acc *cellAcc, r int, f, b []uint64) error {
	pw, m := d.pw, d.masks[(r+1)*d.w]
	b = b[:len(f)]
	k := 0
	for i, key := range d.rowKeys(r) {
		var a u128
		for _, x := range m[i*pw : (i+1)*pw] {
			for range bits.OnesCount64(x) {
				h, l := bits.Mul64(f[k], b[k])
				k++
				if a.add(u128{h, l}) {
					return errOverflow
				}
			}
		}
		if a != (u128{}) {
			if err := acc.addFast(r, key, a); err != nil {
				return err
			}
		}
	}
	return nil
}

// runSpans runs passes 3 and 4 on spans (one limb) and returns the total:
// at the same time on two goroutines (one after the other on one CPU). A
// row end's values are kept by the pass that reaches it first and combined
// by the other, so rows above the middle keep forward values and rows below
// it backward ones: the same memory as keeping the forward values of every
// row. The work is charged at the end: run has checked that it fits the
// budget.
func (d *counter) runSpans(acc *cellAcc) (*big.Int, error) {
	if d.join {
		return d.runSpansJoin(acc)
	}
	if runtime.GOMAXPROCS(0) < 2 {
		return d.runSpansInTurn(acc)
	}
	var mu sync.Mutex
	var bufs bufPool
	kept := make([][]uint64, d.h)
	meet := func(forward bool) func(r int, l *spanLayer) error {
		return func(r int, l *spanLayer) error {
			g := d.gatherUseful((r+1)*d.w, l, &bufs)
			mu.Lock()
			other := kept[r]
			if other == nil {
				kept[r] = g
				mu.Unlock()
				return nil
			}
			kept[r] = nil
			mu.Unlock()
			defer bufs.put(g, other)
			if forward {
				return d.combineRow(acc, r, g, other)
			}
			return d.combineRow(acc, r, other, g)
		}
	}
	var stop atomic.Bool
	var workB int64
	var errB error
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		errB = d.spanBackward(spanPass{
			charge: func(u int64) error { workB += u; return nil },
			row:    meet(false),
			stop:   &stop,
		})
		if errB != nil {
			stop.Store(true)
		}
	}()
	var workF int64
	last, errF := d.spanForward(spanPass{
		charge: func(u int64) error { workF += u; return nil },
		row:    meet(true),
		stop:   &stop,
	})
	if errF != nil {
		stop.Store(true)
	}
	wg.Wait()
	if errors.Is(errF, errOverflow) || errors.Is(errB, errOverflow) {
		// Where the other pass stopped depends on timing: run the passes in
		// turn, which overflow too, for the work they charge before.
		acc.reset()
		return d.runSpansInTurn(acc)
	}
	for _, err := range []error{errF, errB} {
		if err != nil && !errors.Is(err, errStopped) {
			return nil, err
		}
	}
	if err := d.charge(workF + workB); err != nil {
		return nil, err
	}
	return new(big.Int).SetUint64(d.spanTotal(last)), nil
}

// runSpansJoin runs the passes of a count whose halves are joined (join.go):
// the forward pass over rows 0..J', keeping the values of rows 0..J, the
// numeric join, then the backward pass from row J up, combining as it
// goes. Each charges as it goes (run has checked that they fit the
// budget).
func (d *counter) runSpansJoin(acc *cellAcc) (*big.Int, error) {
	var bufs bufPool
	var mem [2]spanLayer
	R := d.halfRow()
	rowF := make([][]uint64, d.h)
	last, err := d.spanForward(spanPass{
		mem:    &mem,
		charge: d.charge,
		row: func(r int, l *spanLayer) error {
			if r <= R {
				rowF[r] = d.gatherUseful((r+1)*d.w, l, &bufs)
			}
			return nil
		},
	})
	if err != nil {
		return nil, err
	}
	t0, t1 := d.joinBounds()
	if !d.keepAll {
		for t := t0; t < t1; t++ {
			d.trans[t] = nil // walked by the forward pass only
		}
	}
	// The join writes the layer the backward pass starts from: the second
	// of mem, the forward pass's last layer becoming its first.
	if last == &mem[1] {
		mem[0], mem[1] = mem[1], mem[0]
		last = &mem[0]
	}
	if err := d.joinValues(last, &mem[1]); err != nil {
		return nil, err
	}
	d.jp = nil
	// Row J: the join's values, before the backward pass reuses them.
	f, b := rowF[R], d.gatherUseful(t0, &mem[1], &bufs)
	rowF[R] = nil
	err = d.combineRow(acc, R, f, b)
	bufs.put(f, b)
	if err != nil {
		return nil, err
	}
	err = d.spanBackwardFrom(spanPass{
		mem:    &mem,
		charge: d.charge,
		row: func(r int, l *spanLayer) error {
			f, b := rowF[r], d.gatherUseful((r+1)*d.w, l, &bufs)
			rowF[r] = nil
			defer bufs.put(f, b)
			return d.combineRow(acc, r, f, b)
		},
	}, t0)
	if err != nil {
		return nil, err
	}
	return acc.halfTotal(), nil
}

// runSpansInTurn runs the forward pass, keeping the row ends' values, then
// the backward pass, combining as it goes.
func (d *counter) runSpansInTurn(acc *cellAcc) (*big.Int, error) {
	var bufs bufPool
	var mem [2]spanLayer
	rowF := make([][]uint64, d.h)
	last, err := d.spanForward(spanPass{
		mem:    &mem,
		charge: d.charge,
		row: func(r int, l *spanLayer) error {
			rowF[r] = d.gatherUseful((r+1)*d.w, l, &bufs)
			return nil
		},
	})
	if err != nil {
		return nil, err
	}
	total := d.spanTotal(last) // before the backward pass reuses the layer
	if err := d.checkBackwardBudget(d.sp.numericWork()); err != nil {
		return nil, err
	}
	err = d.spanBackward(spanPass{
		mem:    &mem,
		charge: d.charge,
		row: func(r int, l *spanLayer) error {
			f, b := rowF[r], d.gatherUseful((r+1)*d.w, l, &bufs)
			rowF[r] = nil
			defer bufs.put(f, b)
			return d.combineRow(acc, r, f, b)
		},
	})
	if err != nil {
		return nil, err
	}
	return new(big.Int).SetUint64(total), nil
}
