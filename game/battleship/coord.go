package battleship

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/kaisen-ai/kaisen/game/grid"
)

// Coordinates for people: a column letter and a row number from 1, "A1"
// being the top left corner (row 0, column 0), as on a paper board. The
// wire and the replays use [row, col] instead.

// latinColumns and cyrillicColumns name the columns: the classic ten
// letters first, then on (й, ё and the signs are left out, as on Russian
// boards); past the alphabet, two letters (AA, AB, ...).
var (
	latinColumns    = []rune("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
	cyrillicColumns = []rune("абвгдежзиклмнопрстуфхцчшщэюя")
)

// ErrCoord is the error of ParseCoord for text that names no usable cell.
var ErrCoord = errors.New("not a cell")

// ColumnName names column x (from 0): A, B, ..., Z, AA, AB, ... (or а, б,
// ..., к, л, ... with cyrillic).
func ColumnName(x int, cyrillic bool) string {
	letters := latinColumns
	if cyrillic {
		letters = cyrillicColumns
	}
	n := len(letters)
	var out []rune
	for x++; x > 0; x = (x - 1) / n {
		out = append([]rune{letters[(x-1)%n]}, out...)
	}
	return string(out)
}

// Coord names c for people: column letters then the row from 1 ("E5").
func (r *Rules) Coord(c grid.Cell, cyrillic bool) string {
	x, y := r.Board.XY(c)
	return ColumnName(x, cyrillic) + strconv.Itoa(y+1)
}

// ParseCoord reads a cell named as Coord names it, in either alphabet and
// either case ("e5", "E5", "д5", "Д5"; spaces around are ignored). Text
// that is not a column and a row, or names a cell off the board or a rock,
// is an error wrapping ErrCoord that says why.
func (r *Rules) ParseCoord(text string) (grid.Cell, error) {
	s := strings.TrimSpace(text)
	i := 0
	for i < len(s) {
		c, size := utf8.DecodeRuneInString(s[i:])
		if !unicode.IsLetter(c) {
			break
		}
		i += size
	}
	letters, digits := s[:i], s[i:]
	if letters == "" || digits == "" {
		return grid.None, fmt.Errorf("%w: %q: want a column letter and a row number, like A1", ErrCoord, text)
	}
	x, err := columnIndex(letters)
	if err != nil {
		return grid.None, fmt.Errorf("%w: %q: %v", ErrCoord, text, err)
	}
	y, err := strconv.Atoi(digits)
	if err != nil || digits[0] == '+' || digits[0] == '-' {
		return grid.None, fmt.Errorf("%w: %q: row %q is not a number", ErrCoord, text, digits)
	}
	b := r.Board
	if x >= b.Width() || y < 1 || y > b.Height() {
		return grid.None, fmt.Errorf("%w: %q is off the %dx%d board (columns %s to %s, rows 1 to %d)", ErrCoord, text,
			b.Width(), b.Height(), ColumnName(0, false), ColumnName(b.Width()-1, false), b.Height())
	}
	c, ok := r.Cell(y-1, x)
	if !ok {
		return grid.None, fmt.Errorf("%w: %q is a rock", ErrCoord, text)
	}
	return c, nil
}

// columnIndex reads column letters of one alphabet, either case, as
// ColumnName writes them.
func columnIndex(letters string) (int, error) {
	var alphabet []rune
	x := 0
	for _, c := range letters {
		c = unicode.ToLower(c)
		k := -1
		for _, a := range [][]rune{latinColumns, cyrillicColumns} {
			for j, l := range a {
				if unicode.ToLower(l) == c {
					if alphabet != nil && &alphabet[0] != &a[0] {
						return 0, fmt.Errorf("column %q mixes alphabets", letters)
					}
					alphabet, k = a, j
				}
			}
		}
		if k < 0 {
			return 0, fmt.Errorf("%q is not a column letter", string(c))
		}
		x = x*len(alphabet) + k + 1
		if x > 1<<20 {
			return 0, fmt.Errorf("column %q is too far", letters)
		}
	}
	return x - 1, nil
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
