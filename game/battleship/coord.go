package battleship

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/kaisen-ai/kaisen/game/grid"
)

// Coordinates for people: a column letter and a row number from 1, "A1"
// being the top left corner (row 0, column 0), as on a paper board (see
// grid.Board.Name). The wire and the replay files use [row,col] instead:
// A1 is [0,0], C2 is [1,2].

// ErrCoord is the error of ParseCoord for text that names no usable cell.
var ErrCoord = grid.ErrName

// ColumnName names column x (from 0): A, B, ..., Z, AA, AB, ... (or а, б,
// ..., к, л, ... with cyrillic).
func ColumnName(x int, cyrillic bool) string { return grid.ColumnName(x, cyrillic) }

// Coord names c for people: column letters then the row from 1 ("E5").
func (r *Rules) Coord(c grid.Cell, cyrillic bool) string {
	x, y := r.Board.XY(c)
	return grid.XYName(x, y, cyrillic)
}

// WireCoord is c as the wire writes it, [row,col] ("[4,2]" for C5).
func (r *Rules) WireCoord(c grid.Cell) string {
	x, y := r.Board.XY(c)
	return fmt.Sprintf("[%d,%d]", y, x)
}

// ParseCoord reads a cell named as Coord names it, in either alphabet and
// either case ("e5", "E5", "д5", "Д5"; spaces around are ignored), or in
// the wire's [row,col] form ("[4,4]", "4,4"). Text that is not a cell,
// or names a cell off the board or a rock, is an error wrapping ErrCoord
// that says why.
func (r *Rules) ParseCoord(text string) (grid.Cell, error) {
	s := strings.TrimSpace(text)
	if t := strings.TrimLeft(s, "[ "); t == "" || t[0] < '0' || t[0] > '9' {
		return r.Board.ParseName(text)
	}
	fields := strings.FieldsFunc(s, func(c rune) bool { return c == ' ' || c == ',' || c == '[' || c == ']' || c == '\t' })
	if len(fields) != 2 {
		return grid.None, fmt.Errorf("%w: %q: want a column letter and a row number, like A1 (or the wire's [row,col])", ErrCoord, text)
	}
	var rc [2]int
	for i, f := range fields {
		n, err := strconv.Atoi(f)
		if err != nil {
			return grid.None, fmt.Errorf("%w: %q: %q is not a number", ErrCoord, text, f)
		}
		rc[i] = n
	}
	b := r.Board
	if rc[0] < 0 || rc[1] < 0 || rc[0] >= b.Height() || rc[1] >= b.Width() {
		return grid.None, fmt.Errorf("%w: %q is off the %dx%d board (rows 0 to %d, columns 0 to %d)", ErrCoord, text,
			b.Width(), b.Height(), b.Height()-1, b.Width()-1)
	}
	c, ok := r.Cell(rc[0], rc[1])
	if !ok {
		return grid.None, fmt.Errorf("%w: %q (%s) is a rock", ErrCoord, text, r.Coord(c, false))
	}
	return c, nil
}

// ShipCoord names a ship by its end cells for people: "B2-B4", or "A8"
// for a 1-cell ship.
func (r *Rules) ShipCoord(s Ship, cyrillic bool) string {
	if len(s) == 0 {
		return "(no cells)"
	}
	lo, hi := slices.Min(s), slices.Max(s)
	if lo == hi {
		return r.Coord(lo, cyrillic)
	}
	return r.Coord(lo, cyrillic) + "-" + r.Coord(hi, cyrillic)
}

// ParseShipCoord reads a ship named as ShipCoord names it: its end cells
// joined by "-" ("B2-B4", "B4-B2"), or one cell for a 1-cell ship. The
// ends must share a row or a column; the ship is every cell between them.
// Errors wrap ErrCoord.
func (r *Rules) ParseShipCoord(text string) (Ship, error) {
	a, b, two := strings.Cut(text, "-")
	from, err := r.ParseCoord(a)
	if err != nil {
		return nil, err
	}
	if !two {
		return Ship{from}, nil
	}
	to, err := r.ParseCoord(b)
	if err != nil {
		return nil, err
	}
	x0, y0 := r.Board.XY(from)
	x1, y1 := r.Board.XY(to)
	if x0 != x1 && y0 != y1 {
		return nil, fmt.Errorf("%w: %q: a ship's ends share a row or a column", ErrCoord, text)
	}
	if n := max(x1-x0, x0-x1, y1-y0, y0-y1) + 1; n > MaxShipLen {
		return nil, fmt.Errorf("%w: %q: %d cells, the longest ship has %d", ErrCoord, text, n, MaxShipLen)
	}
	dx, dy := sign(x1-x0), sign(y1-y0)
	var s Ship
	for x, y := x0, y0; ; x, y = x+dx, y+dy {
		c, ok := r.Cell(y, x)
		if !ok {
			return nil, fmt.Errorf("%w: %q crosses the rock %s", ErrCoord, text, r.Coord(c, false))
		}
		s = append(s, c)
		if x == x1 && y == y1 {
			return s, nil
		}
	}
}

func sign(v int) int {
	switch {
	case v < 0:
		return -1
	case v > 0:
		return 1
	}
	return 0
}
