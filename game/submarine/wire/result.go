package wire

import (
	"fmt"

	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/game/submarine"
	"github.com/kaisen-ai/kaisen/protocol"
)

// EncodeResult prints the JSON line sent to one side after an action: what
// the side is told (ev), the game's outcome for this side
// (protocol.NoOutcome, protocol.Lost, protocol.Won) and what the side knows
// afterwards (v). mine and enemy are the wire orders of this side's and the
// enemy's placements (nil = fleet order).
//
// Exactly like the reference server: keys in the order result, outcome,
// condition; "near" names the defender's ships in the defender's order
// (ev.Mine: the enemy's, else this side's); "me" lists this side's living
// ships in its own order with hp and position, "enemy" the enemy's living
// ships in the enemy's order with hp only; sunk ships are omitted. A legal
// attack gives both sides {"attacked":{"position":..,["hit":..,]"near":[..]}};
// an illegal one {"attacked":false}. A legal move gives the mover no "result"
// key and the other side {"moved":{"ship":..,"distance":[dx,dy]}}; an illegal
// move gives the other side {"moved":false}. An Invalid action gives neither
// side a "result" key. The submarine-py dialect prints the same structure
// with Python spacing and the keys "observation" and "opponent".
func EncodeResult(d protocol.Dialect, r *submarine.Rules, ev submarine.Event, outcome int, v *submarine.View, mine, enemy Order) []byte {
	w := protocol.NewWriter(d, 256)
	w.Byte('{')
	n := 0 // members written
	sep := func() {
		if n > 0 {
			w.Comma()
		}
		n++
	}
	if encodeEvent(w, r, ev, mine, enemy) {
		n++
	}
	switch outcome {
	case protocol.Won, protocol.Lost:
		sep()
		w.Key("outcome")
		if outcome == protocol.Won {
			w.Raw("true")
		} else {
			w.Raw("false")
		}
	}
	sep()
	encodeState(w, d, r, v, mine, enemy)
	return w.Bytes()
}

// encodeEvent writes the "result" member of EncodeResult, when ev has one,
// and reports whether it did.
func encodeEvent(w *protocol.Writer, r *submarine.Rules, ev submarine.Event, mine, enemy Order) bool {
	switch {
	case ev.Kind == submarine.Attack:
		w.Key("result")
		w.Byte('{')
		w.Key("attacked")
		if ev.Illegal {
			w.Raw("false")
		} else {
			w.Byte('{')
			w.Key("position")
			w.Cell(r.Board, ev.At)
			if ev.Hit >= 0 && ev.Hit < len(r.Fleet) {
				w.Comma()
				w.Key("hit")
				w.Str(r.Fleet[ev.Hit].Name)
			}
			w.Comma()
			w.Key("near")
			w.Byte('[')
			defender := mine
			if ev.Mine {
				defender = enemy
			}
			seq, k := defender.Seq(len(r.Fleet))
			first := true
			for _, i := range seq[:k] {
				if ev.Near.Has(i) {
					if !first {
						w.Comma()
					}
					first = false
					w.Str(r.Fleet[i].Name)
				}
			}
			w.Raw("]}")
		}
		w.Byte('}')
		return true
	case ev.Kind == submarine.Move && !ev.Mine:
		w.Key("result")
		w.Byte('{')
		w.Key("moved")
		if ev.Illegal {
			w.Raw("false")
		} else {
			w.Byte('{')
			w.Key("ship")
			w.Str(shipName(r, ev.Ship))
			w.Comma()
			w.Key("distance")
			w.Pair(ev.DX, ev.DY)
			w.Byte('}')
		}
		w.Byte('}')
		return true
	}
	return false
}

// encodeState writes the state member of EncodeResult: "condition" (or
// "observation") with this side's living ships and the enemy's.
func encodeState(w *protocol.Writer, d protocol.Dialect, r *submarine.Rules, v *submarine.View, mine, enemy Order) {
	w.Key(stateKey(d))
	w.Byte('{')
	w.Key("me")
	w.Byte('{')
	seq, k := mine.Seq(len(r.Fleet))
	first := true
	for _, i := range seq[:k] {
		if !v.Me.Alive.Has(i) {
			continue
		}
		encodeShipHP(w, r, first, i, int(v.Me.HP[i]))
		first = false
		w.Comma()
		w.Key("position")
		w.Cell(r.Board, v.Me.Pos[i])
		w.Byte('}')
	}
	w.Byte('}')
	w.Comma()
	w.Key(enemyKey(d))
	w.Byte('{')
	seq, k = enemy.Seq(len(r.Fleet))
	first = true
	for _, i := range seq[:k] {
		if v.EnemyHP[i] <= 0 {
			continue
		}
		encodeShipHP(w, r, first, i, int(v.EnemyHP[i]))
		first = false
		w.Byte('}')
	}
	w.Raw("}}}")
}

// encodeShipHP writes the start of ship i's member of the state, after a
// comma unless it is the first: its name's key and {"hp":hp.
func encodeShipHP(w *protocol.Writer, r *submarine.Rules, first bool, i, hp int) {
	if !first {
		w.Comma()
	}
	w.Key(r.Fleet[i].Name)
	w.Byte('{')
	w.Key("hp")
	w.Int(hp)
}

// Result is one decoded result line.
type Result struct {
	Event   submarine.Event
	Outcome int            // protocol.NoOutcome, protocol.Lost or protocol.Won
	View    submarine.View // sunk own ships have HP 0 and Pos grid.None
	// HasResult reports whether the line carried a "result" key. Without
	// one, the line answers the reader's own move (or an Invalid action).
	HasResult bool
}

// DecodeResult parses a result line in dialect d. mine says whether the line
// answers the reader's own action (after "your turn") rather than the
// enemy's (after "waiting").
//
// The Event carries everything the wire says: for attacks At, Hit, Near and
// Sunk (the hit ship is gone from the defender's side of the state); for the
// enemy's moves Ship, DX and DY (To = grid.None); illegal actions set Illegal
// ({"attacked":false}: Kind Attack; {"moved":false}: Kind Move). A line
// without "result" decodes as the reader's own move when mine (Kind Move,
// Illegal when the outcome is a loss; the caller, who knows its action, fills
// Kind, Ship, To, DX and DY), and as an Invalid, illegal action of the enemy
// otherwise. Both "condition"/"enemy" (classic) and "observation"/"opponent"
// (submarine-py) are accepted in either dialect.
func DecodeResult(d protocol.Dialect, line []byte, r *submarine.Rules, mine bool) (Result, error) {
	res, err := decodeResult(d, line, r, mine)
	if err != nil {
		return Result{}, protocol.Wrap(line, err)
	}
	return res, nil
}

func decodeResult(d protocol.Dialect, line []byte, r *submarine.Rules, mine bool) (Result, error) {
	ms, err := protocol.Object(line, "result line")
	if err != nil {
		return Result{}, err
	}
	res := Result{Outcome: protocol.NoOutcome}
	res.Event = submarine.Event{Mine: mine, At: grid.None, Hit: submarine.NoShip, Ship: submarine.NoShip, To: grid.None}

	stateRaw, ok := protocol.Lookup(ms, stateKey(d))
	if !ok {
		other := protocol.Classic
		if d == protocol.Classic {
			other = protocol.SubmarinePy
		}
		if stateRaw, ok = protocol.Lookup(ms, stateKey(other)); !ok {
			return Result{}, fmt.Errorf("%w: result line needs %q", protocol.ErrType, stateKey(d))
		}
	}
	if res.View, err = decodeState(d, stateRaw, r); err != nil {
		return Result{}, err
	}
	if raw, ok := protocol.Lookup(ms, "outcome"); ok {
		won, err := protocol.Boolean(raw, `"outcome"`)
		if err != nil {
			return Result{}, err
		}
		res.Outcome = protocol.Lost
		if won {
			res.Outcome = protocol.Won
		}
	}
	raw, ok := protocol.Lookup(ms, "result")
	if !ok {
		if mine {
			res.Event.Kind = submarine.Move
			res.Event.Illegal = res.Outcome == protocol.Lost
		} else {
			res.Event.Kind = submarine.Invalid
			res.Event.Illegal = true
		}
		return res, nil
	}
	res.HasResult = true
	body, err := protocol.Members(raw, `"result"`)
	if err != nil {
		return Result{}, err
	}
	att, hasAtt := protocol.Lookup(body, "attacked")
	mov, hasMov := protocol.Lookup(body, "moved")
	switch {
	case hasAtt && hasMov:
		return Result{}, fmt.Errorf(`%w: "result" has both "attacked" and "moved"`, protocol.ErrType)
	case hasAtt:
		res.Event.Kind = submarine.Attack
		if err := decodeAttacked(att, r, &res); err != nil {
			return Result{}, err
		}
	case hasMov:
		res.Event.Kind = submarine.Move
		if err := decodeMoved(mov, r, &res); err != nil {
			return Result{}, err
		}
	default:
		return Result{}, fmt.Errorf(`%w: "result" needs "attacked" or "moved"`, protocol.ErrType)
	}
	return res, nil
}

// eventBody reads the members of an "attacked" or "moved" object (what
// names it); false instead of the object means the action was illegal: it
// sets ev.Illegal and returns no members.
func eventBody(raw []byte, what string, ev *submarine.Event) ([]protocol.Member, error) {
	if protocol.KindOf(raw) != '{' {
		ok, err := protocol.Boolean(raw, what)
		if err != nil || ok {
			return nil, fmt.Errorf(`%w: %s must be an object or false, got %s`, protocol.ErrType, what, protocol.Describe(raw))
		}
		ev.Illegal = true
		return nil, nil
	}
	ms, err := protocol.Members(raw, what)
	if err == nil && ms == nil {
		ms = []protocol.Member{} // an empty object is not "false"
	}
	return ms, err
}

func decodeAttacked(raw []byte, r *submarine.Rules, res *Result) error {
	ev := &res.Event
	body, err := eventBody(raw, `"attacked"`, ev)
	if body == nil || err != nil {
		return err
	}
	posRaw, err := protocol.Need(body, "position", `"attacked"`)
	if err != nil {
		return err
	}
	if ev.At, err = protocol.Position(posRaw, r.Board, `"attacked.position"`); err != nil {
		return err
	}
	if ev.At == grid.None {
		return fmt.Errorf(`%w: "attacked.position" %s is off the board`, protocol.ErrType, protocol.Describe(posRaw))
	}
	if hitRaw, ok := protocol.Lookup(body, "hit"); ok && protocol.KindOf(hitRaw) != 'n' {
		if ev.Hit, err = ship(hitRaw, r, `"attacked.hit"`); err != nil {
			return err
		}
		// The hit ship sank when it is gone from the defender's side.
		if ev.Mine {
			ev.Sunk = res.View.EnemyHP[ev.Hit] == 0
		} else {
			ev.Sunk = !res.View.Me.Alive.Has(ev.Hit)
		}
	}
	if nearRaw, ok := protocol.Lookup(body, "near"); ok {
		elems, err := protocol.Array(nearRaw, `"attacked.near"`)
		if err != nil {
			return err
		}
		for _, e := range elems {
			i, err := ship(e, r, `"attacked.near"`)
			if err != nil {
				return err
			}
			ev.Near = ev.Near.With(i)
		}
	}
	return nil
}

func decodeMoved(raw []byte, r *submarine.Rules, res *Result) error {
	ev := &res.Event
	body, err := eventBody(raw, `"moved"`, ev)
	if body == nil || err != nil {
		return err
	}
	shipRaw, err := protocol.Need(body, "ship", `"moved"`)
	if err != nil {
		return err
	}
	if ev.Ship, err = ship(shipRaw, r, `"moved.ship"`); err != nil {
		return err
	}
	distRaw, err := protocol.Need(body, "distance", `"moved"`)
	if err != nil {
		return err
	}
	if ev.DX, ev.DY, err = protocol.Pair(distRaw, `"moved.distance"`); err != nil {
		return err
	}
	if abs(ev.DX) >= r.Board.Width() || abs(ev.DY) >= r.Board.Height() {
		return fmt.Errorf(`%w: "moved.distance" %s does not fit the board`, protocol.ErrType, protocol.Describe(distRaw))
	}
	return nil
}

// ship parses raw as the name of a fleet ship.
func ship(raw []byte, r *submarine.Rules, what string) (int, error) {
	name, err := protocol.Str(raw, what)
	if err != nil {
		return submarine.NoShip, err
	}
	i, ok := r.ShipIndex(name)
	if !ok {
		return submarine.NoShip, fmt.Errorf("%w: %s %q (the fleet is %s)", protocol.ErrUnknownShip, what, name, fleetNames(r))
	}
	return i, nil
}

// decodeState parses the "condition" (or "observation") object.
func decodeState(d protocol.Dialect, raw []byte, r *submarine.Rules) (submarine.View, error) {
	var v submarine.View
	for i := range v.Me.Pos {
		v.Me.Pos[i] = grid.None
	}
	stateKey, enemyKey := stateKey(d), enemyKey(d)
	body, err := protocol.Members(raw, stateKey)
	if err != nil {
		return v, err
	}
	meRaw, ok := protocol.Lookup(body, "me")
	if !ok {
		return v, fmt.Errorf("%w: %q needs \"me\"", protocol.ErrType, stateKey)
	}
	me, err := protocol.Members(meRaw, `"me"`)
	if err != nil {
		return v, err
	}
	for _, m := range me {
		i, ok := r.ShipIndex(m.Key)
		if !ok {
			return v, fmt.Errorf("%w: \"me\" has %q (the fleet is %s)", protocol.ErrUnknownShip, m.Key, fleetNames(r))
		}
		c, hp, err := shipState(m.Val, r, i, true)
		if err != nil {
			return v, fmt.Errorf("\"me.%s\": %w", m.Key, err)
		}
		if v.Me.Occupied.Has(c) {
			return v, fmt.Errorf("%w: two own ships at %s", protocol.ErrFleet, r.CellName(c))
		}
		v.Me.Pos[i], v.Me.HP[i] = c, int8(hp)
		v.Me.Alive = v.Me.Alive.With(i)
		v.Me.Occupied.Add(c)
	}
	enemyRaw, ok := protocol.Lookup(body, enemyKey)
	if !ok {
		alt := "opponent"
		if d == protocol.SubmarinePy {
			alt = "enemy"
		}
		if enemyRaw, ok = protocol.Lookup(body, alt); !ok {
			return v, fmt.Errorf("%w: %q needs %q", protocol.ErrType, stateKey, enemyKey)
		}
	}
	enemy, err := protocol.Members(enemyRaw, enemyKey)
	if err != nil {
		return v, err
	}
	for _, m := range enemy {
		i, ok := r.ShipIndex(m.Key)
		if !ok {
			return v, fmt.Errorf("%w: %q has %q (the fleet is %s)", protocol.ErrUnknownShip, enemyKey, m.Key, fleetNames(r))
		}
		_, hp, err := shipState(m.Val, r, i, false)
		if err != nil {
			return v, fmt.Errorf("\"%s.%s\": %w", enemyKey, m.Key, err)
		}
		v.EnemyHP[i] = int8(hp)
	}
	return v, nil
}

// shipState reads {"hp": n[, "position": [x, y]]} of ship i: hp from 1 to
// the ship's full hp, the position (when withPos) on the board.
func shipState(raw []byte, r *submarine.Rules, i int, withPos bool) (grid.Cell, int, error) {
	body, err := protocol.Members(raw, "ship state")
	if err != nil {
		return grid.None, 0, err
	}
	hpRaw, ok := protocol.Lookup(body, "hp")
	if !ok {
		return grid.None, 0, fmt.Errorf(`%w: needs "hp"`, protocol.ErrType)
	}
	hp, err := protocol.Integer(hpRaw, `"hp"`)
	if err != nil {
		return grid.None, 0, err
	}
	if hp < 1 || hp > r.Fleet[i].HP {
		return grid.None, 0, fmt.Errorf(`%w: "hp" is %d, want 1 to %d`, protocol.ErrType, hp, r.Fleet[i].HP)
	}
	if !withPos {
		return grid.None, hp, nil
	}
	posRaw, ok := protocol.Lookup(body, "position")
	if !ok {
		return grid.None, 0, fmt.Errorf(`%w: needs "position"`, protocol.ErrType)
	}
	c, err := protocol.Position(posRaw, r.Board, `"position"`)
	if err != nil {
		return grid.None, 0, err
	}
	if c == grid.None {
		return grid.None, 0, fmt.Errorf("%w: own ship at %s is off the board", protocol.ErrFleet, protocol.Describe(posRaw))
	}
	return c, hp, nil
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}
