package bsoptimal

import "github.com/kaisen-ai/kaisen/game/grid"

// symmetry is one symmetry of the board as a cell permutation applied to
// masks a byte at a time: img[k][v] is the image of byte k holding v;
// bytes is the number of bytes the board's cells take.
type symmetry struct {
	img   [8][256]uint64
	bytes int
}

func (y *symmetry) apply(m uint64) uint64 {
	var out uint64
	for k := range y.bytes {
		out |= y.img[k][byte(m>>(8*k))]
	}
	return out
}

// symmetries lists the board's symmetries other than the identity that map
// its usable cells onto themselves: the mirror images and the half turn,
// and on a square board the quarter turns and diagonal mirrors too.
func symmetries(b *grid.Board) []symmetry {
	w, h := b.Width(), b.Height()
	maps := []func(x, y int) (int, int){
		func(x, y int) (int, int) { return w - 1 - x, y },
		func(x, y int) (int, int) { return x, h - 1 - y },
		func(x, y int) (int, int) { return w - 1 - x, h - 1 - y },
	}
	if w == h {
		maps = append(maps,
			func(x, y int) (int, int) { return y, x },
			func(x, y int) (int, int) { return w - 1 - y, x },
			func(x, y int) (int, int) { return y, w - 1 - x },
			func(x, y int) (int, int) { return w - 1 - y, h - 1 - x },
		)
	}
	var out []symmetry
next:
	for _, f := range maps {
		perm := make([]int, b.Size())
		for c := range b.Size() {
			x, y := b.XY(grid.Cell(c))
			fx, fy := f(x, y)
			to, _ := b.At(fx, fy)
			if b.IsUsable(grid.Cell(c)) != b.IsUsable(to) {
				continue next // the rocks break this symmetry
			}
			perm[c] = int(to)
		}
		y := symmetry{bytes: (b.Size() + 7) / 8}
		for k := range 8 {
			for v := range 256 {
				for i := range 8 {
					if c := 8*k + i; v&(1<<i) != 0 && c < len(perm) {
						y.img[k][v] |= 1 << uint(perm[c])
					}
				}
			}
		}
		out = append(out, y)
	}
	return out
}

// canonical is the least of the key's images under the symmetries.
func (s *Solver) canonical(k optKey) optKey {
	best := k
	for i := range s.sym {
		y := &s.sym[i]
		img := optKey{y.apply(k.union), y.apply(k.hit), y.apply(k.sunk)}
		if img.union < best.union || img.union == best.union && (img.hit < best.hit || img.hit == best.hit && img.sunk < best.sunk) {
			best = img
		}
	}
	return best
}
