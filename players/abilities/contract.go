package abplayers

import (
	"math/rand/v2"

	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/game/abilities"
	"github.com/kaisen-ai/kaisen/game/battleship"
)

// Contract is the game contract's player of the abilities variant (package
// game): what the hosts play.
type Contract = game.Player[battleship.Placement, abilities.Action, abilities.Told]

// Adapt returns f as the game contract's factory: the question a player
// answers (Act's argument) is the one the rules told it last
// (abilities.Told.Pending). game.As finds what the player implements
// through the adapter.
func Adapt(f Factory) game.Factory[battleship.Placement, abilities.Action, abilities.Told] {
	return func(rng *rand.Rand, s int) Contract { return &seat{Player: f(rng, s)} }
}

// seat adapts a Player to the contract: it keeps the pending question
// until the player answers it.
type seat struct {
	Player
	q *abilities.Question
}

func (s *seat) Act() abilities.Action {
	q := s.q
	s.q = nil
	return s.Player.Act(q)
}

func (s *seat) Observe(o abilities.Told) {
	s.q = o.Pending
	s.Player.Observe(o.Event)
}

// Unwrap implements game.Wrapper.
func (s *seat) Unwrap() any { return s.Player }
