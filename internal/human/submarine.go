package human

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/kaisen-ai/kaisen/arena"
	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/game/submarine"
	"github.com/kaisen-ai/kaisen/players"
)

// Help is the command summary printed on "help" and after a line that is
// not a command.
const Help = `commands (a CELL is a column letter and a row from 1, A1 the top left corner):
  a CELL         attack CELL (within 1 of one of your ships), e.g. "a C4"
  m SHIP CELL    move SHIP to CELL in its row or column (not onto your own ship or a rock)
  b              show the boards again
  help           this list
  (attack and move also work spelled out; a CELL may also be the wire's [x,y], from 0:
  C4 is [2,3], typed "2 3", "2,3" or "[2,3]")`

// Cells says once, in the seat's intro, how the seat names cells and how
// the wire writes them.
const Cells = `cells: a column letter and a row from 1, A1 the top left corner;
on the wire a cell is [x,y] from 0: C4 is [2,3] (typing 2 3 works too)`

// PlacementHelp explains the placement prompt.
const PlacementHelp = `place your fleet: one cell per ship in fleet order, e.g. "A1 C3 E5"
(or as the wire's [x,y] from 0, "0,0 2,2 4,4"), or "r" for a random placement`

// Seat is the submarine game's seat for a person: a players.Player (the
// network client's) around the generic Person. The end of the input
// resigns: the next action is an invalid one, which forfeits the game, as
// closing the connection would.
type Seat struct {
	*Person[submarine.Placement, submarine.Action, submarine.Told]
	text *subText
}

var _ players.Player = (*Seat)(nil)

// New returns a seat for rules reading lines from in and writing to out;
// rng draws the random placement ("r"). The seats of successive games
// share one in.
func New(rules *submarine.Rules, in *bufio.Reader, out io.Writer, rng *rand.Rand) *Seat {
	t := &subText{rules: rules, out: out, rng: rng, shots: map[grid.Cell]byte{}, seen: map[grid.Cell]byte{}}
	return &Seat{Person: NewPerson(t, in, out), text: t}
}

// Observe implements players.Player: it reports the event in words and
// remembers it for the boards.
func (h *Seat) Observe(ev submarine.Event, v *submarine.View) {
	h.Person.Observe(submarine.Told{Event: ev, View: v})
}

// Parse reads one command line into an action; it does not check that the
// action is legal.
func (h *Seat) Parse(line string) (submarine.Action, error) { return h.text.parse(line) }

// subText is the submarine game's Text: attack and move commands, the two
// boards side by side.
type subText struct {
	rules *submarine.Rules
	out   io.Writer
	rng   *rand.Rand

	me      submarine.Fleet
	enemyHP [submarine.MaxShips]int8
	shots   map[grid.Cell]byte // my attacks on the enemy: 'o' miss, 'X' hit, '~' near
	seen    map[grid.Cell]byte // the enemy's attacks on me
}

var _ Text[submarine.Placement, submarine.Action, submarine.Told] = (*subText)(nil)

// resigned is what the seat says when its input ends.
const resigned = "\n(end of input: resigning)"

// Intro implements Text: the board, its rocks, the fleet.
func (h *subText) Intro() {
	r := h.rules
	fmt.Fprintf(h.out, "board %dx%d", r.Board.Width(), r.Board.Height())
	if rocks := r.Board.Rocks(); len(rocks) > 0 {
		names := make([]string, len(rocks))
		for i, c := range rocks {
			names[i] = r.CellName(c)
		}
		fmt.Fprintf(h.out, ", rocks %s", strings.Join(names, " "))
	}
	fmt.Fprintf(h.out, "; fleet %s\n%s\n%s\n", fleetText(r), Cells, PlacementHelp)
}

// Place implements Text: one cell per ship, or "r"; the end of the input
// places nothing (a forfeit).
func (h *subText) Place(line string, eof bool) (submarine.Placement, bool) {
	r := h.rules
	if eof {
		fmt.Fprintln(h.out, resigned)
		return submarine.Placement{}, true
	}
	var p submarine.Placement
	if line == "r" || line == "random" {
		p = players.RandomPlacement(r, h.rng)
	} else {
		var err error
		if p, err = h.parsePlacement(line); err != nil {
			fmt.Fprintf(h.out, "not a placement: %v\n%s\n", err, PlacementHelp)
			return nil, false
		}
	}
	if err := r.ValidatePlacement(p); err != nil {
		fmt.Fprintf(h.out, "refused: %v\n", err)
		return nil, false
	}
	h.me = submarine.NewFleet(r, p)
	for i, s := range r.Fleet {
		h.enemyHP[i] = int8(s.HP)
	}
	return p, true
}

func (h *subText) parsePlacement(line string) (submarine.Placement, error) {
	cells, err := h.cells(line)
	if err != nil {
		return nil, err
	}
	if len(cells) != len(h.rules.Fleet) {
		return nil, fmt.Errorf("want %d cells (like A1, or x y), got %d", len(h.rules.Fleet), len(cells))
	}
	return submarine.Placement(cells), nil
}

// cells reads the cells of s, separated by spaces, commas or brackets: each
// a name like C4 (grid.Board.ParseName) or two numbers x y from 0, the
// wire's [x,y] ("2 3", "2,3", "[2,3]").
func (h *subText) cells(s string) ([]grid.Cell, error) {
	fields := strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == ',' || r == '[' || r == ']' || r == '\t' })
	var out []grid.Cell
	for i := 0; i < len(fields); i++ {
		f := fields[i]
		x, err := strconv.Atoi(f)
		if err != nil {
			if f[0] == '+' || f[0] == '-' || (f[0] >= '0' && f[0] <= '9') {
				return nil, fmt.Errorf("%q is not a number", f)
			}
			c, err := h.rules.Board.ParseName(f)
			if err != nil {
				return nil, err
			}
			out = append(out, c)
			continue
		}
		if i+1 == len(fields) {
			return nil, fmt.Errorf("%q: a cell is a name like C4 or two numbers x y", f)
		}
		i++
		y, err := strconv.Atoi(fields[i])
		if err != nil {
			return nil, fmt.Errorf("%q is not a number", fields[i])
		}
		c, err := h.cell(x, y)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}

// cell1 is the one cell of s, as cells reads it, or usage as the error.
func (h *subText) cell1(s, usage string) (grid.Cell, error) {
	cells, err := h.cells(s)
	if err != nil {
		return grid.None, err
	}
	if len(cells) != 1 {
		return grid.None, errors.New(usage)
	}
	return cells[0], nil
}

func (h *subText) cell(x, y int) (grid.Cell, error) {
	c, ok := h.rules.Board.At(x, y)
	if !ok {
		return grid.None, fmt.Errorf("[%d,%d] (x y from 0) is off the %dx%d board", x, y, h.rules.Board.Width(), h.rules.Board.Height())
	}
	return c, nil
}

// errHelp asks for the help text.
var errHelp = errors.New("help")

// errBoards asks for the boards.
var errBoards = errors.New("boards")

// parse reads one command line into an action; it does not check that the
// action is legal.
func (h *subText) parse(line string) (submarine.Action, error) {
	verb, rest, _ := strings.Cut(strings.TrimSpace(line), " ")
	switch strings.ToLower(verb) {
	case "help", "h", "?":
		return submarine.Action{}, errHelp
	case "b", "board", "boards":
		return submarine.Action{}, errBoards
	case "a", "attack":
		c, err := h.cell1(rest, `attack takes one CELL, e.g. "a C4"`)
		if err != nil {
			return submarine.Action{}, err
		}
		return submarine.AttackAt(c), nil
	case "m", "move":
		name, where, _ := strings.Cut(strings.TrimSpace(rest), " ")
		ship, ok := h.rules.ShipIndex(name)
		if !ok {
			return submarine.Action{}, fmt.Errorf("move takes SHIP CELL, e.g. \"m w C4\"; ships: %s", fleetText(h.rules))
		}
		c, err := h.cell1(where, `move takes SHIP CELL, e.g. "m w C4"`)
		if err != nil {
			return submarine.Action{}, err
		}
		return submarine.MoveTo(ship, c), nil
	case "":
		return submarine.Action{}, fmt.Errorf("empty line")
	}
	return submarine.Action{}, fmt.Errorf("unknown command %q", verb)
}

// Turn implements Text: the boards.
func (h *subText) Turn() string {
	h.boards()
	return "your move> "
}

// Act implements Text: a command, checked against the rules before it is
// sent.
func (h *subText) Act(line string) (submarine.Action, bool) {
	a, err := h.parse(line)
	switch {
	case errors.Is(err, errHelp):
		fmt.Fprintln(h.out, Help)
		return a, false
	case errors.Is(err, errBoards):
		h.boards()
		return a, false
	case err != nil:
		fmt.Fprintf(h.out, "not sent: %v (\"help\" lists the commands)\n", err)
		return a, false
	}
	if err := h.rules.CheckAction(&h.me, a); err != nil {
		fmt.Fprintf(h.out, "not sent: %v\n", err)
		return a, false
	}
	return a, true
}

// Resign implements Text: the invalid action, a forfeit.
func (h *subText) Resign() (submarine.Action, string) {
	return submarine.Action{Kind: submarine.Invalid, Ship: submarine.NoShip, To: grid.None}, resigned
}

// Tell implements Text: the event in words, remembered for the boards.
func (h *subText) Tell(o submarine.Told) string {
	ev, v := o.Event, o.View
	h.me, h.enemyHP = v.Me, v.EnemyHP
	r := h.rules
	switch {
	case ev.Illegal && ev.Mine && ev.Kind == submarine.Invalid:
		fmt.Fprintln(h.out, "you resigned")
		return ""
	case ev.Illegal && ev.Mine:
		// The seat checks every action before it is sent: the server
		// refused this one, most likely because it came too late.
		fmt.Fprintf(h.out, "the server refused your %s: you forfeit (most likely your time for it ran out)\n", ev.Kind)
		return ""
	case ev.Illegal:
		fmt.Fprintf(h.out, "the enemy's %s was illegal: it forfeits\n", ev.Kind)
		return ""
	case ev.Kind == submarine.Invalid: // the start of the game
		return ""
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
	if ev.Mine {
		return ""
	}
	return "  why: "
}

// boards draws my fleet (with the enemy's attacks) and what I know of the
// enemy (my attacks), side by side, and both hp lines.
func (h *subText) boards() {
	r := h.rules
	b := r.Board
	row := func(y int, mine bool) string {
		var sb strings.Builder
		fmt.Fprintf(&sb, "%2d ", y+1)
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
			case !mine && h.rules.CheckAction(&h.me, submarine.AttackAt(c)) == nil:
				g = '+' // in reach of an attack
			}
			sb.WriteString(" " + string(g))
		}
		return sb.String()
	}
	var head strings.Builder
	head.WriteString("   ")
	for x := range b.Width() {
		fmt.Fprintf(&head, "%2s", grid.ColumnName(x, false))
	}
	w := 3 + 2*b.Width()
	fmt.Fprintf(h.out, "%-*s     %s\n", w, "your fleet", "your attacks on the enemy")
	fmt.Fprintf(h.out, "%-*s     %s\n", w, head.String(), head.String())
	for y := range b.Height() {
		fmt.Fprintf(h.out, "%-*s     %s\n", w, row(y, true), row(y, false))
	}
	fmt.Fprintf(h.out, "%-*s     %s\n", w, "hp "+hpText(r, h.me.HP), "enemy hp "+hpText(r, h.enemyHP))
	fmt.Fprintln(h.out, "(+ you can attack here, o miss, X hit, ~ near a reported ship, # rock; \"help\" for commands)")
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

// PlayAgainst is PlayAgainstWith with the zero Options: no why lines
// during play, no replay.
func PlayAgainst(r *submarine.Rules, h *Seat, ai players.Player, seat int) (game.Status, int) {
	o, w, _ := PlayAgainstWith(r, h, ai, seat, Options{})
	return o, w
}

// PlayAgainstWith plays one submarine game in-process (Play) between the
// seat h, in seat `seat` (seat 0 acts first), and ai, reporting to h's
// output. When the game is over it prints EndHeader, the AI's fleet, the
// result and the AI's reasons for each of its actions, and returns the
// outcome, the winning seat (-1 on a draw) and the replay's write error.
// A seat that placed illegally (the human's input ended) loses, as on a
// server.
func PlayAgainstWith(r *submarine.Rules, h *Seat, ai players.Player, seat int, opt Options) (game.Status, int, error) {
	res, err := Play(SubmarineLocal(r), h.Person, players.Adapt(func(*rand.Rand) players.Player { return ai })(nil, 1-seat), seat, 0, opt)
	if res.Winner < 0 {
		return game.Drawn, -1, err
	}
	return game.Won, res.Winner, err
}

// SubmarineLocal is the submarine game's part of Play under rules r.
func SubmarineLocal(r *submarine.Rules) *Local[*submarine.Game, submarine.Placement, submarine.Action, submarine.Step, submarine.Told] {
	return &Local[*submarine.Game, submarine.Placement, submarine.Action, submarine.Step, submarine.Told]{
		Rules: r,
		Record: func(w io.Writer, h arena.RecordHeader) arena.Recorder[submarine.Placement, submarine.Action, submarine.Step] {
			return subRecord{arena.SubmarineRecorder(w, r, h)}
		},
		Action: func(a submarine.Action) string { return actionText(r, a) },
		End:    func(w io.Writer, e *End[*submarine.Game, submarine.Placement]) bool { return subEnd(w, r, e) },
		AI: func(p players.Contract) players.Contract {
			return &started{Contract: p, rules: r}
		},
	}
}

// subEnd tells the person how a submarine game ended: the enemy fleet,
// where it is, and the result; a game that never started (the person's
// input ended before placing) only why, without the AI's reasons.
func subEnd(w io.Writer, r *submarine.Rules, e *End[*submarine.Game, submarine.Placement]) bool {
	res, seat := e.Result, e.Seat
	if !res.Started {
		if s := firstForfeit(res); s != seat {
			fmt.Fprintf(w, "no game: the AI's placement was refused: %s\n", res.Forfeits[s].Reason)
		} else {
			fmt.Fprintln(w, "no game: you placed no fleet (your input ended, or you resigned, before the placement); you lose")
		}
		return false
	}
	fmt.Fprintln(w, EndHeader)
	enemy := e.Game.Fleet(1 - seat)
	var cells []string
	for i, sh := range r.Fleet {
		if enemy.HP[i] > 0 {
			cells = append(cells, fmt.Sprintf("%s at %s", sh.Name, r.CellName(enemy.Pos[i])))
		} else {
			cells = append(cells, sh.Name+" sunk")
		}
	}
	fmt.Fprintf(w, "the enemy fleet: %s\n", strings.Join(cells, ", "))
	why := ""
	if r := endReason(e); r != "" {
		why = ": " + r
	}
	switch res.Winner {
	case -1:
		fmt.Fprintf(w, "draw after %d actions\n", res.Actions)
	case seat:
		fmt.Fprintf(w, "you win after %d actions%s\n", res.Actions, why)
	default:
		fmt.Fprintf(w, "you lose after %d actions%s\n", res.Actions, why)
	}
	return true
}

// subRecord is the arena's submarine replay; a placement forfeit's reason
// names the seat ("seat 0: ..."), as this host's replays always have.
type subRecord struct {
	arena.Recorder[submarine.Placement, submarine.Action, submarine.Step]
}

func (r subRecord) Result(res *game.Result) {
	c := *res
	for s, f := range c.Forfeits {
		if f.Kind == game.ForfeitPlacement {
			c.Forfeits[s].Reason = fmt.Sprintf("seat %d: %s", s, f.Reason)
		}
	}
	r.Recorder.Result(&c)
}

// started tells a submarine AI the start of the game (its view before any
// action, as an event of kind Invalid) before its first action or
// observation, as this host always has: an AI such as admiral counts it.
type started struct {
	players.Contract
	rules *submarine.Rules
	place submarine.Placement
	told  bool
}

func (s *started) Place() submarine.Placement {
	s.place = s.Contract.Place()
	return s.place
}

func (s *started) start() {
	if s.told {
		return
	}
	s.told = true
	v := submarine.View{Me: submarine.NewFleet(s.rules, s.place)}
	for i, sh := range s.rules.Fleet {
		v.EnemyHP[i] = int8(sh.HP)
	}
	s.Contract.Observe(submarine.Told{Event: submarine.Event{Kind: submarine.Invalid}, View: &v})
}

func (s *started) Act() submarine.Action {
	s.start()
	return s.Contract.Act()
}

func (s *started) Observe(o submarine.Told) {
	s.start()
	s.Contract.Observe(o)
}

// Unwrap implements game.Wrapper.
func (s *started) Unwrap() any { return s.Contract }

// actionText says a submarine action in the seat's words ("attack C4",
// "move w to B1").
func actionText(r *submarine.Rules, a submarine.Action) string {
	switch a.Kind {
	case submarine.Attack:
		return "attack " + r.CellName(a.To)
	case submarine.Move:
		if a.Ship >= 0 && a.Ship < len(r.Fleet) {
			return fmt.Sprintf("move %s to %s", r.Fleet[a.Ship].Name, r.CellName(a.To))
		}
	}
	return a.Kind.String()
}

// Line implements Typed: "a CELL", "m SHIP CELL".
func (h *subText) Line(a submarine.Action) string {
	r := h.rules
	switch {
	case a.Kind == submarine.Attack:
		return "a " + r.CellName(a.To)
	case a.Kind == submarine.Move && a.Ship >= 0 && a.Ship < len(r.Fleet):
		return fmt.Sprintf("m %s %s", r.Fleet[a.Ship].Name, r.CellName(a.To))
	}
	return a.Kind.String()
}

// PlaceLine implements Typed: a CELL per ship in fleet order.
func (h *subText) PlaceLine(p submarine.Placement) string {
	cells := make([]string, len(p))
	for i, c := range p {
		cells[i] = h.rules.CellName(c)
	}
	return strings.Join(cells, " ")
}

// Parse implements Typed.
func (h *subText) Parse(line string) (submarine.Action, error) { return h.parse(line) }

// SubmarineText returns the submarine game's Text of a seat of rules,
// writing to out; rng draws the random placement ("r").
func SubmarineText(rules *submarine.Rules, out io.Writer, rng *rand.Rand) Text[submarine.Placement, submarine.Action, submarine.Told] {
	return &subText{rules: rules, out: out, rng: rng, shots: map[grid.Cell]byte{}, seen: map[grid.Cell]byte{}}
}
