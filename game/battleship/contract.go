package battleship

import (
	"slices"

	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/game/grid"
)

// Rules implements the game contract (package game): an action is the cell
// shot at, an observation the Event of one shot.
var _ game.Rules[*Game, Placement, grid.Cell, Step, Event] = (*Rules)(nil)

// Start begins a game between pl[0] and pl[1] (game.Rules): NewGame.
func (r *Rules) Start(pl [2]Placement, first int) (*Game, error) {
	return NewGame(r, pl[0], pl[1], first)
}

// Tell sets *o to what seat is told of st (game.Rules): the shooter's or
// the defender's Event. Both are told every shot, an illegal one included.
func (r *Rules) Tell(_ *Game, st *Step, _ error, seat int, o *Event) bool {
	if seat == st.Seat {
		*o = st.Shooter
	} else {
		*o = st.Defender
	}
	return true
}

// Count is the shots of finished game g by seat (game.Rules); every action
// is a shot.
func (r *Rules) Count(g *Game, _ int) game.Count {
	return game.Count{Actions: g.Shots(0) + g.Shots(1), Shots: [2]int{g.Shots(0), g.Shots(1)}}
}

// Rules lists the legal actions (game.Legal).
var _ game.Legal[*Game, grid.Cell] = (*Rules)(nil)

// Legal lists the legal shots of the seat to act in g (game.Legal): every
// usable cell of the board, in cell order (a cell shot before is a legal,
// wasted shot).
func (r *Rules) Legal(g *Game) []grid.Cell {
	if g.status != game.Running {
		return nil
	}
	return r.Board.Usable().Cells()
}

// Clone returns an independent copy of g (game.Legal).
func (r *Rules) Clone(g *Game) *Game {
	c := *g
	for s, sea := range g.seas {
		o := *sea
		o.hp = slices.Clone(sea.hp)
		c.seas[s] = &o
	}
	return &c
}

// Rules say where a shot points (game.Aimer).
var _ game.Aimer[*Game, grid.Cell] = (*Rules)(nil)

// Aim is the cell shot at, on the enemy's board (game.Aimer).
func (r *Rules) Aim(_ *Game, c grid.Cell) game.Aim {
	a := game.NoAim
	a.At = c
	return a
}
