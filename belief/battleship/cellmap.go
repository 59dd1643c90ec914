package bsbelief

// The per-cell map: the forward and backward counts combined at row ends,
// and its text rendering.

import (
	"fmt"
	"math/big"
	"math/bits"
)

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
	d.spanMode = d.m == 1 && !d.compact
	d.half = !d.plain && d.h >= 2 && d.tbSymmetric()
	d.join = d.half && d.spanMode
	if err := d.enumerate(); err != nil {
		return nil, err
	}
	if d.maxWork > 0 && d.spanMode {
		// Pass 2 knows the work of the numeric passes (each moves the
		// entries of every cell once): a count that would not fit stops
		// now, before either starts.
		if d.work+d.sp.numericWorkTo(d.fwdEnd())+d.sp.numericWorkTo(d.bwdStart())+d.joinWork() > d.maxWork {
			return nil, fmt.Errorf("%w: more than %d work units", ErrBudget, d.maxWork)
		}
	} else if d.maxWork > 0 {
		// Each useful entry is moved at least once per numeric pass: stop
		// now if that alone breaks the budget.
		var entries int64
		for t := range d.cells() {
			k := 1 // the backward pass
			if t < d.fwdEnd() {
				k = 2 // and the forward pass
			}
			for _, x := range d.masks[t] {
				entries += int64(k * bits.OnesCount64(x))
			}
		}
		if d.work+entries*workPerEntry > d.maxWork {
			return nil, fmt.Errorf("%w: more than %d work units", ErrBudget, d.maxWork)
		}
	}
	acc := &cellAcc{
		d:          d,
		frameCells: make([]*big.Int, d.w*d.h),
		rowTotals:  make([]*big.Int, d.h),
		fast:       make([]u128, d.w*d.h),
		fastTotals: make([]u128, d.h),
	}
	var total *big.Int
	var err error
	if d.spanMode {
		total, err = d.runSpans(acc)
	} else {
		total, err = d.runCompact(acc)
	}
	if err != nil {
		return nil, err
	}
	return acc.result(total)
}

// checkBackwardBudget is called between the numeric passes, moved being
// the work of the forward one. The backward pass moves exactly the
// entries the forward pass moved, so it would break the budget (a limb
// overflow on the way would only make the count start again, with more
// work still): stop now, as it would at the boundary where it passes the
// budget.
func (d *counter) checkBackwardBudget(moved int64) error {
	if d.maxWork <= 0 || d.work+moved <= d.maxWork {
		return nil
	}
	if err := d.ctx.Err(); err != nil {
		return err
	}
	return fmt.Errorf("%w: more than %d work units", ErrBudget, d.maxWork)
}

// runCompact runs passes 3 and 4 on compact vectors (any number of limbs)
// and returns the total.
func (d *counter) runCompact(acc *cellAcc) (*big.Int, error) {
	n := d.cells()
	keep := func(t int) bool { _, ok := d.rowEnd(t); return ok || t == n }
	var rowF [][]uint64
	m := d.m
	combine := func(r int, b []uint64, off []int32) error {
		f := rowF[(r+1)*d.w]
		for i, k := range d.rowKeys(r) {
			lo, hi := int(off[i]), int(off[i+1])
			if lo == hi {
				continue
			}
			if m == 1 {
				var a u128
				for q := lo; q < hi; q++ {
					h, l := bits.Mul64(f[q], b[q])
					if a.add(u128{h, l}) {
						return errOverflow
					}
				}
				if err := acc.addFast(r, k, a); err != nil {
					return err
				}
				continue
			}
			a := new(big.Int)
			for q := lo; q < hi; q++ {
				a.Add(a, new(big.Int).Mul(limbsBig(f[q*m:(q+1)*m]), limbsBig(b[q*m:(q+1)*m])))
			}
			acc.addBig(r, k, a)
		}
		return nil
	}
	if d.half {
		// The backward pass first, as runSpansHalf: keep its values at the
		// row ends down to the middle, then combine them with the forward
		// values of the rows above.
		R := d.halfRow()
		rowB, rowOff := make([][]uint64, R+1), make([][]int32, R+1)
		_, err := d.backwardValues(false, func(r int, b []uint64, off []int32) error {
			if r <= R {
				rowB[r], rowOff[r] = b, off
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		if rowF, err = d.forwardValues(keep); err != nil {
			return nil, err
		}
		for r := range R + 1 {
			if err := combine(r, rowB[r], rowOff[r]); err != nil {
				return nil, err
			}
		}
		return acc.halfTotal(), nil
	}
	before := d.work
	var err error
	if rowF, err = d.forwardValues(keep); err != nil {
		return nil, err
	}
	// The backward pass moves exactly the entries the forward pass moved.
	if err := d.checkBackwardBudget(d.work - before); err != nil {
		return nil, err
	}
	if _, err := d.backwardValues(false, combine); err != nil {
		return nil, err
	}
	// The total: the count through the last boundary (the all-empty profile).
	total := new(big.Int)
	if last := rowF[n]; len(last) > 0 {
		total = limbsBig(last[:m])
	}
	return total, nil
}

// halfTotal copies the sums of the rows above the middle to the rows
// below it, on a count whose forward pass stopped at the middle
// (counter.half: the board is symmetric top to bottom, so is its map),
// and returns the total, row 0's.
func (a *cellAcc) halfTotal() *big.Int {
	d := a.d
	R, w := d.halfRow(), d.w
	for r := R + 1; r < d.h; r++ {
		m := d.h - 1 - r
		copy(a.fast[r*w:(r+1)*w], a.fast[m*w:(m+1)*w])
		a.fastTotals[r] = a.fastTotals[m]
		for c := range w {
			if v := a.frameCells[m*w+c]; v != nil {
				a.frameCells[r*w+c] = new(big.Int).Set(v)
			}
		}
		if v := a.rowTotals[m]; v != nil {
			a.rowTotals[r] = new(big.Int).Set(v)
		}
	}
	if d.m == 1 {
		return a.fastTotals[0].big()
	}
	if a.rowTotals[0] == nil {
		return new(big.Int)
	}
	return new(big.Int).Set(a.rowTotals[0])
}

// cellAcc accumulates the layouts through each row-end profile into the
// per-cell counts and the row totals: in u128 for one limb, in big.Int
// otherwise.
type cellAcc struct {
	d          *counter
	frameCells []*big.Int
	rowTotals  []*big.Int
	fast       []u128
	fastTotals []u128
}

// reset clears the one-limb sums.
func (a *cellAcc) reset() {
	clear(a.fast)
	clear(a.fastTotals)
}

func (a *cellAcc) addFast(r int, k key, v u128) error {
	d := a.d
	if a.fastTotals[r].add(v) {
		return errOverflow
	}
	for c := range d.w {
		if occupied(k.get(c)) && a.fast[r*d.w+c].add(v) {
			return errOverflow
		}
	}
	return nil
}

func (a *cellAcc) addBig(r int, k key, v *big.Int) {
	d := a.d
	if a.rowTotals[r] == nil {
		a.rowTotals[r] = new(big.Int)
	}
	a.rowTotals[r].Add(a.rowTotals[r], v)
	for c := range d.w {
		if occupied(k.get(c)) {
			if a.frameCells[r*d.w+c] == nil {
				a.frameCells[r*d.w+c] = new(big.Int)
			}
			a.frameCells[r*d.w+c].Add(a.frameCells[r*d.w+c], v)
		}
	}
}

// result assembles the Counts and checks that every row end saw every
// layout once (the row totals agree with the total).
func (a *cellAcc) result(total *big.Int) (*Counts, error) {
	d, m := a.d, a.d.m
	res := &Counts{Total: total, Cells: make([]*big.Int, d.size), States: d.states}
	for i := range res.Cells {
		res.Cells[i] = new(big.Int)
	}
	frame := make([]*big.Int, len(a.frameCells))
	for i := range a.frameCells {
		v := a.frameCells[i]
		if m == 1 {
			v = a.fast[i].big()
		}
		if v == nil {
			v = new(big.Int)
		}
		frame[i] = v
	}
	for i, v := range frame {
		if d.mirror {
			// The representatives' cells and their mirror images, each
			// orbit counted twice (see counter.mirror): halve.
			v = new(big.Int).Add(v, frame[i-i%d.w+d.w-1-i%d.w])
			v.Rsh(v, 1)
		}
		res.Cells[d.orig(i)] = v
	}
	for r := range d.h {
		rt := a.rowTotals[r]
		if m == 1 {
			rt = a.fastTotals[r].big()
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
