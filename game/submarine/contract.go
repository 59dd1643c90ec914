package submarine

import "github.com/kaisen-ai/kaisen/game"

// Rules implements the game contract (package game): the hosts play the
// submarine game through it.
var _ game.Rules[*Game, Placement, Action, Step, Told] = (*Rules)(nil)

// Told is what one seat is told of one action: the Event, and the seat's
// View after it (own fleet, enemy hp). View points into a buffer of the
// host's that the next action overwrites.
type Told struct {
	Event Event
	View  *View
}

// Start begins a game between pl[0] and pl[1] (game.Rules): NewGame.
func (r *Rules) Start(pl [2]Placement, first int) (*Game, error) {
	return NewGame(r, pl[0], pl[1], first)
}

// Tell fills *o with what seat is told of st (game.Rules): the actor's or
// the other side's Event, and the seat's view. Both sides are told every
// action, an illegal one included.
func (r *Rules) Tell(g *Game, st *Step, _ error, seat int, o *Told) bool {
	if o.View == nil {
		o.View = new(View)
	}
	if seat == st.Seat {
		o.Event = st.Actor
	} else {
		o.Event = st.Other
	}
	g.ViewInto(seat, o.View)
	return true
}

// Count is the actions of finished game g (game.Rules); the game has no
// shots apart from its actions.
func (r *Rules) Count(g *Game, _ int) game.Count { return game.Count{Actions: g.Actions()} }

// Rules lists the legal actions (game.Legal).
var _ game.Legal[*Game, Action] = (*Rules)(nil)

// Legal lists the legal actions of the seat to act in g (game.Legal): the
// attacks on every cell in reach, then each ship's moves, ship by ship.
func (r *Rules) Legal(g *Game) []Action {
	if g.status != game.Running {
		return nil
	}
	f := &g.fleets[g.turn]
	var out []Action
	for c := range r.Reach(f).All() {
		out = append(out, AttackAt(c))
	}
	for i := range r.Fleet {
		for c := range r.MoveTargets(f, i).All() {
			out = append(out, MoveTo(i, c))
		}
	}
	return out
}

// Clone returns an independent copy of g (game.Legal).
func (r *Rules) Clone(g *Game) *Game {
	c := *g
	return &c
}

// Rules say where an action points (game.Aimer).
var _ game.Aimer[*Game, Action] = (*Rules)(nil)

// Aim is where a points in g (game.Aimer): an attack's cell on the enemy's
// board, a move's ship from its cell to its destination on the actor's.
func (r *Rules) Aim(g *Game, a Action) game.Aim {
	aim := game.NoAim
	switch {
	case a.Kind == Attack:
		aim.At = a.To
	case a.Kind == Move && a.Ship >= 0 && a.Ship < len(r.Fleet):
		aim.From, aim.To = g.fleets[g.turn].Pos[a.Ship], a.To
	}
	return aim
}
