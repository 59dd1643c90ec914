package wire

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/game/abilities"
	"github.com/kaisen-ai/kaisen/game/battleship"
	bswire "github.com/kaisen-ai/kaisen/game/battleship/wire"
	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/protocol"
)

// askNames are the wire names of the questions, by abilities.Ask.
var askNames = [...]string{abilities.AskReveal: "reveal", abilities.AskFalseMiss: "false_miss", abilities.AskAirDefence: "air_defence"}

// EncodeEvent prints the result line that tells one seat ev, its view of an
// action (the server sends none for a Silent event), and the game's outcome
// for that seat (protocol.NoOutcome, protocol.Lost, protocol.Won):
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
func EncodeEvent(r *abilities.Rules, ev abilities.Event, outcome int) []byte {
	b := r.Base.Board
	w := protocol.NewWriter(protocol.Classic, 128+32*len(ev.Cells))
	w.Raw(`{"result":{"seat":`)
	w.Int(ev.Seat)
	w.Raw(`,"action":`)
	w.Str(ev.Kind.String())
	if ev.Kind == abilities.Move && ev.Moved {
		if ev.Mine {
			w.Raw(`,"moved":{"from":`)
			w.RowCol(b, ev.From)
			w.Raw(`,"to":`)
			w.RowCol(b, ev.To)
			w.Byte('}')
		} else {
			w.Raw(`,"moved":true`)
		}
	}
	if ev.Special {
		w.Raw(`,"special":true`)
	}
	if len(ev.Cells) > 0 {
		w.Raw(`,"cells":[`)
		for i, c := range ev.Cells {
			if i > 0 {
				w.Byte(',')
			}
			w.Raw(`{"position":`)
			w.RowCol(b, c.At)
			w.Raw(`,"outcome":`)
			w.Str(c.Outcome.String())
			if c.Outcome == battleship.Kill {
				w.Raw(`,"ship":`)
				w.RowCols(b, c.Sunk)
			}
			if c.Repeat {
				w.Raw(`,"repeat":true`)
			}
			if c.AirDefence {
				w.Raw(`,"air_defence":true`)
			}
			if c.FalseMiss {
				w.Raw(`,"false_miss":true`)
			}
			w.Byte('}')
		}
		w.Byte(']')
	}
	if ev.Scan >= 0 {
		w.Raw(`,"scan":`)
		w.Int(ev.Scan)
	}
	if q := ev.Ask; q != nil {
		w.Raw(`,"ask":{"kind":`)
		w.Str(askNames[q.Ask])
		if q.Ask == abilities.AskReveal {
			w.Raw(`,"center":`)
			w.RowCol(b, q.At)
			w.Raw(`,"cells":`)
			w.RowCols(b, q.Cells.Cells())
			w.Raw(`,"count":`)
			w.Int(q.Count)
		} else {
			w.Raw(`,"at":`)
			w.RowCol(b, q.At)
		}
		w.Byte('}')
	}
	if ev.TurnEnd {
		w.Raw(`,"turn_end":true`)
	}
	w.Byte('}')
	w.Outcome(outcome)
	if ev.Status == game.Drawn {
		w.Raw(`,"draw":true`)
	}
	w.Byte('}')
	return w.Bytes()
}

// Result is a decoded abilities result line, outcome line,
// error line or confirm line.
type Result struct {
	// Confirm: a confirm line (EncodeConfirm) for the shot at
	// ConfirmAt; the next "your turn" is answered ConfirmAnswer.
	Confirm   bool
	ConfirmAt grid.Cell
	// HasEvent: the line has a "result": Event is what it tells.
	HasEvent bool
	Event    abilities.Event
	// GameOutcome is protocol.NoOutcome, protocol.Lost or protocol.Won.
	GameOutcome int
	// Draw: the line ends a drawn game.
	Draw bool
	// Error is the message of an {"error":...} line ("" otherwise).
	Error string
}

// DecodeEvent parses a line of EncodeEvent, protocol.EncodeOutcome,
// protocol.EncodeErrorLine or EncodeConfirm as received by seat me, and
// rebuilds the abilities.Event the rules gave that seat: Mine, Attacker,
// Status, Winner and Next are worked out from the line (Next: the defender
// when a question is pending, else the other seat when the turn ended in a
// game still running, else the attacker). Keys other than result, outcome,
// draw and error are ignored; the known ones are checked strictly (every cell
// on the board, a kill lists a ship that holds its position). Failures are a
// *protocol.ProtocolError.
func DecodeEvent(line []byte, r *abilities.Rules, me int) (Result, error) {
	res, err := decodeResultLine(line, r.Base.Board, me)
	if err != nil {
		return Result{GameOutcome: protocol.NoOutcome}, protocol.Wrap(line, err)
	}
	return res, nil
}

func decodeResultLine(line []byte, b *grid.Board, me int) (Result, error) {
	res := Result{GameOutcome: protocol.NoOutcome}
	ms, known, err := protocol.ResultLine(line, &res.Error, &res.GameOutcome)
	if err != nil {
		return res, err
	}
	if raw, ok := protocol.Lookup(ms, "confirm"); ok {
		if len(ms) != 1 {
			return res, fmt.Errorf(`%w: a confirm line is {"confirm":{"at":[r,c]}}`, protocol.ErrType)
		}
		body, err := protocol.Members(raw, `"confirm"`)
		if err != nil {
			return res, err
		}
		v, ok := protocol.Lookup(body, "at")
		if !ok || len(body) != 1 {
			return res, fmt.Errorf(`%w: "confirm" has exactly "at"`, protocol.ErrType)
		}
		if res.ConfirmAt, err = onBoard(v, b, `"confirm.at"`); err != nil {
			return res, err
		}
		res.Confirm = true
		return res, nil
	}
	if raw, ok := protocol.Lookup(ms, "draw"); ok {
		known++
		if res.Draw, err = protocol.Boolean(raw, `"draw"`); err != nil {
			return res, err
		}
		if res.Draw && res.GameOutcome != protocol.NoOutcome {
			return res, fmt.Errorf(`%w: a line cannot have both "outcome" and "draw"`, protocol.ErrType)
		}
	}
	if raw, ok := protocol.Lookup(ms, "result"); ok {
		known++
		res.HasEvent = true
		if res.Event, err = decodeEvent(raw, b, me); err != nil {
			return res, err
		}
		ev := &res.Event
		switch {
		case res.GameOutcome == protocol.Won:
			ev.Status, ev.Winner = game.Won, me
		case res.GameOutcome == protocol.Lost:
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
		return res, fmt.Errorf(`%w: a result line needs "result", "outcome", "draw" or "error"`, protocol.ErrType)
	}
	return res, nil
}

// decodeEvent parses the value of "result" for seat me.
func decodeEvent(raw json.RawMessage, b *grid.Board, me int) (abilities.Event, error) {
	ev := abilities.Event{From: grid.None, To: grid.None, Scan: -1, Winner: -1}
	body, err := protocol.Members(raw, `"result"`)
	if err != nil {
		return ev, err
	}
	v, ok := protocol.Lookup(body, "seat")
	if !ok {
		return ev, fmt.Errorf(`%w: "result" needs "seat"`, protocol.ErrType)
	}
	if ev.Seat, err = protocol.Integer(v, `"result.seat"`); err != nil {
		return ev, err
	}
	if ev.Seat != 0 && ev.Seat != 1 {
		return ev, fmt.Errorf("%w: result seat %d, want 0 or 1", protocol.ErrType, ev.Seat)
	}
	ev.Mine = ev.Seat == me
	if v, ok = protocol.Lookup(body, "action"); !ok {
		return ev, fmt.Errorf(`%w: "result" needs "action"`, protocol.ErrType)
	}
	name, err := protocol.Str(v, `"result.action"`)
	if err != nil {
		return ev, err
	}
	k := slices.IndexFunc([]abilities.Kind{abilities.Shoot, abilities.Move, abilities.Salvo, abilities.Reveal, abilities.Defend},
		func(k abilities.Kind) bool { return k.String() == name })
	if k < 0 {
		return ev, fmt.Errorf("%w: unknown action %q", protocol.ErrType, name)
	}
	ev.Kind = abilities.Kind(k)
	ev.Attacker = ev.Seat
	if ev.Kind == abilities.Reveal || ev.Kind == abilities.Defend {
		ev.Attacker = 1 - ev.Seat
	}
	if v, ok := protocol.Lookup(body, "moved"); ok {
		if err := decodeMoved(v, b, &ev); err != nil {
			return ev, err
		}
	}
	flag := func(ms []protocol.Member, key, what string) (bool, error) {
		v, ok := protocol.Lookup(ms, key)
		if !ok {
			return false, nil
		}
		return protocol.Boolean(v, what)
	}
	if ev.Special, err = flag(body, "special", `"result.special"`); err != nil {
		return ev, err
	}
	if v, ok := protocol.Lookup(body, "cells"); ok {
		cells, err := protocol.Array(v, `"result.cells"`)
		if err != nil {
			return ev, err
		}
		if len(cells) == 0 || len(cells) > maxRevealCells {
			return ev, fmt.Errorf("%w: result has %d cells, want 1 to %d", protocol.ErrType, len(cells), maxRevealCells)
		}
		for i, craw := range cells {
			c, err := decodeCellResult(craw, b, fmt.Sprintf(`"result.cells"[%d]`, i))
			if err != nil {
				return ev, err
			}
			ev.Cells = append(ev.Cells, c)
		}
	}
	if v, ok := protocol.Lookup(body, "scan"); ok {
		if ev.Scan, err = protocol.Integer(v, `"result.scan"`); err != nil {
			return ev, err
		}
		if ev.Scan < 0 || ev.Scan > battleship.MaxShips {
			return ev, fmt.Errorf("%w: scan count %d, want 0 to %d", protocol.ErrType, ev.Scan, battleship.MaxShips)
		}
	}
	if v, ok := protocol.Lookup(body, "ask"); ok {
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

// decodeMoved parses the value v of a move's "moved" into ev: the move's
// cells for its owner, true for the enemy.
func decodeMoved(v json.RawMessage, b *grid.Board, ev *abilities.Event) error {
	if ev.Kind != abilities.Move {
		return fmt.Errorf(`%w: "moved" belongs to a move`, protocol.ErrType)
	}
	ev.Moved = true
	if ev.Mine {
		mv, err := protocol.Members(v, `"result.moved"`)
		if err != nil {
			return err
		}
		for _, key := range []string{"from", "to"} {
			c, ok := protocol.Lookup(mv, key)
			if !ok {
				return fmt.Errorf(`%w: "moved" needs %q`, protocol.ErrType, key)
			}
			cell, err := onBoard(c, b, `"moved.`+key+`"`)
			if err != nil {
				return err
			}
			if key == "from" {
				ev.From = cell
			} else {
				ev.To = cell
			}
		}
	} else if on, err := protocol.Boolean(v, `"result.moved"`); err != nil || !on {
		return fmt.Errorf(`%w: the enemy's "moved" must be true, got %s`, protocol.ErrType, protocol.Describe(v))
	}
	return nil
}

// onBoard parses raw as a [row, col] cell that must be on the board.
func onBoard(raw json.RawMessage, b *grid.Board, what string) (grid.Cell, error) {
	c, err := protocol.RowCol(raw, b, what)
	if err != nil {
		return c, err
	}
	if c == grid.None {
		return c, fmt.Errorf("%w: %s %s is off the board", protocol.ErrType, what, protocol.Describe(raw))
	}
	return c, nil
}

// decodeCellResult parses one element of "cells".
func decodeCellResult(raw json.RawMessage, b *grid.Board, what string) (abilities.CellResult, error) {
	var c abilities.CellResult
	fields, err := protocol.Members(raw, what)
	if err != nil {
		return c, err
	}
	pos, ok := protocol.Lookup(fields, "position")
	if !ok {
		return c, fmt.Errorf(`%w: %s needs "position"`, protocol.ErrType, what)
	}
	if c.At, err = onBoard(pos, b, what+".position"); err != nil {
		return c, err
	}
	if c.Outcome, err = bswire.ShotOutcome(fields, what); err != nil {
		return c, err
	}
	sraw, hasShip := protocol.Lookup(fields, "ship")
	if hasShip != (c.Outcome == battleship.Kill) {
		return c, fmt.Errorf(`%w: %s: "ship" belongs to a kill and only to a kill`, protocol.ErrType, what)
	}
	if hasShip {
		cells, err := rowColList(sraw, b, what+".ship", battleship.MaxShipLen)
		if err != nil {
			return c, err
		}
		if len(cells) == 0 || !slices.Contains(cells, c.At) || slices.Contains(cells, grid.None) {
			return c, fmt.Errorf("%w: %s: the sunk ship must be on the board and hold the position", protocol.ErrType, what)
		}
		c.Sunk = cells
	}
	for _, f := range []struct {
		key string
		at  *bool
	}{{"repeat", &c.Repeat}, {"air_defence", &c.AirDefence}, {"false_miss", &c.FalseMiss}} {
		if v, ok := protocol.Lookup(fields, f.key); ok {
			if *f.at, err = protocol.Boolean(v, what+"."+f.key); err != nil {
				return c, err
			}
		}
	}
	return c, nil
}

// decodeAsk parses the value of "ask" (Seat is left to the caller).
func decodeAsk(raw json.RawMessage, b *grid.Board) (abilities.Question, error) {
	var q abilities.Question
	fields, err := protocol.Members(raw, `"result.ask"`)
	if err != nil {
		return q, err
	}
	v, ok := protocol.Lookup(fields, "kind")
	if !ok {
		return q, fmt.Errorf(`%w: "ask" needs "kind"`, protocol.ErrType)
	}
	name, err := protocol.Str(v, `"ask.kind"`)
	if err != nil {
		return q, err
	}
	k := slices.Index(askNames[:], name)
	if k < 0 {
		return q, fmt.Errorf(`%w: ask kind %q, want "reveal", "false_miss" or "air_defence"`, protocol.ErrType, name)
	}
	q.Ask = abilities.Ask(k)
	if q.Ask != abilities.AskReveal {
		if v, ok = protocol.Lookup(fields, "at"); !ok {
			return q, fmt.Errorf(`%w: "ask" needs "at"`, protocol.ErrType)
		}
		q.At, err = onBoard(v, b, `"ask.at"`)
		return q, err
	}
	if v, ok = protocol.Lookup(fields, "center"); !ok {
		return q, fmt.Errorf(`%w: a reveal "ask" needs "center"`, protocol.ErrType)
	}
	if q.At, err = onBoard(v, b, `"ask.center"`); err != nil {
		return q, err
	}
	if v, ok = protocol.Lookup(fields, "cells"); !ok {
		return q, fmt.Errorf(`%w: a reveal "ask" needs "cells"`, protocol.ErrType)
	}
	cells, err := rowColList(v, b, `"ask.cells"`, maxRevealCells)
	if err != nil {
		return q, err
	}
	for _, c := range cells {
		if c == grid.None {
			return q, fmt.Errorf(`%w: "ask.cells" has a cell off the board`, protocol.ErrType)
		}
		q.Cells.Add(c)
	}
	if v, ok = protocol.Lookup(fields, "count"); !ok {
		return q, fmt.Errorf(`%w: a reveal "ask" needs "count"`, protocol.ErrType)
	}
	if q.Count, err = protocol.Integer(v, `"ask.count"`); err != nil {
		return q, err
	}
	if q.Count < 1 || q.Count > q.Cells.Count() {
		return q, fmt.Errorf("%w: reveal count %d of %d cells", protocol.ErrType, q.Count, q.Cells.Count())
	}
	return q, nil
}
