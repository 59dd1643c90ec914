package hygiene

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"

	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/game/submarine"
	subwire "github.com/kaisen-ai/kaisen/game/submarine/wire"
	"github.com/kaisen-ai/kaisen/protocol"
	"github.com/kaisen-ai/kaisen/server"
)

// SubmarineGame is one side of a submarine twin: both placements and the
// actions played, seat 0 first; the seat to act next then resigns.
type SubmarineGame struct {
	Place   [2]submarine.Placement
	Actions []submarine.Action
}

// SubmarineTwin is two submarine games that differ only in what Seat was
// never told: the opponent's placement (and so where its moves went).
type SubmarineTwin struct {
	Rules *submarine.Rules
	Seat  int
	A, B  SubmarineGame
	// Alternatives is how many opponent placements other than A's are
	// consistent with everything Seat was told (B is one of them).
	Alternatives int
}

// ErrNoTwin is returned when a random game has no twin (every opponent
// placement but the real one contradicts what the seat was told).
var ErrNoTwin = errors.New("hygiene: no twin")

// NewSubmarineTwin plays a random game of rules r from rng, seat 0 first,
// cuts it after a random number of actions (at most maxActions) and
// returns it with a twin: B's opponent placement is drawn among every
// placement that, with the opponent's moves replayed as the same ship by
// the same displacement, tells the seat exactly the same events and views
// (found by enumerating the placements). It returns ErrNoTwin when there
// is none (try another rng).
func NewSubmarineTwin(r *submarine.Rules, rng *rand.Rand, maxActions int) (*SubmarineTwin, error) {
	var place [2]submarine.Placement
	for s := range place {
		place[s] = randomSubPlacement(r, rng)
	}
	g, err := submarine.NewGame(r, place[0], place[1], 0)
	if err != nil {
		return nil, fmt.Errorf("hygiene: submarine game: %w", err)
	}
	seat := rng.IntN(2)
	want := 1 + rng.IntN(maxActions)
	var steps []submarine.Step
	var views []submarine.View // seat's view after each step
	for len(steps) < want && g.Status() == game.Running {
		f := g.Fleet(g.ToAct())
		st, _ := g.Apply(randomSubAction(r, &f, rng))
		steps = append(steps, st)
		var v submarine.View
		g.ViewInto(seat, &v)
		views = append(views, v)
	}
	if g.Status() != game.Running { // the cut must leave the game running
		steps, views = steps[:len(steps)-1], views[:len(views)-1]
	}
	tw := &SubmarineTwin{Rules: r, Seat: seat}
	tw.A.Place = place
	for _, st := range steps {
		tw.A.Actions = append(tw.A.Actions, st.Action)
	}
	var alts []SubmarineGame
	opp := 1 - tw.Seat
	eachPlacement(r, func(p submarine.Placement) {
		if reflect.DeepEqual(p, place[opp]) {
			return
		}
		var b SubmarineGame
		b.Place[tw.Seat], b.Place[opp] = place[tw.Seat], slices.Clone(p)
		if acts, ok := subConsistent(r, tw.Seat, b.Place, steps, views); ok {
			b.Actions = acts
			alts = append(alts, b)
		}
	})
	if len(alts) == 0 {
		return nil, ErrNoTwin
	}
	tw.Alternatives = len(alts)
	tw.B = alts[rng.IntN(len(alts))]
	return tw, nil
}

// subConsistent replays steps with placements p, the opponent's moves as
// the same displacement: ok when every action is legal and every event and
// view of seat is the same as in views. It returns the actions played.
func subConsistent(r *submarine.Rules, seat int, p [2]submarine.Placement, steps []submarine.Step, views []submarine.View) ([]submarine.Action, bool) {
	g, err := submarine.NewGame(r, p[0], p[1], 0)
	if err != nil {
		return nil, false
	}
	acts := make([]submarine.Action, 0, len(steps))
	var v submarine.View
	for i, st := range steps {
		a := st.Action
		if st.Seat != seat && a.Kind == submarine.Move {
			f := g.Fleet(st.Seat)
			x, y := r.Board.XY(f.Pos[a.Ship])
			to, ok := r.Board.At(x+st.Other.DX, y+st.Other.DY)
			if !ok {
				return nil, false
			}
			a.To = to
		}
		got, err := g.Apply(a)
		if err != nil || got.Status != st.Status {
			return nil, false
		}
		ev, want := got.Other, st.Other
		if st.Seat == seat {
			ev, want = got.Actor, st.Actor
		}
		if ev != want {
			return nil, false
		}
		g.ViewInto(seat, &v)
		if v != views[i] {
			return nil, false
		}
		acts = append(acts, a)
	}
	return acts, true
}

// eachPlacement calls f with every valid placement of r (f must not keep
// p: it is reused).
func eachPlacement(r *submarine.Rules, f func(p submarine.Placement)) {
	cells := r.Board.Usable().Cells()
	p := make(submarine.Placement, len(r.Fleet))
	var used grid.Set
	var rec func(i int)
	rec = func(i int) {
		if i == len(p) {
			f(p)
			return
		}
		for _, c := range cells {
			if used.Has(c) {
				continue
			}
			used.Add(c)
			p[i] = c
			rec(i + 1)
			used.Remove(c)
		}
	}
	rec(0)
}

func randomSubPlacement(r *submarine.Rules, rng *rand.Rand) submarine.Placement {
	cells := r.Board.Usable().Cells()
	rng.Shuffle(len(cells), func(i, j int) { cells[i], cells[j] = cells[j], cells[i] })
	return append(submarine.Placement(nil), cells[:len(r.Fleet)]...)
}

// randomSubAction is a legal action of fleet f: an attack within reach or,
// one time in two, a move along a row or column.
func randomSubAction(r *submarine.Rules, f *submarine.Fleet, rng *rand.Rand) submarine.Action {
	if rng.IntN(2) == 0 {
		var ships []int
		for i := range r.Fleet {
			if !r.MoveTargets(f, i).Empty() {
				ships = append(ships, i)
			}
		}
		if len(ships) > 0 {
			i := ships[rng.IntN(len(ships))]
			to := r.MoveTargets(f, i).Cells()
			return submarine.MoveTo(i, to[rng.IntN(len(to))])
		}
	}
	reach := r.Reach(f).Intersect(r.Board.Usable()).Cells()
	return submarine.AttackAt(reach[rng.IntN(len(reach))])
}

// invalidAction resigns: it is illegal (the wire's {}).
var invalidAction = submarine.Action{Kind: submarine.Invalid, Ship: submarine.NoShip, To: grid.None}

// Server is g as a game of a pair listener in dialect d (the rules' board
// must be the listener's), the seat to act after the last action
// resigning with {}.
func (g *SubmarineGame) Server(r *submarine.Rules, d protocol.Dialect, seat int) ServerGame {
	sg := ServerGame{Seat: seat, Listener: server.ListenerConfig{Opponent: "pair", Dialect: d.String()}}
	if d == protocol.SubmarinePy {
		sg.Listener.Width, sg.Listener.Height = r.Board.Width(), r.Board.Height()
		sg.Listener.Rounded = len(r.Board.Rocks()) == 4
	}
	for s := range 2 {
		if d == protocol.SubmarinePy {
			sg.Hello[s] = append(sg.Hello[s], []byte(fmt.Sprintf("seat%d", s)))
		}
		sg.Hello[s] = append(sg.Hello[s], subwire.EncodePlacement(d, r, g.Place[s]))
	}
	for i, a := range g.Actions {
		s := i % 2
		sg.Turns[s] = append(sg.Turns[s], subwire.EncodeAction(d, r, a))
	}
	sg.Resign = len(g.Actions) % 2
	sg.Turns[sg.Resign] = append(sg.Turns[sg.Resign], subwire.EncodeAction(d, r, invalidAction))
	return sg
}
