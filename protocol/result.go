package protocol

import (
	"fmt"

	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/game/submarine"
)

// Outcome values of EncodeResult and Result.
const (
	NoOutcome = -1 // the game goes on (or ends in a draw)
	Lost      = 0  // "outcome": false
	Won       = 1  // "outcome": true
)

// EncodeResult prints the JSON line sent to one side after an action: what
// the side is told (ev), the game's outcome for this side (NoOutcome, Lost,
// Won) and what the side knows afterwards (v). mine and enemy are the wire
// orders of this side's and the enemy's placements (nil = fleet order).
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
func EncodeResult(d Dialect, r *submarine.Rules, ev submarine.Event, outcome int, v *submarine.View, mine, enemy Order) []byte {
	w := newWriter(d, 256)
	w.byte('{')
	n := 0 // members written
	sep := func() {
		if n > 0 {
			w.comma()
		}
		n++
	}
	switch {
	case ev.Kind == submarine.Attack:
		sep()
		w.key("result")
		w.byte('{')
		w.key("attacked")
		if ev.Illegal {
			w.raw("false")
		} else {
			w.byte('{')
			w.key("position")
			w.cell(r.Board, ev.At)
			if ev.Hit >= 0 && ev.Hit < len(r.Fleet) {
				w.comma()
				w.key("hit")
				w.str(r.Fleet[ev.Hit].Name)
			}
			w.comma()
			w.key("near")
			w.byte('[')
			defender := mine
			if ev.Mine {
				defender = enemy
			}
			seq, k := defender.Seq(len(r.Fleet))
			first := true
			for _, i := range seq[:k] {
				if ev.Near.Has(i) {
					if !first {
						w.comma()
					}
					first = false
					w.str(r.Fleet[i].Name)
				}
			}
			w.raw("]}")
		}
		w.byte('}')
	case ev.Kind == submarine.Move && !ev.Mine:
		sep()
		w.key("result")
		w.byte('{')
		w.key("moved")
		if ev.Illegal {
			w.raw("false")
		} else {
			w.byte('{')
			w.key("ship")
			w.str(shipName(r, ev.Ship))
			w.comma()
			w.key("distance")
			w.pair(ev.DX, ev.DY)
			w.byte('}')
		}
		w.byte('}')
	}
	switch outcome {
	case Won, Lost:
		sep()
		w.key("outcome")
		if outcome == Won {
			w.raw("true")
		} else {
			w.raw("false")
		}
	}
	sep()
	w.key(d.stateKey())
	w.byte('{')
	w.key("me")
	w.byte('{')
	seq, k := mine.Seq(len(r.Fleet))
	first := true
	for _, i := range seq[:k] {
		if !v.Me.Alive.Has(i) {
			continue
		}
		if !first {
			w.comma()
		}
		first = false
		w.key(r.Fleet[i].Name)
		w.byte('{')
		w.key("hp")
		w.int(int(v.Me.HP[i]))
		w.comma()
		w.key("position")
		w.cell(r.Board, v.Me.Pos[i])
		w.byte('}')
	}
	w.byte('}')
	w.comma()
	w.key(d.enemyKey())
	w.byte('{')
	seq, k = enemy.Seq(len(r.Fleet))
	first = true
	for _, i := range seq[:k] {
		if v.EnemyHP[i] <= 0 {
			continue
		}
		if !first {
			w.comma()
		}
		first = false
		w.key(r.Fleet[i].Name)
		w.byte('{')
		w.key("hp")
		w.int(int(v.EnemyHP[i]))
		w.byte('}')
	}
	w.raw("}}}")
	return w.b
}

// Result is one decoded result line.
type Result struct {
	Event   submarine.Event
	Outcome int            // NoOutcome, Lost or Won
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
func DecodeResult(d Dialect, line []byte, r *submarine.Rules, mine bool) (Result, error) {
	res, err := decodeResult(d, line, r, mine)
	if err != nil {
		return Result{}, wrap(line, err)
	}
	return res, nil
}

func decodeResult(d Dialect, line []byte, r *submarine.Rules, mine bool) (Result, error) {
	ms, err := object(line, "result line")
	if err != nil {
		return Result{}, err
	}
	res := Result{Outcome: NoOutcome}
	res.Event = submarine.Event{Mine: mine, At: grid.None, Hit: submarine.NoShip, Ship: submarine.NoShip, To: grid.None}

	stateRaw, ok := lookup(ms, d.stateKey())
	if !ok {
		other := Classic
		if d == Classic {
			other = SubmarinePy
		}
		if stateRaw, ok = lookup(ms, other.stateKey()); !ok {
			return Result{}, fmt.Errorf("%w: result line needs %q", ErrType, d.stateKey())
		}
	}
	if res.View, err = decodeState(d, stateRaw, r); err != nil {
		return Result{}, err
	}
	if raw, ok := lookup(ms, "outcome"); ok {
		won, err := boolean(raw, `"outcome"`)
		if err != nil {
			return Result{}, err
		}
		res.Outcome = Lost
		if won {
			res.Outcome = Won
		}
	}
	raw, ok := lookup(ms, "result")
	if !ok {
		if mine {
			res.Event.Kind = submarine.Move
			res.Event.Illegal = res.Outcome == Lost
		} else {
			res.Event.Kind = submarine.Invalid
			res.Event.Illegal = true
		}
		return res, nil
	}
	res.HasResult = true
	body, err := members(raw, `"result"`)
	if err != nil {
		return Result{}, err
	}
	att, hasAtt := lookup(body, "attacked")
	mov, hasMov := lookup(body, "moved")
	switch {
	case hasAtt && hasMov:
		return Result{}, fmt.Errorf(`%w: "result" has both "attacked" and "moved"`, ErrType)
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
		return Result{}, fmt.Errorf(`%w: "result" needs "attacked" or "moved"`, ErrType)
	}
	return res, nil
}

// eventBody reads the members of an "attacked" or "moved" object (what
// names it); false instead of the object means the action was illegal: it
// sets ev.Illegal and returns no members.
func eventBody(raw []byte, what string, ev *submarine.Event) ([]member, error) {
	if kindOf(raw) != '{' {
		ok, err := boolean(raw, what)
		if err != nil || ok {
			return nil, fmt.Errorf(`%w: %s must be an object or false, got %s`, ErrType, what, describe(raw))
		}
		ev.Illegal = true
		return nil, nil
	}
	ms, err := members(raw, what)
	if err == nil && ms == nil {
		ms = []member{} // an empty object is not "false"
	}
	return ms, err
}

func decodeAttacked(raw []byte, r *submarine.Rules, res *Result) error {
	ev := &res.Event
	body, err := eventBody(raw, `"attacked"`, ev)
	if body == nil || err != nil {
		return err
	}
	posRaw, ok := lookup(body, "position")
	if !ok {
		return fmt.Errorf(`%w: "attacked" needs "position"`, ErrType)
	}
	if ev.At, err = position(posRaw, r.Board, `"attacked.position"`); err != nil {
		return err
	}
	if ev.At == grid.None {
		return fmt.Errorf(`%w: "attacked.position" %s is off the board`, ErrType, describe(posRaw))
	}
	if hitRaw, ok := lookup(body, "hit"); ok && kindOf(hitRaw) != 'n' {
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
	if nearRaw, ok := lookup(body, "near"); ok {
		elems, err := array(nearRaw, `"attacked.near"`)
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
	shipRaw, ok := lookup(body, "ship")
	if !ok {
		return fmt.Errorf(`%w: "moved" needs "ship"`, ErrType)
	}
	if ev.Ship, err = ship(shipRaw, r, `"moved.ship"`); err != nil {
		return err
	}
	distRaw, ok := lookup(body, "distance")
	if !ok {
		return fmt.Errorf(`%w: "moved" needs "distance"`, ErrType)
	}
	if ev.DX, ev.DY, err = pair(distRaw, `"moved.distance"`); err != nil {
		return err
	}
	if abs(ev.DX) >= r.Board.Width() || abs(ev.DY) >= r.Board.Height() {
		return fmt.Errorf(`%w: "moved.distance" %s does not fit the board`, ErrType, describe(distRaw))
	}
	return nil
}

// ship parses raw as the name of a fleet ship.
func ship(raw []byte, r *submarine.Rules, what string) (int, error) {
	name, err := str(raw, what)
	if err != nil {
		return submarine.NoShip, err
	}
	i, ok := r.ShipIndex(name)
	if !ok {
		return submarine.NoShip, fmt.Errorf("%w: %s %q (the fleet is %s)", ErrUnknownShip, what, name, fleetNames(r))
	}
	return i, nil
}

// decodeState parses the "condition" (or "observation") object.
func decodeState(d Dialect, raw []byte, r *submarine.Rules) (submarine.View, error) {
	var v submarine.View
	for i := range v.Me.Pos {
		v.Me.Pos[i] = grid.None
	}
	stateKey, enemyKey := d.stateKey(), d.enemyKey()
	body, err := members(raw, stateKey)
	if err != nil {
		return v, err
	}
	meRaw, ok := lookup(body, "me")
	if !ok {
		return v, fmt.Errorf("%w: %q needs \"me\"", ErrType, stateKey)
	}
	me, err := members(meRaw, `"me"`)
	if err != nil {
		return v, err
	}
	for _, m := range me {
		i, ok := r.ShipIndex(m.key)
		if !ok {
			return v, fmt.Errorf("%w: \"me\" has %q (the fleet is %s)", ErrUnknownShip, m.key, fleetNames(r))
		}
		c, hp, err := shipState(m.val, r, i, true)
		if err != nil {
			return v, fmt.Errorf("\"me.%s\": %w", m.key, err)
		}
		if v.Me.Occupied.Has(c) {
			return v, fmt.Errorf("%w: two own ships at %s", ErrFleet, r.CellName(c))
		}
		v.Me.Pos[i], v.Me.HP[i] = c, int8(hp)
		v.Me.Alive = v.Me.Alive.With(i)
		v.Me.Occupied.Add(c)
	}
	enemyRaw, ok := lookup(body, enemyKey)
	if !ok {
		alt := "opponent"
		if d == SubmarinePy {
			alt = "enemy"
		}
		if enemyRaw, ok = lookup(body, alt); !ok {
			return v, fmt.Errorf("%w: %q needs %q", ErrType, stateKey, enemyKey)
		}
	}
	enemy, err := members(enemyRaw, enemyKey)
	if err != nil {
		return v, err
	}
	for _, m := range enemy {
		i, ok := r.ShipIndex(m.key)
		if !ok {
			return v, fmt.Errorf("%w: %q has %q (the fleet is %s)", ErrUnknownShip, enemyKey, m.key, fleetNames(r))
		}
		_, hp, err := shipState(m.val, r, i, false)
		if err != nil {
			return v, fmt.Errorf("\"%s.%s\": %w", enemyKey, m.key, err)
		}
		v.EnemyHP[i] = int8(hp)
	}
	return v, nil
}

// shipState reads {"hp": n[, "position": [x, y]]} of ship i: hp from 1 to
// the ship's full hp, the position (when withPos) on the board.
func shipState(raw []byte, r *submarine.Rules, i int, withPos bool) (grid.Cell, int, error) {
	body, err := members(raw, "ship state")
	if err != nil {
		return grid.None, 0, err
	}
	hpRaw, ok := lookup(body, "hp")
	if !ok {
		return grid.None, 0, fmt.Errorf(`%w: needs "hp"`, ErrType)
	}
	hp, err := integer(hpRaw, `"hp"`)
	if err != nil {
		return grid.None, 0, err
	}
	if hp < 1 || hp > r.Fleet[i].HP {
		return grid.None, 0, fmt.Errorf(`%w: "hp" is %d, want 1 to %d`, ErrType, hp, r.Fleet[i].HP)
	}
	if !withPos {
		return grid.None, hp, nil
	}
	posRaw, ok := lookup(body, "position")
	if !ok {
		return grid.None, 0, fmt.Errorf(`%w: needs "position"`, ErrType)
	}
	c, err := position(posRaw, r.Board, `"position"`)
	if err != nil {
		return grid.None, 0, err
	}
	if c == grid.None {
		return grid.None, 0, fmt.Errorf("%w: own ship at %s is off the board", ErrFleet, describe(posRaw))
	}
	return c, hp, nil
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}
