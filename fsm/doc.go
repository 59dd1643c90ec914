// Package fsm is the state machine of the StatePlayer2 submarine AI
// (players.StatePlayer2), built on github.com/looplab/fsm.
//
// The machine has four states — Sakuteki (search, the initial state), Attack,
// Escape and Stealth — and the events that move between them are data: one
// transition table (Table) that the machine, the tests, the diagram
// (Mermaid, Dot) and `kaisen fsm` all read. Every event carries a Msg, the
// target of the destination state: a cell for Attack, a ship index for Escape
// and Stealth, nothing for Sakuteki.
//
// Machine wraps looplab/fsm with three rules that its raw API leaves to the
// caller:
//
//   - callbacks never call back into the machine (looplab/fsm deadlocks when
//     Event, Can, Transition or SetState is called from a before_ or leave_
//     callback); they only read the event, cancel it when its message does
//     not fit, and record the new state and message in the wrapper;
//   - a self-transition (Attack to Attack with a new target) is a success:
//     looplab/fsm reports it as NoTransitionError with a nil Err;
//   - every callback key names a real state or event (looplab/fsm silently
//     ignores a misspelled key; CheckCallbacks rejects it).
//
// A Machine belongs to one player and is used by one goroutine.
package fsm
