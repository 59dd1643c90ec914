// Package grid is the board geometry shared by every Kaisen game: a width x
// height rectangle with an optional mask of usable cells, cells addressed by one
// index (y*width + x), and sets of cells as fixed-size bitsets so that belief
// updates are word operations.
//
// A Board is immutable once built and safe for concurrent use. It precomputes
// the Chebyshev neighbourhood and the row/column lines of every cell.
package grid

import (
	"errors"
	"fmt"
	"strings"
)

// MaxCells is the largest number of cells a board may have (the capacity of Set).
const MaxCells = 256

// Cell is a cell index: y*width + x. A negative Cell means "no cell".
type Cell int

// None is the "no cell" value.
const None Cell = -1

// ErrBoard reports an invalid board description.
var ErrBoard = errors.New("grid: invalid board")

// Board is the geometry of one game board.
type Board struct {
	w, h   int
	usable Set
	around []Set // Chebyshev distance <= 1, usable cells only, the cell itself included
	row    []Set // usable cells of the cell's row
	col    []Set // usable cells of the cell's column
	lines  []Set // row ∪ col without the cell itself (Lines, on every move generated)
	rocks  []Cell
	byCol  []Cell // usable cells column by column
}

// NewBoard builds a width x height board whose listed cells are rocks (unusable).
func NewBoard(width, height int, rocks []Cell) (*Board, error) {
	if width < 1 || height < 1 {
		return nil, fmt.Errorf("%w: size %dx%d must be at least 1x1", ErrBoard, width, height)
	}
	if width > MaxCells || height > MaxCells || width*height > MaxCells {
		return nil, fmt.Errorf("%w: %dx%d has %d cells, at most %d are supported", ErrBoard, width, height, width*height, MaxCells)
	}
	b := &Board{w: width, h: height}
	n := width * height
	for c := range n {
		b.usable.Add(Cell(c))
	}
	for _, r := range rocks {
		if r < 0 || int(r) >= n {
			return nil, fmt.Errorf("%w: rock %d is off the %dx%d board", ErrBoard, r, width, height)
		}
		b.usable.Remove(r)
	}
	if b.usable.Empty() {
		return nil, fmt.Errorf("%w: every cell is a rock", ErrBoard)
	}
	b.rocks = Full(n).AndNot(b.usable).Cells()
	for x := range width {
		for y := range height {
			if c := Cell(y*width + x); b.usable.Has(c) {
				b.byCol = append(b.byCol, c)
			}
		}
	}
	b.around = make([]Set, n)
	b.row = make([]Set, n)
	b.col = make([]Set, n)
	b.lines = make([]Set, n)
	for c := range n {
		x, y := c%width, c/width
		for dy := -1; dy <= 1; dy++ {
			for dx := -1; dx <= 1; dx++ {
				if nc, ok := b.At(x+dx, y+dy); ok && b.usable.Has(nc) {
					b.around[c].Add(nc)
				}
			}
		}
		for xx := range width {
			if nc := Cell(y*width + xx); b.usable.Has(nc) {
				b.row[c].Add(nc)
			}
		}
		for yy := range height {
			if nc := Cell(yy*width + x); b.usable.Has(nc) {
				b.col[c].Add(nc)
			}
		}
		b.lines[c] = b.row[c].Union(b.col[c])
		b.lines[c].Remove(Cell(c))
	}
	return b, nil
}

// MustBoard is NewBoard for boards known to be valid (tests, defaults); it panics on error.
func MustBoard(width, height int, rocks []Cell) *Board {
	b, err := NewBoard(width, height, rocks)
	if err != nil {
		panic(err)
	}
	return b
}

// Rect returns a plain width x height board without rocks.
func Rect(width, height int) (*Board, error) { return NewBoard(width, height, nil) }

// Rounded returns a width x height board whose four corner cells are rocks
// (the "rounded" field of the 2025 protocol dialect).
func Rounded(width, height int) (*Board, error) {
	if width < 2 || height < 2 {
		return nil, fmt.Errorf("%w: a rounded board needs at least 2x2, got %dx%d", ErrBoard, width, height)
	}
	w, h := width, height
	return NewBoard(w, h, []Cell{0, Cell(w - 1), Cell((h - 1) * w), Cell(h*w - 1)})
}

// ParseShape builds a board from rows of '#' (usable) and '.' (rock). All rows
// must have the same length.
func ParseShape(rows []string) (*Board, error) {
	if len(rows) == 0 {
		return nil, fmt.Errorf("%w: shape has no rows", ErrBoard)
	}
	w := len(rows[0])
	var rocks []Cell
	for y, r := range rows {
		if len(r) != w {
			return nil, fmt.Errorf("%w: shape row %d has %d cells, row 0 has %d", ErrBoard, y, len(r), w)
		}
		for x, ch := range r {
			switch ch {
			case '#':
			case '.':
				rocks = append(rocks, Cell(y*w+x))
			default:
				return nil, fmt.Errorf("%w: shape row %d has %q at column %d (want '#' or '.')", ErrBoard, y, ch, x)
			}
		}
	}
	return NewBoard(w, len(rows), rocks)
}

// Width is the number of columns.
func (b *Board) Width() int { return b.w }

// Height is the number of rows.
func (b *Board) Height() int { return b.h }

// Size is width*height, the number of cell indices (rocks included).
func (b *Board) Size() int { return b.w * b.h }

// Usable is the set of cells that are not rocks.
func (b *Board) Usable() Set { return b.usable }

// ByColumn lists the usable cells column by column (x outer, y inner). The
// slice is the board's own: read it, never change it.
func (b *Board) ByColumn() []Cell { return b.byCol }

// Rocks lists the unusable cells in index order.
func (b *Board) Rocks() []Cell { return append([]Cell(nil), b.rocks...) }

// IsUsable reports whether c is on the board and not a rock.
func (b *Board) IsUsable(c Cell) bool { return c >= 0 && int(c) < b.w*b.h && b.usable.Has(c) }

// At returns the cell at column x, row y, and whether it is on the board
// (rocks count as on the board).
func (b *Board) At(x, y int) (Cell, bool) {
	if x < 0 || y < 0 || x >= b.w || y >= b.h {
		return None, false
	}
	return Cell(y*b.w + x), true
}

// XY returns the column and row of c.
func (b *Board) XY(c Cell) (x, y int) { return int(c) % b.w, int(c) / b.w }

// Around is the set of usable cells within Chebyshev distance 1 of c, c included.
func (b *Board) Around(c Cell) Set { return b.around[c] }

// Row is the set of usable cells in c's row (c included).
func (b *Board) Row(c Cell) Set { return b.row[c] }

// Col is the set of usable cells in c's column (c included).
func (b *Board) Col(c Cell) Set { return b.col[c] }

// Lines is Row(c) ∪ Col(c) without c itself: every destination of a rook-like move.
func (b *Board) Lines(c Cell) Set { return b.lines[c] }

// Chebyshev is the king-move distance between a and b.
func (b *Board) Chebyshev(a, c Cell) int {
	ax, ay := b.XY(a)
	cx, cy := b.XY(c)
	return max(abs(ax-cx), abs(ay-cy))
}

// Shift moves every cell of s by (dx, dy); cells that leave the board or land
// on a rock disappear.
func (b *Board) Shift(s Set, dx, dy int) Set {
	var out Set
	for c := range s.All() {
		x, y := b.XY(c)
		if nc, ok := b.At(x+dx, y+dy); ok && b.usable.Has(nc) {
			out.Add(nc)
		}
	}
	return out
}

// Shape renders the board as rows of '#' (usable) and '.' (rock).
func (b *Board) Shape() []string {
	rows := make([]string, b.h)
	var sb strings.Builder
	for y := range b.h {
		sb.Reset()
		for x := range b.w {
			if b.usable.Has(Cell(y*b.w + x)) {
				sb.WriteByte('#')
			} else {
				sb.WriteByte('.')
			}
		}
		rows[y] = sb.String()
	}
	return rows
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}
