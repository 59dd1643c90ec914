package fsm

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	lfsm "github.com/looplab/fsm"
)

// Errors returned by Fire, ParseState, ParseEvent and CheckCallbacks. Fire's
// errors also wrap the looplab/fsm error value they come from, so
// errors.As(err, &lfsm.InvalidEventError{}) works too.
var (
	ErrUnknownState = errors.New("fsm: unknown state")
	ErrUnknownEvent = errors.New("fsm: unknown event")
	ErrInvalidEvent = errors.New("fsm: event not allowed in the current state")
	ErrMsg          = errors.New("fsm: bad message")
	ErrCallback     = errors.New("fsm: callback key names no state or event")
)

// Machine is the StatePlayer2 state machine: a looplab/fsm machine built from
// Table plus the current message. The zero value is not usable; call New.
type Machine struct {
	f     *lfsm.FSM
	state State // mirror of f.Current(), kept by the after_event callback
	msg   Msg
	fired int // transitions and self-transitions done through looplab/fsm
	// pending is the message of the event in flight; args (= {&pending}) is
	// passed to looplab/fsm as is, so Fire allocates no argument slice and
	// boxes no value.
	pending Msg
	args    []any
}

// New returns a machine in Sakuteki with NoMsg.
func New() *Machine {
	m := &Machine{state: Sakuteki, msg: NoMsg}
	m.args = []any{&m.pending}
	m.f = lfsm.NewFSM(Sakuteki.String(), lfsmTable, m.callbacks())
	return m
}

// lfsmTable is Table as looplab/fsm events, built once (NewFSM only reads it).
var lfsmTable = lfsmEvents()

// lfsmEvents converts Table to looplab/fsm event descriptions.
func lfsmEvents() lfsm.Events {
	evs := make(lfsm.Events, 0, len(table))
	for _, t := range table {
		src := make([]string, len(t.Src))
		for i, s := range t.Src {
			src[i] = s.String()
		}
		evs = append(evs, lfsm.EventDesc{Name: t.Event.String(), Src: src, Dst: t.Dst.String()})
	}
	return evs
}

// callbacks are the looplab/fsm callbacks of m. None of them calls Event,
// Can, Transition or SetState (that deadlocks inside before_/leave_
// callbacks); they read the event, cancel it, or update m's own fields.
func (m *Machine) callbacks() lfsm.Callbacks {
	return lfsm.Callbacks{
		// before_event validates the message against the destination and
		// cancels the event (the machine does not move) when it does not fit.
		"before_event": func(_ context.Context, e *lfsm.Event) {
			msg, err := eventMsg(e)
			if err == nil {
				var to State
				if to, err = ParseState(e.Dst); err == nil {
					err = CheckMsg(to, msg)
				}
			}
			if err != nil {
				e.Cancel(err)
			}
		},
		// after_event runs after real transitions and self-transitions alike
		// (enter_state does not run for a self-transition): it commits the
		// state mirror and the message.
		"after_event": func(_ context.Context, e *lfsm.Event) {
			msg, _ := eventMsg(e) // checked in before_event
			to, _ := ParseState(e.Dst)
			m.state, m.msg = to, msg
			m.fired++
		},
	}
}

func eventMsg(e *lfsm.Event) (Msg, error) {
	if len(e.Args) != 1 {
		return NoMsg, fmt.Errorf("%w: event %s carries %d arguments, want one Msg", ErrMsg, e.Event, len(e.Args))
	}
	switch msg := e.Args[0].(type) {
	case *Msg:
		return *msg, nil
	case Msg:
		return msg, nil
	default:
		return NoMsg, fmt.Errorf("%w: event %s carries a %T, want a Msg", ErrMsg, e.Event, e.Args[0])
	}
}

// State is the current state.
func (m *Machine) State() State { return m.state }

// Msg is the current state's target.
func (m *Machine) Msg() Msg { return m.msg }

// Can reports whether ev may fire in the current state.
func (m *Machine) Can(ev Event) bool {
	_, ok := Next(m.state, ev)
	return ok
}

// Fired counts the events that went through looplab/fsm (transitions and
// self-transitions with a new message; no-ops are not counted).
func (m *Machine) Fired() int { return m.fired }

// Fire sends event ev with target msg. The machine moves to the event's
// destination (Table) and keeps msg as its target.
//
// A self-transition (the destination is the current state) is a success:
// with a new msg it goes through looplab/fsm, which reports
// NoTransitionError with a nil Err, and Fire returns nil; with the same msg
// nothing changes and looplab/fsm is not called at all.
//
// Errors: ErrUnknownEvent for an undeclared event, ErrInvalidEvent when ev
// may not fire in the current state (it also wraps lfsm.InvalidEventError),
// ErrMsg when msg does not fit the destination (a cell for Attack, a ship for
// Escape and Stealth, NoMsg for Sakuteki), ctx's error when ctx is done. On
// error the state and message are unchanged.
func (m *Machine) Fire(ctx context.Context, ev Event, msg Msg) error {
	if !ev.Valid() {
		return fmt.Errorf("%w %d", ErrUnknownEvent, uint8(ev))
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("fsm: %s: %w", ev, err)
	}
	if to, ok := Next(m.state, ev); ok && to == m.state && msg == m.msg {
		return nil
	}
	m.pending = msg
	err := m.f.Event(ctx, ev.String(), m.args...)
	if err == nil {
		return nil
	}
	// looplab/fsm returns its error types as plain values; a type switch
	// (rather than errors.As with escaping targets) keeps the common paths
	// free of allocations.
	switch e := err.(type) {
	case lfsm.NoTransitionError:
		if e.Err == nil {
			return nil // a self-transition: success
		}
		return fmt.Errorf("fsm: %s in %s: %w", ev, m.state, e.Err)
	case lfsm.CanceledError:
		return fmt.Errorf("fsm: %s in %s: %w", ev, m.state, e.Err)
	case lfsm.InvalidEventError:
		return fmt.Errorf("%w: %s in %s: %w", ErrInvalidEvent, ev, m.state, e)
	case lfsm.UnknownEventError:
		return fmt.Errorf("%w: %s: %w", ErrUnknownEvent, ev, e)
	default:
		return fmt.Errorf("fsm: %s in %s: %w", ev, m.state, err)
	}
}

// Restore puts the machine in state s with target msg directly, without an
// event and without callbacks (looplab/fsm SetState, called from outside any
// callback). It serves tests, benchmarks and restoring a saved player; a
// player's own decisions go through Fire.
func (m *Machine) Restore(s State, msg Msg) error {
	if err := CheckMsg(s, msg); err != nil {
		return err
	}
	m.f.SetState(s.String())
	m.state, m.msg = s, msg
	return nil
}

// CheckCallbacks reports every key of cb that looplab/fsm would silently
// ignore given Table: a key must be before_<event>, after_<event>,
// leave_<state>, enter_<state>, <state>, <event>, or one of before_event,
// after_event, leave_state, enter_state.
func CheckCallbacks(cb lfsm.Callbacks) error {
	var errs []error
	for _, key := range slices.Sorted(maps.Keys(cb)) {
		if !callbackKeyOK(key) {
			errs = append(errs, fmt.Errorf("%w: %q", ErrCallback, key))
		}
	}
	return errors.Join(errs...)
}

func callbackKeyOK(key string) bool {
	isState := func(s string) bool { _, err := ParseState(s); return err == nil }
	isEvent := func(s string) bool { _, err := ParseEvent(s); return err == nil }
	switch key {
	case "before_event", "after_event", "leave_state", "enter_state":
		return true
	}
	if rest, ok := strings.CutPrefix(key, "before_"); ok {
		return isEvent(rest)
	}
	if rest, ok := strings.CutPrefix(key, "after_"); ok {
		return isEvent(rest)
	}
	if rest, ok := strings.CutPrefix(key, "leave_"); ok {
		return isState(rest)
	}
	if rest, ok := strings.CutPrefix(key, "enter_"); ok {
		return isState(rest)
	}
	return isState(key) || isEvent(key)
}
