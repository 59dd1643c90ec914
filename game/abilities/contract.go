package abilities

import (
	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/game/battleship"
)

// Rules implements the game contract (package game): what a seat is told
// of an action is a Told.
var _ game.Rules[*Game, battleship.Placement, Action, Step, Told] = (*Rules)(nil)

// Told is what one seat is told of one action: its Event, and the question
// the seat must answer next, when one is pending for it (the one its next
// action answers; nil otherwise).
type Told struct {
	Event   Event
	Pending *Question
}

// ValidatePlacement checks p against the base rules' board and fleet.
func (r *Rules) ValidatePlacement(p battleship.Placement) error { return r.Base.ValidatePlacement(p) }

// Start begins a game between pl[0] and pl[1] (game.Rules): NewGame.
func (r *Rules) Start(pl [2]battleship.Placement, first int) (*Game, error) {
	return NewGame(r, pl[0], pl[1], first)
}

// Tell fills *o with what seat is told of st (game.Rules). An illegal
// action changes nothing and is told to nobody (the host forfeits the
// actor), nor is a Silent event (an enemy's hidden move).
func (r *Rules) Tell(g *Game, st *Step, err error, seat int, o *Told) bool {
	if err != nil || st.Views[seat].Silent {
		return false
	}
	o.Event, o.Pending = st.Views[seat], nil
	if q := g.Pending(); q != nil && q.Seat == seat {
		o.Pending = q
	}
	return true
}

// Count is what finished game g amounts to (game.Rules): every action the
// host applied (answers and the illegal last one included), and the cells
// each seat fired at.
func (r *Rules) Count(g *Game, n int) game.Count {
	return game.Count{Actions: n, Shots: [2]int{g.Shots(0), g.Shots(1)}}
}

// Forfeit ends a running game with seat losing (a panic, an illegal action,
// a broken connection); it does nothing once the game is over.
func (g *Game) Forfeit(seat int) {
	if g.status != game.Running {
		return
	}
	g.status, g.winner = game.Won, 1-seat
	g.ask = nil
}

// Rules lists the legal actions (game.Legal).
var _ game.Legal[*Game, Action] = (*Rules)(nil)

// Legal lists the legal actions of the seat to act in g (game.Legal):
// Game.Legal.
func (r *Rules) Legal(g *Game) []Action { return g.Legal() }

// Clone returns an independent copy of g (game.Legal): Game.Clone.
func (r *Rules) Clone(g *Game) *Game { return g.Clone() }

// Rules say where an action points (game.Aimer).
var _ game.Aimer[*Game, Action] = (*Rules)(nil)

// Aim is where a points (game.Aimer): a shot's or a salvo's (first) cell
// on the enemy's board, a 1-deck's move on the actor's; an answer points
// nowhere.
func (r *Rules) Aim(_ *Game, a Action) game.Aim {
	aim := game.NoAim
	switch a.Kind {
	case Shoot, Salvo:
		aim.At = a.At
	case Move:
		aim.From, aim.To = a.At, a.To
	}
	return aim
}
