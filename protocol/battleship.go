package protocol

// The Kaisen battleship protocol (docs/protocol.md, section Battleship):
// the same line framing, greeting, "your turn" / "waiting" and end lines as
// the classic submarine dialect, with battleship's placement, shot and
// result lines. Positions are [row, col] (row first), unlike submarine's
// [x, y].

import (
	"encoding/json"
	"fmt"

	"github.com/kaisen-ai/kaisen/game/battleship"
	"github.com/kaisen-ai/kaisen/game/grid"
)

// BattleshipGreeting is the battleship server's first line: the classic
// submarine greeting (a client tells the games apart by configuration).
const BattleshipGreeting = classicGreeting

// DecodeShips parses a battleship placement line
// {"ships":[[[r,c],[r,c],...],...]}: one array of [row, col] cells per ship.
// It checks the shape only: every cell two integers, on the board (rocks
// count as on the board), at most battleship.MaxShips ships of at most
// board-size cells. Whether the layout is legal (lengths, straight, no
// touching) is for rules.ValidatePlacement. Any failure is a *ProtocolError
// (ErrSyntax, ErrType, or ErrFleet for a cell off the board or too many
// ships).
func DecodeShips(line []byte, r *battleship.Rules) (battleship.Placement, error) {
	p, err := decodeShips(line, r)
	if err != nil {
		return nil, wrap(line, err)
	}
	return p, nil
}

func decodeShips(line []byte, r *battleship.Rules) (battleship.Placement, error) {
	ms, err := object(line, "placement")
	if err != nil {
		return nil, err
	}
	raw, ok := lookup(ms, "ships")
	if !ok {
		return nil, fmt.Errorf(`%w: placement needs "ships"`, ErrType)
	}
	for _, m := range ms {
		if m.key != "ships" {
			return nil, fmt.Errorf("%w: placement has unknown key %q", ErrType, m.key)
		}
	}
	ships, err := array(raw, `"ships"`)
	if err != nil {
		return nil, err
	}
	if len(ships) == 0 || len(ships) > battleship.MaxShips {
		return nil, fmt.Errorf("%w: %d ships, want 1 to %d", ErrFleet, len(ships), battleship.MaxShips)
	}
	b := r.Board
	p := make(battleship.Placement, 0, len(ships))
	for i, sraw := range ships {
		what := fmt.Sprintf("ship %d", i)
		cells, err := array(sraw, what)
		if err != nil {
			return nil, err
		}
		if len(cells) == 0 || len(cells) > b.Size() {
			return nil, fmt.Errorf("%w: %s has %d cells, want 1 to %d", ErrFleet, what, len(cells), b.Size())
		}
		ship := make(battleship.Ship, 0, len(cells))
		for k, craw := range cells {
			c, err := rowCol(craw, b, fmt.Sprintf("%s cell %d", what, k))
			if err != nil {
				return nil, err
			}
			if c == grid.None {
				return nil, fmt.Errorf("%w: %s cell %s is off the %dx%d board", ErrFleet, what, describe(craw), b.Height(), b.Width())
			}
			ship = append(ship, c)
		}
		p = append(p, ship)
	}
	return p, nil
}

// rowCol parses raw as [row, col]: the cell, or grid.None when the
// integers are off the board.
func rowCol(raw json.RawMessage, b *grid.Board, what string) (grid.Cell, error) {
	row, col, err := pair(raw, what)
	if err != nil {
		return grid.None, err
	}
	c, ok := b.At(col, row)
	if !ok {
		return grid.None, nil
	}
	return c, nil
}

// EncodeShips prints p as a placement line (compact JSON, cells [row,col]).
func EncodeShips(r *battleship.Rules, p battleship.Placement) []byte {
	w := newWriter(Classic, 16+len(p)*16)
	w.raw(`{"ships":[`)
	for i, s := range p {
		if i > 0 {
			w.byte(',')
		}
		w.rowCols(r.Board, s)
	}
	w.raw("]}")
	return w.b
}

// rowCols writes cells as [[r,c],...].
func (w *writer) rowCols(b *grid.Board, cells []grid.Cell) {
	w.byte('[')
	for k, c := range cells {
		if k > 0 {
			w.byte(',')
		}
		w.rowCol(b, c)
	}
	w.byte(']')
}

// rowCol writes [row,col]; an off-board cell is written [-1,-1].
func (w *writer) rowCol(b *grid.Board, c grid.Cell) {
	if c < 0 || int(c) >= b.Size() {
		w.pair(-1, -1)
		return
	}
	x, y := b.XY(c)
	w.pair(y, x)
}

// DecodeShoot parses a shot line {"shoot":{"to":[r,c]}}. Integers off the
// board give grid.None without error (the engine declares the shot illegal);
// anything else that is not exactly this shape (no "shoot", no "to", a
// float, a string, a position without two elements, other keys) is a
// *ProtocolError.
func DecodeShoot(line []byte, r *battleship.Rules) (grid.Cell, error) {
	c, err := decodeShoot(line, r)
	if err != nil {
		return grid.None, wrap(line, err)
	}
	return c, nil
}

func decodeShoot(line []byte, r *battleship.Rules) (grid.Cell, error) {
	ms, err := object(line, "action")
	if err != nil {
		return grid.None, err
	}
	if len(ms) != 1 || ms[0].key != "shoot" {
		return grid.None, fmt.Errorf(`%w: an action is {"shoot":{"to":[r,c]}}`, ErrType)
	}
	body, err := members(ms[0].val, `"shoot"`)
	if err != nil {
		return grid.None, err
	}
	if len(body) != 1 || body[0].key != "to" {
		return grid.None, fmt.Errorf(`%w: "shoot" needs exactly "to"`, ErrType)
	}
	return rowCol(body[0].val, r.Board, `"shoot.to"`)
}

// EncodeShoot prints a shot at c (an off-board cell as [-1,-1]).
func EncodeShoot(r *battleship.Rules, c grid.Cell) []byte {
	w := newWriter(Classic, 32)
	w.raw(`{"shoot":{"to":`)
	w.rowCol(r.Board, c)
	w.raw("}}")
	return w.b
}

// EncodeShotResult prints the line both players get after a shot: ev is
// the shot's event (Mine is ignored: both lines are equal) and outcome the
// game's outcome for the receiving player (NoOutcome, Lost, Won).
//
//	{"result":{"shot":{"position":[r,c],"outcome":"miss"}}}
//	{"result":{"shot":{"position":[r,c],"outcome":"kill","ship":[[r,c],...]}},"outcome":true}
//	{"result":{"shot":false},"outcome":false}      an illegal shot (off the board, a rock)
func EncodeShotResult(r *battleship.Rules, ev battleship.Event, outcome int) []byte {
	w := newWriter(Classic, 96)
	w.raw(`{"result":{"shot":`)
	if ev.Illegal {
		w.raw("false")
	} else {
		w.raw(`{"position":`)
		w.rowCol(r.Board, ev.At)
		w.raw(`,"outcome":`)
		w.str(ev.Outcome.String())
		if ev.Outcome == battleship.Kill {
			w.raw(`,"ship":`)
			w.rowCols(r.Board, ev.Sunk)
		}
		w.byte('}')
	}
	w.byte('}')
	w.outcome(outcome)
	w.byte('}')
	return w.b
}

// outcome writes ,"outcome":true|false (nothing for NoOutcome).
func (w *writer) outcome(outcome int) {
	switch outcome {
	case Won:
		w.raw(`,"outcome":true`)
	case Lost:
		w.raw(`,"outcome":false`)
	}
}

// EncodeOutcome prints {"outcome":true|false}: what both players get when
// a game ends by a forfeit other than an illegal shot.
func EncodeOutcome(won bool) []byte {
	if won {
		return []byte(`{"outcome":true}`)
	}
	return []byte(`{"outcome":false}`)
}

// EncodeErrorLine prints {"error":"msg"}: why the server refuses the
// receiving player's line (it forfeits; the end lines follow).
func EncodeErrorLine(msg string) []byte {
	w := newWriter(Classic, len(msg)+12)
	w.raw(`{"error":`)
	w.str(msg)
	w.byte('}')
	return w.b
}

// ShotResult is a decoded battleship result line (or error line).
type ShotResult struct {
	// HasShot: the line has a "result" key. Illegal: it is {"shot":false}.
	HasShot, Illegal bool
	At               grid.Cell
	Outcome          battleship.Outcome
	Sunk             battleship.Ship // on Kill: the sunk ship's cells, in wire order
	// GameOutcome is NoOutcome, Lost or Won.
	GameOutcome int
	// Error is the message of an {"error":...} line ("" otherwise).
	Error string
}

// DecodeShotResult parses a result line of EncodeShotResult,
// EncodeOutcome or EncodeErrorLine. Keys other than result, outcome and
// error are ignored (room for extensions); the known ones are checked
// strictly: a kill must list its ship, a miss or hit must not, every cell
// is on the board. Failures are a *ProtocolError.
func DecodeShotResult(line []byte, r *battleship.Rules) (ShotResult, error) {
	res, err := decodeShotResult(line, r)
	if err != nil {
		return ShotResult{GameOutcome: NoOutcome, At: grid.None}, wrap(line, err)
	}
	return res, nil
}

func decodeShotResult(line []byte, r *battleship.Rules) (ShotResult, error) {
	res := ShotResult{GameOutcome: NoOutcome, At: grid.None}
	ms, known, err := resultLine(line, &res.Error, &res.GameOutcome)
	if err != nil {
		return res, err
	}
	if raw, ok := lookup(ms, "result"); ok {
		known++
		res.HasShot = true
		if err := decodeShot(raw, r, &res); err != nil {
			return res, err
		}
	}
	if known == 0 {
		return res, fmt.Errorf(`%w: a result line needs "result", "outcome" or "error"`, ErrType)
	}
	return res, nil
}

// decodeShot parses the value of "result": {"shot":false} or
// {"shot":{"position":..,"outcome":..[,"ship":..]}}.
func decodeShot(raw json.RawMessage, r *battleship.Rules, res *ShotResult) error {
	body, err := members(raw, `"result"`)
	if err != nil {
		return err
	}
	shot, ok := lookup(body, "shot")
	if !ok {
		return fmt.Errorf(`%w: "result" needs "shot"`, ErrType)
	}
	if kindOf(shot) == 'f' {
		if _, err := boolean(shot, `"result.shot"`); err != nil {
			return err
		}
		res.Illegal = true
		return nil
	}
	fields, err := members(shot, `"result.shot"`)
	if err != nil {
		return err
	}
	pos, ok := lookup(fields, "position")
	if !ok {
		return fmt.Errorf(`%w: "shot" needs "position"`, ErrType)
	}
	if res.At, err = rowCol(pos, r.Board, `"shot.position"`); err != nil {
		return err
	}
	if res.At == grid.None {
		return fmt.Errorf("%w: shot position %s is off the board", ErrType, describe(pos))
	}
	if res.Outcome, err = shotOutcome(fields, `"shot"`); err != nil {
		return err
	}
	sraw, hasShip := lookup(fields, "ship")
	if hasShip != (res.Outcome == battleship.Kill) {
		return fmt.Errorf(`%w: "ship" belongs to a kill and only to a kill`, ErrType)
	}
	if !hasShip {
		return nil
	}
	cells, err := array(sraw, `"shot.ship"`)
	if err != nil {
		return err
	}
	if len(cells) == 0 || len(cells) > r.Board.Size() {
		return fmt.Errorf("%w: sunk ship has %d cells", ErrType, len(cells))
	}
	hit := false
	for k, craw := range cells {
		c, err := rowCol(craw, r.Board, fmt.Sprintf(`"shot.ship"[%d]`, k))
		if err != nil {
			return err
		}
		if c == grid.None {
			return fmt.Errorf("%w: sunk ship cell %s is off the board", ErrType, describe(craw))
		}
		hit = hit || c == res.At
		res.Sunk = append(res.Sunk, c)
	}
	if !hit {
		return fmt.Errorf("%w: the sunk ship does not hold the shot's position", ErrType)
	}
	return nil
}

// resultLine parses a result line of a game on a Battleship board into
// its members and the keys every such line may have: "error" (its message
// into msg) and "outcome" (into outcome, left NoOutcome when absent, else
// Lost or Won); known counts the keys found.
func resultLine(line []byte, msg *string, outcome *int) (ms []member, known int, err error) {
	*outcome = NoOutcome
	if ms, err = object(line, "result line"); err != nil {
		return nil, 0, err
	}
	if raw, ok := lookup(ms, "error"); ok {
		known++
		if *msg, err = str(raw, `"error"`); err != nil {
			return nil, known, err
		}
	}
	if raw, ok := lookup(ms, "outcome"); ok {
		known++
		won, err := boolean(raw, `"outcome"`)
		if err != nil {
			return nil, known, err
		}
		*outcome = Lost
		if won {
			*outcome = Won
		}
	}
	return ms, known, nil
}

// shotOutcome parses the "outcome" of a shot's fields (what names them):
// "miss", "hit" or "kill".
func shotOutcome(fields []member, what string) (battleship.Outcome, error) {
	raw, ok := lookup(fields, "outcome")
	if !ok {
		return 0, fmt.Errorf(`%w: %s needs "outcome"`, ErrType, what)
	}
	name, err := str(raw, what+".outcome")
	if err != nil {
		return 0, err
	}
	for _, o := range []battleship.Outcome{battleship.Miss, battleship.Hit, battleship.Kill} {
		if o.String() == name {
			return o, nil
		}
	}
	return 0, fmt.Errorf(`%w: %s outcome %q, want "miss", "hit" or "kill"`, ErrType, what, name)
}
