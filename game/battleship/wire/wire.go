package wire

import (
	"encoding/json"
	"fmt"

	"github.com/kaisen-ai/kaisen/game/battleship"
	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/protocol"
)

// Greeting is the battleship server's first line: the classic submarine
// greeting (a client tells the games apart by configuration).
const Greeting = protocol.ClassicGreeting

// DecodeShips parses a battleship placement line
// {"ships":[[[r,c],[r,c],...],...]}: one array of [row, col] cells per ship.
// It checks the shape only: every cell two integers, on the board (rocks
// count as on the board), at most battleship.MaxShips ships of at most
// board-size cells. Whether the layout is legal (lengths, straight, no
// touching) is for rules.ValidatePlacement. Any failure is a
// *protocol.ProtocolError (protocol.ErrSyntax, protocol.ErrType, or
// protocol.ErrFleet for a cell off the board or too many ships).
func DecodeShips(line []byte, r *battleship.Rules) (battleship.Placement, error) {
	p, err := decodeShips(line, r)
	if err != nil {
		return nil, protocol.Wrap(line, err)
	}
	return p, nil
}

func decodeShips(line []byte, r *battleship.Rules) (battleship.Placement, error) {
	ms, err := protocol.Object(line, "placement")
	if err != nil {
		return nil, err
	}
	raw, ok := protocol.Lookup(ms, "ships")
	if !ok {
		return nil, fmt.Errorf(`%w: placement needs "ships"`, protocol.ErrType)
	}
	for _, m := range ms {
		if m.Key != "ships" {
			return nil, fmt.Errorf("%w: placement has unknown key %q", protocol.ErrType, m.Key)
		}
	}
	ships, err := protocol.Array(raw, `"ships"`)
	if err != nil {
		return nil, err
	}
	if len(ships) == 0 || len(ships) > battleship.MaxShips {
		return nil, fmt.Errorf("%w: %d ships, want 1 to %d", protocol.ErrFleet, len(ships), battleship.MaxShips)
	}
	b := r.Board
	p := make(battleship.Placement, 0, len(ships))
	for i, sraw := range ships {
		what := fmt.Sprintf("ship %d", i)
		cells, err := protocol.Array(sraw, what)
		if err != nil {
			return nil, err
		}
		if len(cells) == 0 || len(cells) > b.Size() {
			return nil, fmt.Errorf("%w: %s has %d cells, want 1 to %d", protocol.ErrFleet, what, len(cells), b.Size())
		}
		ship := make(battleship.Ship, 0, len(cells))
		for k, craw := range cells {
			c, err := protocol.RowCol(craw, b, fmt.Sprintf("%s cell %d", what, k))
			if err != nil {
				return nil, err
			}
			if c == grid.None {
				return nil, fmt.Errorf("%w: %s cell %s is off the %dx%d board", protocol.ErrFleet, what, protocol.Describe(craw), b.Height(), b.Width())
			}
			ship = append(ship, c)
		}
		p = append(p, ship)
	}
	return p, nil
}

// EncodeShips prints p as a placement line (compact JSON, cells [row,col]).
func EncodeShips(r *battleship.Rules, p battleship.Placement) []byte {
	w := protocol.NewWriter(protocol.Classic, 16+len(p)*16)
	w.Raw(`{"ships":[`)
	for i, s := range p {
		if i > 0 {
			w.Byte(',')
		}
		w.RowCols(r.Board, s)
	}
	w.Raw("]}")
	return w.Bytes()
}

// DecodeShoot parses a shot line {"shoot":{"to":[r,c]}}. Integers off the
// board give grid.None without error (the engine declares the shot illegal);
// anything else that is not exactly this shape (no "shoot", no "to", a
// float, a string, a position without two elements, other keys) is a
// *protocol.ProtocolError.
func DecodeShoot(line []byte, r *battleship.Rules) (grid.Cell, error) {
	c, err := decodeShoot(line, r)
	if err != nil {
		return grid.None, protocol.Wrap(line, err)
	}
	return c, nil
}

func decodeShoot(line []byte, r *battleship.Rules) (grid.Cell, error) {
	ms, err := protocol.Object(line, "action")
	if err != nil {
		return grid.None, err
	}
	if len(ms) != 1 || ms[0].Key != "shoot" {
		return grid.None, fmt.Errorf(`%w: an action is {"shoot":{"to":[r,c]}}`, protocol.ErrType)
	}
	body, err := protocol.Members(ms[0].Val, `"shoot"`)
	if err != nil {
		return grid.None, err
	}
	if len(body) != 1 || body[0].Key != "to" {
		return grid.None, fmt.Errorf(`%w: "shoot" needs exactly "to"`, protocol.ErrType)
	}
	return protocol.RowCol(body[0].Val, r.Board, `"shoot.to"`)
}

// EncodeShoot prints a shot at c (an off-board cell as [-1,-1]).
func EncodeShoot(r *battleship.Rules, c grid.Cell) []byte {
	w := protocol.NewWriter(protocol.Classic, 32)
	w.Raw(`{"shoot":{"to":`)
	w.RowCol(r.Board, c)
	w.Raw("}}")
	return w.Bytes()
}

// EncodeShotResult prints the line both players get after a shot: ev is the
// shot's event (Mine is ignored: both lines are equal) and outcome the game's
// outcome for the receiving player (protocol.NoOutcome, protocol.Lost,
// protocol.Won).
//
//	{"result":{"shot":{"position":[r,c],"outcome":"miss"}}}
//	{"result":{"shot":{"position":[r,c],"outcome":"kill","ship":[[r,c],...]}},"outcome":true}
//	{"result":{"shot":false},"outcome":false}      an illegal shot (off the board, a rock)
func EncodeShotResult(r *battleship.Rules, ev battleship.Event, outcome int) []byte {
	w := protocol.NewWriter(protocol.Classic, 96)
	w.Raw(`{"result":{"shot":`)
	if ev.Illegal {
		w.Raw("false")
	} else {
		w.Raw(`{"position":`)
		w.RowCol(r.Board, ev.At)
		w.Raw(`,"outcome":`)
		w.Str(ev.Outcome.String())
		if ev.Outcome == battleship.Kill {
			w.Raw(`,"ship":`)
			w.RowCols(r.Board, ev.Sunk)
		}
		w.Byte('}')
	}
	w.Byte('}')
	w.Outcome(outcome)
	w.Byte('}')
	return w.Bytes()
}

// ShotResult is a decoded battleship result line (or error line).
type ShotResult struct {
	// HasShot: the line has a "result" key. Illegal: it is {"shot":false}.
	HasShot, Illegal bool
	At               grid.Cell
	Outcome          battleship.Outcome
	Sunk             battleship.Ship // on Kill: the sunk ship's cells, in wire order
	// GameOutcome is protocol.NoOutcome, protocol.Lost or protocol.Won.
	GameOutcome int
	// Error is the message of an {"error":...} line ("" otherwise).
	Error string
}

// DecodeShotResult parses a result line of EncodeShotResult,
// protocol.EncodeOutcome or protocol.EncodeErrorLine. Keys other than result,
// outcome and error are ignored (room for extensions); the known ones are
// checked strictly: a kill must list its ship, a miss or hit must not, every
// cell is on the board. Failures are a *protocol.ProtocolError.
func DecodeShotResult(line []byte, r *battleship.Rules) (ShotResult, error) {
	res, err := decodeShotResult(line, r)
	if err != nil {
		return ShotResult{GameOutcome: protocol.NoOutcome, At: grid.None}, protocol.Wrap(line, err)
	}
	return res, nil
}

func decodeShotResult(line []byte, r *battleship.Rules) (ShotResult, error) {
	res := ShotResult{GameOutcome: protocol.NoOutcome, At: grid.None}
	ms, known, err := protocol.ResultLine(line, &res.Error, &res.GameOutcome)
	if err != nil {
		return res, err
	}
	if raw, ok := protocol.Lookup(ms, "result"); ok {
		known++
		res.HasShot = true
		if err := decodeShot(raw, r, &res); err != nil {
			return res, err
		}
	}
	if known == 0 {
		return res, fmt.Errorf(`%w: a result line needs "result", "outcome" or "error"`, protocol.ErrType)
	}
	return res, nil
}

// decodeShot parses the value of "result": {"shot":false} or
// {"shot":{"position":..,"outcome":..[,"ship":..]}}.
func decodeShot(raw json.RawMessage, r *battleship.Rules, res *ShotResult) error {
	body, err := protocol.Members(raw, `"result"`)
	if err != nil {
		return err
	}
	shot, ok := protocol.Lookup(body, "shot")
	if !ok {
		return fmt.Errorf(`%w: "result" needs "shot"`, protocol.ErrType)
	}
	if protocol.KindOf(shot) == 'f' {
		if _, err := protocol.Boolean(shot, `"result.shot"`); err != nil {
			return err
		}
		res.Illegal = true
		return nil
	}
	fields, err := protocol.Members(shot, `"result.shot"`)
	if err != nil {
		return err
	}
	pos, ok := protocol.Lookup(fields, "position")
	if !ok {
		return fmt.Errorf(`%w: "shot" needs "position"`, protocol.ErrType)
	}
	if res.At, err = protocol.RowCol(pos, r.Board, `"shot.position"`); err != nil {
		return err
	}
	if res.At == grid.None {
		return fmt.Errorf("%w: shot position %s is off the board", protocol.ErrType, protocol.Describe(pos))
	}
	if res.Outcome, err = ShotOutcome(fields, `"shot"`); err != nil {
		return err
	}
	sraw, hasShip := protocol.Lookup(fields, "ship")
	if hasShip != (res.Outcome == battleship.Kill) {
		return fmt.Errorf(`%w: "ship" belongs to a kill and only to a kill`, protocol.ErrType)
	}
	if !hasShip {
		return nil
	}
	cells, err := protocol.Array(sraw, `"shot.ship"`)
	if err != nil {
		return err
	}
	if len(cells) == 0 || len(cells) > r.Board.Size() {
		return fmt.Errorf("%w: sunk ship has %d cells", protocol.ErrType, len(cells))
	}
	hit := false
	for k, craw := range cells {
		c, err := protocol.RowCol(craw, r.Board, fmt.Sprintf(`"shot.ship"[%d]`, k))
		if err != nil {
			return err
		}
		if c == grid.None {
			return fmt.Errorf("%w: sunk ship cell %s is off the board", protocol.ErrType, protocol.Describe(craw))
		}
		hit = hit || c == res.At
		res.Sunk = append(res.Sunk, c)
	}
	if !hit {
		return fmt.Errorf("%w: the sunk ship does not hold the shot's position", protocol.ErrType)
	}
	return nil
}

// ShotOutcome parses the "outcome" of a shot's fields (what names them):
// "miss", "hit" or "kill". The abilities codec reads its cells with it.
func ShotOutcome(fields []protocol.Member, what string) (battleship.Outcome, error) {
	raw, ok := protocol.Lookup(fields, "outcome")
	if !ok {
		return 0, fmt.Errorf(`%w: %s needs "outcome"`, protocol.ErrType, what)
	}
	name, err := protocol.Str(raw, what+".outcome")
	if err != nil {
		return 0, err
	}
	for _, o := range []battleship.Outcome{battleship.Miss, battleship.Hit, battleship.Kill} {
		if o.String() == name {
			return o, nil
		}
	}
	return 0, fmt.Errorf(`%w: %s outcome %q, want "miss", "hit" or "kill"`, protocol.ErrType, what, name)
}
