package replay

import (
	"errors"

	"github.com/kaisen-ai/kaisen/internal/version"
)

// Line types (the "type" key of every line).
const (
	TypeHeader    = "header"
	TypePlacement = "placement"
	TypeStep      = "step"
	TypeResult    = "result"
)

// Outcomes of a Result.
const (
	OutcomeWin  = "win"
	OutcomeDraw = "draw"
	// OutcomeAborted: the turn server stopped the game before it ended (a
	// shutdown); the replay has what was played, winner -1, no forfeits.
	OutcomeAborted = "aborted"
)

// Forfeit kinds.
const (
	ForfeitIllegal   = "illegal"   // an illegal action (the rules end the game)
	ForfeitPanic     = "panic"     // the player's code panicked
	ForfeitPlacement = "placement" // an invalid initial placement
	// ForfeitWaiting: the seat broke the protocol while it was not its turn
	// (sent a line, left or stopped reading); the game ends before the
	// mover's action. Recorded by the turn server.
	ForfeitWaiting = "waiting"
	// ForfeitProtocol: the seat whose turn it was broke the protocol
	// instead of acting (no action within the time limit, a line that is
	// not an action, a disconnect); no action line is recorded for it.
	// Recorded by the Battleship and abilities turn servers.
	ForfeitProtocol = "protocol"
)

// ErrFormat is wrapped by every error about a malformed replay.
var ErrFormat = errors.New("replay: bad format")

// SeatInfo names the player in one seat.
type SeatInfo struct {
	Seat int    `json:"seat"`
	Name string `json:"name"`           // player name, e.g. "random"
	Role string `json:"role,omitempty"` // "p1" or "p2" in a match
}

// MatchRef places a game in its match: kaisen match --seed Seed plays this
// game as game number Index (from 0).
type MatchRef struct {
	Seed   uint64     `json:"seed"`
	Index  int        `json:"index"`
	Series *SeriesRef `json:"series,omitempty"` // kaisen match --series: the game's place in its series
}

// SeriesRef places a game of a match played in series (kaisen match
// --series Size) in its series: game Game (from 0) of series Index (from
// 0), whose players learn across its games. Index is the match index
// divided by Size, Game the remainder; the last series of a match may be
// shorter than Size.
type SeriesRef struct {
	Index int `json:"index"`
	Game  int `json:"game"`
	Size  int `json:"size"`
}

// Forfeit records a seat that lost by breaking the rules or crashing.
type Forfeit struct {
	Seat   int    `json:"seat"`
	Kind   string `json:"kind"`   // ForfeitIllegal, ForfeitPanic or ForfeitPlacement
	Reason string `json:"reason"` // the engine's error or the panic message
}

// Version is the kaisen version written into replay headers: the main
// module's version and VCS stamps from the build information
// (internal/version; the same string as kaisen --version).
func Version() string { return version.String() }
