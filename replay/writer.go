package replay

import (
	"io"

	"github.com/kaisen-ai/kaisen/explain"
	"github.com/kaisen-ai/kaisen/game/submarine"
)

// SubmarineWriter writes one replay, line by line, in the order header, placements,
// steps, result. Errors are sticky: after the first failed write every call
// does nothing and Flush returns that error.
type SubmarineWriter struct {
	lineWriter
	rules *submarine.Rules
	steps *stepEncoder
	buf   []byte
}

// NewSubmarineWriter starts a replay of a game under rules r on w and writes the
// header h. Type, Game and Rules of h are filled in by NewSubmarineWriter; an empty
// Version is replaced by Version().
func NewSubmarineWriter(w io.Writer, r *submarine.Rules, h SubmarineHeader) *SubmarineWriter {
	rw := &SubmarineWriter{lineWriter: newLineWriter(w, 16<<10), rules: r, steps: newStepEncoder(r)}
	h.Type, h.Game, h.Rules = TypeHeader, GameSubmarine, SubmarineRulesOf(r)
	if h.Version == "" {
		h.Version = Version()
	}
	rw.write(h)
	return rw
}

// Placement records seat's initial placement (as the player returned it).
func (w *SubmarineWriter) Placement(seat int, p submarine.Placement) {
	w.write(EncodeSubmarinePlacement(w.rules, seat, p))
}

// Step records action number n (from 1): st and illegal are what the
// engine's Apply returned (illegal is nil for a legal action) and d, when not
// nil, the actor's explanation of it.
func (w *SubmarineWriter) Step(n int, st *submarine.Step, illegal error, d *explain.Decision) {
	if w.err != nil {
		return
	}
	var err error
	w.buf, err = w.steps.appendStep(w.buf[:0], n, st, illegal, d)
	w.fail(err)
	w.writeRaw(w.buf)
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
func (w *SubmarineWriter) Result(r SubmarineResult) {
	r.Type = TypeResult
	w.write(r)
}

// WriteTo writes rp in the replay format (ReadSubmarine's inverse: a file read and
// written back is byte for byte the same when it was written by SubmarineWriter).
func (rp *SubmarineReplay) WriteTo(w io.Writer) (int64, error) {
	return writeLines(w, func(lw *lineWriter) {
		h := rp.Header
		h.Type = TypeHeader
		lw.write(h)
		for _, p := range rp.Placements {
			p.Type = TypePlacement
			lw.write(p)
		}
		for _, s := range rp.Steps {
			s.Type = TypeStep
			lw.write(s)
		}
		res := rp.Result
		res.Type = TypeResult
		lw.write(res)
	})
}
