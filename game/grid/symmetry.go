package grid

// Symmetries returns the symmetries of the board: the rotations and
// reflections of its rectangle that map every usable cell onto a usable
// cell. Each is a permutation s of the cells (s[c] is the image of c; rocks
// map onto rocks), and the identity comes first. A square board without
// rocks has 8, any other rectangle without rocks 4 (the rotations by a
// quarter turn and the diagonal reflections need a square). Chebyshev
// distance, rows, columns and straight lines are preserved by each.
func (b *Board) Symmetries() [][]Cell {
	w, h := b.w, b.h
	maps := [8]func(x, y int) (int, int){
		func(x, y int) (int, int) { return x, y },
		func(x, y int) (int, int) { return w - 1 - x, y },
		func(x, y int) (int, int) { return x, h - 1 - y },
		func(x, y int) (int, int) { return w - 1 - x, h - 1 - y },
		func(x, y int) (int, int) { return y, x },
		func(x, y int) (int, int) { return h - 1 - y, x },
		func(x, y int) (int, int) { return y, w - 1 - x },
		func(x, y int) (int, int) { return h - 1 - y, w - 1 - x },
	}
	var out [][]Cell
	for k, m := range maps {
		if k >= 4 && w != h {
			break
		}
		s := make([]Cell, w*h)
		ok := true
		for c := range s {
			x, y := b.XY(Cell(c))
			nx, ny := m(x, y)
			d := Cell(ny*w + nx)
			if b.IsUsable(Cell(c)) != b.IsUsable(d) {
				ok = false
				break
			}
			s[c] = d
		}
		if ok {
			out = append(out, s)
		}
	}
	return out
}
