package bsplayers

import (
	"math/rand/v2"

	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/game/battleship"
	"github.com/kaisen-ai/kaisen/game/grid"
)

// Contract is the game contract's player of Battleship (package game):
// what the hosts play. Its action is the cell shot at.
type Contract = game.Player[battleship.Placement, grid.Cell, battleship.Event]

// Adapt returns f as the game contract's factory: a player's Shoot is the
// contract's Act. game.As finds what the player implements (game.Learner,
// explain.Explainer) through the adapter.
func Adapt(f Factory) game.Factory[battleship.Placement, grid.Cell, battleship.Event] {
	return func(rng *rand.Rand, _ int) Contract { return seat{f(rng)} }
}

// seat adapts a Player to the contract.
type seat struct{ Player }

func (s seat) Act() grid.Cell { return s.Player.Shoot() }

// Unwrap implements game.Wrapper.
func (s seat) Unwrap() any { return s.Player }
