package arena

import (
	"io"

	"github.com/kaisen-ai/kaisen/game/abilities"
	abrecord "github.com/kaisen-ai/kaisen/game/abilities/record"
	"github.com/kaisen-ai/kaisen/game/battleship"
	bsrecord "github.com/kaisen-ai/kaisen/game/battleship/record"
	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/game/submarine"
	subrecord "github.com/kaisen-ai/kaisen/game/submarine/record"
)

// The replay writers of the three games on the contract, the ones the
// arena's tables write each deal's replay with, for the hosts that play a
// game outside a match (the terminal seat, kaisen play --human --against).
// Each is its game's record format's Recorder (game/<g>/record).

// SubmarineRecorder writes a submarine replay (subrecord.Recorder) of one
// game on w.
func SubmarineRecorder(w io.Writer, r *submarine.Rules, h RecordHeader) Recorder[submarine.Placement, submarine.Action, submarine.Step] {
	return subrecord.NewRecorder(w, r, h)
}

// BattleshipRecorder writes a Battleship replay (bsrecord.Recorder) of one
// game on w.
func BattleshipRecorder(w io.Writer, r *battleship.Rules, h RecordHeader) Recorder[battleship.Placement, grid.Cell, battleship.Step] {
	return bsrecord.NewRecorder(w, r, h)
}

// AbilitiesRecorder writes an abilities replay (abrecord.Recorder) of one
// game on w.
func AbilitiesRecorder(w io.Writer, r *abilities.Rules, h RecordHeader) Recorder[battleship.Placement, abilities.Action, abilities.Step] {
	return abrecord.NewRecorder(w, r, h)
}
