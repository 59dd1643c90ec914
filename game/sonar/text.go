package sonar

import (
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"github.com/kaisen-ai/kaisen/internal/human"
)

// Text is the game's terminal seat (human.Text): cells typed as a column
// letter and a row number ("b3"), "ping b3" (or "b3") and "move 1 c2"
// (the boat's number, from 1). It knows the seat's own boats and its
// pings, and says nothing else.
type Text struct {
	rules *Rules
	out   io.Writer
	rng   *rand.Rand
	own   []Cell          // the seat's boats (None once sunk)
	pings map[Cell]string // the seat's pings and their echoes
}

var _ human.Text[Placement, Action, Told] = (*Text)(nil)

// NewText returns the Text of a seat of r writing to out; rng draws its
// random placement ("r"). Its seat does not matter: both seats type alike.
func NewText(r *Rules, _ int, out io.Writer, rng *rand.Rand) human.Text[Placement, Action, Told] {
	return &Text{rules: r, out: out, rng: rng, pings: map[Cell]string{}}
}

// textHelp says how to type an action.
const textHelp = `ping a cell: "ping b3" or "b3"; move a boat to a free neighbour: "move 1 c2"; "b": your boats and pings`

// cellName is c as typed ("b3"); None is "-".
func (t *Text) cellName(c Cell) string {
	if !t.rules.on(c) {
		return "-"
	}
	return fmt.Sprintf("%c%d", 'a'+int(c)%t.rules.Width, int(c)/t.rules.Width+1)
}

// cell reads a typed cell.
func (t *Text) cell(s string) (Cell, error) {
	r := t.rules
	if len(s) < 2 || s[0] < 'a' || int(s[0]-'a') >= r.Width {
		return None, fmt.Errorf("%q is not a cell of the %dx%d sea (e.g. \"b3\")", s, r.Width, r.Height)
	}
	row, err := strconv.Atoi(s[1:])
	if err != nil || row < 1 || row > r.Height {
		return None, fmt.Errorf("%q is not a cell of the %dx%d sea (e.g. \"b3\")", s, r.Width, r.Height)
	}
	return Cell((row-1)*r.Width + int(s[0]-'a')), nil
}

// Intro implements human.Text.
func (t *Text) Intro() {
	fmt.Fprintf(t.out, "sea %dx%d, %d boats each; place them: one cell per boat (e.g. %q), or \"r\"\n",
		t.rules.Width, t.rules.Height, t.rules.Boats, strings.Join([]string{"a1", "c3", "d2", "b4"}[:t.rules.Boats], " "))
}

// Place implements human.Text: a cell per boat, or "r"; the end of the
// input places nothing (a forfeit).
func (t *Text) Place(line string, eof bool) (Placement, bool) {
	if eof {
		fmt.Fprintln(t.out, "\n(end of input: resigning)")
		return nil, true
	}
	var p Placement
	if l := strings.ToLower(line); l == "r" || l == "random" {
		for _, c := range t.rng.Perm(t.rules.Cells())[:t.rules.Boats] {
			p = append(p, Cell(c))
		}
	} else {
		for _, f := range strings.Fields(l) {
			c, err := t.cell(f)
			if err != nil {
				fmt.Fprintf(t.out, "not a placement: %v\n", err)
				return nil, false
			}
			p = append(p, c)
		}
	}
	if err := t.rules.ValidatePlacement(p); err != nil {
		fmt.Fprintf(t.out, "refused: %v\n", err)
		return nil, false
	}
	t.own = append([]Cell(nil), p...)
	fmt.Fprintf(t.out, "your boats: %s\n", t.PlaceLine(p))
	return p, true
}

// Turn implements human.Text.
func (t *Text) Turn() string {
	t.boards()
	return "sonar> "
}

// boards says the seat's boats and pings.
func (t *Text) boards() {
	var pings []string
	for c := range Cell(t.rules.Cells()) {
		if e, ok := t.pings[c]; ok {
			pings = append(pings, t.cellName(c)+" "+e)
		}
	}
	fmt.Fprintf(t.out, "your boats: %s; your pings: %s\n", t.PlaceLine(t.own), strings.Join(pings, ", "))
}

// errCommand is a line that asks for help or the boards.
var errCommand = errors.New("a command, not an action")

// Parse implements human.Typed.
func (t *Text) Parse(line string) (Action, error) {
	f := strings.Fields(strings.ToLower(line))
	switch {
	case len(f) == 0:
		return Action{}, errors.New("empty line")
	case len(f) == 1 && (f[0] == "help" || f[0] == "?" || f[0] == "b"):
		return Action{}, errCommand
	case len(f) == 1:
		c, err := t.cell(f[0])
		return Action{Kind: Ping, At: c}, err
	case len(f) == 2 && f[0] == "ping":
		c, err := t.cell(f[1])
		return Action{Kind: Ping, At: c}, err
	case len(f) == 3 && f[0] == "move":
		n, err := strconv.Atoi(f[1])
		if err != nil || n < 1 || n > t.rules.Boats {
			return Action{}, fmt.Errorf("move takes a boat number from 1 to %d, then a cell", t.rules.Boats)
		}
		c, err := t.cell(f[2])
		return Action{Kind: Move, Boat: n - 1, At: c}, err
	}
	return Action{}, fmt.Errorf("unknown command %q", line)
}

// Act implements human.Text: a ping, or a move of an own boat afloat to a
// free neighbour.
func (t *Text) Act(line string) (Action, bool) {
	a, err := t.Parse(line)
	switch {
	case errors.Is(err, errCommand):
		fmt.Fprintln(t.out, textHelp)
		t.boards()
		return a, false
	case err != nil:
		fmt.Fprintf(t.out, "not sent: %v (%s)\n", err, textHelp)
		return a, false
	}
	if a.Kind == Move && !t.canMove(a) {
		fmt.Fprintf(t.out, "not sent: boat %d cannot move to %s\n", a.Boat+1, t.cellName(a.At))
		return a, false
	}
	return a, true
}

// canMove reports whether the seat's boat a.Boat may move to a.At.
func (t *Text) canMove(a Action) bool {
	if a.Boat < 0 || a.Boat >= len(t.own) || t.own[a.Boat] == None {
		return false
	}
	return slices.Contains(t.rules.Neighbours(t.own[a.Boat]), a.At) && !slices.Contains(t.own, a.At)
}

// Resign implements human.Text: the invalid action, a forfeit.
func (t *Text) Resign() (Action, string) { return Action{}, "\n(end of input: resigning)" }

// echoes are the echoes in words.
var echoes = map[Echo]string{Miss: "miss", Near: "near", Hit: "hit"}

// Tell implements human.Text: the action in words, the own boats
// followed.
func (t *Text) Tell(o Told) string {
	switch {
	case o.Mine && o.Kind == Ping:
		t.pings[o.At] = echoes[o.Echo]
		fmt.Fprintf(t.out, "you ping %s: %s\n", t.cellName(o.At), echoes[o.Echo])
	case o.Mine && o.Kind == Move:
		t.own[o.Boat] = o.At
		fmt.Fprintf(t.out, "you move boat %d to %s\n", o.Boat+1, t.cellName(o.At))
	case o.Kind == Ping:
		if o.Echo == Hit {
			for i, c := range t.own {
				if c == o.At {
					t.own[i] = None
				}
			}
		}
		fmt.Fprintf(t.out, "the enemy pings %s: %s\n", t.cellName(o.At), echoes[o.Echo])
	case o.Kind == Move:
		fmt.Fprintln(t.out, "an enemy boat moved")
	default:
		fmt.Fprintln(t.out, "an illegal action")
	}
	fmt.Fprintf(t.out, "boats afloat: yours %d, the enemy's %d\n", o.Afloat[0], o.Afloat[1])
	if o.Mine {
		return ""
	}
	return "   why: "
}

// Line implements human.Typed: "ping b3", "move 1 c2".
func (t *Text) Line(a Action) string {
	if a.Kind == Move {
		return fmt.Sprintf("move %d %s", a.Boat+1, t.cellName(a.At))
	}
	return "ping " + t.cellName(a.At)
}

// PlaceLine implements human.Typed: the boats' cells.
func (t *Text) PlaceLine(p Placement) string {
	names := make([]string, len(p))
	for i, c := range p {
		names[i] = t.cellName(c)
	}
	return strings.Join(names, " ")
}
