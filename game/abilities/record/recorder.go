package record

import (
	"io"

	"github.com/kaisen-ai/kaisen/explain"
	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/game/abilities"
	"github.com/kaisen-ai/kaisen/game/battleship"
	bsrecord "github.com/kaisen-ai/kaisen/game/battleship/record"
	"github.com/kaisen-ai/kaisen/replay"
)

// Recorder writes the replay of an abilities game a game.Table plays (a
// game.Recorder): the hosts' replay writer.
type Recorder struct {
	bsrecord.FleetRecorder
	w *Writer
}

var _ game.Recorder[battleship.Placement, abilities.Action, abilities.Step] = Recorder{}

// NewRecorder starts the replay of a game under r on w, its header saying s.
func NewRecorder(w io.Writer, r *abilities.Rules, s replay.Start) Recorder {
	aw := NewWriter(w, r, Header{Seed: s.Seed, Match: s.Match, Players: s.Players, First: s.First, Adjudication: s.Adjudication})
	return Recorder{bsrecord.FleetRecorder{W: aw}, aw}
}

// Action implements game.Recorder: an action line, with the actor's
// decision when d is not nil.
func (r Recorder) Action(n, seat int, a abilities.Action, _ *abilities.Step, err error, d *explain.Decision) {
	r.w.Action(n, seat, a, err != nil, d)
}
