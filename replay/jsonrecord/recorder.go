package jsonrecord

import (
	"encoding/json"
	"io"

	"github.com/kaisen-ai/kaisen/explain"
	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/replay"
)

// Recorder writes the file of one game a game.Table (or the turn server)
// plays: a game.Recorder of the contract's P, A and S, and Flush. Write
// errors are sticky and returned by Flush.
type Recorder[P, A, S any] struct {
	w replay.LineWriter
}

var _ game.Recorder[int, int, int] = (*Recorder[int, int, int])(nil)

// NewRecorder starts the file of a game called name under rules on w, its
// header saying s.
func NewRecorder[P, A, S any](w io.Writer, name string, rules any, s replay.Start) *Recorder[P, A, S] {
	r := &Recorder[P, A, S]{w: replay.NewLineWriter(w, 16<<10)}
	raw, err := json.Marshal(rules)
	r.w.Fail(err)
	r.w.Line(Header{Type: replay.TypeHeader, Game: name, Version: replay.Version(), Seed: s.Seed, Match: s.Match,
		Rules: raw, Players: s.Players, First: s.First, Adjudication: s.Adjudication})
	return r
}

// Placement implements game.Recorder.
func (r *Recorder[P, A, S]) Placement(seat int, p P, ok bool) {
	raw := json.RawMessage("null")
	if ok {
		raw = r.marshal(p)
	}
	r.w.Line(Placement{Type: replay.TypePlacement, Seat: seat, Placement: raw})
}

// Action implements game.Recorder.
func (r *Recorder[P, A, S]) Action(n, seat int, a A, st *S, err error, d *explain.Decision) {
	l := Action{Type: TypeAction, N: n, Seat: seat, Action: r.marshal(a), Decision: d}
	if err != nil {
		l.Illegal = err.Error()
	} else {
		l.Step = r.marshal(*st)
	}
	r.w.Line(l)
}

// Result implements game.Recorder.
func (r *Recorder[P, A, S]) Result(res *game.Result) {
	r.result(replay.OutcomeOf(res), res.Winner, res.Count, replay.ForfeitsOf(res), res.Adjudicated)
}

// Outcome writes the result line as a host says it, the turn server's
// aborted games among them (server.Outcomes).
func (r *Recorder[P, A, S]) Outcome(outcome string, winner int, c game.Count, ff []replay.Forfeit) {
	r.result(outcome, winner, c, ff, "")
}

func (r *Recorder[P, A, S]) result(outcome string, winner int, c game.Count, ff []replay.Forfeit, adjudicated string) {
	r.w.Line(Result{Type: replay.TypeResult, Outcome: outcome, Winner: winner, Actions: c.Actions, Shots: c.Shots,
		Forfeits: ff, Adjudicated: adjudicated})
}

// Flush writes what is buffered and returns the first error met.
func (r *Recorder[P, A, S]) Flush() error { return r.w.Flush() }

// marshal is v's JSON, or null with the error kept.
func (r *Recorder[P, A, S]) marshal(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		r.w.Fail(err)
		return json.RawMessage("null")
	}
	return b
}
