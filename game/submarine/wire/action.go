package wire

import (
	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/game/submarine"
	"github.com/kaisen-ai/kaisen/protocol"
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
// values of the wrong type are a *protocol.ProtocolError.
func DecodeAction(line []byte, r *submarine.Rules) (submarine.Action, error) {
	a, err := decodeAction(line, r)
	if err != nil {
		return submarine.Action{Kind: submarine.Invalid, Ship: submarine.NoShip, To: grid.None}, protocol.Wrap(line, err)
	}
	return a, nil
}

func decodeAction(line []byte, r *submarine.Rules) (submarine.Action, error) {
	ms, err := protocol.Object(line, "action")
	if err != nil {
		return submarine.Action{}, err
	}
	if raw, ok := protocol.Lookup(ms, "attack"); ok {
		body, err := protocol.Members(raw, `"attack"`)
		if err != nil {
			return submarine.Action{}, err
		}
		to, err := protocol.Need(body, "to", `"attack"`)
		if err != nil {
			return submarine.Action{}, err
		}
		c, err := protocol.Position(to, r.Board, `"attack.to"`)
		if err != nil {
			return submarine.Action{}, err
		}
		return submarine.AttackAt(c), nil
	}
	if raw, ok := protocol.Lookup(ms, "move"); ok {
		body, err := protocol.Members(raw, `"move"`)
		if err != nil {
			return submarine.Action{}, err
		}
		shipRaw, err := protocol.Need(body, "ship", `"move"`)
		if err != nil {
			return submarine.Action{}, err
		}
		name, err := protocol.Str(shipRaw, `"move.ship"`)
		if err != nil {
			return submarine.Action{}, err
		}
		to, err := protocol.Need(body, "to", `"move"`)
		if err != nil {
			return submarine.Action{}, err
		}
		c, err := protocol.Position(to, r.Board, `"move.to"`)
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
func EncodeAction(d protocol.Dialect, r *submarine.Rules, a submarine.Action) []byte {
	w := protocol.NewWriter(d, 40)
	switch a.Kind {
	case submarine.Attack:
		w.Byte('{')
		w.Key("attack")
		w.Byte('{')
		w.Key("to")
		w.Cell(r.Board, a.To)
		w.Raw("}}")
	case submarine.Move:
		w.Byte('{')
		w.Key("move")
		w.Byte('{')
		w.Key("ship")
		w.Str(shipName(r, a.Ship))
		w.Comma()
		w.Key("to")
		w.Cell(r.Board, a.To)
		w.Raw("}}")
	default:
		w.Raw("{}")
	}
	return w.Bytes()
}

// shipName is the wire name of ship i, or "" when i is not a fleet index.
func shipName(r *submarine.Rules, i int) string {
	if i < 0 || i >= len(r.Fleet) {
		return ""
	}
	return r.Fleet[i].Name
}
