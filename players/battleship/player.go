package bsplayers

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	bsbelief "github.com/kaisen-ai/kaisen/belief/battleship"
	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/game/battleship"
	"github.com/kaisen-ai/kaisen/game/grid"
)

// Player is one side of one Battleship game. Its methods are called by one
// goroutine: Place once, then Shoot on each of its turns, and Observe after
// every shot of either side (ev.Mine says whose).
type Player interface {
	// Place returns the player's fleet layout. An invalid layout forfeits.
	Place() battleship.Placement
	// Shoot names the next cell to fire at. It should be a usable cell not
	// shot before; an off-board or rock cell loses the game.
	Shoot() grid.Cell
	// Observe tells the player the answer to a shot.
	Observe(ev battleship.Event)
}

// Factory creates a fresh player for one game, drawing every random choice
// from rng.
type Factory func(rng *rand.Rand) Player

// Result is how one game ended.
type Result struct {
	Status game.Status // Won or Drawn
	Winner int         // winning seat, -1 on a draw
	Shots  [2]int      // shots fired by each seat
	// Err says why a seat forfeited (an invalid layout or an illegal shot);
	// nil for a game decided by sinking.
	Err error
}

// PlayGame plays one game between p0 and p1 (seat first shoots first) and
// returns how it ended. Each player is told the answer to every shot.
func PlayGame(r *battleship.Rules, p0, p1 Player, first int) Result {
	ps := [2]Player{p0, p1}
	var layouts [2]battleship.Placement
	var errs [2]error
	for seat, p := range ps {
		layouts[seat] = p.Place()
		if err := r.ValidatePlacement(layouts[seat]); err != nil {
			errs[seat] = fmt.Errorf("bsplayers: seat %d placement: %w", seat, err)
		}
	}
	switch {
	case errs[0] != nil && errs[1] != nil:
		return Result{Status: game.Drawn, Winner: -1, Err: errors.Join(errs[0], errs[1])}
	case errs[0] != nil:
		return Result{Status: game.Won, Winner: 1, Err: errs[0]}
	case errs[1] != nil:
		return Result{Status: game.Won, Winner: 0, Err: errs[1]}
	}
	g, err := battleship.NewGame(r, layouts[0], layouts[1], first)
	if err != nil {
		return Result{Status: game.Drawn, Winner: -1, Err: err}
	}
	res := Result{Winner: -1}
	for g.Status() == game.Running {
		seat := g.ToAct()
		st, err := g.Apply(ps[seat].Shoot())
		ps[seat].Observe(st.Shooter)
		ps[1-seat].Observe(st.Defender)
		if err != nil {
			res.Err = fmt.Errorf("bsplayers: seat %d: %w", seat, err)
		}
	}
	res.Status, res.Winner = g.Status(), g.Winner()
	res.Shots = [2]int{g.Shots(0), g.Shots(1)}
	return res
}

// ErrTooManyShots is returned by Solo when a player fails to sink the fleet
// within the rules' draw limit (it keeps shooting cells shot before).
var ErrTooManyShots = errors.New("bsplayers: too many shots")

// Solo lets p shoot alone at layout until every ship is sunk and returns the
// number of shots it took. Place is not called; p only observes its own
// shots. It fails on an illegal shot, after r.DrawLimit shots, or when ctx
// is done (checked between shots).
func Solo(ctx context.Context, r *battleship.Rules, p Player, layout battleship.Placement) (int, error) {
	sea, err := battleship.NewSea(r, layout)
	if err != nil {
		return 0, err
	}
	for shots := 1; shots <= r.DrawLimit; shots++ {
		if err := ctx.Err(); err != nil {
			return shots - 1, err
		}
		res, err := sea.Fire(p.Shoot())
		if err != nil {
			return shots, fmt.Errorf("bsplayers: shot %d: %w", shots, err)
		}
		p.Observe(battleship.Event{Mine: true, Result: res, Again: res.Again()})
		if sea.Afloat() == 0 {
			return shots, nil
		}
	}
	return r.DrawLimit, fmt.Errorf("%w: the fleet is still afloat after %d", ErrTooManyShots, r.DrawLimit)
}

// checkStyle checks a placement style (the YAML key placement).
func checkStyle(style string) error {
	if !slices.Contains(bsbelief.Styles, style) {
		return fmt.Errorf("placement %q: want one of %s", style, strings.Join(bsbelief.Styles, ", "))
	}
	return nil
}

// placeOrEmpty draws a layout from u; a failure (a fleet that does not fit)
// returns nil, which forfeits.
func placeOrEmpty(u bsbelief.Placer, rng *rand.Rand) battleship.Placement {
	p, err := u.Place(rng)
	if err != nil {
		return nil
	}
	return p
}
