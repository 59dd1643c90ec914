package players

import (
	"math/rand/v2"

	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/game/submarine"
)

// Contract is the game contract's player of the submarine game (package
// game): what the hosts play.
type Contract = game.Player[submarine.Placement, submarine.Action, submarine.Told]

// Adapt returns f as the game contract's factory: each player it makes
// takes its observation as one submarine.Told (by reference too:
// game.RefObserver). The seat is not needed (a submarine player learns it
// from the turns). game.As finds what the player implements (game.Learner,
// explain.Explainer) through the adapter.
func Adapt(f Factory) game.Factory[submarine.Placement, submarine.Action, submarine.Told] {
	return func(rng *rand.Rand, _ int) Contract { return &seat{f(rng)} }
}

// AdaptReused is Adapt for a host that has one player of the factory in
// play at a time (arena's table, which plays its games one after another):
// every player it makes is the same adapter, pointed at the new Player, so
// that a game allocates no adapter. A player it made is valid until the
// next call.
func AdaptReused(f Factory) game.Factory[submarine.Placement, submarine.Action, submarine.Told] {
	s := new(seat)
	return func(rng *rand.Rand, _ int) Contract {
		s.p = f(rng)
		return s
	}
}

// seat adapts a Player to the contract. Its methods have pointer receivers
// so that the hosts call them directly, without the wrapper Go generates
// for a value method called through an interface.
type seat struct{ p Player }

func (s *seat) Place() submarine.Placement { return s.p.Place() }

func (s *seat) Act() submarine.Action { return s.p.Act() }

func (s *seat) Observe(o submarine.Told) { s.p.Observe(o.Event, o.View) }

// ObserveRef implements game.RefObserver: Observe without copying o.
func (s *seat) ObserveRef(o *submarine.Told) { s.p.Observe(o.Event, o.View) }

// Unwrap implements game.Wrapper.
func (s *seat) Unwrap() any { return s.p }
