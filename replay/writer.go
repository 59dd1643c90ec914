package replay

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"

	"github.com/kaisen-ai/kaisen/game/submarine"
	"github.com/kaisen-ai/kaisen/players"
)

// Writer writes one replay, line by line, in the order header, placements,
// steps, result. Errors are sticky: after the first failed write every call
// does nothing and Flush returns that error.
type Writer struct {
	bw    *bufio.Writer
	enc   *json.Encoder
	rules *submarine.Rules
	steps *stepEncoder
	buf   []byte
	err   error
}

// NewWriter starts a replay of a game under rules r on w and writes the
// header h. Type, Game and Rules of h are filled in by NewWriter; an empty
// Version is replaced by Version().
func NewWriter(w io.Writer, r *submarine.Rules, h Header) *Writer {
	bw := bufio.NewWriterSize(w, 16<<10)
	rw := &Writer{bw: bw, enc: json.NewEncoder(bw), rules: r, steps: newStepEncoder(r)}
	h.Type, h.Game, h.Rules = TypeHeader, GameSubmarine, RulesOf(r)
	if h.Version == "" {
		h.Version = Version()
	}
	rw.write(h)
	return rw
}

func (w *Writer) write(v any) {
	if w.err != nil {
		return
	}
	if err := w.enc.Encode(v); err != nil {
		w.err = fmt.Errorf("replay: write: %w", err)
	}
}

// Placement records seat's initial placement (as the player returned it).
func (w *Writer) Placement(seat int, p submarine.Placement) {
	w.write(EncodePlacement(w.rules, seat, p))
}

// Step records action number n (from 1) and, when d is not nil, the actor's
// explanation of it.
func (w *Writer) Step(n int, st *submarine.Step, d *players.Decision) {
	if w.err != nil {
		return
	}
	var err error
	w.buf, err = w.steps.appendStep(w.buf[:0], n, st, d)
	if err == nil {
		_, err = w.bw.Write(w.buf)
	}
	if err != nil {
		w.err = fmt.Errorf("replay: write: %w", err)
	}
}

// slowStep is the Step line built for encoding/json (the reference of the
// fast encoder).
func slowStep(r *submarine.Rules, n int, st *submarine.Step, d *players.Decision) Step {
	line := Step{
		Type:     TypeStep,
		N:        n,
		Seat:     st.Seat,
		Action:   EncodeAction(r, st.Action),
		Actor:    EncodeEvent(r, st.Actor),
		Other:    EncodeEvent(r, st.Other),
		Decision: d,
	}
	if st.Err != nil {
		line.Error = st.Err.Error()
	}
	return line
}

// Result records the end of the game.
func (w *Writer) Result(r Result) {
	r.Type = TypeResult
	w.write(r)
}

// Flush writes any buffered data and returns the first error met.
func (w *Writer) Flush() error {
	if w.err != nil {
		return w.err
	}
	if err := w.bw.Flush(); err != nil {
		w.err = fmt.Errorf("replay: write: %w", err)
	}
	return w.err
}

// WriteTo writes rp in the replay format (Read's inverse: a file read and
// written back is byte for byte the same when it was written by Writer).
func (rp *Replay) WriteTo(w io.Writer) (int64, error) {
	cw := &countingWriter{w: w}
	bw := bufio.NewWriter(cw)
	enc := json.NewEncoder(bw)
	lines := make([]any, 0, len(rp.Steps)+4)
	h := rp.Header
	h.Type = TypeHeader
	lines = append(lines, h)
	for _, p := range rp.Placements {
		p.Type = TypePlacement
		lines = append(lines, p)
	}
	for _, s := range rp.Steps {
		s.Type = TypeStep
		lines = append(lines, s)
	}
	res := rp.Result
	res.Type = TypeResult
	lines = append(lines, res)
	for _, l := range lines {
		if err := enc.Encode(l); err != nil {
			return cw.n, fmt.Errorf("replay: write: %w", err)
		}
	}
	if err := bw.Flush(); err != nil {
		return cw.n, fmt.Errorf("replay: write: %w", err)
	}
	return cw.n, nil
}

type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}
