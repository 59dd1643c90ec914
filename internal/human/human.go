// Package human seats a person at a terminal (or a script behind a pipe)
// in a game: Seat is a submarine-game players.Player, BattleshipSeat a
// Battleship bsplayers.Player, whose moves are typed lines and whose
// Observe reports every event in words. A typo or an illegal action is
// refused with the reason and asked again, never sent, so it cannot
// forfeit the game. kaisen play --human seats them on a server, and kaisen
// play --human --against NAME against a built-in AI in-process
// (PlayAgainstWith, PlayBattleshipAgainstWith).
//
// Hidden stays hidden: everything a seat writes to its io.Writer before
// the game is over is a function of the events the rules give that seat
// (Observe) and of the person's own input, so a host that drives a seat
// through New or NewBattleship and its players interface prints nothing
// the rules keep secret. The AI's reasons come after EndHeader, or during
// play only when the host sets AfterOpponent (Options.Reveal, kaisen play
// --reveal-ai), which reveals the AI's fleet. TestSeatPrintsOnlyPublicEvents
// checks it for every AI of every game with a seat.
package human

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/game/submarine"
	"github.com/kaisen-ai/kaisen/players"
)

// Help is the command summary printed on "help" and after a line that is
// not a command.
const Help = `commands (x is the column, y the row, from 0):
  a X Y          attack cell [X,Y] (within 1 of one of your ships)
  m SHIP X Y     move SHIP to [X,Y] in its row or column (not onto your own ship or a rock)
  b              show the boards again
  help           this list
  (attack and move also work spelled out; "3,2" and "[3,2]" work for X Y)`

// PlacementHelp explains the placement prompt.
const PlacementHelp = `place your fleet: one cell per ship in fleet order, e.g. "0,0 2,2 4,4",
or "r" for a random placement`

// Seat is a human player. Input ends (EOF) make it resign: the next action
// is an invalid one, which forfeits the game, as closing the connection
// would.
type Seat struct {
	terminal
	rules *submarine.Rules
	rng   *rand.Rand
	// AfterOpponent, when set, is called after each opponent action is
	// reported and a non-empty answer printed as "  why: ANSWER". Only
	// kaisen play --reveal-ai sets it (Options.Reveal): the AI's
	// explanation is not a function of what the rules tell the person.
	AfterOpponent func() string

	me      submarine.Fleet
	enemyHP [submarine.MaxShips]int8
	shots   map[grid.Cell]byte // my attacks on the enemy: 'o' miss, 'X' hit, '~' near
	seen    map[grid.Cell]byte // the enemy's attacks on me
}

var _ players.Player = (*Seat)(nil)

// New returns a seat for rules reading lines from in and writing to out;
// rng draws the random placement ("r"). The seats of successive games
// share one in.
func New(rules *submarine.Rules, in *bufio.Reader, out io.Writer, rng *rand.Rand) *Seat {
	return &Seat{terminal: terminal{in: in, out: out}, rules: rules, rng: rng, shots: map[grid.Cell]byte{}, seen: map[grid.Cell]byte{}}
}

// maxLine bounds a typed line.
const maxLine = 4096

// terminal is the person's side of a seat: typed lines in, words out.
type terminal struct {
	in  *bufio.Reader
	out io.Writer
	eof bool
}

// EOF reports whether the input ended (a submarine seat then resigns, a
// Battleship seat passes).
func (t *terminal) EOF() bool { return t.eof }

// read writes p and reads one trimmed line; ok is false at the end of the
// input.
func (t *terminal) read(p string) (string, bool) {
	fmt.Fprint(t.out, p)
	line, err := t.in.ReadString('\n')
	if err != nil && line == "" {
		t.eof = true
		return "", false
	}
	if len(line) > maxLine {
		line = line[:maxLine]
	}
	return strings.TrimSpace(line), true
}

// prompt is read; at the end of the input the seat resigns.
func (h *Seat) prompt(p string) (string, bool) {
	line, ok := h.read(p)
	if !ok {
		fmt.Fprintln(h.out, "\n(end of input: resigning)")
	}
	return line, ok
}

// Place implements players.Player: it asks for one cell per ship until the
// placement is valid.
func (h *Seat) Place() submarine.Placement {
	r := h.rules
	fmt.Fprintf(h.out, "board %dx%d", r.Board.Width(), r.Board.Height())
	if rocks := r.Board.Rocks(); len(rocks) > 0 {
		names := make([]string, len(rocks))
		for i, c := range rocks {
			names[i] = r.CellName(c)
		}
		fmt.Fprintf(h.out, ", rocks %s", strings.Join(names, " "))
	}
	fmt.Fprintf(h.out, "; fleet %s\n%s\n", fleetText(r), PlacementHelp)
	for {
		line, ok := h.prompt("placement> ")
		if !ok {
			return submarine.Placement{}
		}
		var p submarine.Placement
		if line == "r" || line == "random" {
			p = players.RandomPlacement(r, h.rng)
		} else {
			var err error
			if p, err = h.parsePlacement(line); err != nil {
				fmt.Fprintf(h.out, "not a placement: %v\n%s\n", err, PlacementHelp)
				continue
			}
		}
		if err := r.ValidatePlacement(p); err != nil {
			fmt.Fprintf(h.out, "refused: %v\n", err)
			continue
		}
		h.me = submarine.NewFleet(r, p)
		for i, s := range r.Fleet {
			h.enemyHP[i] = int8(s.HP)
		}
		return p
	}
}

func (h *Seat) parsePlacement(line string) (submarine.Placement, error) {
	nums, err := numbers(line)
	if err != nil {
		return nil, err
	}
	if len(nums) != 2*len(h.rules.Fleet) {
		return nil, fmt.Errorf("want %d cells (x y each), got %d numbers", len(h.rules.Fleet), len(nums))
	}
	p := make(submarine.Placement, len(h.rules.Fleet))
	for i := range p {
		c, err := h.cell(nums[2*i], nums[2*i+1])
		if err != nil {
			return nil, err
		}
		p[i] = c
	}
	return p, nil
}

// numbers reads the integers of s, separated by spaces, commas or brackets.
func numbers(s string) ([]int, error) {
	fields := strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == ',' || r == '[' || r == ']' || r == '\t' })
	out := make([]int, len(fields))
	for i, f := range fields {
		n, err := strconv.Atoi(f)
		if err != nil {
			return nil, fmt.Errorf("%q is not a number", f)
		}
		out[i] = n
	}
	return out, nil
}

func (h *Seat) cell(x, y int) (grid.Cell, error) {
	c, ok := h.rules.Board.At(x, y)
	if !ok {
		return grid.None, fmt.Errorf("[%d,%d] is off the %dx%d board", x, y, h.rules.Board.Width(), h.rules.Board.Height())
	}
	return c, nil
}

// errHelp asks for the help text.
var errHelp = errors.New("help")

// errBoards asks for the boards.
var errBoards = errors.New("boards")

// Parse reads one command line into an action; it does not check that the
// action is legal.
func (h *Seat) Parse(line string) (submarine.Action, error) {
	verb, rest, _ := strings.Cut(strings.TrimSpace(line), " ")
	switch strings.ToLower(verb) {
	case "help", "h", "?":
		return submarine.Action{}, errHelp
	case "b", "board", "boards":
		return submarine.Action{}, errBoards
	case "a", "attack":
		nums, err := numbers(rest)
		if err != nil {
			return submarine.Action{}, err
		}
		if len(nums) != 2 {
			return submarine.Action{}, fmt.Errorf("attack takes X Y, e.g. \"a 2 3\"")
		}
		c, err := h.cell(nums[0], nums[1])
		if err != nil {
			return submarine.Action{}, err
		}
		return submarine.AttackAt(c), nil
	case "m", "move":
		name, where, _ := strings.Cut(strings.TrimSpace(rest), " ")
		ship, ok := h.rules.ShipIndex(name)
		if !ok {
			return submarine.Action{}, fmt.Errorf("move takes SHIP X Y, e.g. \"m w 2 3\"; ships: %s", fleetText(h.rules))
		}
		nums, err := numbers(where)
		if err != nil {
			return submarine.Action{}, err
		}
		if len(nums) != 2 {
			return submarine.Action{}, fmt.Errorf("move takes SHIP X Y, e.g. \"m w 2 3\"")
		}
		c, err := h.cell(nums[0], nums[1])
		if err != nil {
			return submarine.Action{}, err
		}
		return submarine.MoveTo(ship, c), nil
	case "":
		return submarine.Action{}, fmt.Errorf("empty line")
	}
	return submarine.Action{}, fmt.Errorf("unknown command %q", verb)
}

// Act implements players.Player: it shows the boards and asks for a
// command until it reads a legal action.
func (h *Seat) Act() submarine.Action {
	if h.eof {
		return submarine.Action{Kind: submarine.Invalid, Ship: submarine.NoShip, To: grid.None}
	}
	h.boards()
	for {
		line, ok := h.prompt("your move> ")
		if !ok {
			return submarine.Action{Kind: submarine.Invalid, Ship: submarine.NoShip, To: grid.None}
		}
		a, err := h.Parse(line)
		switch {
		case errors.Is(err, errHelp):
			fmt.Fprintln(h.out, Help)
			continue
		case errors.Is(err, errBoards):
			h.boards()
			continue
		case err != nil:
			fmt.Fprintf(h.out, "not sent: %v (\"help\" lists the commands)\n", err)
			continue
		}
		if err := h.rules.CheckAction(&h.me, a); err != nil {
			fmt.Fprintf(h.out, "not sent: %v\n", err)
			continue
		}
		return a
	}
}

// Observe implements players.Player: it reports the event in words and
// remembers it for the boards.
func (h *Seat) Observe(ev submarine.Event, v *submarine.View) {
	h.me, h.enemyHP = v.Me, v.EnemyHP
	r := h.rules
	switch {
	case ev.Illegal && ev.Mine && ev.Kind == submarine.Invalid:
		fmt.Fprintln(h.out, "you resigned")
		return
	case ev.Illegal && ev.Mine:
		fmt.Fprintf(h.out, "your %s was illegal: you forfeit\n", ev.Kind)
		return
	case ev.Illegal:
		fmt.Fprintf(h.out, "the enemy's %s was illegal: it forfeits\n", ev.Kind)
		return
	case ev.Kind == submarine.Invalid: // the start of the game
		return
	}
	who, marks := "enemy", h.seen
	if ev.Mine {
		who, marks = "you", h.shots
	}
	switch ev.Kind {
	case submarine.Attack:
		var sb strings.Builder
		fmt.Fprintf(&sb, "%s: attack %s: ", who, r.CellName(ev.At))
		for c := range r.Board.Around(ev.At).All() {
			if _, done := marks[c]; !done && ev.Near != 0 {
				marks[c] = '~'
			}
		}
		switch {
		case ev.Hit != submarine.NoShip && ev.Sunk:
			fmt.Fprintf(&sb, "hit %s, sunk", r.Fleet[ev.Hit].Name)
			marks[ev.At] = 'X'
		case ev.Hit != submarine.NoShip:
			fmt.Fprintf(&sb, "hit %s", r.Fleet[ev.Hit].Name)
			marks[ev.At] = 'X'
		default:
			sb.WriteString("miss")
			marks[ev.At] = 'o'
		}
		if near := r.Names(ev.Near); len(near) > 0 {
			fmt.Fprintf(&sb, "; near: %s", strings.Join(near, " "))
		}
		fmt.Fprintln(h.out, sb.String())
	case submarine.Move:
		if ev.Mine {
			fmt.Fprintf(h.out, "you: move %s to %s (the enemy sees %s moved [%+d,%+d])\n", r.Fleet[ev.Ship].Name, r.CellName(ev.To), r.Fleet[ev.Ship].Name, ev.DX, ev.DY)
		} else {
			fmt.Fprintf(h.out, "enemy: moved %s by [%+d,%+d]\n", r.Fleet[ev.Ship].Name, ev.DX, ev.DY)
		}
	}
	if !ev.Mine && h.AfterOpponent != nil {
		if why := h.AfterOpponent(); why != "" {
			fmt.Fprintf(h.out, "  why: %s\n", why)
		}
	}
}

// boards draws my fleet (with the enemy's attacks) and what I know of the
// enemy (my attacks), side by side, and both hp lines.
func (h *Seat) boards() {
	r := h.rules
	b := r.Board
	row := func(y int, mine bool) string {
		var sb strings.Builder
		fmt.Fprintf(&sb, "%2d ", y)
		for x := range b.Width() {
			c, _ := b.At(x, y)
			g := byte('.')
			switch {
			case !b.IsUsable(c):
				g = '#'
			case mine && h.me.ShipAt(c) != submarine.NoShip:
				g = r.Fleet[h.me.ShipAt(c)].Name[0]
			case mine && h.seen[c] != 0:
				g = h.seen[c]
			case !mine && h.shots[c] != 0:
				g = h.shots[c]
			}
			sb.WriteString(" " + string(g))
		}
		return sb.String()
	}
	var head strings.Builder
	head.WriteString("   ")
	for x := range b.Width() {
		fmt.Fprintf(&head, "%2d", x%100)
	}
	w := 3 + 2*b.Width()
	fmt.Fprintf(h.out, "%-*s     %s\n", w, "your fleet", "your attacks on the enemy")
	fmt.Fprintf(h.out, "%-*s     %s\n", w, head.String(), head.String())
	for y := range b.Height() {
		fmt.Fprintf(h.out, "%-*s     %s\n", w, row(y, true), row(y, false))
	}
	fmt.Fprintf(h.out, "%-*s     %s\n", w, "hp "+hpText(r, h.me.HP), "enemy hp "+hpText(r, h.enemyHP))
	fmt.Fprintln(h.out, "(o miss, X hit, ~ near a reported ship, # rock; \"help\" for commands)")
}

func hpText(r *submarine.Rules, hp [submarine.MaxShips]int8) string {
	parts := make([]string, len(r.Fleet))
	for i, s := range r.Fleet {
		parts[i] = fmt.Sprintf("%s%d", s.Name, max(hp[i], 0))
	}
	return strings.Join(parts, " ")
}

func fleetText(r *submarine.Rules) string {
	parts := make([]string, len(r.Fleet))
	for i, s := range r.Fleet {
		parts[i] = fmt.Sprintf("%s (%d hp)", s.Name, s.HP)
	}
	return strings.Join(parts, ", ")
}
