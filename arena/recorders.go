package arena

import (
	"io"

	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/game/abilities"
	"github.com/kaisen-ai/kaisen/game/battleship"
	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/game/submarine"
	"github.com/kaisen-ai/kaisen/replay"
)

// Recorder is a replay writer on the game contract: the one the arena's
// tables write each deal's replay with, for the hosts that play a game
// outside a match (the terminal seat, kaisen play --human --against).
type Recorder[P, A, S any] interface {
	game.Recorder[P, A, S]
	// Flush writes what is buffered and returns the first write error.
	Flush() error
}

// ReplayHeader is what the replay header of a game played outside a match
// says: its seed, its players and the seat that acts first.
type ReplayHeader struct {
	Seed    uint64
	Players [2]replay.SeatInfo
	First   int
}

// SubmarineRecorder writes a submarine replay (replay.SubmarineWriter) of
// one game on w.
func SubmarineRecorder(w io.Writer, r *submarine.Rules, h ReplayHeader) Recorder[submarine.Placement, submarine.Action, submarine.Step] {
	return newSubRecord(w, r, recordHeader{Seed: h.Seed, Players: h.Players, First: h.First})
}

// BattleshipRecorder writes a Battleship replay (replay.BattleshipWriter)
// of one game on w.
func BattleshipRecorder(w io.Writer, r *battleship.Rules, h ReplayHeader) Recorder[battleship.Placement, grid.Cell, battleship.Step] {
	return bsRecord{fleetRecord{replay.NewBattleshipWriter(w, r, replay.BattleshipHeader{Seed: h.Seed, Players: h.Players})}}
}

// AbilitiesRecorder writes an abilities replay (replay.AbilitiesWriter) of
// one game on w.
func AbilitiesRecorder(w io.Writer, r *abilities.Rules, h ReplayHeader) Recorder[battleship.Placement, abilities.Action, abilities.Step] {
	return abRecord{fleetRecord{replay.NewAbilitiesWriter(w, r, replay.AbilitiesHeader{Seed: h.Seed, Players: h.Players, First: h.First})}}
}
