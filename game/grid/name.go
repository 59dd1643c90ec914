package grid

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Cell names for people: a column letter and a row number from 1, "A1"
// being the top left corner (x 0, y 0), as on a paper board. Every game
// names cells this way wherever a person reads or types one; each wire
// keeps its own form (the submarine's [x,y], Battleship's [row,col]).

// latinColumns and cyrillicColumns name the columns: the classic ten
// letters first, then on (й, ё and the signs are left out, as on Russian
// boards); past the alphabet, two letters (AA, AB, ...).
var (
	latinColumns    = []rune("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
	cyrillicColumns = []rune("абвгдежзиклмнопрстуфхцчшщэюя")
)

// ErrName is the error of ParseName for text that names no usable cell.
var ErrName = errors.New("not a cell")

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

// XYName names the cell at x, y for people: column letters then the row
// from 1 ("E5" for x 4, y 4).
func XYName(x, y int, cyrillic bool) string {
	return ColumnName(x, cyrillic) + strconv.Itoa(y+1)
}

// Name names c for people ("E5"), or "off-board(n)" when c is not a cell
// of b.
func (b *Board) Name(c Cell) string {
	if c < 0 || int(c) >= b.Size() {
		return fmt.Sprintf("off-board(%d)", int(c))
	}
	x, y := b.XY(c)
	return XYName(x, y, false)
}

// ParseName reads a cell named as Name names it, in either alphabet and
// either case ("e5", "E5", "д5", "Д5"; spaces around are ignored). Text
// that is not a column and a row, or names a cell off the board or a rock,
// is an error wrapping ErrName that says why.
func (b *Board) ParseName(text string) (Cell, error) {
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
		return None, fmt.Errorf("%w: %q: want a column letter and a row number, like A1", ErrName, text)
	}
	x, err := columnIndex(letters)
	if err != nil {
		return None, fmt.Errorf("%w: %q: %v", ErrName, text, err)
	}
	y, err := strconv.Atoi(digits)
	if err != nil || digits[0] == '+' || digits[0] == '-' {
		return None, fmt.Errorf("%w: %q: row %q is not a number", ErrName, text, digits)
	}
	if x >= b.Width() || y < 1 || y > b.Height() {
		return None, fmt.Errorf("%w: %q is off the %dx%d board (columns %s to %s, rows 1 to %d)", ErrName, text,
			b.Width(), b.Height(), ColumnName(0, false), ColumnName(b.Width()-1, false), b.Height())
	}
	c, _ := b.At(x, y-1)
	if !b.IsUsable(c) {
		return None, fmt.Errorf("%w: %q is a rock", ErrName, text)
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
