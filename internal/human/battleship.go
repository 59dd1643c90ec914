package human

import (
	"bufio"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	bsbelief "github.com/kaisen-ai/kaisen/belief/battleship"
	"github.com/kaisen-ai/kaisen/game/battleship"
	bsrecord "github.com/kaisen-ai/kaisen/game/battleship/record"
	"github.com/kaisen-ai/kaisen/game/grid"
	bsplayers "github.com/kaisen-ai/kaisen/players/battleship"
	"github.com/kaisen-ai/kaisen/replay"
)

// BattleshipHelp is the Battleship seat's command summary, printed on
// "help" and after a line that is not a command.
const BattleshipHelp = `commands (columns are letters, rows numbers from 1; A1 is the top left):
  E5             shoot at column E, row 5 (Cyrillic letters work too: д5)
  b              show the boards again
  help           this list`

// BattleshipPlacementHelp explains the Battleship placement prompt.
const BattleshipPlacementHelp = `place your fleet: every ship as its end cells, in any order, e.g.
  "A1-D1 F1-H1 J1-J3 A3-B3 D3-E3 G3-H3 A5 C5 E5 G5"
or "r" for a random placement, or a style: edge, human or inner
(ships may not touch, not even at a corner)`

// battleshipLegend explains the seat's boards.
const battleshipLegend = `legend: O your ship, x hit, # sunk ship, o miss, , no ship can be there (next to a sunk ship),
        . unknown water, - rock, [ ] the last shot`

// BattleshipSeat is a Battleship player for a person: Place and Shoot read
// typed lines, Observe reports every shot in words, and each turn shows
// both boards. A typo, a cell off the board or a cell shot before is
// refused with the reason and asked again, never sent. When the input ends
// the seat passes: every later shot repeats a cell shot before (a legal
// shot that earns nothing), so the opponent finishes the game.
type BattleshipSeat struct {
	terminal
	rules *battleship.Rules
	rng   *rand.Rand
	// AfterOpponent, when set, is called after each opponent shot is
	// reported and a non-empty answer printed as "   why: ANSWER". Only
	// kaisen play --reveal-ai sets it (Options.Reveal): the AI's
	// explanation is not a function of what the rules tell the person.
	AfterOpponent func() string

	mine   *battleship.Sea // my fleet under the enemy's fire
	enemy  []byte          // my view of the enemy's waters, one glyph per cell
	sunk   int             // enemy ships sunk
	last   [2]grid.Cell    // the last shot on each board: mine [0], the enemy's [1]
	passed grid.Cell       // the cell repeated once the input ended
}

var _ bsplayers.Player = (*BattleshipSeat)(nil)

// NewBattleship returns a Battleship seat for rules reading lines from in
// and writing to out; rng draws the random placements. The seats of
// successive games share one in.
func NewBattleship(rules *battleship.Rules, in *bufio.Reader, out io.Writer, rng *rand.Rand) *BattleshipSeat {
	h := &BattleshipSeat{terminal: terminal{in: in, out: out}, rules: rules, rng: rng, last: [2]grid.Cell{grid.None, grid.None}, passed: grid.None}
	h.enemy = make([]byte, rules.Board.Size())
	for c := range h.enemy {
		h.enemy[c] = '.'
		if !rules.Board.IsUsable(grid.Cell(c)) {
			h.enemy[c] = '-'
		}
	}
	return h
}

// Place implements bsplayers.Player: it asks for the fleet until it is a
// legal one. At the end of the input it places at random.
func (h *BattleshipSeat) Place() battleship.Placement {
	r := h.rules
	fmt.Fprintf(h.out, "board %dx%d; fleet %s (ship lengths)\n%s\n", r.Board.Width(), r.Board.Height(), battleship.FormatFleet(r.Fleet), BattleshipPlacementHelp)
	for {
		line, ok := h.read("placement> ")
		style := strings.ToLower(line)
		if !ok {
			fmt.Fprintln(h.out, "\n(end of input: a random placement)")
			style = bsbelief.StyleUniform
		}
		if style == "r" || style == "random" {
			style = bsbelief.StyleUniform
		}
		var p battleship.Placement
		if slices.Contains(bsbelief.Styles, style) {
			placer, err := bsbelief.NewStylePlacer(r, style)
			if err == nil {
				p, err = placer.Place(h.rng)
			}
			if err != nil {
				fmt.Fprintf(h.out, "no placement: %v\n", err)
				return nil // the fleet does not fit: the game cannot start
			}
		} else {
			var err error
			if p, err = h.parsePlacement(line); err != nil {
				fmt.Fprintf(h.out, "not a placement: %v\n%s\n", err, BattleshipPlacementHelp)
				continue
			}
		}
		sea, err := battleship.NewSea(r, p)
		if err != nil {
			fmt.Fprintf(h.out, "refused: %v\n", err)
			continue
		}
		h.mine = sea
		names := make([]string, len(p))
		for i, s := range sea.Ships() {
			names[i] = r.ShipCoord(s, false)
		}
		fmt.Fprintf(h.out, "your fleet: %s\n", strings.Join(names, " "))
		return p
	}
}

// parsePlacement reads ships separated by spaces or commas.
func (h *BattleshipSeat) parsePlacement(line string) (battleship.Placement, error) {
	fields := strings.FieldsFunc(line, func(r rune) bool { return r == ' ' || r == ',' || r == '\t' || r == ';' })
	if len(fields) == 0 {
		return nil, fmt.Errorf("no ships")
	}
	p := make(battleship.Placement, 0, len(fields))
	for _, f := range fields {
		s, err := h.rules.ParseShipCoord(f)
		if err != nil {
			return nil, err
		}
		p = append(p, s)
	}
	return p, nil
}

// Shoot implements bsplayers.Player: it shows the boards and asks for a
// cell not shot yet.
func (h *BattleshipSeat) Shoot() grid.Cell {
	if h.eof {
		return h.pass()
	}
	h.boards()
	for {
		line, ok := h.read("shot> ")
		if !ok {
			fmt.Fprintln(h.out, "\n(end of input: you pass every turn from now on; your opponent finishes the game)")
			return h.pass()
		}
		switch strings.ToLower(line) {
		case "":
			continue
		case "b", "board", "boards":
			h.boards()
			continue
		case "help", "?", "h":
			fmt.Fprintln(h.out, BattleshipHelp)
			continue
		}
		c, err := h.rules.ParseCoord(line)
		if err != nil {
			fmt.Fprintf(h.out, "not a shot: %v\n%s\n", err, BattleshipHelp)
			continue
		}
		if g := h.enemy[c]; g != '.' && g != ',' {
			fmt.Fprintf(h.out, "you shot %s before (%s): choose another cell\n", h.rules.Coord(c, false), glyphWord(g))
			continue
		}
		return c
	}
}

// pass returns a cell shot before (the first usable cell when none was):
// a legal shot that earns no extra shot.
func (h *BattleshipSeat) pass() grid.Cell {
	if h.passed == grid.None {
		h.passed = h.rules.Board.Usable().First()
		for c, g := range h.enemy {
			if g != '.' && g != ',' && g != '-' {
				h.passed = grid.Cell(c)
				break
			}
		}
	}
	return h.passed
}

// glyphWord says what an enemy-board glyph records.
func glyphWord(g byte) string {
	switch g {
	case 'o':
		return "a miss"
	case 'x':
		return "a hit"
	default:
		return "a sunk ship"
	}
}

// Observe implements bsplayers.Player: it reports the shot in words and
// keeps the boards.
func (h *BattleshipSeat) Observe(ev battleship.Event) {
	r := h.rules
	who, whose := "you shoot", "the enemy's"
	if !ev.Mine {
		who, whose = "the enemy shoots", "your"
	}
	if ev.Illegal {
		fmt.Fprintf(h.out, "%s off the board: illegal, a forfeit\n", who)
		return
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "%s %s", who, r.Coord(ev.At, false))
	if ev.Repeat {
		sb.WriteString(" again")
	}
	sb.WriteString(": " + ev.Outcome.String())
	if ev.Outcome == battleship.Kill && !ev.Repeat {
		fmt.Fprintf(&sb, ", %s %d-cell ship %s sinks", whose, len(ev.Sunk), r.ShipCoord(ev.Sunk, false))
	}
	if ev.Again {
		sb.WriteString("; shoots again")
	}
	if ev.Mine {
		h.last[0] = ev.At
		h.mark(ev)
	} else {
		h.last[1] = ev.At
		if h.mine != nil && !ev.Repeat {
			_, _ = h.mine.Fire(ev.At) // the defender's own record; the server already answered
		}
	}
	fmt.Fprintln(h.out, sb.String())
	if !ev.Mine && h.AfterOpponent != nil {
		if why := h.AfterOpponent(); why != "" {
			fmt.Fprintf(h.out, "   why: %s\n", why)
		}
	}
}

// mark records my shot's answer on the enemy board: a sunk ship's ring
// becomes "no ship can be there".
func (h *BattleshipSeat) mark(ev battleship.Event) {
	if ev.Repeat {
		return
	}
	switch ev.Outcome {
	case battleship.Miss:
		h.enemy[ev.At] = 'o'
	case battleship.Hit:
		h.enemy[ev.At] = 'x'
	case battleship.Kill:
		h.sunk++
		for _, c := range ev.Sunk {
			h.enemy[c] = '#'
		}
		for _, c := range ev.Sunk {
			for n := range h.rules.Board.Around(c).All() {
				if h.enemy[n] == '.' {
					h.enemy[n] = ','
				}
			}
		}
	}
}

// boards draws my fleet under the enemy's fire beside what I know of the
// enemy's waters.
func (h *BattleshipSeat) boards() {
	b := h.rules.Board
	var left []string
	if h.mine != nil {
		cells := make([]byte, b.Size())
		shot := h.mine.Shot()
		ships := h.mine.Ships()
		for c := range cells {
			cells[c] = '.'
			if !b.IsUsable(grid.Cell(c)) {
				cells[c] = '-'
			} else if shot.Has(grid.Cell(c)) {
				cells[c] = 'o'
			}
		}
		afloat := 0
		for _, s := range ships {
			sunk := true
			for _, c := range s {
				sunk = sunk && shot.Has(c)
			}
			if !sunk {
				afloat++
			}
			for _, c := range s {
				switch {
				case sunk:
					cells[c] = '#'
				case shot.Has(c):
					cells[c] = 'x'
				default:
					cells[c] = 'O'
				}
			}
		}
		left = bsrecord.Board{Title: "your fleet", Cells: cells, Last: h.last[1],
			Status: "afloat " + strconv.Itoa(afloat) + "/" + strconv.Itoa(len(ships))}.Lines(b, false)
	}
	right := bsrecord.Board{Title: "the enemy's waters", Cells: h.enemy, Last: h.last[0],
		Status: fmt.Sprintf("sunk %d/%d", h.sunk, len(h.rules.Fleet))}.Lines(b, false)
	fmt.Fprintln(h.out)
	replay.WriteSideBySide(h.out, left, right)
	fmt.Fprintln(h.out, battleshipLegend)
}
