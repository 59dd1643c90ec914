package record

import (
	"io"

	"github.com/kaisen-ai/kaisen/explain"
	"github.com/kaisen-ai/kaisen/game/submarine"
	"github.com/kaisen-ai/kaisen/replay"
)

// Writer writes one replay, line by line, in the order header, placements,
// steps, result. Errors are sticky: after the first failed write every call
// does nothing and Flush returns that error.
type Writer struct {
	replay.LineWriter
	rules *submarine.Rules
	steps *stepEncoder
	buf   []byte
}

// NewWriter starts a replay of a game under rules r on w and writes the
// header h. Type, Game and Rules of h are filled in by NewWriter; an empty
// Version is replaced by replay.Version().
func NewWriter(w io.Writer, r *submarine.Rules, h Header) *Writer {
	rw := &Writer{LineWriter: replay.NewLineWriter(w, 16<<10), rules: r, steps: newStepEncoder(r)}
	h.Type, h.Game, h.Rules = replay.TypeHeader, Name, RulesOf(r)
	if h.Version == "" {
		h.Version = replay.Version()
	}
	rw.Line(h)
	return rw
}

// Placement records seat's initial placement (as the player returned it).
func (w *Writer) Placement(seat int, p submarine.Placement) {
	w.Line(EncodePlacement(w.rules, seat, p))
}

// Step records action number n (from 1): st and illegal are what the
// engine's Apply returned (illegal is nil for a legal action) and d, when not
// nil, the actor's explanation of it.
func (w *Writer) Step(n int, st *submarine.Step, illegal error, d *explain.Decision) {
	if w.Err() != nil {
		return
	}
	var err error
	w.buf, err = w.steps.appendStep(w.buf[:0], n, st, illegal, d)
	w.Fail(err)
	w.Raw(w.buf)
}

// slowStep is the Step line built for encoding/json (the reference of the
// fast encoder).
func slowStep(r *submarine.Rules, n int, st *submarine.Step, illegal error, d *explain.Decision) Step {
	line := Step{
		Type:     TypeStep,
		N:        n,
		Seat:     st.Seat,
		Action:   EncodeAction(r, st.Action),
		Actor:    EncodeEvent(r, st.Actor),
		Other:    EncodeEvent(r, st.Other),
		Decision: d,
	}
	if illegal != nil {
		line.Error = illegal.Error()
	}
	return line
}

// Result records the end of the game.
func (w *Writer) Result(r Result) {
	r.Type = replay.TypeResult
	w.Line(r)
}

// WriteTo writes rp in the replay format (Read's inverse: a file read and
// written back is byte for byte the same when it was written by Writer).
func (rp *Replay) WriteTo(w io.Writer) (int64, error) {
	return replay.WriteReplay(w, rp.Header, rp.Placements, TypeStep, rp.Steps, rp.Result)
}
