package arena

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"time"

	"github.com/kaisen-ai/kaisen/explain"
	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/replay"
)

// Entrant is one player of a match of any game on the contract: its name
// (for tables, logs and replays) and the factory that makes a fresh
// instance for every game.
type Entrant[P, A, O any] struct {
	Name    string
	Factory game.Factory[P, A, O]
}

// Recorder writes the replay of one game on the contract; Flush ends it
// and returns the first write error.
type Recorder[P, A, S any] interface {
	game.Recorder[P, A, S]
	Flush() error
}

// RecordHeader is what a replay header says of its game: the game's seed,
// its place in its match, the players by seat (P1's role "p1") and the
// seat that acts first; each game's record format starts its Recorder on
// it (game/<g>/record.NewRecorder).
type RecordHeader = replay.Start

// Game is the Family of any game on the contract (package game): P1 and P2
// play under Rules, seat First(index) acting first in game index (nil:
// seat 0); a game's replay, when Deal.Replay asks for one, is written by
// the Recorder that Record starts (nil: the game records none, and a deal
// with a replay writer is refused). Seats, series, explanations, forfeits
// and results are the arena's, as for every family.
type Game[G game.State[A, S], P, A, S, O any] struct {
	Name   string // the game's name (the replay header's "game")
	Rules  game.Rules[G, P, A, S, O]
	P1, P2 Entrant[P, A, O]
	First  func(index int) int
	Record func(w io.Writer, h RecordHeader) Recorder[P, A, S]
}

var _ Family = (*Game[game.State[int, int], int, int, int, int])(nil)

// Game implements Family.
func (f *Game[G, P, A, S, O]) Game() string { return f.Name }

// Players implements Family.
func (f *Game[G, P, A, S, O]) Players() (p1, p2 string) { return f.P1.Name, f.P2.Name }

// Validate checks that the family can play.
func (f *Game[G, P, A, S, O]) Validate() error {
	var errs []error
	if f.Name == "" {
		errs = append(errs, errors.New("arena: a game family has no name"))
	}
	if f.Rules == nil {
		errs = append(errs, fmt.Errorf("arena: %s: no rules", f.Name))
	} else if err := f.Rules.Validate(); err != nil {
		errs = append(errs, fmt.Errorf("arena: %s: %w", f.Name, err))
	}
	if f.P1.Factory == nil || f.P2.Factory == nil {
		errs = append(errs, fmt.Errorf("arena: %s: a player has no factory", f.Name))
	}
	return errors.Join(errs...)
}

// NewTable implements Family.
func (f *Game[G, P, A, S, O]) NewTable(log *slog.Logger) Table {
	spec := tableSpec[G, P, A, S, O]{
		rules: f.Rules,
		names: [2]string{f.P1.Name, f.P2.Name},
		f:     [2]game.Factory[P, A, O]{f.P1.Factory, f.P2.Factory},
		record: func(w io.Writer, h recordHeader) recorder[P, A, S] {
			if f.Record == nil {
				return refused[P, A, S]{w: w, game: f.Name}
			}
			return f.Record(w, h)
		},
	}
	if f.First != nil {
		spec.first = func(d Deal) int { return f.First(d.Index) }
	}
	return newGameTable(spec, log)
}

// Timed returns a copy of f whose players add the duration of every Act
// (every decision: a turn, or an answer in a game that asks) to add1 (P1's
// players) or add2 (P2's); placements are not timed (kaisen tournament
// --timing). A timed player wraps its player (game.Wrapper: its Learner
// and Explainer are found through it) and tells it by reference when it
// is told so (game.RefObserver).
func (f *Game[G, P, A, S, O]) Timed(add1, add2 func(time.Duration)) Family {
	t := *f
	t.P1.Factory, t.P2.Factory = timedFactory(f.P1.Factory, add1), timedFactory(f.P2.Factory, add2)
	return &t
}

func timedFactory[P, A, O any](f game.Factory[P, A, O], add func(time.Duration)) game.Factory[P, A, O] {
	if f == nil {
		return nil
	}
	return func(rng *rand.Rand, seat int) game.Player[P, A, O] {
		p := f(rng, seat)
		ref, _ := p.(game.RefObserver[O])
		return &timed[P, A, O]{Player: p, ref: ref, add: add}
	}
}

// timed is a player whose every Act adds its duration to add.
type timed[P, A, O any] struct {
	game.Player[P, A, O]
	ref game.RefObserver[O] // the player, when it is told by reference
	add func(time.Duration)
}

func (t *timed[P, A, O]) Act() A {
	start := time.Now()
	a := t.Player.Act()
	t.add(time.Since(start))
	return a
}

// ObserveRef tells the player o by reference when it is told so, else
// by value.
func (t *timed[P, A, O]) ObserveRef(o *O) {
	if t.ref != nil {
		t.ref.ObserveRef(o)
		return
	}
	t.Player.Observe(*o)
}

// Unwrap implements game.Wrapper.
func (t *timed[P, A, O]) Unwrap() any { return t.Player }

// refused is the recorder of a game that records no replays: it records
// nothing and its Flush says so.
type refused[P, A, S any] struct {
	w    io.Writer
	game string
}

func (refused[P, A, S]) Placement(int, P, bool)                           {}
func (refused[P, A, S]) Action(int, int, A, *S, error, *explain.Decision) {}
func (refused[P, A, S]) Result(*game.Result)                              {}
func (r refused[P, A, S]) Flush() error {
	return fmt.Errorf("arena: %s: the game writes no replays", r.game)
}
