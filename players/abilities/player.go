package abplayers

import (
	"errors"
	"fmt"
	"math/rand/v2"

	bsbelief "github.com/kaisen-ai/kaisen/belief/battleship"
	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/game/abilities"
	"github.com/kaisen-ai/kaisen/game/battleship"
)

// Player is one seat of one game. Its methods are called by one goroutine:
// Place once, then Act whenever the seat is to act and Observe after every
// action of either seat that the seat is told about.
type Player interface {
	// Place returns the fleet layout. An invalid layout forfeits.
	Place() battleship.Placement
	// Act returns the seat's next action: on its turn q is nil; as the
	// defender q is the pending question. An illegal action forfeits.
	Act(q *abilities.Question) abilities.Action
	// Observe tells the player what it is told about an action.
	Observe(ev abilities.Event)
}

// Factory creates a fresh player for seat of one game, drawing every random
// choice from rng.
type Factory func(rng *rand.Rand, seat int) Player

// Result is how one game ended.
type Result struct {
	Status  game.Status // Won or Drawn
	Winner  int         // winning seat, -1 on a draw
	Shots   [2]int      // cells fired at by each seat
	Actions int         // actions applied, both seats
	Forfeit int         // the seat that forfeited, -1 when none did
	// Err says why a seat forfeited (an invalid layout or an illegal action).
	Err error
}

// PlayGame plays one game between p0 and p1 (seat first acts first) and
// returns how it ended. Each player is told its view of every action (an
// enemy's silent move is not delivered).
func PlayGame(r *abilities.Rules, p0, p1 Player, first int) Result {
	ps := [2]Player{p0, p1}
	var layouts [2]battleship.Placement
	var errs [2]error
	for seat, p := range ps {
		layouts[seat] = p.Place()
		if err := r.Base.ValidatePlacement(layouts[seat]); err != nil {
			errs[seat] = fmt.Errorf("abplayers: seat %d placement: %w", seat, err)
		}
	}
	switch {
	case errs[0] != nil && errs[1] != nil:
		return Result{Status: game.Drawn, Winner: -1, Forfeit: -1, Err: errors.Join(errs[0], errs[1])}
	case errs[0] != nil:
		return Result{Status: game.Won, Winner: 1, Forfeit: 0, Err: errs[0]}
	case errs[1] != nil:
		return Result{Status: game.Won, Winner: 0, Forfeit: 1, Err: errs[1]}
	}
	g, err := abilities.NewGame(r, layouts[0], layouts[1], first)
	if err != nil {
		return Result{Status: game.Drawn, Winner: -1, Forfeit: -1, Err: err}
	}
	res := Result{Winner: -1, Forfeit: -1}
	for g.Status() == game.Running {
		seat := g.ToAct()
		st, err := g.Apply(ps[seat].Act(g.Pending()))
		if err != nil {
			res.Status, res.Winner, res.Forfeit = game.Won, 1-seat, seat
			res.Err = fmt.Errorf("abplayers: seat %d: %w", seat, err)
			res.Shots = [2]int{g.Shots(0), g.Shots(1)}
			return res
		}
		res.Actions++
		for v, p := range ps {
			if !st.Views[v].Silent {
				p.Observe(st.Views[v])
			}
		}
	}
	res.Status, res.Winner = g.Status(), g.Winner()
	res.Shots = [2]int{g.Shots(0), g.Shots(1)}
	return res
}

// placeOrEmpty draws a uniform layout; a failure returns nil, which forfeits.
func placeOrEmpty(u *bsbelief.UniformPlacer, rng *rand.Rand) battleship.Placement {
	p, err := u.Place(rng)
	if err != nil {
		return nil
	}
	return p
}
