// Package adjudicate is the submarine game's draw adjudication for research
// runs (kaisen match --adjudicate draw=K): a running game is adjudicated a
// draw after an action that leaves
//
//   - both fleets common knowledge: the public joint belief of each fleet
//     (every placement consistent with everything both players were told,
//     belief.Joint, as package audit keeps it) holds one placement;
//   - a position the exact endgame solver values drawn for the side to
//     move: only the tablebase proves draws (package endgame's search
//     proves wins and losses, never a draw), so a material the tablebase
//     does not cover (three ships against two or three on 5x5) is never
//     adjudicated;
//   - and none of the last K actions hit a ship (every action since the
//     game's start counts, before and after the fleets became known).
//
// A drawn position under perfect play is drawn whatever the players do
// next only if they make no mistake: the adjudication changes the result
// of a game whose players would later have thrown the draw, which the
// K quiet actions make unlikely. The served rules never adjudicate.
//
// The hosts (package arena) and the re-play of a replay
// (game/submarine/record.Verify) run the same Draw, so a replay of an
// adjudicated game verifies.
package adjudicate

import (
	"errors"
	"fmt"

	"github.com/kaisen-ai/kaisen/belief"
	"github.com/kaisen-ai/kaisen/endgame"
	"github.com/kaisen-ai/kaisen/game/submarine"
	"github.com/kaisen-ai/kaisen/replay"
)

// ErrSettings is wrapped by the errors of a Draw that cannot be made.
var ErrSettings = errors.New("adjudicate: invalid settings")

// Draw is the draw adjudication of one game at a time under one set of
// rules (a replay.DrawJudge): Reset at the start of every game, then Step
// after every action that leaves the game running. It is not safe for
// concurrent use; the solver's tablebase is the process-wide one of the
// board (endgame.Shared).
type Draw struct {
	rules  *submarine.Rules
	k      int
	solver *endgame.Solver
	fresh  *belief.Joint    // every placement: what each public belief starts from
	pub    [2]*belief.Joint // by seat: the public belief of that seat's fleet
	known  bool             // both fleets are common knowledge
	quiet  int              // actions since the last hit (or the game's start)
}

var _ replay.DrawJudge[*submarine.Game, submarine.Step] = (*Draw)(nil)

// NewDraw returns the draw adjudication after k quiet actions (k >= 1)
// under rules.
func NewDraw(rules *submarine.Rules, k int) (*Draw, error) {
	if k < 1 {
		return nil, fmt.Errorf("%w: draw=%d: want 1 or more actions without a hit", ErrSettings, k)
	}
	if rules == nil {
		return nil, fmt.Errorf("adjudicate: %w", submarine.ErrRules)
	}
	if err := rules.Validate(); err != nil {
		return nil, fmt.Errorf("adjudicate: %w", err)
	}
	fresh, err := belief.NewJoint(rules, 0)
	if err != nil {
		return nil, fmt.Errorf("adjudicate: %w", err)
	}
	s, err := endgame.Shared(rules, endgame.Options{})
	if err != nil {
		return nil, fmt.Errorf("adjudicate: %w", err)
	}
	d := &Draw{rules: rules, k: k, solver: s, fresh: fresh}
	for i := range d.pub {
		d.pub[i] = fresh.Clone()
	}
	return d, nil
}

// K is the number of quiet actions the adjudication waits for.
func (d *Draw) K() int { return d.k }

// Reset starts a new game.
func (d *Draw) Reset() {
	for i := range d.pub {
		d.pub[i].CopyFrom(d.fresh)
	}
	d.known, d.quiet = false, 0
}

// Step takes the action st that left g running (g after it) and reports
// whether the game is to be adjudicated a draw there. The error says the
// public beliefs cannot hold an event (a game the rules did not play).
func (d *Draw) Step(g *submarine.Game, st *submarine.Step) (bool, error) {
	if st.Action.Kind == submarine.Attack && st.Actor.Hit != submarine.NoShip {
		d.quiet = 0
	} else {
		d.quiet++
	}
	if !d.known {
		for s := range d.pub {
			ev := st.Other
			if s == st.Seat {
				ev = st.Actor
			}
			if err := d.pub[s].Observe(ev, belief.Own); err != nil {
				return false, fmt.Errorf("adjudicate: public belief of seat %d: %w", s, err)
			}
		}
		// Once both are singletons they stay so: no need to update them.
		d.known = d.pub[0].Count() == 1 && d.pub[1].Count() == 1
	}
	if !d.known || d.quiet < d.k {
		return false, nil
	}
	return d.drawn(g)
}

// drawn reports whether the solver values g's position drawn for the side
// to move (by the tablebase; a material it does not cover is not drawn).
func (d *Draw) drawn(g *submarine.Game) (bool, error) {
	turn := g.ToAct()
	mover, other := g.Fleet(turn), g.Fleet(1-turn)
	if !d.solver.Tablebase().Covers(mover.Alive.Count(), other.Alive.Count()) {
		return false, nil
	}
	pos, err := endgame.NewPosition(d.rules, mover, other)
	if err != nil {
		return false, fmt.Errorf("adjudicate: %w", err)
	}
	v, err := d.solver.Solve(pos)
	if err != nil {
		return false, fmt.Errorf("adjudicate: %w", err)
	}
	return v.Outcome == endgame.Draw, nil
}
