package record

import (
	"io"

	"github.com/kaisen-ai/kaisen/explain"
	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/game/battleship"
	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/replay"
)

// FleetLines are what the replay writers of Battleship-board games
// (Writer, and the abilities variant's) share: the placement lines, the
// result line and the flush.
type FleetLines interface {
	Placement(seat int, pl battleship.Placement)
	NoPlacement(seat int)
	Result(r Result)
	Flush() error
}

// FleetRecorder records the placements and the result of a Battleship-board
// game a game.Table plays; each game adds its Action.
type FleetRecorder struct{ W FleetLines }

// Placement implements game.Recorder: a seat that crashed before placing
// has "ships":null.
func (r FleetRecorder) Placement(seat int, p battleship.Placement, ok bool) {
	if ok {
		r.W.Placement(seat, p)
	} else {
		r.W.NoPlacement(seat)
	}
}

// Result implements game.Recorder.
func (r FleetRecorder) Result(res *game.Result) {
	r.W.Result(Result{Outcome: replay.OutcomeOf(res), Winner: res.Winner, Shots: res.Shots, Forfeits: replay.ForfeitsOf(res),
		Adjudicated: res.Adjudicated})
}

// Outcome writes the result line of a game a host ended as it says
// (outcome a replay.Outcome*, aborted too; c the rules' count; ff the
// forfeits): the turn server's (server.Outcomes).
func (r FleetRecorder) Outcome(outcome string, winner int, c game.Count, ff []replay.Forfeit) {
	r.W.Result(Result{Outcome: outcome, Winner: winner, Shots: c.Shots, Forfeits: ff})
}

// Flush writes what is buffered and returns the first error met.
func (r FleetRecorder) Flush() error { return r.W.Flush() }

// Recorder writes the replay of a Battleship game a game.Table plays (a
// game.Recorder): the hosts' replay writer.
type Recorder struct {
	FleetRecorder
	w *Writer
}

var _ game.Recorder[battleship.Placement, grid.Cell, battleship.Step] = Recorder{}

// NewRecorder starts the replay of a game under r on w, its header saying s
// (the seat that shoots first: seat 0 in kaisen match, the listener's
// policy on the turn server).
func NewRecorder(w io.Writer, r *battleship.Rules, s replay.Start) Recorder {
	bw := NewWriter(w, r, Header{Seed: s.Seed, Match: s.Match, Players: s.Players, First: s.First, Adjudication: s.Adjudication})
	return Recorder{FleetRecorder{bw}, bw}
}

// Action implements game.Recorder: a shot line.
func (r Recorder) Action(n, _ int, _ grid.Cell, st *battleship.Step, err error, d *explain.Decision) {
	r.w.Shot(n, st, err, d)
}
