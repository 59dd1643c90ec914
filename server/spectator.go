package server

import (
	"github.com/kaisen-ai/kaisen/game/battleship"
	"github.com/kaisen-ai/kaisen/game/submarine"
)

// Spectator is told the course of every game as it is played, for a live
// view (kaisen serve --web). During a game only what both sides are told
// may be shown: the Step's Other event (submarine) and its Defender event
// (Battleship) are public, the actor's event of a move (its destination) and
// the placements are not; the replay (Result.Replay) has everything once
// the game is over. The calls come from the game goroutines, concurrently
// for different games, in order for one game, and must return at once.
type Spectator interface {
	SubmarineStarted(game string, r *submarine.Rules, players [2]Peer, first int)
	SubmarineStep(game string, n int, st *submarine.Step)
	BattleshipStarted(game string, r *battleship.Rules, players [2]Peer, first int)
	BattleshipShot(game string, n int, st *battleship.Step)
	// Finished is called for every game the server records, started or
	// not, after its replay is written.
	Finished(res Result)
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

// Revealer is a Spectator that is also told both hidden placements when a
// game starts, right after SubmarineStarted or BattleshipStarted, for a
// view that shows the fleets during the game (kaisen serve --web-reveal).
// A submarine's later positions follow from the Step's Action.
type Revealer interface {
	SubmarinePlaced(game string, p [2]submarine.Placement)
	BattleshipPlaced(game string, p [2]battleship.Placement)
}
