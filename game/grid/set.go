package grid

import (
	"iter"
	"math/bits"
	"strconv"
	"strings"
)

// Set is a set of cells, a fixed 256-bit bitset. The zero value is empty.
// Sets are values: operations return new sets and never allocate.
type Set [MaxCells / 64]uint64

// Full returns the set {0, ..., n-1}.
func Full(n int) Set {
	var s Set
	for i := 0; i < len(s) && n > 0; i++ {
		if n >= 64 {
			s[i] = ^uint64(0)
			n -= 64
		} else {
			s[i] = 1<<uint(n) - 1
			n = 0
		}
	}
	return s
}

// Of returns the set of the given cells.
func Of(cells ...Cell) Set {
	var s Set
	for _, c := range cells {
		s.Add(c)
	}
	return s
}

// Has reports whether c is in s.
func (s Set) Has(c Cell) bool { return s[c>>6]&(1<<(uint(c)&63)) != 0 }

// Add puts c into s.
func (s *Set) Add(c Cell) { s[c>>6] |= 1 << (uint(c) & 63) }

// Remove takes c out of s.
func (s *Set) Remove(c Cell) { s[c>>6] &^= 1 << (uint(c) & 63) }

// Union is s ∪ t.
func (s Set) Union(t Set) Set {
	return Set{s[0] | t[0], s[1] | t[1], s[2] | t[2], s[3] | t[3]}
}

// Intersect is s ∩ t.
func (s Set) Intersect(t Set) Set {
	return Set{s[0] & t[0], s[1] & t[1], s[2] & t[2], s[3] & t[3]}
}

// AndNot is s \ t.
func (s Set) AndNot(t Set) Set {
	return Set{s[0] &^ t[0], s[1] &^ t[1], s[2] &^ t[2], s[3] &^ t[3]}
}

// Intersects reports whether s ∩ t is not empty.
func (s Set) Intersects(t Set) bool {
	return s[0]&t[0]|s[1]&t[1]|s[2]&t[2]|s[3]&t[3] != 0
}

// Empty reports whether s has no cells.
func (s Set) Empty() bool { return s[0]|s[1]|s[2]|s[3] == 0 }

// Count is the number of cells in s.
func (s Set) Count() int {
	return bits.OnesCount64(s[0]) + bits.OnesCount64(s[1]) + bits.OnesCount64(s[2]) + bits.OnesCount64(s[3])
}

// First returns the smallest cell of s, or None when s is empty.
func (s Set) First() Cell {
	for i, w := range s {
		if w != 0 {
			return Cell(i*64 + bits.TrailingZeros64(w))
		}
	}
	return None
}

// Nth returns the k-th smallest cell of s (k from 0), or None when k >= Count.
// With a uniform k it is a uniform choice from s.
func (s Set) Nth(k int) Cell {
	for i, w := range s {
		n := bits.OnesCount64(w)
		if k >= n {
			k -= n
			continue
		}
		for ; k > 0; k-- {
			w &= w - 1
		}
		return Cell(i*64 + bits.TrailingZeros64(w))
	}
	return None
}

// All iterates over the cells of s in increasing order.
func (s Set) All() iter.Seq[Cell] {
	return func(yield func(Cell) bool) {
		for i, w := range s {
			for w != 0 {
				c := Cell(i*64 + bits.TrailingZeros64(w))
				if !yield(c) {
					return
				}
				w &= w - 1
			}
		}
	}
}

// Cells lists the cells of s in increasing order.
func (s Set) Cells() []Cell {
	out := make([]Cell, 0, s.Count())
	for c := range s.All() {
		out = append(out, c)
	}
	return out
}

// String formats s as {1 5 7}.
func (s Set) String() string {
	var sb strings.Builder
	sb.WriteByte('{')
	first := true
	for c := range s.All() {
		if !first {
			sb.WriteByte(' ')
		}
		first = false
		sb.WriteString(strconv.Itoa(int(c)))
	}
	sb.WriteByte('}')
	return sb.String()
}
