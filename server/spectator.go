package server

import (
	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/game/grid"
)

// Spectator is told the course of every game as it is played, for a live
// view (kaisen serve --web), whatever the game: each game's public view
// (game.View, written once in the game's folder) says what both seats are
// told of each action, and only that reaches a Spectator; the placements,
// a move's destination and a defender's hidden answers do not. The replay
// (Result.Replay) has everything once the game is over. The calls come
// from the game goroutines, concurrently for different games, in order for
// one game, and must return at once; what they are given is the
// Spectator's to keep.
type Spectator interface {
	// Started is called when a game starts, with its public settings.
	Started(game string, pub game.Public, players [2]Peer, first int)
	// Step is called for every action of which something is public; n is
	// the game's action count as its Result has it (which counts nothing
	// hidden).
	Step(game string, n int, e *game.Seen)
	// Finished is called for every game the server records, started or
	// not, after its replay is written.
	Finished(res Result)
}

// Revealer is a Spectator that may also be told both hidden fleets during
// a game, for a view that shows them (kaisen serve --web-reveal): when
// Reveals is true, Fleets is called after Started and before every Step
// with the fleets as they are then (game.View.Fleets).
type Revealer interface {
	Spectator
	Reveals() bool
	Fleets(game string, fleets [2][]grid.Cell)
}

// Watch sets the spectator of the games that start after the call (nil:
// none).
func (s *Server) Watch(sp Spectator) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.spectator = sp
}

// watcher is the spectator of a game starting now (nil: none).
func (s *Server) watcher() Spectator {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.spectator
}

// Feed tells a Spectator the course of one game through the game's public
// view: the server's turn loops, and any host that plays a game a
// Spectator watches (the web page's own games), make one per game. A nil
// *Feed (no spectator) does nothing.
type Feed[S any] struct {
	sp   Spectator
	rv   Revealer // nil unless it reveals
	id   string
	view game.View[S]
	seen game.Seen
	// public counts the steps the view showed; turned is public at the
	// last turn told (ToAct; -1: none yet).
	public, turned int
}

// NewFeed tells sp (nil: none, and the Feed is nil) that game id starts,
// with view the game's public view from its start.
func NewFeed[S any](sp Spectator, id string, view game.View[S], players [2]Peer, first int) *Feed[S] {
	if sp == nil {
		return nil
	}
	f := &Feed[S]{sp: sp, id: id, view: view, turned: -1}
	if rv, ok := sp.(Revealer); ok && rv.Reveals() {
		f.rv = rv
	}
	sp.Started(id, view.Public(), players, first)
	if f.rv != nil {
		f.rv.Fleets(id, view.Fleets())
	}
	return f
}

// startFeed is the feed of the game of res, seen through view (nil when
// nobody watches).
func startFeed[S any](s *Server, res *Result, view game.View[S]) *Feed[S] {
	return NewFeed(s.watcher(), res.Game, view, res.Players, res.First)
}

// Step tells the spectator what is public of step st, the step Apply
// returned (err its error: the action was illegal); n is the game's action
// count as its Result has it, which counts nothing hidden. A host calls it
// once every seat's view of the action is settled (abilities: after the
// defender's confirms).
func (f *Feed[S]) Step(n int, st *S, err error) {
	if f == nil || !f.view.See(st, err, &f.seen) {
		return
	}
	f.public++
	if f.rv != nil {
		f.rv.Fleets(f.id, f.view.Fleets())
	}
	f.sp.Step(f.id, n, &f.seen)
}
