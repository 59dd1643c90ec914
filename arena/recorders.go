package arena

import (
	"io"

	"github.com/kaisen-ai/kaisen/game/abilities"
	"github.com/kaisen-ai/kaisen/game/battleship"
	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/game/submarine"
	"github.com/kaisen-ai/kaisen/replay"
)

// The replay writers of the three games on the contract, the ones the
// arena's tables write each deal's replay with, for the hosts that play a
// game outside a match (the terminal seat, kaisen play --human --against).

// SubmarineRecorder writes a submarine replay (replay.SubmarineWriter) of
// one game on w.
func SubmarineRecorder(w io.Writer, r *submarine.Rules, h RecordHeader) Recorder[submarine.Placement, submarine.Action, submarine.Step] {
	return newSubRecord(w, r, h)
}

// BattleshipRecorder writes a Battleship replay (replay.BattleshipWriter)
// of one game on w.
func BattleshipRecorder(w io.Writer, r *battleship.Rules, h RecordHeader) Recorder[battleship.Placement, grid.Cell, battleship.Step] {
	return bsRecord{fleetRecord{replay.NewBattleshipWriter(w, r, replay.BattleshipHeader{Seed: h.Seed, Match: h.Match, Players: h.Players})}}
}

// AbilitiesRecorder writes an abilities replay (replay.AbilitiesWriter) of
// one game on w.
func AbilitiesRecorder(w io.Writer, r *abilities.Rules, h RecordHeader) Recorder[battleship.Placement, abilities.Action, abilities.Step] {
	return abRecord{fleetRecord{replay.NewAbilitiesWriter(w, r, replay.AbilitiesHeader{Seed: h.Seed, Match: h.Match, Players: h.Players, First: h.First})}}
}
