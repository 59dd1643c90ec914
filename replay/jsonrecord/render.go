package jsonrecord

import (
	"bytes"
	"fmt"
	"io"

	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/replay"
)

// Render writes rp as text, verifying it on the way (nothing is written
// for a file that does not verify): who played where, the placements,
// the actions from to to (1 is the first; to < 0: to the end), each with
// the rules' answer or the reason it was refused, and how the game ended.
func Render[G game.State[A, S], P, A, S any](w io.Writer, rp *Replay, rules Rules[G, P, A, S], from, to int) error {
	rr, err := Rerun(rp, rules)
	if err != nil {
		return err
	}
	var b bytes.Buffer
	renderHeader(&b, rp)
	if from <= 0 {
		for s, p := range rp.Placements {
			fmt.Fprintf(&b, "seat %d places %s\n", s, p.Placement)
		}
	}
	err = rr.Frames(func(f *replay.Frame[G, S, Action]) {
		if l := f.Line; l != nil && f.N >= from && (to < 0 || f.N <= to) {
			if l.Illegal != "" {
				fmt.Fprintf(&b, "#%d seat %d %s: illegal (%s)\n", l.N, l.Seat, l.Action, l.Illegal)
			} else {
				fmt.Fprintf(&b, "#%d seat %d %s -> %s\n", l.N, l.Seat, l.Action, l.Step)
			}
		}
	})
	if err != nil {
		return err
	}
	if to < 0 || to >= len(rp.Actions) {
		b.WriteString("result: " + Summary(rp) + "\n")
	}
	_, err = w.Write(b.Bytes())
	return err
}

// renderHeader writes who played where: the game and its seed, then a
// line per seat.
func renderHeader(b *bytes.Buffer, rp *Replay) {
	h := &rp.Header
	fmt.Fprintf(b, "%s, seed %d\n", h.Game, h.Seed)
	for s, p := range h.Players {
		fmt.Fprintf(b, "seat %d: %s", s, p.Name)
		if p.Role != "" {
			fmt.Fprintf(b, " (%s)", p.Role)
		}
		if s == h.First {
			b.WriteString(", acts first")
		}
		b.WriteByte('\n')
	}
}

// Summary is how the game ended in a few words: "17 actions, seat 0
// sonar-hunter wins", "10000 actions, draw (adjudicated: cap)", with the
// forfeits.
func Summary(rp *Replay) string {
	res := &rp.Result
	s := fmt.Sprintf("%d actions, ", res.Actions)
	switch {
	case res.Outcome == replay.OutcomeWin && res.Winner >= 0 && res.Winner < 2:
		s += fmt.Sprintf("seat %d %s wins", res.Winner, rp.Header.Players[res.Winner].Name)
	case res.Adjudicated != "":
		s += "draw (adjudicated: " + res.Adjudicated + ")"
	default:
		s += res.Outcome
	}
	for _, f := range res.Forfeits {
		s += fmt.Sprintf(" (seat %d forfeits, %s: %s)", f.Seat, f.Kind, f.Reason)
	}
	return s
}
