package record

import (
	"io"

	"github.com/kaisen-ai/kaisen/explain"
	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/game/submarine"
	"github.com/kaisen-ai/kaisen/replay"
)

// Recorder writes the replay of a game a game.Table plays (a
// game.Recorder): the hosts' replay writer.
type Recorder struct{ w *Writer }

var _ game.Recorder[submarine.Placement, submarine.Action, submarine.Step] = Recorder{}

// NewRecorder starts the replay of a game under r on w, its header saying
// s (the first seat too: 0 in the arena's and the terminal's submarine
// games, the listener's first-player policy's in the server's); its
// Outcome records a server's outcomes as they are.
func NewRecorder(w io.Writer, r *submarine.Rules, s replay.Start) Recorder {
	return Recorder{NewWriter(w, r, Header{Seed: s.Seed, Match: s.Match, Players: s.Players, First: s.First, Adjudication: s.Adjudication})}
}

// Outcome records how a game the server played ended, as the server says
// it (server.Outcomes): outcome is a replay.Outcome* (aborted too), c the
// rules' count of the game, ff its forfeits.
func (r Recorder) Outcome(outcome string, winner int, c game.Count, ff []replay.Forfeit) {
	r.w.Result(Result{Outcome: outcome, Winner: winner, Actions: c.Actions, Forfeits: ff})
}

// Placement implements game.Recorder.
func (r Recorder) Placement(seat int, p submarine.Placement, _ bool) { r.w.Placement(seat, p) }

// Action implements game.Recorder.
func (r Recorder) Action(n, _ int, _ submarine.Action, st *submarine.Step, err error, d *explain.Decision) {
	r.w.Step(n, st, err, d)
}

// Result implements game.Recorder.
func (r Recorder) Result(res *game.Result) {
	r.w.Result(Result{Outcome: replay.OutcomeOf(res), Winner: res.Winner, Actions: res.Actions, Forfeits: replay.ForfeitsOf(res),
		Adjudicated: res.Adjudicated})
}

// Flush writes what is buffered and returns the first error met.
func (r Recorder) Flush() error { return r.w.Flush() }
