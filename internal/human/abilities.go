package human

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/kaisen-ai/kaisen/arena"
	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/game/abilities"
	"github.com/kaisen-ai/kaisen/game/battleship"
	bsrecord "github.com/kaisen-ai/kaisen/game/battleship/record"
	"github.com/kaisen-ai/kaisen/game/grid"
	abplayers "github.com/kaisen-ai/kaisen/players/abilities"
	"github.com/kaisen-ai/kaisen/replay"
)

// AbilitiesHelp is the abilities seat's command summary, printed on
// "help" and after a line that is not a command.
const AbilitiesHelp = `commands (cells as in Battleship: E5 is column E, row 5; A1 is the top left):
  E5             shoot at E5 (also "shoot E5")
  special E5     shoot at E5 with your 3-deck's ability (AI: the count of ships in the 5x5
                 around it; Humans: the enemy ships next to it lose their abilities next turn)
  move D4 D5     move your 1-deck on D4 one cell up, down, left or right (it does not end the turn)
  salvo E5 F5    AI side: fire at two cells side by side (the turn ends)
  salvo E5       Humans side: fire at the 3x3 around E5; the enemy names the 3 cells hit
  when asked:    y or n (false miss, air defence); or the cells your enemy's salvo hits: D4 E4 F4
  b              show the boards again
  help           this list
(each ability once a turn, while a ship of its length is afloat and not suppressed)`

// abilitiesLegend explains the abilities seat's boards.
const abilitiesLegend = `legend: O your ship, x hit, # sunk ship, o miss, ~ your false miss, . unknown water,
        - rock, [ ] the last shot`

// AbilitiesSeat is the abilities seat for a person: an abplayers.Player
// (the network client's) around the generic Person, for either side. A
// typo or an action the rules would refuse (an ability used twice in a
// turn, a move onto a shot cell ...) is refused with the reason and asked
// again, never sent. When the input ends the seat passes: it repeats a
// shot (legal, earning nothing) and declines every defence, so the
// opponent finishes the game.
type AbilitiesSeat struct {
	*Person[battleship.Placement, abilities.Action, abilities.Told]
	text *abText
}

var _ abplayers.Player = (*AbilitiesSeat)(nil)

// NewAbilities returns the abilities seat `seat` for rules reading lines
// from in and writing to out; rng draws the random placements. The seats
// of successive games share one in.
func NewAbilities(rules *abilities.Rules, seat int, in *bufio.Reader, out io.Writer, rng *rand.Rand) *AbilitiesSeat {
	t := &abText{rules: rules, out: out, rng: rng, k: newABKnow(rules, seat)}
	return &AbilitiesSeat{Person: NewPerson(t, in, out), text: t}
}

// Act implements abplayers.Player: q is the question the seat answers
// (nil on its own turn).
func (h *AbilitiesSeat) Act(q *abilities.Question) abilities.Action {
	h.text.q = q
	return h.Person.Act()
}

// Observe implements abplayers.Player.
func (h *AbilitiesSeat) Observe(ev abilities.Event) {
	h.Person.Observe(abilities.Told{Event: ev})
}

// abText is the abilities game's Text.
type abText struct {
	rules *abilities.Rules
	out   io.Writer
	rng   *rand.Rand
	k     *abKnow
	q     *abilities.Question // the question pending for the seat
	pass  grid.Cell           // the cell repeated once the input ended (grid.None: none yet)
}

var _ Text[battleship.Placement, abilities.Action, abilities.Told] = (*abText)(nil)

// Intro implements Text: the board, the fleet, the sides and options.
func (h *abText) Intro() {
	r, me := h.rules, h.k.me
	fmt.Fprintf(h.out, "board %dx%d; fleet %s (ship lengths)\n", r.Base.Board.Width(), r.Base.Board.Height(), battleship.FormatFleet(r.Base.Fleet))
	fmt.Fprintf(h.out, "you play the %s side, the enemy the %s side%s\n", sideName(r.Sides[me]), sideName(r.Sides[1-me]), optionsText(r.Options))
	fmt.Fprintln(h.out, BattleshipCells)
	fmt.Fprintln(h.out, BattleshipPlacementHelp)
	h.pass = grid.None
}

// sideName says a side as the rules name it ("AI", "Humans").
func sideName(s abilities.Side) string {
	if s == abilities.Humans {
		return "Humans"
	}
	return "AI"
}

// optionsText lists the options that are on ("" when none is).
func optionsText(o abilities.Options) string {
	var on []string
	for _, opt := range []struct {
		set  bool
		name string
	}{{o.SalvoShootsAgain, "salvo_shoots_again"}, {o.FalseMissAnyHit, "false_miss_any_hit"}, {o.MoveMayTouch, "move_may_touch"},
		{o.HideMoves, "hide_moves"}, {o.ScanAfloatOnly, "scan_afloat_only"}, {o.SuppressPassive, "suppress_passive"}} {
		if opt.set {
			on = append(on, opt.name)
		}
	}
	if len(on) == 0 {
		return ""
	}
	return "; options " + strings.Join(on, ", ")
}

// Place implements Text: as in Battleship.
func (h *abText) Place(line string, eof bool) (battleship.Placement, bool) {
	r := h.rules.Base
	p, ok := placeFleet(h.out, r, h.rng, line, eof)
	if !ok || p == nil {
		return p, ok
	}
	sea, err := battleship.NewSea(r, p)
	if err != nil {
		fmt.Fprintf(h.out, "refused: %v\n", err)
		return nil, false
	}
	h.k.place(p)
	names := make([]string, len(p))
	for i, s := range sea.Ships() {
		names[i] = r.ShipCoord(s, false)
	}
	fmt.Fprintf(h.out, "your fleet: %s\n", strings.Join(names, " "))
	return p, true
}

// Turn implements Text: the boards, then the question or the abilities
// left this turn.
func (h *abText) Turn() string {
	h.boards()
	if h.q != nil {
		fmt.Fprintln(h.out, h.question())
		return "answer> "
	}
	fmt.Fprintln(h.out, h.abilitiesLine())
	return "action> "
}

// question says the pending question and how to answer it.
func (h *abText) question() string {
	q, k := h.q, h.k
	switch q.Ask {
	case abilities.AskReveal:
		cells := strings.Fields(k.coords(q.Cells))
		return fmt.Sprintf("the enemy's salvo at %s hits %d of %s: name them (e.g. %q)", k.coord(q.At), q.Count, strings.Join(cells, " "), strings.Join(cells[:min(q.Count, len(cells))], " "))
	case abilities.AskFalseMiss:
		return fmt.Sprintf("the enemy's shot at %s hits your 4-deck: answer \"miss\" (your false miss, once a game)? y or n", k.coord(q.At))
	}
	return fmt.Sprintf("the enemy's shot at %s is on or next to your 4-deck: air defence (no shot happens; %d left)? y or n", k.coord(q.At), k.airLeft)
}

// abilitiesLine lists the abilities the seat may use now.
func (h *abText) abilitiesLine() string {
	k := h.k
	var can []string
	if k.canUse(abilities.MoverLen) {
		var from []string
		for i, s := range k.ships {
			if len(s) == abilities.MoverLen && k.afloat(i) && !k.supNow[i] {
				from = append(from, k.coord(s[0]))
			}
		}
		can = append(can, "move (1-decks on "+strings.Join(from, " ")+")")
	}
	if k.canUse(abilities.SalvoLen) {
		can = append(can, "salvo")
	}
	if k.canUse(abilities.SpecialLen) {
		can = append(can, "special")
	}
	if len(can) == 0 {
		return "your abilities this turn: none left (shoot a cell)"
	}
	return "your abilities this turn: " + strings.Join(can, ", ") + " (\"help\" for the commands)"
}

// Act implements Text: a command, checked as the rules would before it is
// sent.
func (h *abText) Act(line string) (abilities.Action, bool) {
	a, err := h.parse(line)
	switch {
	case errors.Is(err, errHelp):
		fmt.Fprintln(h.out, AbilitiesHelp)
		return a, false
	case errors.Is(err, errBoards):
		h.boards()
		return a, false
	case errors.Is(err, errEmpty):
		return a, false
	case err != nil:
		fmt.Fprintf(h.out, "not sent: %v (\"help\" lists the commands)\n", err)
		return a, false
	}
	if err := h.k.check(a, h.q); err != nil {
		fmt.Fprintf(h.out, "not sent: %v\n", err)
		return a, false
	}
	h.sent(a)
	return a, true
}

// sent notes an action the seat plays.
func (h *abText) sent(a abilities.Action) {
	h.k.acted(a, h.q)
	h.q = nil
}

// errEmpty is an empty line: asked again, nothing said.
var errEmpty = errors.New("empty line")

// ParseAbilities reads one typed line of an abilities seat into an
// action, without checking that it is legal: a cell or "shoot CELL",
// "special CELL", "move FROM TO", "salvo CELL [CELL]", and the answers
// "y"/"n" (a defence) and "reveal CELL..." or bare cells (a salvo's
// cells). side is the seat's (an AI salvo names two cells, a Humans'
// one), q the question pending for the seat (nil: none). "help" and "b"
// give errors for which the seat prints the help and the boards.
func ParseAbilities(r *abilities.Rules, side abilities.Side, q *abilities.Question, line string) (abilities.Action, error) {
	fields := strings.Fields(strings.ToLower(line))
	if len(fields) == 0 {
		return abilities.Action{}, errEmpty
	}
	verb, args := fields[0], fields[1:]
	cells := func(want int, what string) ([]grid.Cell, error) {
		if want >= 0 && len(args) != want {
			return nil, fmt.Errorf("%s takes %d cell(s), e.g. %q", verb, want, what)
		}
		out := make([]grid.Cell, len(args))
		for i, f := range args {
			c, err := r.Base.ParseCoord(f)
			if err != nil {
				return nil, err
			}
			out[i] = c
		}
		return out, nil
	}
	switch verb {
	case "help", "h", "?":
		return abilities.Action{}, errHelp
	case "b", "board", "boards":
		return abilities.Action{}, errBoards
	case "y", "yes", "n", "no":
		if len(args) != 0 {
			return abilities.Action{}, fmt.Errorf("%q takes nothing after it", verb)
		}
		return abilities.Action{Kind: abilities.Defend, Use: verb[0] == 'y'}, nil
	case "shoot", "fire", "special", "3":
		c, err := cells(1, verb+" E5")
		if err != nil {
			return abilities.Action{}, err
		}
		return abilities.Action{Kind: abilities.Shoot, At: c[0], Special: verb == "special" || verb == "3"}, nil
	case "move", "m":
		c, err := cells(2, "move D4 D5")
		if err != nil {
			return abilities.Action{}, err
		}
		return abilities.Action{Kind: abilities.Move, At: c[0], To: c[1]}, nil
	case "salvo":
		if side == abilities.Humans {
			c, err := cells(1, "salvo E5")
			if err != nil {
				return abilities.Action{}, err
			}
			return abilities.Action{Kind: abilities.Salvo, At: c[0], To: c[0]}, nil
		}
		c, err := cells(2, "salvo E5 F5")
		if err != nil {
			return abilities.Action{}, err
		}
		return abilities.Action{Kind: abilities.Salvo, At: min(c[0], c[1]), To: max(c[0], c[1])}, nil
	case "reveal":
		c, err := cells(-1, "")
		if err != nil {
			return abilities.Action{}, err
		}
		return abilities.Action{Kind: abilities.Reveal, Cells: c}, nil
	}
	args = fields
	c, err := cells(-1, "")
	if err != nil {
		return abilities.Action{}, fmt.Errorf("unknown command %q (%w)", verb, err)
	}
	if q != nil && q.Ask == abilities.AskReveal {
		return abilities.Action{Kind: abilities.Reveal, Cells: c}, nil
	}
	if len(c) != 1 {
		return abilities.Action{}, errors.New("shoot at one cell at a time, e.g. \"E5\"")
	}
	return abilities.Action{Kind: abilities.Shoot, At: c[0]}, nil
}

func (h *abText) parse(line string) (abilities.Action, error) {
	return ParseAbilities(h.rules, h.rules.Sides[h.k.me], h.q, line)
}

// Resign implements Text: pass (a repeated shot, a declined defence, the
// first cells a salvo may hit).
// Forfeit implements forfeiter: a shot off the board, which loses the
// game at once (the person resigned).
func (h *abText) Forfeit() abilities.Action {
	return abilities.Action{Kind: abilities.Shoot, At: grid.None}
}

func (h *abText) Resign() (abilities.Action, string) {
	var a abilities.Action
	switch {
	case h.q == nil:
		if h.pass == grid.None {
			h.pass = h.rules.Base.Board.Usable().First()
			if cs := h.k.fired.Cells(); len(cs) > 0 {
				h.pass = cs[0]
			}
		}
		a = abilities.Action{Kind: abilities.Shoot, At: h.pass}
	case h.q.Ask == abilities.AskReveal:
		a = abilities.Action{Kind: abilities.Reveal, Cells: h.q.Cells.Cells()[:h.q.Count]}
	default:
		a = abilities.Action{Kind: abilities.Defend}
	}
	h.sent(a)
	return a, "\n(end of input: you pass every turn from now on and decline every defence; your opponent finishes the game)"
}

// Tell implements Text: the action in words, kept on the boards.
func (h *abText) Tell(o abilities.Told) string {
	ev := o.Event
	if o.Pending != nil {
		h.q = o.Pending
	}
	h.k.observe(ev)
	fmt.Fprintln(h.out, h.eventText(ev))
	if ev.Mine {
		return ""
	}
	return "   why: "
}

// eventText says what the seat was told of one action.
func (h *abText) eventText(ev abilities.Event) string {
	k := h.k
	who, whose, s := "the enemy", "your", "s"
	if ev.Attacker == k.me {
		who, whose, s = "you", "the enemy's", ""
	}
	var sb strings.Builder
	switch ev.Kind {
	case abilities.Move:
		if ev.Mine {
			return fmt.Sprintf("you move your 1-deck from %s to %s", k.coord(ev.From), k.coord(ev.To))
		}
		return "the enemy moves a 1-deck (you are not told which, nor where)"
	case abilities.Reveal:
		if ev.Mine {
			sb.WriteString("you name the cells the enemy's salvo hits")
		} else {
			sb.WriteString("the enemy names the cells your salvo hits")
		}
	case abilities.Defend:
		sb.WriteString("you answer; the enemy shoots")
	case abilities.Salvo:
		sb.WriteString(who + " salvo")
		if s != "" {
			sb.WriteString("es")
		}
	default:
		sb.WriteString(who + " shoot" + s)
	}
	single := len(ev.Cells) == 1 && (ev.Kind == abilities.Shoot || ev.Kind == abilities.Defend)
	if single {
		sb.WriteString(" " + k.coord(ev.Cells[0].At))
	} else if q := ev.Ask; q != nil && len(ev.Cells) == 0 {
		sb.WriteString(" at " + k.coord(q.At))
	}
	if ev.Special && ev.Kind == abilities.Shoot {
		sb.WriteString(" with the 3-deck")
	}
	for i, c := range ev.Cells {
		switch {
		case single:
			sb.WriteString(": ")
		case i == 0:
			sb.WriteString(": " + k.coord(c.At) + " ")
		default:
			sb.WriteString(", " + k.coord(c.At) + " ")
		}
		sb.WriteString(cellText(k.r.Base, c, whose))
	}
	if ev.Scan >= 0 && len(ev.Cells) > 0 {
		fmt.Fprintf(&sb, "; count: %d ships in the 5x5 around %s", ev.Scan, k.coord(ev.Cells[0].At))
	}
	if ev.Special && k.r.Sides[ev.Attacker] == abilities.Humans && len(ev.Cells) > 0 && !ev.Cells[0].AirDefence {
		fmt.Fprintf(&sb, "; %s ships next to %s lose their abilities in %s next turn", whose, k.coord(ev.Cells[0].At), whose)
	}
	if q := ev.Ask; q != nil && q.Ask == abilities.AskReveal && q.Seat != k.me {
		fmt.Fprintf(&sb, ": the enemy names the %d cells it hits", q.Count)
	}
	switch {
	case ev.Status != game.Running || ev.Ask != nil || len(ev.Cells) == 0:
	case !ev.TurnEnd:
		sb.WriteString("; " + who + " shoot" + s + " again")
	}
	return sb.String()
}

// cellText says one cell's answer; whose is the fleet shot at ("your",
// "the enemy's").
func cellText(r *battleship.Rules, c abilities.CellResult, whose string) string {
	switch {
	case c.AirDefence:
		return "air defence: no shot"
	case c.FalseMiss:
		return "hit, answered miss (your false miss)"
	}
	s := c.Outcome.String()
	if c.Repeat {
		s += " (again)"
	}
	if c.Outcome == battleship.Kill && !c.Repeat {
		s += fmt.Sprintf(", %s %d-cell ship %s sinks", whose, len(c.Sunk), r.ShipCoord(c.Sunk, false))
	}
	return s
}

// boards draws my fleet under the enemy's fire beside what I know of the
// enemy's waters.
func (h *abText) boards() {
	k := h.k
	b := k.r.Base.Board
	cells := make([]byte, b.Size())
	for c := range cells {
		switch {
		case !b.IsUsable(grid.Cell(c)):
			cells[c] = '-'
		case k.shot.Has(grid.Cell(c)):
			cells[c] = 'o'
		default:
			cells[c] = '.'
		}
	}
	afloat := 0
	for i, s := range k.ships {
		if k.afloat(i) {
			afloat++
		}
		for _, c := range s {
			switch {
			case !k.afloat(i):
				cells[c] = '#'
			case k.lied.Has(c):
				cells[c] = '~'
			case k.shot.Has(c):
				cells[c] = 'x'
			default:
				cells[c] = 'O'
			}
		}
	}
	status := fmt.Sprintf("afloat %d/%d", afloat, len(k.ships))
	switch {
	case k.r.Sides[k.me] == abilities.AI && k.fmSpent:
		status += ", false miss spent"
	case k.r.Sides[k.me] == abilities.Humans:
		status += fmt.Sprintf(", air defence %d left", k.airLeft)
	}
	left := bsrecord.Board{Title: "your fleet", Cells: cells, Last: k.last[1], Status: status}.Lines(b, false)
	right := bsrecord.Board{Title: "the enemy's waters", Cells: k.enemy, Last: k.last[0],
		Status: fmt.Sprintf("sunk %d/%d", k.sunk, len(k.r.Base.Fleet))}.Lines(b, false)
	fmt.Fprintln(h.out)
	replay.WriteSideBySide(h.out, left, right)
	fmt.Fprintln(h.out, abilitiesLegend)
}

// PlayAbilitiesAgainstWith plays one abilities game in-process (Play)
// between the seat h and ai, h's seat first acting first when first is
// h's seat, reporting to h's output. When the game is over it prints
// EndHeader, the AI's fleet (where it is then), the result and the AI's
// reasons, and returns the table's result and the replay's write error.
func PlayAbilitiesAgainstWith(r *abilities.Rules, h *AbilitiesSeat, ai abplayers.Player, first int, opt Options) (game.Result, error) {
	seat := h.text.k.me
	return Play(AbilitiesLocal(r), h.Person, abplayers.Adapt(func(*rand.Rand, int) abplayers.Player { return ai })(nil, 1-seat), seat, first, opt)
}

// AbilitiesLocal is the abilities game's part of Play under rules r.
func AbilitiesLocal(r *abilities.Rules) *Local[*abilities.Game, battleship.Placement, abilities.Action, abilities.Step, abilities.Told] {
	return &Local[*abilities.Game, battleship.Placement, abilities.Action, abilities.Step, abilities.Told]{
		Rules: r,
		Record: func(w io.Writer, h arena.RecordHeader) arena.Recorder[battleship.Placement, abilities.Action, abilities.Step] {
			return arena.AbilitiesRecorder(w, r, h)
		},
		Action: func(a abilities.Action) string { return abActionText(r.Base, a) },
		End:    func(w io.Writer, e *End[*abilities.Game, battleship.Placement]) bool { return abEnd(w, r, e) },
	}
}

// abEnd tells the person how an abilities game ended: the enemy fleet
// where it is (1-decks moved), and the result.
func abEnd(w io.Writer, r *abilities.Rules, e *End[*abilities.Game, battleship.Placement]) bool {
	res, seat := e.Result, e.Seat
	if !res.Started {
		s := firstForfeit(res)
		fmt.Fprintf(w, "no game: seat %d: %s\n", s, res.Forfeits[s].Reason)
	}
	fmt.Fprintln(w, EndHeader)
	fleet := e.Placements[1-seat]
	if res.Started {
		fleet = e.Game.Ships(1 - seat)
	}
	return fleetEnd(w, r.Base, fleet, e, &abWords)
}

// abWords are the abilities game's words of its result: it counts the
// cells fired at.
var abWords = fleetWords{
	reason: "(you fired at %d cells, the enemy at %d)",
	win:    "you win: %d cells fired at (the enemy fired at %d)",
	lose:   "you lose: the enemy sank your fleet firing at %d cells (you fired at %d)",
	draw:   "draw after %d cells fired at",
}

// abActionText says an abilities action as the seat types it ("shoot
// E5", "special E5", "move D4 D5", "salvo E5 F5", "reveal D4 E4 F4",
// "y").
func abActionText(r *battleship.Rules, a abilities.Action) string {
	name := func(c grid.Cell) string {
		if c < 0 || int(c) >= r.Board.Size() {
			return fmt.Sprintf("cell %d", c)
		}
		return r.Coord(c, false)
	}
	switch a.Kind {
	case abilities.Shoot:
		if a.Special {
			return "special " + name(a.At)
		}
		return "shoot " + name(a.At)
	case abilities.Move:
		return "move " + name(a.At) + " " + name(a.To)
	case abilities.Salvo:
		if a.To == a.At {
			return "salvo " + name(a.At)
		}
		return "salvo " + name(a.At) + " " + name(a.To)
	case abilities.Reveal:
		cs := slices.Clone(a.Cells)
		slices.Sort(cs)
		names := make([]string, len(cs))
		for i, c := range cs {
			names[i] = name(c)
		}
		return "reveal " + strings.Join(names, " ")
	case abilities.Defend:
		if a.Use {
			return "y"
		}
		return "n"
	}
	return a.Kind.String()
}

// Line implements Typed: the action's command (abActionText).
func (h *abText) Line(a abilities.Action) string { return abActionText(h.rules.Base, a) }

// PlaceLine implements Typed: as in Battleship.
func (h *abText) PlaceLine(p battleship.Placement) string { return fleetLine(h.rules.Base, p) }

// Parse implements Typed: ParseAbilities for the seat's side and pending
// question.
func (h *abText) Parse(line string) (abilities.Action, error) { return h.parse(line) }

// AbilitiesText returns the abilities game's Text of seat of rules,
// writing to out; rng draws the random placements.
func AbilitiesText(rules *abilities.Rules, seat int, out io.Writer, rng *rand.Rand) Text[battleship.Placement, abilities.Action, abilities.Told] {
	return &abText{rules: rules, out: out, rng: rng, k: newABKnow(rules, seat)}
}
