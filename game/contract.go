package game

import (
	"math/rand/v2"

	"github.com/kaisen-ai/kaisen/series"
)

// The contract every game implements, in four type parameters that each
// game fixes once:
//
//	P  a placement: what a seat chooses before the game (its hidden fleet)
//	A  an action: what the seat to act plays
//	S  a step: what one action did, as the rules report it to the hosts
//	O  an observation: what one seat is told of one step
//
// and its game state G, which implements State. A game's rules value
// implements Rules; its players implement Player; a host plays them with
// Table (in-process) and records them with a Recorder. Hosts are written
// once against these interfaces and instantiated per game where the game
// registers itself.

// State is one game in play, as a host drives it: whose turn it is, how the
// game stands, and applying an action.
type State[A, S any] interface {
	// ToAct is the seat to act now (0 or 1).
	ToAct() int
	// Status is how the game stands.
	Status() Status
	// Winner is the winning seat once Status is Won, else -1.
	Winner() int
	// Apply plays a for ToAct and returns the step. An illegal action is
	// an error wrapping the game's ErrIllegal; the host then forfeits the
	// actor (Forfeit), whether or not the rules already ended the game.
	Apply(a A) (S, error)
	// Forfeit ends a running game with seat losing (a panic, an illegal
	// action, a broken connection); it does nothing once the game is over.
	Forfeit(seat int)
}

// StepInto is what a State whose step is large may implement besides
// Apply: ApplyInto(a, st) is Apply(a) with the step written to *st, and a
// host that keeps the step in a buffer of its own (Table) calls it instead,
// sparing the copy of S on every action.
type StepInto[A, S any] interface {
	ApplyInto(a A, st *S) error
}

// Rules are one game's rules with their settings (board, fleet, options),
// as the hosts use them. G is the game's state.
type Rules[G State[A, S], P, A, S, O any] interface {
	// Validate checks the settings themselves.
	Validate() error
	// ValidatePlacement says why p is not a legal placement (nil: it is).
	ValidatePlacement(p P) error
	// Start begins a game between two valid placements, seat first acting
	// first.
	Start(pl [2]P, first int) (G, error)
	// Tell fills *o with what seat is told of step st, the step Apply just
	// returned on g (err is Apply's error: the action was illegal), and
	// reports whether the seat is told anything at all (false: the host
	// delivers nothing, e.g. an enemy's hidden move). *o belongs to the
	// host and may keep buffers from one call to the next; what it points
	// to is valid until the next call.
	Tell(g G, st *S, err error, seat int, o *O) bool
	// Count is what a finished game g amounts to, n being the actions the
	// host applied (an illegal last one included).
	Count(g G, n int) Count
}

// Count is what one game amounts to: the actions played and the shots each
// seat fired (zero in games without shots).
type Count struct {
	Actions int
	Shots   [2]int
}

// Player is one seat of one game. Its methods are called by one goroutine,
// in this order: Place once, then Act on each of the seat's turns and
// Observe after every action the seat is told of (its own included). o is
// only valid during the call.
type Player[P, A, O any] interface {
	// Place returns the seat's hidden placement.
	Place() P
	// Act returns the seat's action; an illegal one forfeits the game.
	Act() A
	// Observe tells the player what its seat is told of one action.
	Observe(o O)
}

// RefObserver is what a Player whose observation is large may implement
// besides Observe: a host that holds the observation in a buffer of its own
// (Table) tells it ObserveRef(&o) instead of Observe(o), sparing the copy
// of o on every action. ObserveRef must do exactly what Observe does; *o is
// only valid during the call and is not the player's to change. A wrapper
// that adapts another player implements it only if it forwards it.
type RefObserver[O any] interface {
	ObserveRef(o *O)
}

// Factory makes a fresh player for seat (0 acts first unless the game
// says otherwise) of one game, drawing every random choice from rng.
type Factory[P, A, O any] func(rng *rand.Rand, seat int) Player[P, A, O]

// Learner is a player that learns across the games of a series: the host
// keeps the player made for the series' first game and, before each later
// game, calls NewGame with that game's random stream (the one a fresh
// player would have drawn from); after every game of the series, the last
// included, it calls EndGame. NewGame clears what the player knew of the
// position and keeps what it learnt. A player that is not a Learner is
// made fresh for every game, in a series or not.
type Learner interface {
	// NewGame starts the next game of the series, drawing from rng.
	NewGame(rng *rand.Rand)
	// EndGame tells the player how the game it just played ended.
	EndGame(end series.End)
}

// Wrapper is a player that adapts another to the contract (a game's
// players may keep their own method names). As finds what the inner
// player implements through it.
type Wrapper interface {
	Unwrap() any
}

// As returns p, or the player p wraps (Wrapper, any depth), as a T: how a
// host finds the optional interfaces of a player (Learner,
// explain.Explainer) through an adapter.
func As[T any](p any) (T, bool) {
	for p != nil {
		if t, ok := p.(T); ok {
			return t, true
		}
		w, ok := p.(Wrapper)
		if !ok {
			break
		}
		p = w.Unwrap()
	}
	var zero T
	return zero, false
}
