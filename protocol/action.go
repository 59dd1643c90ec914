package protocol

import (
	"fmt"

	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/game/submarine"
)

// DecodeAction parses an action line: {"attack":{"to":[x,y]}} or
// {"move":{"ship":"w","to":[x,y]}}.
//
// Legal JSON that describes an impossible action decodes without error, so
// that the engine declares it illegal and the game reports it on the wire:
// when both keys are present the attack wins (as on the reference server);
// {} or an object with neither key is Action{Kind: Invalid}; an unknown ship
// name is a Move with Ship = submarine.NoShip; integer coordinates off the
// board give To = grid.None. Non-JSON, non-integer coordinates (1.5, 1.0,
// "1"), positions without exactly two elements, a missing "to" or "ship" and
// values of the wrong type are a *ProtocolError.
func DecodeAction(line []byte, r *submarine.Rules) (submarine.Action, error) {
	a, err := decodeAction(line, r)
	if err != nil {
		return submarine.Action{Kind: submarine.Invalid, Ship: submarine.NoShip, To: grid.None}, wrap(line, err)
	}
	return a, nil
}

func decodeAction(line []byte, r *submarine.Rules) (submarine.Action, error) {
	ms, err := object(line, "action")
	if err != nil {
		return submarine.Action{}, err
	}
	if raw, ok := lookup(ms, "attack"); ok {
		body, err := members(raw, `"attack"`)
		if err != nil {
			return submarine.Action{}, err
		}
		to, ok := lookup(body, "to")
		if !ok {
			return submarine.Action{}, fmt.Errorf(`%w: "attack" needs "to"`, ErrType)
		}
		c, err := position(to, r.Board, `"attack.to"`)
		if err != nil {
			return submarine.Action{}, err
		}
		return submarine.AttackAt(c), nil
	}
	if raw, ok := lookup(ms, "move"); ok {
		body, err := members(raw, `"move"`)
		if err != nil {
			return submarine.Action{}, err
		}
		shipRaw, ok := lookup(body, "ship")
		if !ok {
			return submarine.Action{}, fmt.Errorf(`%w: "move" needs "ship"`, ErrType)
		}
		name, err := str(shipRaw, `"move.ship"`)
		if err != nil {
			return submarine.Action{}, err
		}
		to, ok := lookup(body, "to")
		if !ok {
			return submarine.Action{}, fmt.Errorf(`%w: "move" needs "to"`, ErrType)
		}
		c, err := position(to, r.Board, `"move.to"`)
		if err != nil {
			return submarine.Action{}, err
		}
		ship, _ := r.ShipIndex(name) // NoShip when unknown: an illegal move, not a syntax error
		return submarine.MoveTo(ship, c), nil
	}
	return submarine.Action{Kind: submarine.Invalid, Ship: submarine.NoShip, To: grid.None}, nil
}

// EncodeAction prints a as the client sends it. An Invalid action prints {};
// a move of an unknown ship prints the ship as ""; an off-board cell prints
// as [-1,-1] (all of which decode back to the same Action).
func EncodeAction(d Dialect, r *submarine.Rules, a submarine.Action) []byte {
	w := newWriter(d, 40)
	switch a.Kind {
	case submarine.Attack:
		w.byte('{')
		w.key("attack")
		w.byte('{')
		w.key("to")
		w.cell(r.Board, a.To)
		w.raw("}}")
	case submarine.Move:
		w.byte('{')
		w.key("move")
		w.byte('{')
		w.key("ship")
		w.str(shipName(r, a.Ship))
		w.comma()
		w.key("to")
		w.cell(r.Board, a.To)
		w.raw("}}")
	default:
		w.raw("{}")
	}
	return w.b
}

// shipName is the wire name of ship i, or "" when i is not a fleet index.
func shipName(r *submarine.Rules, i int) string {
	if i < 0 || i >= len(r.Fleet) {
		return ""
	}
	return r.Fleet[i].Name
}
