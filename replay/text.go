package replay

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/kaisen-ai/kaisen/explain"
	"github.com/kaisen-ai/kaisen/game/grid"
)

// The text both renderings share: names, headers and results in words.

// RenderRange checks the range From to To of what (actions or shots) of a
// game with last of them and returns the last one to show (To < 0: last).
func RenderRange(from, to, last int, what string) (int, error) {
	if from < 0 || from > last || (to >= 0 && to < from) {
		return 0, fmt.Errorf("replay: render: %s %d to %d: the game has %s 1 to %d (0 is the start)", what, from, to, what, last)
	}
	if to < 0 || to > last {
		to = last
	}
	return to, nil
}

// Text is a game's text rendering of one replay (its Render), as
// Rerun.RenderText drives it.
type Text[G, S, L any] struct {
	Header func(w io.Writer) // the header, legend included
	Result func(w io.Writer) // the result in words
	Who    func(seat int) string
	// Refused is, by seat, why the rules refuse its recorded placement
	// ("" for a valid one): a game that never started.
	Refused [2]string
	// Frame sees every frame of the game and draws the ones shown; its
	// first error is RenderText's.
	Frame func(w io.Writer, f *Frame[G, S, L]) error
	// Ends: the frames shown reach the last action, and the result
	// follows them.
	Ends bool
}

// RenderText writes t's rendering of rr to w: the header, then for a game
// that never started (t.Refused), once rr verifies, a line for each seat
// whose placement was refused and the result; otherwise every frame
// (t.Frame) as rr is played again (it fails with ErrMismatch rather than
// draw a game the rules do not allow), then the result when t.Ends.
func (rr *Rerun[G, P, A, S, L]) RenderText(w io.Writer, t *Text[G, S, L]) error {
	bw := bufio.NewWriter(w)
	t.Header(bw)
	if t.Refused[0] != "" || t.Refused[1] != "" {
		if err := rr.Play(nil); err != nil {
			return err
		}
		for s, why := range t.Refused {
			if why != "" {
				fmt.Fprintf(bw, "\nseat %d %s %s\n", s, t.Who(s), why)
			}
		}
		t.Result(bw)
		return bw.Flush()
	}
	var frameErr error
	err := rr.Frames(func(f *Frame[G, S, L]) {
		if err := t.Frame(bw, f); frameErr == nil {
			frameErr = err
		}
	})
	if err != nil {
		return err
	}
	if frameErr != nil {
		return frameErr
	}
	if t.Ends {
		t.Result(bw)
	}
	return bw.Flush()
}

// RenderStart begins a game's Render of a replay with last recorded
// actions: the rules it records (rules, its record's Rules) and the last
// action to show of from to to (RenderRange; what names the actions).
func RenderStart[R any](rules func() (R, error), from, to, last int, what string) (R, int, error) {
	r, err := rules()
	if err == nil {
		to, err = RenderRange(from, to, last, what)
	}
	return r, to, err
}

// SeatName is a player's name and, in a match, role: "alice (p1)", made
// safe to print (Printable).
func SeatName(p SeatInfo) string {
	if p.Role != "" {
		return fmt.Sprintf("%s (%s)", Printable(p.Name), Printable(p.Role))
	}
	return Printable(p.Name)
}

// Printable returns s unchanged when every rune of it is Printable, else s
// quoted with Go escapes ("\x1b[2J" for a terminal escape): names and
// reasons recorded from remote clients never reach a terminal raw.
func Printable(s string) string {
	for _, r := range s {
		if r == utf8.RuneError || !unicode.IsPrint(r) {
			return strconv.Quote(s)
		}
	}
	return s
}

// BoardShape describes b: "10x10 board with 3 rocks".
func BoardShape(b *grid.Board) string {
	shape := fmt.Sprintf("%dx%d board", b.Width(), b.Height())
	if n := len(b.Rocks()); n > 0 {
		shape += " with " + Plural(n, "rock")
	}
	return shape
}

// WriteSeed writes the start of the header's second line: the game's seed
// and its place in a match.
func WriteSeed(w io.Writer, seed uint64, m *MatchRef) {
	fmt.Fprintf(w, "game seed %d", seed)
	if m != nil {
		fmt.Fprintf(w, " (game %d of the match with seed %d", m.Index, m.Seed)
		if sr := m.Series; sr != nil {
			fmt.Fprintf(w, "; game %d of series %d, series of %d", sr.Game, sr.Index, sr.Size)
		}
		fmt.Fprint(w, ")")
	}
}

// WriteSeats writes one line per seat, noting the one that moves first.
func WriteSeats(w io.Writer, first int, note string, who func(seat int) string) {
	for s := range 2 {
		end := ""
		if s == first {
			end = ", " + note
		}
		fmt.Fprintf(w, "seat %d: %s%s\n", s, who(s), end)
	}
}

// WriteForfeits writes one line per forfeit of a result.
func WriteForfeits(w io.Writer, fs []Forfeit, who func(seat int) string) {
	for _, f := range fs {
		fmt.Fprintf(w, "forfeit: seat %d %s (%s): %s\n", f.Seat, who(f.Seat), Printable(f.Kind), Printable(f.Reason))
	}
}

func Plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return strconv.Itoa(n) + " " + what + "s"
}

// Summarize summarises a recorded Decision on one line: state, reason and the
// three best candidates.
func Summarize(d *explain.Decision) string {
	var parts []string
	if d.State != "" {
		parts = append(parts, "state "+d.State)
	}
	if d.Reason != "" {
		parts = append(parts, d.Reason)
	}
	if n := len(d.Candidates); n > 0 {
		var cs []string
		for _, c := range d.Candidates[:min(n, 3)] {
			cs = append(cs, fmt.Sprintf("%s %s", c.Action, strconv.FormatFloat(c.Score, 'g', 4, 64)))
		}
		more := ""
		if n > 3 {
			more = fmt.Sprintf(" (+%d more)", n-3)
		}
		parts = append(parts, "best: "+strings.Join(cs, ", ")+more)
	}
	return strings.Join(parts, "; ")
}

// WriteSideBySide writes boards (each a list of lines, as Lines draws
// them) side by side, every board but the last padded to the widest line
// of them all, then four spaces.
func WriteSideBySide(w io.Writer, boards ...[]string) {
	width, rows := 0, 0
	for _, lines := range boards {
		rows = max(rows, len(lines))
		for _, l := range lines {
			width = max(width, utf8.RuneCountInString(l))
		}
	}
	for r := range rows {
		var sb strings.Builder
		for i, lines := range boards {
			l := ""
			if r < len(lines) {
				l = lines[r]
			}
			sb.WriteString(l)
			if i < len(boards)-1 {
				sb.WriteString(strings.Repeat(" ", width-utf8.RuneCountInString(l)) + "    ")
			}
		}
		fmt.Fprintln(w, sb.String())
	}
}
