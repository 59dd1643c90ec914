package battleship

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/kaisen-ai/kaisen/game/grid"
)

// Name is the game's name: the --game value, a replay header's "game" and a
// server listener's game (package games lists every game).
const Name = "battleship"

// MaxShips is the largest fleet a Rules may declare.
const MaxShips = 64

// MaxShipLen is the longest ship a Rules may declare (the counting programme
// keeps a ship's length in one byte of its state key).
const MaxShipLen = 60

// ErrRules reports an invalid rules configuration.
var ErrRules = errors.New("battleship: invalid rules")

// Rules is the configuration of one game: board, fleet and draw limit.
type Rules struct {
	Board *grid.Board
	// Fleet lists the ship lengths, longest first (NewRules sorts them).
	Fleet []int
	// DrawLimit is the number of shots (both sides counted) after which an
	// undecided game is a draw. Only games with repeated shots can get there:
	// without repeats a game lasts at most twice the number of usable cells.
	DrawLimit int
}

// DefaultFleet is the Russian classic fleet: one 4, two 3s, three 2s, four 1s.
func DefaultFleet() []int { return []int{4, 3, 3, 2, 2, 2, 1, 1, 1, 1} }

// DefaultRules are the classic rules: 10x10, the Russian fleet, 400 shots.
func DefaultRules() *Rules {
	r, err := NewRules(grid.MustBoard(10, 10, nil), DefaultFleet())
	if err != nil {
		panic(err) // the defaults are valid
	}
	return r
}

// NewRules builds and validates rules for board and fleet (any order; it is
// sorted longest first). The draw limit is four times the usable cells.
func NewRules(board *grid.Board, fleet []int) (*Rules, error) {
	f := slices.Clone(fleet)
	slices.SortFunc(f, func(a, b int) int { return b - a })
	r := &Rules{Board: board, Fleet: f}
	if board != nil {
		r.DrawLimit = 4 * board.Usable().Count()
	}
	if err := r.Validate(); err != nil {
		return nil, err
	}
	return r, nil
}

// Validate checks the rules for consistency. It does not prove that the
// fleet fits (Count and UniformPlacer find out); it rejects what cannot fit by
// counting cells.
func (r *Rules) Validate() error {
	var errs []error
	if r.Board == nil {
		return fmt.Errorf("%w: no board", ErrRules)
	}
	if len(r.Fleet) == 0 || len(r.Fleet) > MaxShips {
		errs = append(errs, fmt.Errorf("%w: fleet has %d ships, want 1 to %d", ErrRules, len(r.Fleet), MaxShips))
	}
	longest := max(r.Board.Width(), r.Board.Height())
	cells := 0
	for i, l := range r.Fleet {
		if l < 1 || l > MaxShipLen || l > longest {
			errs = append(errs, fmt.Errorf("%w: ship %d has length %d, want 1 to %d", ErrRules, i, l, min(MaxShipLen, longest)))
		}
		if i > 0 && l > r.Fleet[i-1] {
			errs = append(errs, fmt.Errorf("%w: fleet %v is not sorted longest first", ErrRules, r.Fleet))
			break
		}
		cells += l
	}
	if usable := r.Board.Usable().Count(); cells > usable {
		errs = append(errs, fmt.Errorf("%w: the fleet needs %d cells, the board has %d usable", ErrRules, cells, usable))
	}
	if r.DrawLimit < 1 {
		errs = append(errs, fmt.Errorf("%w: draw limit %d must be positive", ErrRules, r.DrawLimit))
	}
	return errors.Join(errs...)
}

// FleetCells is the number of cells the fleet occupies.
func (r *Rules) FleetCells() int {
	n := 0
	for _, l := range r.Fleet {
		n += l
	}
	return n
}

// CountByLength returns how many ships of each length a list of lengths has,
// indexed by length (index 0 unused).
func CountByLength(lengths []int) []int {
	longest := 0
	for _, l := range lengths {
		longest = max(longest, l)
	}
	out := make([]int, longest+1)
	for _, l := range lengths {
		if l > 0 {
			out[l]++
		}
	}
	return out
}

// ParseFleet reads a fleet as a list of lengths ("4,3,3,2,2,2,1,1,1,1") or as
// length:count pairs ("4:1,3:2,2:3,1:4"); the two forms may be mixed. The
// result is sorted longest first.
func ParseFleet(s string) ([]int, error) {
	var out []int
	for item := range strings.SplitSeq(s, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			return nil, fmt.Errorf("battleship: fleet %q: empty item", s)
		}
		lenText, countText, pair := strings.Cut(item, ":")
		l, err := strconv.Atoi(strings.TrimSpace(lenText))
		if err != nil || l < 1 || l > MaxShipLen {
			return nil, fmt.Errorf("battleship: fleet %q: length %q is not a number from 1 to %d", s, lenText, MaxShipLen)
		}
		n := 1
		if pair {
			n, err = strconv.Atoi(strings.TrimSpace(countText))
			if err != nil || n < 1 || n > MaxShips {
				return nil, fmt.Errorf("battleship: fleet %q: count %q is not a number from 1 to %d", s, countText, MaxShips)
			}
		}
		for range n {
			out = append(out, l)
		}
		if len(out) > MaxShips {
			return nil, fmt.Errorf("battleship: fleet %q has more than %d ships", s, MaxShips)
		}
	}
	slices.SortFunc(out, func(a, b int) int { return b - a })
	return out, nil
}

// FormatFleet writes lengths as ParseFleet reads them ("4,3,3,2").
func FormatFleet(lengths []int) string {
	parts := make([]string, len(lengths))
	for i, l := range lengths {
		parts[i] = strconv.Itoa(l)
	}
	return strings.Join(parts, ",")
}

// CellName names c for people as Coord does ("C3"), or as off-board(n).
// The wire's form is WireCoord's [row,col].
func (r *Rules) CellName(c grid.Cell) string { return r.Board.Name(c) }

// Cell returns the cell at row, col and whether it is usable.
func (r *Rules) Cell(row, col int) (grid.Cell, bool) {
	c, ok := r.Board.At(col, row)
	return c, ok && r.Board.IsUsable(c)
}

// RowCol returns the row and column of c.
func (r *Rules) RowCol(c grid.Cell) (row, col int) {
	x, y := r.Board.XY(c)
	return y, x
}
