package replay

import (
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
