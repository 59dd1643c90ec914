package protocol

// The abilities variant of the Kaisen battleship protocol (docs/protocol.md,
// section "Abilities"): the battleship protocol's framing, placement, turn
// and end lines, a hello line that names the protocol version, the seat,
// the sides and the rules options, the ability actions and the defender's
// answers, and one result line per action telling each seat what the rules
// tell it (abilities.Event). Positions are [row, col].

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/game/abilities"
	"github.com/kaisen-ai/kaisen/game/battleship"
	"github.com/kaisen-ai/kaisen/game/grid"
)

// AbilitiesVersion is the version of the abilities protocol this package
// speaks; the server's hello names it and a client refuses any other.
// Version 2 (docs/protocol.md, "Constant shape") added the confirm line
// (ConfirmAnswer) and dropped the "your turn" after a seat's own move.
const AbilitiesVersion = 2

// ConfirmAnswer is the defender's answer to a confirm line
// (EncodeAbilitiesConfirm): the same line as declining a defence,
// {"defend":{"use":false}}.
var ConfirmAnswer = abilities.Action{Kind: abilities.Defend, Use: false}

// ErrVersion is wrapped by the error of a client that does not speak the
// version a server's hello names.
var ErrVersion = errors.New("protocol: unsupported abilities protocol version")

// maxRevealCells bounds the cells of a reveal line (a 3x3 has 9).
const maxRevealCells = 9

// AbilitiesHello is the first line an abilities server sends each client:
// the protocol version, the client's seat (0 or 1), both seats' sides and
// the rules options. The board and fleet are the classic ones (10x10,
// 4,3,3,2,2,2,1,1,1,1) in versions 1 and 2.
type AbilitiesHello struct {
	Version int
	Seat    int
	Sides   [2]abilities.Side
	Options abilities.Options
}

// abOption is one rules option as the hello names it (its YAML and JSON
// key in abilities.Options).
type abOption struct {
	name string
	at   func(o *abilities.Options) *bool
}

var abOptions = []abOption{
	{"salvo_shoots_again", func(o *abilities.Options) *bool { return &o.SalvoShootsAgain }},
	{"false_miss_any_hit", func(o *abilities.Options) *bool { return &o.FalseMissAnyHit }},
	{"move_may_touch", func(o *abilities.Options) *bool { return &o.MoveMayTouch }},
	{"hide_moves", func(o *abilities.Options) *bool { return &o.HideMoves }},
	{"scan_afloat_only", func(o *abilities.Options) *bool { return &o.ScanAfloatOnly }},
	{"suppress_passive", func(o *abilities.Options) *bool { return &o.SuppressPassive }},
}

// EncodeAbilitiesHello prints h:
//
//	{"hello":{"game":"abilities","version":2,"seat":0,"sides":["ai","humans"],"options":{"hide_moves":true}}}
//
// options lists the options that are on, in the order of abilities.Options.
func EncodeAbilitiesHello(h AbilitiesHello) []byte {
	w := newWriter(Classic, 128)
	w.raw(`{"hello":{"game":`)
	w.str(abilities.Name)
	w.raw(`,"version":`)
	w.int(h.Version)
	w.raw(`,"seat":`)
	w.int(h.Seat)
	w.raw(`,"sides":[`)
	w.str(h.Sides[0].String())
	w.byte(',')
	w.str(h.Sides[1].String())
	w.raw(`],"options":{`)
	n := 0
	for _, o := range abOptions {
		if *o.at(&h.Options) {
			if n > 0 {
				w.byte(',')
			}
			w.str(o.name)
			w.raw(":true")
			n++
		}
	}
	w.raw("}}}")
	return w.b
}

// DecodeAbilitiesHello parses a hello line. A version other than
// AbilitiesVersion is refused (ErrVersion) before anything after it is
// read. Unknown keys of "hello" are ignored (room for compatible
// extensions), but every known one is checked: the game must be
// "abilities", the seat 0 or 1, the sides "ai" or "humans", every option a
// known name with a boolean. Failures are a *ProtocolError.
func DecodeAbilitiesHello(line []byte) (AbilitiesHello, error) {
	h, err := decodeAbilitiesHello(line)
	if err != nil {
		return AbilitiesHello{}, wrap(line, err)
	}
	return h, nil
}

func decodeAbilitiesHello(line []byte) (AbilitiesHello, error) {
	var h AbilitiesHello
	ms, err := object(line, "hello line")
	if err != nil {
		return h, err
	}
	raw, ok := lookup(ms, "hello")
	if !ok || len(ms) != 1 {
		return h, fmt.Errorf(`%w: a hello line is {"hello":{...}}`, ErrType)
	}
	body, err := members(raw, `"hello"`)
	if err != nil {
		return h, err
	}
	need := func(key string) (json.RawMessage, error) {
		v, ok := lookup(body, key)
		if !ok {
			return nil, fmt.Errorf(`%w: "hello" needs %q`, ErrType, key)
		}
		return v, nil
	}
	v, err := need("game")
	if err != nil {
		return h, err
	}
	game, err := str(v, `"hello.game"`)
	if err != nil {
		return h, err
	}
	if game != abilities.Name {
		return h, fmt.Errorf("%w: hello for game %q, want %q", ErrUnexpected, game, abilities.Name)
	}
	if v, err = need("version"); err != nil {
		return h, err
	}
	if h.Version, err = integer(v, `"hello.version"`); err != nil {
		return h, err
	}
	if h.Version != AbilitiesVersion { // checked first: another version may have other keys
		return h, fmt.Errorf("%w: the server speaks version %d, this side %d", ErrVersion, h.Version, AbilitiesVersion)
	}
	if v, err = need("seat"); err != nil {
		return h, err
	}
	if h.Seat, err = integer(v, `"hello.seat"`); err != nil {
		return h, err
	}
	if h.Seat != 0 && h.Seat != 1 {
		return h, fmt.Errorf("%w: hello seat %d, want 0 or 1", ErrType, h.Seat)
	}
	if v, err = need("sides"); err != nil {
		return h, err
	}
	sides, err := array(v, `"hello.sides"`)
	if err != nil {
		return h, err
	}
	if len(sides) != 2 {
		return h, fmt.Errorf("%w: hello has %d sides, want 2", ErrType, len(sides))
	}
	for i, sraw := range sides {
		s, err := str(sraw, fmt.Sprintf(`"hello.sides"[%d]`, i))
		if err != nil {
			return h, err
		}
		if h.Sides[i], err = abilities.ParseSide(s); err != nil {
			return h, fmt.Errorf("%w: %w", ErrType, err)
		}
	}
	if v, err = need("options"); err != nil {
		return h, err
	}
	opts, err := members(v, `"hello.options"`)
	if err != nil {
		return h, err
	}
	for _, m := range opts {
		i := slices.IndexFunc(abOptions, func(o abOption) bool { return o.name == m.key })
		if i < 0 {
			return h, fmt.Errorf("%w: unknown rules option %q", ErrType, m.key)
		}
		on, err := boolean(m.val, fmt.Sprintf(`"hello.options.%s"`, m.key))
		if err != nil {
			return h, err
		}
		*abOptions[i].at(&h.Options) = on
	}
	return h, nil
}

// EncodeAbilitiesAction prints the line of action a (cells off the board
// as [-1,-1]):
//
//	{"shoot":{"to":[r,c]}}                      a shot
//	{"shoot":{"to":[r,c],"special":true}}       a shot with the 3-deck's ability
//	{"move":{"from":[r,c],"to":[r,c]}}          a 1-deck moves
//	{"salvo":{"cells":[[r,c],[r,c]]}}           the AI's salvo (two cells in a row)
//	{"salvo":{"center":[r,c]}}                  the Humans' salvo (a 3x3)
//	{"reveal":{"cells":[[r,c],[r,c],[r,c]]}}    the defender names the cells a Humans' salvo hits
//	{"defend":{"use":true}}                     the defender spends (true) or keeps (false) its 4-deck's defence
func EncodeAbilitiesAction(r *abilities.Rules, a abilities.Action) []byte {
	b := r.Base.Board
	w := newWriter(Classic, 48)
	switch a.Kind {
	case abilities.Shoot:
		w.raw(`{"shoot":{"to":`)
		w.rowCol(b, a.At)
		if a.Special {
			w.raw(`,"special":true`)
		}
	case abilities.Move:
		w.raw(`{"move":{"from":`)
		w.rowCol(b, a.At)
		w.raw(`,"to":`)
		w.rowCol(b, a.To)
	case abilities.Salvo:
		if a.At == a.To {
			w.raw(`{"salvo":{"center":`)
			w.rowCol(b, a.At)
		} else {
			w.raw(`{"salvo":{"cells":`)
			w.rowCols(b, []grid.Cell{a.At, a.To})
		}
	case abilities.Reveal:
		w.raw(`{"reveal":{"cells":`)
		w.rowCols(b, a.Cells)
	case abilities.Defend:
		w.raw(`{"defend":{"use":`)
		if a.Use {
			w.raw("true")
		} else {
			w.raw("false")
		}
	default:
		w.raw(`{"`)
		w.raw(a.Kind.String())
		w.raw(`":{`)
	}
	w.raw("}}")
	return w.b
}

// DecodeAbilitiesAction parses an action line (EncodeAbilitiesAction's
// shapes, any JSON spacing, no other keys). Integers off the board decode
// to grid.None, and a salvo's two cells are put lowest first: whether the
// action is legal is for the rules (abilities.Game.Apply), which refuse it
// with ErrIllegal. Any other deviation is a *ProtocolError.
func DecodeAbilitiesAction(line []byte, r *abilities.Rules) (abilities.Action, error) {
	a, err := decodeAbilitiesAction(line, r.Base.Board)
	if err != nil {
		return abilities.Action{}, wrap(line, err)
	}
	return a, nil
}

func decodeAbilitiesAction(line []byte, b *grid.Board) (abilities.Action, error) {
	a := abilities.Action{At: grid.None, To: grid.None}
	ms, err := object(line, "action")
	if err != nil {
		return a, err
	}
	if len(ms) != 1 {
		return a, fmt.Errorf(`%w: an action is one of "shoot", "move", "salvo", "reveal", "defend"`, ErrType)
	}
	name := ms[0].key
	body, err := members(ms[0].val, fmt.Sprintf("%q", name))
	if err != nil {
		return a, err
	}
	// fields checks that body has exactly the keys req and, optionally, opt.
	fields := func(req []string, opt ...string) error {
		for _, k := range req {
			if _, ok := lookup(body, k); !ok {
				return fmt.Errorf("%w: %q needs %q", ErrType, name, k)
			}
		}
		for _, m := range body {
			if !slices.Contains(req, m.key) && !slices.Contains(opt, m.key) {
				return fmt.Errorf("%w: %q has unknown key %q", ErrType, name, m.key)
			}
		}
		return nil
	}
	cell := func(key string) (grid.Cell, error) {
		v, _ := lookup(body, key)
		return rowCol(v, b, fmt.Sprintf(`"%s.%s"`, name, key))
	}
	switch name {
	case "shoot":
		a.Kind = abilities.Shoot
		if err := fields([]string{"to"}, "special"); err != nil {
			return a, err
		}
		if a.At, err = cell("to"); err != nil {
			return a, err
		}
		if v, ok := lookup(body, "special"); ok {
			if a.Special, err = boolean(v, `"shoot.special"`); err != nil {
				return a, err
			}
		}
	case "move":
		a.Kind = abilities.Move
		if err := fields([]string{"from", "to"}); err != nil {
			return a, err
		}
		if a.At, err = cell("from"); err != nil {
			return a, err
		}
		if a.To, err = cell("to"); err != nil {
			return a, err
		}
	case "salvo":
		a.Kind = abilities.Salvo
		if _, ok := lookup(body, "center"); ok {
			if err := fields([]string{"center"}); err != nil {
				return a, err
			}
			a.At, err = cell("center")
			a.To = a.At
			return a, err
		}
		if err := fields([]string{"cells"}); err != nil {
			return a, fmt.Errorf(`%w (or "center")`, err)
		}
		v, _ := lookup(body, "cells")
		cells, err := rowColList(v, b, `"salvo.cells"`, 2)
		if err != nil {
			return a, err
		}
		if len(cells) != 2 {
			return a, fmt.Errorf("%w: a salvo names 2 cells, got %d", ErrType, len(cells))
		}
		a.At, a.To = min(cells[0], cells[1]), max(cells[0], cells[1])
	case "reveal":
		a.Kind = abilities.Reveal
		if err := fields([]string{"cells"}); err != nil {
			return a, err
		}
		v, _ := lookup(body, "cells")
		if a.Cells, err = rowColList(v, b, `"reveal.cells"`, maxRevealCells); err != nil {
			return a, err
		}
	case "defend":
		a.Kind = abilities.Defend
		if err := fields([]string{"use"}); err != nil {
			return a, err
		}
		v, _ := lookup(body, "use")
		if a.Use, err = boolean(v, `"defend.use"`); err != nil {
			return a, err
		}
	default:
		return a, fmt.Errorf(`%w: unknown action %q: want "shoot", "move", "salvo", "reveal" or "defend"`, ErrType, name)
	}
	return a, nil
}

// rowColList parses raw as a list of at most limit [row, col] cells (off
// the board: grid.None).
func rowColList(raw json.RawMessage, b *grid.Board, what string, limit int) ([]grid.Cell, error) {
	elems, err := array(raw, what)
	if err != nil {
		return nil, err
	}
	if len(elems) > limit {
		return nil, fmt.Errorf("%w: %s has %d cells, at most %d", ErrType, what, len(elems), limit)
	}
	out := make([]grid.Cell, 0, len(elems))
	for k, e := range elems {
		c, err := rowCol(e, b, fmt.Sprintf("%s[%d]", what, k))
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}

// askNames are the wire names of the questions, by abilities.Ask.
var askNames = [...]string{abilities.AskReveal: "reveal", abilities.AskFalseMiss: "false_miss", abilities.AskAirDefence: "air_defence"}

// EncodeAbilitiesEvent prints the result line that tells one seat ev, its
// view of an action (the server sends none for a Silent event), and the
// game's outcome for that seat (NoOutcome, Lost, Won):
//
//	{"result":{"seat":0,"action":"shoot","special":true,"cells":[{"position":[r,c],"outcome":"hit"}],"scan":2,"turn_end":true}}
//
// Keys, in this order, only when they say something: "seat" (who acted)
// and "action" (its kind) always; "moved" for a move ({"from":..,"to":..}
// to its owner, true to the enemy); "special" when the 3-deck's ability
// came with the shot; "cells", the cells answered by this action, each
// {"position","outcome"[,"ship"][,"repeat"][,"air_defence"][,"false_miss"]}
// ("ship": a kill's cells, sorted; "air_defence": no shot happened;
// "false_miss": told to the defender only, the shooter reads "miss");
// "scan", the AI's 5x5 count; "ask", the question now pending for the
// defender ({"kind":"reveal","center":..,"cells":[..],"count":3} or
// {"kind":"false_miss"|"air_defence","at":..}); "turn_end" when the
// attacker's turn ended. After "result": "outcome" on the line that ends a
// won game, "draw":true on the one that ends a drawn game.
func EncodeAbilitiesEvent(r *abilities.Rules, ev abilities.Event, outcome int) []byte {
	b := r.Base.Board
	w := newWriter(Classic, 128+32*len(ev.Cells))
	w.raw(`{"result":{"seat":`)
	w.int(ev.Seat)
	w.raw(`,"action":`)
	w.str(ev.Kind.String())
	if ev.Kind == abilities.Move && ev.Moved {
		if ev.Mine {
			w.raw(`,"moved":{"from":`)
			w.rowCol(b, ev.From)
			w.raw(`,"to":`)
			w.rowCol(b, ev.To)
			w.byte('}')
		} else {
			w.raw(`,"moved":true`)
		}
	}
	if ev.Special {
		w.raw(`,"special":true`)
	}
	if len(ev.Cells) > 0 {
		w.raw(`,"cells":[`)
		for i, c := range ev.Cells {
			if i > 0 {
				w.byte(',')
			}
			w.raw(`{"position":`)
			w.rowCol(b, c.At)
			w.raw(`,"outcome":`)
			w.str(c.Outcome.String())
			if c.Outcome == battleship.Kill {
				w.raw(`,"ship":`)
				w.rowCols(b, c.Sunk)
			}
			if c.Repeat {
				w.raw(`,"repeat":true`)
			}
			if c.AirDefence {
				w.raw(`,"air_defence":true`)
			}
			if c.FalseMiss {
				w.raw(`,"false_miss":true`)
			}
			w.byte('}')
		}
		w.byte(']')
	}
	if ev.Scan >= 0 {
		w.raw(`,"scan":`)
		w.int(ev.Scan)
	}
	if q := ev.Ask; q != nil {
		w.raw(`,"ask":{"kind":`)
		w.str(askNames[q.Ask])
		if q.Ask == abilities.AskReveal {
			w.raw(`,"center":`)
			w.rowCol(b, q.At)
			w.raw(`,"cells":`)
			w.rowCols(b, q.Cells.Cells())
			w.raw(`,"count":`)
			w.int(q.Count)
		} else {
			w.raw(`,"at":`)
			w.rowCol(b, q.At)
		}
		w.byte('}')
	}
	if ev.TurnEnd {
		w.raw(`,"turn_end":true`)
	}
	w.byte('}')
	w.outcome(outcome)
	if ev.Status == game.Drawn {
		w.raw(`,"draw":true`)
	}
	w.byte('}')
	return w.b
}

// EncodeAbilitiesConfirm prints the confirm line the server sends the
// defender of a shot at c that raised no defence question while the
// defender's 4-deck defence may still be live (docs/protocol.md,
// "Constant shape"):
//
//	{"confirm":{"at":[r,c]}}
//
// "your turn" follows, and the defender answers ConfirmAnswer. The
// shooter is told the shot only then, so that it waits for the defender
// on every such shot, asked or not.
func EncodeAbilitiesConfirm(r *abilities.Rules, c grid.Cell) []byte {
	w := newWriter(Classic, 32)
	w.raw(`{"confirm":{"at":`)
	w.rowCol(r.Base.Board, c)
	w.raw("}}")
	return w.b
}

// Confirms is the confirm schedule of protocol version 2 (docs/abilities.md,
// "Constant shape"): which shots the defender confirms before their
// shooter is told them. A shot needs a confirm when it raised no defence
// question (false miss, air defence) while the defender's defence may
// still be live as the shooter knows it: a 4-deck of the defender not
// sunk, and for the Humans an air defence not spent. So the shooter waits
// for the defender on every such shot, and what it waits for depends only
// on what it was told. A host calls Answered before applying each action
// and Told after.
type Confirms struct {
	rules *abilities.Rules
	fours int    // 4-decks in the fleet
	sunk  [2]int // by seat: its 4-decks sunk, as its enemy was told
	air   [2]int // by seat: its air defences spent, as its enemy was told
	// asked: the cells of the defence questions answered since the
	// shooter was last told a volley
	asked []grid.Cell
}

// NewConfirms is the schedule of a game of r, at its start.
func NewConfirms(r *abilities.Rules) *Confirms {
	c := &Confirms{rules: r}
	for _, l := range r.Base.Fleet {
		if l == abilities.DefenderLen {
			c.fours++
		}
	}
	return c
}

// Answered records action a, about to be applied while question q (nil:
// none) is pending.
func (c *Confirms) Answered(q *abilities.Question, a abilities.Action) {
	if q != nil && q.Ask != abilities.AskReveal && a.Kind == abilities.Defend {
		c.asked = append(c.asked, q.At)
	}
}

// Told returns, for step st, the defender and the cells it must confirm
// (in this order) before the shooter is told its view of st; none when st
// tells the shooter no volley.
func (c *Confirms) Told(st abilities.Step) (defender int, cells []grid.Cell) {
	att := st.Views[0].Attacker
	v := st.Views[att]
	d := 1 - att
	if v.Silent || len(v.Cells) == 0 {
		return d, nil
	}
	if c.live(d) {
		for _, r := range v.Cells {
			if i := slices.Index(c.asked, r.At); i >= 0 {
				c.asked = slices.Delete(c.asked, i, i+1)
				continue
			}
			cells = append(cells, r.At)
		}
	}
	c.asked = c.asked[:0]
	for _, r := range v.Cells {
		if r.Outcome == battleship.Kill && len(r.Sunk) == abilities.DefenderLen {
			c.sunk[d]++
		}
		if r.AirDefence {
			c.air[d]++
		}
	}
	return d, cells
}

// live reports whether seat d's defence may still be live as its enemy
// knows it.
func (c *Confirms) live(d int) bool {
	if c.sunk[d] >= c.fours {
		return false
	}
	return c.rules.Sides[d] == abilities.AI || c.air[d] < abilities.AirDefenceCharges
}

// AbilitiesResult is a decoded abilities result line, outcome line,
// error line or confirm line.
type AbilitiesResult struct {
	// Confirm: a confirm line (EncodeAbilitiesConfirm) for the shot at
	// ConfirmAt; the next "your turn" is answered ConfirmAnswer.
	Confirm   bool
	ConfirmAt grid.Cell
	// HasEvent: the line has a "result": Event is what it tells.
	HasEvent bool
	Event    abilities.Event
	// GameOutcome is NoOutcome, Lost or Won.
	GameOutcome int
	// Draw: the line ends a drawn game.
	Draw bool
	// Error is the message of an {"error":...} line ("" otherwise).
	Error string
}

// DecodeAbilitiesEvent parses a line of EncodeAbilitiesEvent,
// EncodeOutcome, EncodeErrorLine or EncodeAbilitiesConfirm as received by
// seat me, and rebuilds
// the abilities.Event the rules gave that seat: Mine, Attacker, Status,
// Winner and Next are worked out from the line (Next: the defender when a
// question is pending, else the other seat when the turn ended in a game
// still running, else the attacker). Keys other than result, outcome, draw
// and error are ignored; the known ones are checked strictly (every cell
// on the board, a kill lists a ship that holds its position). Failures are
// a *ProtocolError.
func DecodeAbilitiesEvent(line []byte, r *abilities.Rules, me int) (AbilitiesResult, error) {
	res, err := decodeAbilitiesEvent(line, r.Base.Board, me)
	if err != nil {
		return AbilitiesResult{GameOutcome: NoOutcome}, wrap(line, err)
	}
	return res, nil
}

func decodeAbilitiesEvent(line []byte, b *grid.Board, me int) (AbilitiesResult, error) {
	res := AbilitiesResult{GameOutcome: NoOutcome}
	ms, known, err := resultLine(line, &res.Error, &res.GameOutcome)
	if err != nil {
		return res, err
	}
	if raw, ok := lookup(ms, "confirm"); ok {
		if len(ms) != 1 {
			return res, fmt.Errorf(`%w: a confirm line is {"confirm":{"at":[r,c]}}`, ErrType)
		}
		body, err := members(raw, `"confirm"`)
		if err != nil {
			return res, err
		}
		v, ok := lookup(body, "at")
		if !ok || len(body) != 1 {
			return res, fmt.Errorf(`%w: "confirm" has exactly "at"`, ErrType)
		}
		if res.ConfirmAt, err = onBoard(v, b, `"confirm.at"`); err != nil {
			return res, err
		}
		res.Confirm = true
		return res, nil
	}
	if raw, ok := lookup(ms, "draw"); ok {
		known++
		if res.Draw, err = boolean(raw, `"draw"`); err != nil {
			return res, err
		}
		if res.Draw && res.GameOutcome != NoOutcome {
			return res, fmt.Errorf(`%w: a line cannot have both "outcome" and "draw"`, ErrType)
		}
	}
	if raw, ok := lookup(ms, "result"); ok {
		known++
		res.HasEvent = true
		if res.Event, err = decodeEvent(raw, b, me); err != nil {
			return res, err
		}
		ev := &res.Event
		switch {
		case res.GameOutcome == Won:
			ev.Status, ev.Winner = game.Won, me
		case res.GameOutcome == Lost:
			ev.Status, ev.Winner = game.Won, 1-me
		case res.Draw:
			ev.Status = game.Drawn
		}
		switch {
		case ev.Ask != nil:
			ev.Next = ev.Ask.Seat
		case ev.TurnEnd && ev.Status == game.Running:
			ev.Next = 1 - ev.Attacker
		default:
			ev.Next = ev.Attacker
		}
	}
	if known == 0 {
		return res, fmt.Errorf(`%w: a result line needs "result", "outcome", "draw" or "error"`, ErrType)
	}
	return res, nil
}

// decodeEvent parses the value of "result" for seat me.
func decodeEvent(raw json.RawMessage, b *grid.Board, me int) (abilities.Event, error) {
	ev := abilities.Event{From: grid.None, To: grid.None, Scan: -1, Winner: -1}
	body, err := members(raw, `"result"`)
	if err != nil {
		return ev, err
	}
	v, ok := lookup(body, "seat")
	if !ok {
		return ev, fmt.Errorf(`%w: "result" needs "seat"`, ErrType)
	}
	if ev.Seat, err = integer(v, `"result.seat"`); err != nil {
		return ev, err
	}
	if ev.Seat != 0 && ev.Seat != 1 {
		return ev, fmt.Errorf("%w: result seat %d, want 0 or 1", ErrType, ev.Seat)
	}
	ev.Mine = ev.Seat == me
	if v, ok = lookup(body, "action"); !ok {
		return ev, fmt.Errorf(`%w: "result" needs "action"`, ErrType)
	}
	name, err := str(v, `"result.action"`)
	if err != nil {
		return ev, err
	}
	k := slices.IndexFunc([]abilities.Kind{abilities.Shoot, abilities.Move, abilities.Salvo, abilities.Reveal, abilities.Defend},
		func(k abilities.Kind) bool { return k.String() == name })
	if k < 0 {
		return ev, fmt.Errorf("%w: unknown action %q", ErrType, name)
	}
	ev.Kind = abilities.Kind(k)
	ev.Attacker = ev.Seat
	if ev.Kind == abilities.Reveal || ev.Kind == abilities.Defend {
		ev.Attacker = 1 - ev.Seat
	}
	if v, ok := lookup(body, "moved"); ok {
		if ev.Kind != abilities.Move {
			return ev, fmt.Errorf(`%w: "moved" belongs to a move`, ErrType)
		}
		ev.Moved = true
		if ev.Mine {
			mv, err := members(v, `"result.moved"`)
			if err != nil {
				return ev, err
			}
			for _, key := range []string{"from", "to"} {
				c, ok := lookup(mv, key)
				if !ok {
					return ev, fmt.Errorf(`%w: "moved" needs %q`, ErrType, key)
				}
				cell, err := onBoard(c, b, `"moved.`+key+`"`)
				if err != nil {
					return ev, err
				}
				if key == "from" {
					ev.From = cell
				} else {
					ev.To = cell
				}
			}
		} else if on, err := boolean(v, `"result.moved"`); err != nil || !on {
			return ev, fmt.Errorf(`%w: the enemy's "moved" must be true, got %s`, ErrType, describe(v))
		}
	}
	flag := func(ms []member, key, what string) (bool, error) {
		v, ok := lookup(ms, key)
		if !ok {
			return false, nil
		}
		return boolean(v, what)
	}
	if ev.Special, err = flag(body, "special", `"result.special"`); err != nil {
		return ev, err
	}
	if v, ok := lookup(body, "cells"); ok {
		cells, err := array(v, `"result.cells"`)
		if err != nil {
			return ev, err
		}
		if len(cells) == 0 || len(cells) > maxRevealCells {
			return ev, fmt.Errorf("%w: result has %d cells, want 1 to %d", ErrType, len(cells), maxRevealCells)
		}
		for i, craw := range cells {
			c, err := decodeCellResult(craw, b, fmt.Sprintf(`"result.cells"[%d]`, i))
			if err != nil {
				return ev, err
			}
			ev.Cells = append(ev.Cells, c)
		}
	}
	if v, ok := lookup(body, "scan"); ok {
		if ev.Scan, err = integer(v, `"result.scan"`); err != nil {
			return ev, err
		}
		if ev.Scan < 0 || ev.Scan > battleship.MaxShips {
			return ev, fmt.Errorf("%w: scan count %d, want 0 to %d", ErrType, ev.Scan, battleship.MaxShips)
		}
	}
	if v, ok := lookup(body, "ask"); ok {
		q, err := decodeAsk(v, b)
		if err != nil {
			return ev, err
		}
		q.Seat = 1 - ev.Attacker
		ev.Ask = &q
	}
	if ev.TurnEnd, err = flag(body, "turn_end", `"result.turn_end"`); err != nil {
		return ev, err
	}
	return ev, nil
}

// onBoard parses raw as a [row, col] cell that must be on the board.
func onBoard(raw json.RawMessage, b *grid.Board, what string) (grid.Cell, error) {
	c, err := rowCol(raw, b, what)
	if err != nil {
		return c, err
	}
	if c == grid.None {
		return c, fmt.Errorf("%w: %s %s is off the board", ErrType, what, describe(raw))
	}
	return c, nil
}

// decodeCellResult parses one element of "cells".
func decodeCellResult(raw json.RawMessage, b *grid.Board, what string) (abilities.CellResult, error) {
	var c abilities.CellResult
	fields, err := members(raw, what)
	if err != nil {
		return c, err
	}
	pos, ok := lookup(fields, "position")
	if !ok {
		return c, fmt.Errorf(`%w: %s needs "position"`, ErrType, what)
	}
	if c.At, err = onBoard(pos, b, what+".position"); err != nil {
		return c, err
	}
	if c.Outcome, err = shotOutcome(fields, what); err != nil {
		return c, err
	}
	sraw, hasShip := lookup(fields, "ship")
	if hasShip != (c.Outcome == battleship.Kill) {
		return c, fmt.Errorf(`%w: %s: "ship" belongs to a kill and only to a kill`, ErrType, what)
	}
	if hasShip {
		cells, err := rowColList(sraw, b, what+".ship", battleship.MaxShipLen)
		if err != nil {
			return c, err
		}
		if len(cells) == 0 || !slices.Contains(cells, c.At) || slices.Contains(cells, grid.None) {
			return c, fmt.Errorf("%w: %s: the sunk ship must be on the board and hold the position", ErrType, what)
		}
		c.Sunk = cells
	}
	for _, f := range []struct {
		key string
		at  *bool
	}{{"repeat", &c.Repeat}, {"air_defence", &c.AirDefence}, {"false_miss", &c.FalseMiss}} {
		if v, ok := lookup(fields, f.key); ok {
			if *f.at, err = boolean(v, what+"."+f.key); err != nil {
				return c, err
			}
		}
	}
	return c, nil
}

// decodeAsk parses the value of "ask" (Seat is left to the caller).
func decodeAsk(raw json.RawMessage, b *grid.Board) (abilities.Question, error) {
	var q abilities.Question
	fields, err := members(raw, `"result.ask"`)
	if err != nil {
		return q, err
	}
	v, ok := lookup(fields, "kind")
	if !ok {
		return q, fmt.Errorf(`%w: "ask" needs "kind"`, ErrType)
	}
	name, err := str(v, `"ask.kind"`)
	if err != nil {
		return q, err
	}
	k := slices.Index(askNames[:], name)
	if k < 0 {
		return q, fmt.Errorf(`%w: ask kind %q, want "reveal", "false_miss" or "air_defence"`, ErrType, name)
	}
	q.Ask = abilities.Ask(k)
	if q.Ask != abilities.AskReveal {
		if v, ok = lookup(fields, "at"); !ok {
			return q, fmt.Errorf(`%w: "ask" needs "at"`, ErrType)
		}
		q.At, err = onBoard(v, b, `"ask.at"`)
		return q, err
	}
	if v, ok = lookup(fields, "center"); !ok {
		return q, fmt.Errorf(`%w: a reveal "ask" needs "center"`, ErrType)
	}
	if q.At, err = onBoard(v, b, `"ask.center"`); err != nil {
		return q, err
	}
	if v, ok = lookup(fields, "cells"); !ok {
		return q, fmt.Errorf(`%w: a reveal "ask" needs "cells"`, ErrType)
	}
	cells, err := rowColList(v, b, `"ask.cells"`, maxRevealCells)
	if err != nil {
		return q, err
	}
	for _, c := range cells {
		if c == grid.None {
			return q, fmt.Errorf(`%w: "ask.cells" has a cell off the board`, ErrType)
		}
		q.Cells.Add(c)
	}
	if v, ok = lookup(fields, "count"); !ok {
		return q, fmt.Errorf(`%w: a reveal "ask" needs "count"`, ErrType)
	}
	if q.Count, err = integer(v, `"ask.count"`); err != nil {
		return q, err
	}
	if q.Count < 1 || q.Count > q.Cells.Count() {
		return q, fmt.Errorf("%w: reveal count %d of %d cells", ErrType, q.Count, q.Cells.Count())
	}
	return q, nil
}
