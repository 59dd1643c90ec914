// Package audit checks finished submarine games against the exact endgame
// solver (package endgame): it finds the games a player lost after a
// position that perfect play holds (drawn or won for it), and the action
// that threw it away.
//
// A game becomes one of perfect information at the first position where
// both fleets are common knowledge: the public joint belief of each fleet
// (every placement consistent with everything both players were told,
// belief.Joint) holds one placement. From there nothing is hidden (a move
// tells its ship and displacement, an attack's answer is public), every
// later position is known to both sides, and the solver's value of the true
// position is the value of the game.
//
// For a lost game the audit walks the known positions backwards from the
// end and stops at the last one, with the loser to move, that the solver
// does not prove lost: the loser's action there is the one that lost the
// game (Throw). A throw is proven when the solver valued the position drawn
// or won for the loser (Before) and the position after its action lost
// (After); a position of three ships against two or three is valued by a
// bounded search, which proves wins and losses but never a draw, so a
// throw from an Unknown value is reported but not proven.
package audit

import (
	"errors"
	"fmt"

	"github.com/kaisen-ai/kaisen/belief"
	"github.com/kaisen-ai/kaisen/endgame"
	"github.com/kaisen-ai/kaisen/game/submarine"
	"github.com/kaisen-ai/kaisen/replay"
)

// ErrGame is wrapped by the errors of a game that cannot be audited: an
// illegal recorded action, or an event the public beliefs cannot hold.
var ErrGame = errors.New("audit: bad game")

// Options tunes an Auditor.
type Options struct {
	// Nodes is the solver's search budget per position (three ships
	// against two or three); <= 0: endgame.DefaultNodes.
	Nodes int
	// MaxPlacements bounds the public joint beliefs (<= 0:
	// belief.DefaultMaxPlacements); boards with more placements cannot be
	// audited (New fails with belief.ErrTooLarge).
	MaxPlacements int
}

// Auditor audits the games of one set of rules. It is safe for concurrent
// use: every call keeps its own beliefs, and the solver's tablebase is the
// process-wide one of the board (endgame.Shared).
type Auditor struct {
	rules  *submarine.Rules
	solver *endgame.Solver
	limit  int
}

// New returns an Auditor for rules.
func New(rules *submarine.Rules, opt Options) (*Auditor, error) {
	if rules == nil {
		return nil, fmt.Errorf("audit: %w", submarine.ErrRules)
	}
	if err := rules.Validate(); err != nil {
		return nil, fmt.Errorf("audit: %w", err)
	}
	if _, err := belief.NewJoint(rules, opt.MaxPlacements); err != nil {
		return nil, fmt.Errorf("audit: %w", err)
	}
	s, err := endgame.Shared(rules, endgame.Options{Nodes: opt.Nodes})
	if err != nil {
		return nil, fmt.Errorf("audit: %w", err)
	}
	return &Auditor{rules: rules, solver: s, limit: opt.MaxPlacements}, nil
}

// Report is the audit of one game.
type Report struct {
	// Known is the number of actions played (both sides, from 0) when both
	// fleets first became common knowledge; -1 if they never did.
	Known int
	// Loser is the seat that lost the game by the rules (its last ship
	// sunk), -1 for a draw or a game that did not end by the rules.
	Loser int
	// Throw is the loser's action that lost a position perfect play held,
	// nil when there is none (the game was not lost, was lost before
	// everything was known, or the loser was lost from the first known
	// position on).
	Throw *Throw
}

// Throw is an action that turned a position the solver does not prove lost
// into a lost one.
type Throw struct {
	Seat   int              // who acted (the loser)
	Ply    int              // the action's number, from 1
	Action submarine.Action // the action
	Before endgame.Value    // the position's value for Seat, before the action
	After  endgame.Value    // the value for Seat after it (a Loss when proven)
}

// Proven reports whether the solver proved both sides of the throw: the
// position before was drawn or won for the player and the one after lost.
func (t *Throw) Proven() bool {
	return (t.Before.Outcome == endgame.Draw || t.Before.Outcome == endgame.Win) && t.After.Outcome == endgame.Loss
}

// Describe says what the throw was under rules r, e.g. "action 57, move c
// to [2,3]: draw -> loss in 4" (values for the player who threw).
func (t *Throw) Describe(r *submarine.Rules) string {
	return fmt.Sprintf("action %d, %s: %s -> %s", t.Ply, ActionName(r, t.Action), t.Before, t.After)
}

// ActionName names an action as the replays do: "attack [x,y]" or "move
// SHIP to [x,y]".
func ActionName(r *submarine.Rules, a submarine.Action) string {
	switch {
	case a.Kind == submarine.Attack:
		return "attack " + r.CellName(a.To)
	case a.Kind == submarine.Move && a.Ship >= 0 && a.Ship < len(r.Fleet):
		return "move " + r.Fleet[a.Ship].Name + " to " + r.CellName(a.To)
	default:
		return a.Kind.String()
	}
}

// Game audits a game played under the auditor's rules from placements
// place (by seat), seat first acting first, with the given actions in
// order. Actions after the game ended are an error; a game that stops
// before its end (a forfeit outside the rules, an aborted game) is audited
// as far as it went, with no loser.
func (a *Auditor) Game(place [2]submarine.Placement, first int, actions []submarine.Action) (Report, error) {
	g, err := submarine.NewGame(a.rules, place[0], place[1], first)
	if err != nil {
		return Report{}, fmt.Errorf("%w: %w", ErrGame, err)
	}
	var pub [2]*belief.Joint
	for s := range pub {
		if pub[s], err = belief.NewJoint(a.rules, a.limit); err != nil {
			return Report{}, fmt.Errorf("audit: %w", err)
		}
	}
	rep := Report{Known: -1, Loser: -1}
	// known[k] is the position before action Known+k+1 (after Known+k
	// actions): both fleets, by seat, and the seat to move.
	var known []snapshot
	for n, act := range actions {
		if g.Outcome() != submarine.Running {
			return rep, fmt.Errorf("%w: action %d after the game ended", ErrGame, n+1)
		}
		if rep.Known < 0 && pub[0].Count() == 1 && pub[1].Count() == 1 {
			rep.Known = n
		}
		if rep.Known >= 0 {
			known = append(known, snap(g))
		}
		st := g.Apply(act)
		if st.Err != nil {
			return rep, fmt.Errorf("%w: action %d: %w", ErrGame, n+1, st.Err)
		}
		if rep.Known >= 0 {
			continue // the beliefs stay singletons: no need to update them
		}
		for s := range pub {
			ev := st.Other
			if s == st.Seat {
				ev = st.Actor
			}
			if err := pub[s].Observe(ev, belief.Own); err != nil {
				return rep, fmt.Errorf("%w: action %d: public belief of seat %d: %w", ErrGame, n+1, s, err)
			}
		}
	}
	if g.Outcome() != submarine.Win {
		return rep, nil
	}
	rep.Loser = 1 - g.Winner()
	if rep.Known < 0 {
		return rep, nil
	}
	known = append(known, snap(g))
	rep.Throw, err = a.findThrow(known, rep.Known, rep.Loser, actions)
	return rep, err
}

// snapshot is one known position.
type snapshot struct {
	fleet [2]submarine.Fleet
	turn  int
}

func snap(g *submarine.Game) snapshot {
	return snapshot{fleet: [2]submarine.Fleet{g.Fleet(0), g.Fleet(1)}, turn: g.Turn()}
}

// value is the solver's value of sn for the seat to move.
func (a *Auditor) value(sn *snapshot) (endgame.Value, error) {
	pos, err := endgame.NewPosition(a.rules, sn.fleet[sn.turn], sn.fleet[1-sn.turn])
	if err != nil {
		return endgame.Value{}, fmt.Errorf("audit: %w", err)
	}
	v, err := a.solver.Solve(pos)
	if err != nil {
		return endgame.Value{}, fmt.Errorf("audit: %w", err)
	}
	return v, nil
}

// flip turns a value for one side into the value for the other.
func flip(v endgame.Value) endgame.Value {
	switch v.Outcome {
	case endgame.Win:
		v.Outcome = endgame.Loss
	case endgame.Loss:
		v.Outcome = endgame.Win
	}
	return v
}

// findThrow walks the known positions (known[k] after from+k actions; the
// last one is the final position) backwards to the last one with loser to
// move that the solver does not prove lost.
func (a *Auditor) findThrow(known []snapshot, from, loser int, actions []submarine.Action) (*Throw, error) {
	for k := len(known) - 2; k >= 0; k-- {
		sn := &known[k]
		if sn.turn != loser {
			continue
		}
		before, err := a.value(sn)
		if err != nil {
			return nil, err
		}
		if before.Outcome == endgame.Loss {
			continue
		}
		t := &Throw{Seat: loser, Ply: from + k + 1, Action: actions[from+k], Before: before,
			After: endgame.Value{Outcome: endgame.Loss}}
		if next := &known[k+1]; next.fleet[1-loser].Alive != 0 && next.fleet[loser].Alive != 0 {
			v, err := a.value(next)
			if err != nil {
				return nil, err
			}
			t.After = flip(v)
		}
		return t, nil
	}
	return nil, nil
}

// Replay audits a recorded game (its rules must be the auditor's board and
// fleet; use ForReplay to make an auditor from the replay itself).
func (a *Auditor) Replay(rp *replay.SubmarineReplay) (Report, error) {
	r, err := rp.Rules()
	if err != nil {
		return Report{}, fmt.Errorf("audit: %w", err)
	}
	var place [2]submarine.Placement
	for s := range place {
		place[s] = rp.Placement(r, s)
	}
	acts := make([]submarine.Action, 0, len(rp.Steps))
	for i := range rp.Steps {
		act, err := rp.Steps[i].Action.Decode(r)
		if err != nil {
			return Report{}, fmt.Errorf("%w: step %d: %w", ErrGame, rp.Steps[i].N, err)
		}
		acts = append(acts, act)
	}
	if n := len(rp.Steps); n > 0 && rp.Steps[n-1].Error != "" {
		acts = acts[:n-1] // a forfeit by an illegal action: audit up to it
	}
	return a.Game(place, rp.Header.First, acts)
}

// ForReplay returns an Auditor for the rules recorded in rp.
func ForReplay(rp *replay.SubmarineReplay, opt Options) (*Auditor, error) {
	r, err := rp.Rules()
	if err != nil {
		return nil, fmt.Errorf("audit: %w", err)
	}
	return New(r, opt)
}
