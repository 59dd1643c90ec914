package players

import (
	"math/rand/v2"

	"github.com/kaisen-ai/kaisen/game/submarine"
)

// Player is one side of one submarine game. Its methods are called by one
// goroutine, in this order: Place once, then for every action of the game
// Act (only on this side's turns) followed by Observe (after every action of
// either side).
type Player interface {
	// Place returns the initial cell of every ship, indexed by fleet index.
	Place() submarine.Placement
	// Act returns this turn's action. It should always be legal; an illegal
	// action loses the game.
	Act() submarine.Action
	// Observe tells the player what it is told about an action (ev.Mine says
	// whose) and what it knows afterwards (own fleet, enemy hp). v is only
	// valid during the call.
	Observe(ev submarine.Event, v *submarine.View)
}

// Factory creates a fresh player for one game, drawing every random choice
// from rng.
type Factory func(rng *rand.Rand) Player
