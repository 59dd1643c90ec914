package battleship

import (
	"bufio"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/kaisen-ai/kaisen/game/grid"
)

// Mark is what a shooter knows about one cell of the enemy board.
type Mark uint8

// Cell marks, with their characters in the text format.
const (
	Unknown Mark = iota // '.' not shot
	Water               // 'o' shot, missed
	Damaged             // 'x' shot, hit, ship not (known to be) sunk
	Sunk                // '#' a cell of a sunk ship
	Rock                // '-' not part of the board
)

// Char is the mark's character in the text format.
func (m Mark) Char() byte {
	switch m {
	case Unknown:
		return '.'
	case Water:
		return 'o'
	case Damaged:
		return 'x'
	case Sunk:
		return '#'
	default:
		return '-'
	}
}

// ErrPosition reports a position text or a position that contradicts the rules.
var ErrPosition = errors.New("battleship: invalid position")

// Position is everything a shooter knows: the rules (board, full fleet) and a
// mark per cell. Sunk ships are the 4-connected groups of Sunk cells (ships
// never touch, so the groups are exactly the ships).
type Position struct {
	Rules *Rules
	Marks []Mark // by cell index; rocks are Rock
}

// NewPosition is the start of a game: every usable cell Unknown.
func NewPosition(r *Rules) *Position {
	p := &Position{Rules: r, Marks: make([]Mark, r.Board.Size())}
	for _, c := range r.Board.Rocks() {
		p.Marks[c] = Rock
	}
	return p
}

// Clone returns an independent copy (the rules are shared).
func (p *Position) Clone() *Position {
	return &Position{Rules: p.Rules, Marks: slices.Clone(p.Marks)}
}

// Record applies the answer to one of the shooter's own legal shots.
func (p *Position) Record(res Result) {
	if !p.Rules.Board.IsUsable(res.At) {
		return
	}
	switch res.Outcome {
	case Miss:
		if p.Marks[res.At] == Unknown {
			p.Marks[res.At] = Water
		}
	case Hit:
		if p.Marks[res.At] != Sunk {
			p.Marks[res.At] = Damaged
		}
	case Kill:
		p.Marks[res.At] = Sunk
		for _, c := range res.Sunk {
			if p.Rules.Board.IsUsable(c) {
				p.Marks[c] = Sunk
			}
		}
	}
}

// Set returns the set of cells with mark m.
func (p *Position) Set(m Mark) grid.Set {
	var s grid.Set
	for c, mk := range p.Marks {
		if mk == m {
			s.Add(grid.Cell(c))
		}
	}
	return s
}

// SunkShips lists the sunk ships (groups of Sunk cells).
func (p *Position) SunkShips() Placement { return ShipsOf(p.Rules.Board, p.Set(Sunk)) }

// Remaining returns the lengths of the ships not yet sunk, longest first, and
// checks that the sunk ships agree with the rules: straight, of a length the
// fleet still has, not touching each other or a damaged cell.
func (p *Position) Remaining() ([]int, error) {
	b := p.Rules.Board
	if len(p.Marks) != b.Size() {
		return nil, fmt.Errorf("%w: %d marks for a board of %d cells", ErrPosition, len(p.Marks), b.Size())
	}
	var errs []error
	for c, m := range p.Marks {
		if (m == Rock) != !b.IsUsable(grid.Cell(c)) {
			errs = append(errs, fmt.Errorf("%w: cell %s: mark %q disagrees with the board shape", ErrPosition, p.Rules.CellName(grid.Cell(c)), m.Char()))
		}
	}
	left := CountByLength(p.Rules.Fleet)
	sunk := p.Set(Sunk)
	for _, s := range p.SunkShips() {
		name := p.Rules.shipName(s)
		if !straight(b, s) {
			errs = append(errs, fmt.Errorf("%w: sunk ship %s is not straight", ErrPosition, name))
			continue
		}
		if len(s) >= len(left) || left[len(s)] == 0 {
			errs = append(errs, fmt.Errorf("%w: sunk ship %s has length %d, and no such ship is left in the fleet", ErrPosition, name, len(s)))
			continue
		}
		left[len(s)]--
		var own grid.Set
		for _, c := range s {
			own.Add(c)
		}
		for _, c := range s {
			for n := range b.Around(c).All() {
				switch {
				case p.Marks[n] == Damaged:
					errs = append(errs, fmt.Errorf("%w: hit %s touches sunk ship %s", ErrPosition, p.Rules.CellName(n), name))
				case sunk.Has(n) && !own.Has(n):
					errs = append(errs, fmt.Errorf("%w: sunk ship %s touches another sunk ship at %s", ErrPosition, name, p.Rules.CellName(n)))
				}
			}
		}
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	var out []int
	for l := len(left) - 1; l >= 1; l-- {
		for range left[l] {
			out = append(out, l)
		}
	}
	return out, nil
}

// String renders the marks as rows of characters, one row per line.
func (p *Position) String() string {
	var sb strings.Builder
	w := p.Rules.Board.Width()
	for i, m := range p.Marks {
		sb.WriteByte(m.Char())
		if i%w == w-1 {
			sb.WriteByte('\n')
		}
	}
	return sb.String()
}

// Text renders the position in the format ParsePosition reads: a fleet line,
// then the rows.
func (p *Position) Text() string {
	return "fleet: " + FormatFleet(p.Rules.Fleet) + "\n" + p.String()
}

// maxPositionText bounds the input ParsePosition accepts.
const maxPositionText = 1 << 16

// ParsePosition reads a position:
//
//	// comment lines start with // (blank lines are ignored too)
//	fleet: 4,3,3,2,2,2,1,1,1,1     optional; otherwise fleet (nil = Russian)
//	..........                      one line per row: . unknown, o miss,
//	..o..x....                      x hit, # sunk, - not part of the board
//
// Spaces and tabs inside a row are ignored; o, x are accepted in upper case.
// The board's size and shape come from the rows.
func ParsePosition(text string, fleet []int) (*Position, error) {
	if len(text) > maxPositionText {
		return nil, fmt.Errorf("%w: text is longer than %d bytes", ErrPosition, maxPositionText)
	}
	if fleet == nil {
		fleet = DefaultFleet()
	}
	var rows []string
	sc := bufio.NewScanner(strings.NewReader(text))
	sc.Buffer(make([]byte, 0, 4096), maxPositionText+1)
	line := 0
	for sc.Scan() {
		line++
		s := strings.TrimSpace(sc.Text())
		switch {
		case s == "" || strings.HasPrefix(s, "//"):
			continue
		case strings.HasPrefix(s, "fleet:"):
			if len(rows) > 0 {
				return nil, fmt.Errorf("%w: line %d: the fleet line must come before the rows", ErrPosition, line)
			}
			f, err := ParseFleet(strings.TrimSpace(strings.TrimPrefix(s, "fleet:")))
			if err != nil {
				return nil, fmt.Errorf("%w: line %d: %w", ErrPosition, line, err)
			}
			fleet = f
			continue
		}
		row := strings.Map(func(r rune) rune {
			if r == ' ' || r == '\t' {
				return -1
			}
			return r
		}, s)
		for i := 0; i < len(row); i++ {
			if !strings.ContainsRune(".oOxX#-", rune(row[i])) {
				return nil, fmt.Errorf("%w: line %d: %q is not one of . o x # -", ErrPosition, line, row[i:i+1])
			}
		}
		if len(rows) > 0 && len(row) != len(rows[0]) {
			return nil, fmt.Errorf("%w: line %d: row has %d cells, the first row has %d", ErrPosition, line, len(row), len(rows[0]))
		}
		rows = append(rows, row)
		if len(rows)*len(row) > grid.MaxCells {
			return nil, fmt.Errorf("%w: more than %d cells", ErrPosition, grid.MaxCells)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrPosition, err)
	}
	if len(rows) == 0 {
		return nil, fmt.Errorf("%w: no rows", ErrPosition)
	}
	w := len(rows[0])
	var rocks []grid.Cell
	marks := make([]Mark, 0, w*len(rows))
	for y, row := range rows {
		for x := range w {
			var m Mark
			switch row[x] {
			case '.':
				m = Unknown
			case 'o', 'O':
				m = Water
			case 'x', 'X':
				m = Damaged
			case '#':
				m = Sunk
			default:
				m = Rock
				rocks = append(rocks, grid.Cell(y*w+x))
			}
			marks = append(marks, m)
		}
	}
	b, err := grid.NewBoard(w, len(rows), rocks)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrPosition, err)
	}
	r, err := NewRules(b, fleet)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrPosition, err)
	}
	return &Position{Rules: r, Marks: marks}, nil
}
