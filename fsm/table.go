package fsm

import (
	"fmt"
	"slices"

	"github.com/kaisen-ai/kaisen/game/grid"
)

// State is a state of the machine.
type State uint8

// The states of StatePlayer2 (names from the original design).
const (
	// Sakuteki (索敵, search) attacks the most informative cell in reach
	// without moving. It is the initial state.
	Sakuteki State = iota
	// Attack fires at the target cell, moving a ship into reach first if needed.
	Attack
	// Escape moves the target ship, just hit, away from danger.
	Escape
	// Stealth keeps the last ship moving, giving away as little as possible.
	Stealth
	numStates
)

var stateNames = [numStates]string{"sakuteki", "attack", "escape", "stealth"}

// States lists every state in declaration order.
func States() []State { return []State{Sakuteki, Attack, Escape, Stealth} }

// String returns the state's name, e.g. "sakuteki".
func (s State) String() string {
	if s < numStates {
		return stateNames[s]
	}
	return fmt.Sprintf("state(%d)", uint8(s))
}

// Valid reports whether s is one of the four states.
func (s State) Valid() bool { return s < numStates }

// ParseState returns the state called name.
func ParseState(name string) (State, error) {
	for i, n := range stateNames {
		if n == name {
			return State(i), nil
		}
	}
	return 0, fmt.Errorf("%w %q", ErrUnknownState, name)
}

// Event is an event of the machine.
type Event uint8

// The events. Which states each one leaves and enters is in Table.
const (
	// Pinned: an enemy ship's position is known exactly (global rule 2);
	// the message is its cell.
	Pinned Event = iota
	// Exhausted: every cell in reach has been searched; the message is an
	// unsearched cell out of reach to move towards.
	Exhausted
	// GiveUp: the state cannot act (no qualifying move, target proven empty
	// or already fired at, every destination dangerous).
	GiveUp
	// Escaped: the hit ship has moved away.
	Escaped
	// Cornered: the hit ship has nowhere safe to go; counter-attack the
	// pinned enemy cell in the message.
	Cornered
	// Counter: the enemy hit one of my ships and a pinned enemy ship is in
	// that ship's reach with no more hp than it; the message is its cell.
	Counter
	// Hit: the enemy hit one of my ships (which survived) and no counter-attack
	// is possible; the message is the ship.
	Hit
	// LastShip: only one of my ships is left (global rule 1); the message is
	// the ship.
	LastShip
	numEvents
)

var eventNames = [numEvents]string{"pinned", "exhausted", "give_up", "escaped", "cornered", "counter", "hit", "last_ship"}

// Events lists every event in declaration order.
func Events() []Event {
	out := make([]Event, numEvents)
	for i := range out {
		out[i] = Event(i)
	}
	return out
}

// String returns the event's name, e.g. "last_ship".
func (e Event) String() string {
	if e < numEvents {
		return eventNames[e]
	}
	return fmt.Sprintf("event(%d)", uint8(e))
}

// Valid reports whether e is one of the declared events.
func (e Event) Valid() bool { return e < numEvents }

// ParseEvent returns the event called name.
func ParseEvent(name string) (Event, error) {
	for i, n := range eventNames {
		if n == name {
			return Event(i), nil
		}
	}
	return 0, fmt.Errorf("%w %q", ErrUnknownEvent, name)
}

// Transition is one row of the table: Event moves the machine from any state
// of Src to Dst.
type Transition struct {
	Event Event
	Src   []State
	Dst   State
	// When says in words when the player fires the event.
	When string
}

var all = []State{Sakuteki, Attack, Escape, Stealth}

// table is THE transition table. Everything else (the looplab/fsm events, the
// fast lookup, the diagrams, the tests) is derived from it.
var table = []Transition{
	{Pinned, []State{Sakuteki, Attack}, Attack, "global rule 2: an enemy ship is pinned (not in escape or stealth)"},
	{Exhausted, []State{Sakuteki}, Attack, "every cell in reach searched: go for an unsearched cell out of reach"},
	{GiveUp, []State{Attack, Escape, Stealth}, Sakuteki, "no qualifying move, target empty or fired at, or every destination in the danger zone"},
	{Escaped, []State{Escape}, Sakuteki, "the hit ship moved away"},
	{Cornered, []State{Escape}, Attack, "no safe destination: counter-attack a pinned enemy in reach"},
	{Counter, all, Attack, "enemy hit my ship; a pinned enemy is in its reach and my hp >= its hp"},
	{Hit, all, Escape, "enemy hit my ship and it survived; no counter-attack"},
	{LastShip, all, Stealth, "global rule 1: one ship left"},
}

// Table returns a copy of the transition table, in its fixed order.
func Table() []Transition {
	out := make([]Transition, len(table))
	for i, t := range table {
		out[i] = t
		out[i].Src = slices.Clone(t.Src)
	}
	return out
}

// dst[e][s] is the destination of event e in state s, or noState.
var dst = func() (d [numEvents][numStates]State) {
	for e := range d {
		for s := range d[e] {
			d[e][s] = noState
		}
	}
	for _, t := range table {
		for _, s := range t.Src {
			d[t.Event][s] = t.Dst
		}
	}
	return d
}()

const noState State = 255

// Next returns the state event e leads to from state s, and whether e may
// fire in s at all.
func Next(s State, e Event) (State, bool) {
	if !s.Valid() || !e.Valid() {
		return 0, false
	}
	d := dst[e][s]
	return d, d != noState
}

// Msg is the target an event hands to its destination state.
type Msg struct {
	// Cell is the target cell of Attack (grid.None otherwise).
	Cell grid.Cell
	// Ship is the fleet index of the ship of Escape and Stealth (-1 otherwise).
	Ship int
}

// NoMsg is the message of Sakuteki: no target.
var NoMsg = Msg{Cell: grid.None, Ship: -1}

// CellMsg is a message naming cell c (for Attack).
func CellMsg(c grid.Cell) Msg { return Msg{Cell: c, Ship: -1} }

// ShipMsg is a message naming ship i (for Escape and Stealth).
func ShipMsg(i int) Msg { return Msg{Cell: grid.None, Ship: i} }

// String formats m as "cell 7", "ship 2" or "-".
func (m Msg) String() string {
	switch {
	case m.Cell >= 0 && m.Ship < 0:
		return fmt.Sprintf("cell %d", int(m.Cell))
	case m.Ship >= 0 && m.Cell < 0:
		return fmt.Sprintf("ship %d", m.Ship)
	case m == NoMsg:
		return "-"
	default:
		return fmt.Sprintf("cell %d ship %d", int(m.Cell), m.Ship)
	}
}

// CheckMsg reports whether m is a valid message for state s: a cell for
// Attack, a ship for Escape and Stealth, NoMsg for Sakuteki. It checks the
// shape only; whether the cell is on the board is the player's business.
func CheckMsg(s State, m Msg) error {
	switch s {
	case Attack:
		if m.Cell < 0 || m.Ship >= 0 {
			return fmt.Errorf("%w: %s wants a cell, got %s", ErrMsg, s, m)
		}
	case Escape, Stealth:
		if m.Ship < 0 || m.Cell >= 0 {
			return fmt.Errorf("%w: %s wants a ship, got %s", ErrMsg, s, m)
		}
	case Sakuteki:
		if m != NoMsg {
			return fmt.Errorf("%w: %s takes no target, got %s", ErrMsg, s, m)
		}
	default:
		return fmt.Errorf("%w %d", ErrUnknownState, uint8(s))
	}
	return nil
}
