package human

import (
	"bufio"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"github.com/kaisen-ai/kaisen/arena"
	bsbelief "github.com/kaisen-ai/kaisen/belief/battleship"
	"github.com/kaisen-ai/kaisen/game"
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

// BattleshipCells says once, in the seat's intro, how the Battleship and
// abilities seats name cells and how the wire writes them.
const BattleshipCells = `cells: a column letter and a row from 1, A1 the top left corner;
on the wire a cell is [row,col] from 0: C4 is [3,2] (typing [3,2] works too)`

// battleshipLegend explains the seat's boards.
const battleshipLegend = `legend: O your ship, x hit, # sunk ship, o miss, , no ship can be there (next to a sunk ship),
        . unknown water, - rock, [ ] the last shot`

// BattleshipSeat is the Battleship seat for a person: a bsplayers.Player
// (the network client's) around the generic Person. Place and Shoot read
// typed lines, Observe reports every shot in words, and each turn shows
// both boards. A typo, a cell off the board or a cell shot before is
// refused with the reason and asked again, never sent. When the input ends
// the seat passes: every later shot repeats a cell shot before (a legal
// shot that earns nothing), so the opponent finishes the game.
type BattleshipSeat struct {
	*Person[battleship.Placement, grid.Cell, battleship.Event]
}

var _ bsplayers.Player = (*BattleshipSeat)(nil)

// NewBattleship returns a Battleship seat for rules reading lines from in
// and writing to out; rng draws the random placements. The seats of
// successive games share one in.
func NewBattleship(rules *battleship.Rules, in *bufio.Reader, out io.Writer, rng *rand.Rand) *BattleshipSeat {
	return &BattleshipSeat{NewPerson(newBSText(rules, out, rng), in, out)}
}

// Shoot implements bsplayers.Player: the contract's Act.
func (h *BattleshipSeat) Shoot() grid.Cell { return h.Act() }

// bsText is Battleship's Text: a typed fleet or style, a cell to shoot,
// the fleet under fire beside the enemy's waters.
type bsText struct {
	rules *battleship.Rules
	out   io.Writer
	rng   *rand.Rand

	mine   *battleship.Sea // my fleet under the enemy's fire
	enemy  []byte          // my view of the enemy's waters, one glyph per cell
	sunk   int             // enemy ships sunk
	last   [2]grid.Cell    // the last shot on each board: mine [0], the enemy's [1]
	passed grid.Cell       // the cell repeated once the input ended
}

var _ Text[battleship.Placement, grid.Cell, battleship.Event] = (*bsText)(nil)

func newBSText(rules *battleship.Rules, out io.Writer, rng *rand.Rand) *bsText {
	h := &bsText{rules: rules, out: out, rng: rng, last: [2]grid.Cell{grid.None, grid.None}, passed: grid.None}
	h.enemy = make([]byte, rules.Board.Size())
	for c := range h.enemy {
		h.enemy[c] = '.'
		if !rules.Board.IsUsable(grid.Cell(c)) {
			h.enemy[c] = '-'
		}
	}
	return h
}

// Intro implements Text.
func (h *bsText) Intro() {
	r := h.rules
	fmt.Fprintf(h.out, "board %dx%d; fleet %s (ship lengths)\n%s\n%s\n", r.Board.Width(), r.Board.Height(), battleship.FormatFleet(r.Fleet), BattleshipCells, BattleshipPlacementHelp)
}

// Place implements Text: typed ships, "r" or a style; at the end of the
// input a random placement.
func (h *bsText) Place(line string, eof bool) (battleship.Placement, bool) {
	p, ok := placeFleet(h.out, h.rules, h.rng, line, eof)
	if !ok || p == nil {
		return p, ok
	}
	sea, err := battleship.NewSea(h.rules, p)
	if err != nil {
		fmt.Fprintf(h.out, "refused: %v\n", err)
		return nil, false
	}
	h.mine = sea
	names := make([]string, len(p))
	for i, s := range sea.Ships() {
		names[i] = h.rules.ShipCoord(s, false)
	}
	fmt.Fprintf(h.out, "your fleet: %s\n", strings.Join(names, " "))
	return p, true
}

// Turn implements Text: the boards.
func (h *bsText) Turn() string {
	h.boards()
	return "shot> "
}

// Act implements Text: a cell not shot yet.
func (h *bsText) Act(line string) (grid.Cell, bool) {
	switch strings.ToLower(line) {
	case "":
		return grid.None, false
	case "b", "board", "boards":
		h.boards()
		return grid.None, false
	case "help", "?", "h":
		fmt.Fprintln(h.out, BattleshipHelp)
		return grid.None, false
	}
	c, err := h.rules.ParseCoord(line)
	if err != nil {
		fmt.Fprintf(h.out, "not a shot: %v\n%s\n", err, BattleshipHelp)
		return grid.None, false
	}
	if g := h.enemy[c]; g != '.' && g != ',' {
		fmt.Fprintf(h.out, "you shot %s before (%s): choose another cell\n", h.rules.Coord(c, false), glyphWord(g))
		return grid.None, false
	}
	return c, true
}

// Resign implements Text: pass.
func (h *bsText) Resign() (grid.Cell, string) {
	return h.pass(), "\n(end of input: you pass every turn from now on; your opponent finishes the game)"
}

// Forfeit implements forfeiter: a shot off the board, which loses the
// game at once (the person resigned).
func (h *bsText) Forfeit() grid.Cell { return grid.None }

// placeFleet reads a typed Battleship-board fleet: ships, "r" or a style
// (eof: the input ended, a random one). false: refused (said why), ask
// again; nil and true: the fleet does not fit, the game cannot start. The
// caller checks the ships against the rules (battleship.NewSea).
func placeFleet(out io.Writer, r *battleship.Rules, rng *rand.Rand, line string, eof bool) (battleship.Placement, bool) {
	style := strings.ToLower(line)
	if eof {
		fmt.Fprintln(out, "\n(end of input: a random placement)")
		style = bsbelief.StyleUniform
	}
	if style == "r" || style == "random" {
		style = bsbelief.StyleUniform
	}
	if slices.Contains(bsbelief.Styles, style) {
		placer, err := bsbelief.NewStylePlacer(r, style)
		var p battleship.Placement
		if err == nil {
			p, err = placer.Place(rng)
		}
		if err != nil {
			fmt.Fprintf(out, "no placement: %v\n", err)
			return nil, true // the fleet does not fit: the game cannot start
		}
		return p, true
	}
	p, err := parseFleet(r, line)
	if err != nil {
		fmt.Fprintf(out, "not a placement: %v\n%s\n", err, BattleshipPlacementHelp)
		return nil, false
	}
	return p, true
}

// parseFleet reads ships separated by spaces or commas.
func parseFleet(r *battleship.Rules, line string) (battleship.Placement, error) {
	fields := strings.FieldsFunc(line, func(r rune) bool { return r == ' ' || r == ',' || r == '\t' || r == ';' })
	if len(fields) == 0 {
		return nil, fmt.Errorf("no ships")
	}
	p := make(battleship.Placement, 0, len(fields))
	for _, f := range fields {
		s, err := r.ParseShipCoord(f)
		if err != nil {
			return nil, err
		}
		p = append(p, s)
	}
	return p, nil
}

// pass returns a cell shot before (the first usable cell when none was):
// a legal shot that earns no extra shot.
func (h *bsText) pass() grid.Cell {
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

// Tell implements Text: the shot in words, kept on the boards.
func (h *bsText) Tell(ev battleship.Event) string {
	r := h.rules
	who, whose := "you shoot", "the enemy's"
	if !ev.Mine {
		who, whose = "the enemy shoots", "your"
	}
	if ev.Illegal {
		fmt.Fprintf(h.out, "%s off the board: illegal, a forfeit\n", who)
		return ""
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
	if ev.Mine {
		return ""
	}
	return "   why: "
}

// mark records my shot's answer on the enemy board: a sunk ship's ring
// becomes "no ship can be there".
func (h *bsText) mark(ev battleship.Event) {
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
func (h *bsText) boards() {
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

// PlayBattleshipAgainst is PlayBattleshipAgainstWith with the zero
// Options: no why lines during play, no replay.
func PlayBattleshipAgainst(r *battleship.Rules, h *BattleshipSeat, ai bsplayers.Player, seat int) bsplayers.Result {
	res, _ := PlayBattleshipAgainstWith(r, h, ai, seat, Options{})
	return res
}

// PlayBattleshipAgainstWith plays one Battleship game in-process (Play)
// between the seat h, in seat `seat` (seat 0 shoots first), and ai,
// reporting to h's output. When the game is over it prints EndHeader, the
// AI's fleet, the result and the AI's reasons for each of its shots, and
// returns how the game ended and the replay's write error. A seat whose
// fleet is not legal loses, as on a server.
func PlayBattleshipAgainstWith(r *battleship.Rules, h *BattleshipSeat, ai bsplayers.Player, seat int, opt Options) (bsplayers.Result, error) {
	res, err := Play(BattleshipLocal(r), h.Person, bsplayers.Adapt(func(*rand.Rand) bsplayers.Player { return ai })(nil, 1-seat), seat, 0, opt)
	out := bsplayers.Result{Status: game.Won, Winner: res.Winner, Shots: res.Shots, Err: bsError(&res)}
	if res.Winner < 0 {
		out.Status = game.Drawn
	}
	return out, err
}

// BattleshipLocal is Battleship's part of Play under rules r.
func BattleshipLocal(r *battleship.Rules) *Local[*battleship.Game, battleship.Placement, grid.Cell, battleship.Step, battleship.Event] {
	return &Local[*battleship.Game, battleship.Placement, grid.Cell, battleship.Step, battleship.Event]{
		Rules: r,
		Record: func(w io.Writer, h arena.RecordHeader) arena.Recorder[battleship.Placement, grid.Cell, battleship.Step] {
			return arena.BattleshipRecorder(w, r, h)
		},
		Action: func(c grid.Cell) string { return shotText(r, c) },
		End:    func(w io.Writer, e *End[*battleship.Game, battleship.Placement]) bool { return bsEnd(w, r, e) },
	}
}

// bsError says why a seat forfeited ("human: seat 1: ..."), nil when none
// did; the last seat whose fleet was refused, when one was.
func bsError(res *game.Result) error {
	var err error
	for s, f := range res.Forfeits {
		switch f.Kind {
		case "":
		case game.ForfeitPlacement:
			err = fmt.Errorf("human: seat %d placement: %s", s, f.Reason)
		default:
			if err == nil {
				err = fmt.Errorf("human: seat %d: %s", s, f.Reason)
			}
		}
	}
	return err
}

// bsEnd tells the person how a Battleship game ended: the enemy fleet and
// the result (a game that never started says why first).
func bsEnd(w io.Writer, r *battleship.Rules, e *End[*battleship.Game, battleship.Placement]) bool {
	res, seat := e.Result, e.Seat
	if !res.Started {
		fmt.Fprintf(w, "no game: %v\n", bsError(res))
	}
	fmt.Fprintln(w, EndHeader)
	return fleetEnd(w, r, e.Placements[1-seat], e, &bsWords)
}

// bsWords are the Battleship game's words of its result.
var bsWords = fleetWords{
	reason: "(you fired %d shots, the enemy %d)",
	win:    "you win: %d shots (the enemy fired %d)",
	lose:   "you lose: the enemy sank your fleet in %d shots (you fired %d)",
	draw:   "draw after %d shots",
}

// fleetWords are how a game on a Battleship board words its result for
// the person (fleetEnd), each with the shot counts: reason after the
// reason of a forfeit or a resignation (the person's, then the enemy's),
// win (the person's, the enemy's), lose (the enemy's, the person's), draw
// (both).
type fleetWords struct{ reason, win, lose, draw string }

// fleetEnd ends a game on a Battleship board r for the person, after
// EndHeader: the enemy fleet (nil: none was placed), then the result in
// the game's words.
func fleetEnd[G, P any](w io.Writer, r *battleship.Rules, fleet battleship.Placement, e *End[G, P], words *fleetWords) bool {
	res, seat := e.Result, e.Seat
	if fleet != nil {
		names := make([]string, len(fleet))
		for i, s := range fleet.Normalize() {
			names[i] = r.ShipCoord(s, false)
		}
		fmt.Fprintf(w, "the enemy fleet: %s\n", strings.Join(names, " "))
	}
	mine, theirs := res.Shots[seat], res.Shots[1-seat]
	if why := endReason(e); why != "" && res.Started {
		fmt.Fprintf(w, "you %s: %s "+words.reason+"\n", map[bool]string{true: "win", false: "lose"}[res.Winner == seat], why, mine, theirs)
		return true
	}
	switch res.Winner {
	case seat:
		fmt.Fprintf(w, words.win+"\n", mine, theirs)
	case 1 - seat:
		fmt.Fprintf(w, words.lose+"\n", theirs, mine)
	default:
		fmt.Fprintf(w, words.draw+"\n", mine+theirs)
	}
	return true
}

// shotText says a shot as the seat types it ("E5"), or its raw cell when
// it is off the board.
func shotText(r *battleship.Rules, c grid.Cell) string {
	if c < 0 || int(c) >= r.Board.Size() {
		return fmt.Sprintf("cell %d", c)
	}
	return "shot " + r.Coord(c, false)
}

// Line implements Typed: the cell ("E5").
func (h *bsText) Line(c grid.Cell) string {
	if c < 0 || int(c) >= h.rules.Board.Size() {
		return fmt.Sprintf("cell %d", c)
	}
	return h.rules.Coord(c, false)
}

// PlaceLine implements Typed: each ship as its end cells.
func (h *bsText) PlaceLine(p battleship.Placement) string { return fleetLine(h.rules, p) }

// fleetLine is a Battleship-board fleet as typed: each ship as its end
// cells, separated by spaces.
func fleetLine(r *battleship.Rules, p battleship.Placement) string {
	ships := make([]string, len(p))
	for i, s := range p {
		ships[i] = r.ShipCoord(s, false)
	}
	return strings.Join(ships, " ")
}

// Parse implements Typed: a cell.
func (h *bsText) Parse(line string) (grid.Cell, error) { return h.rules.ParseCoord(line) }

// BattleshipText returns Battleship's Text of a seat of rules, writing to
// out; rng draws the random placements.
func BattleshipText(rules *battleship.Rules, out io.Writer, rng *rand.Rand) Text[battleship.Placement, grid.Cell, battleship.Event] {
	return newBSText(rules, out, rng)
}
