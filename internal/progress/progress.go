// Package progress reports the progress of long runs on stderr:
//
//	[#############...............]  4213/10000  42%  18.3k/s  ETA 0:00:01
//
// On a terminal (IsTerminal) New redraws that line in place with a carriage
// return; elsewhere (a log file, CI) NewLines writes it as a plain line every
// few seconds, so a long run is never silent.
package progress

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/mattn/go-isatty"
)

// IsTerminal reports whether w is a terminal (mattn/go-isatty: a TTY, or
// a Cygwin or MSYS terminal), where a redrawn progress line makes sense.
// Other character devices, /dev/null among them, are not.
func IsTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	return isatty.IsTerminal(f.Fd()) || isatty.IsCygwinTerminal(f.Fd())
}

// Bar is a progress bar for a known number of items. It is not safe for
// concurrent use: call Set from one goroutine.
type Bar struct {
	w     io.Writer
	total int
	unit  string
	start time.Time
	now   func() time.Time
	width int // of the bar itself, in characters
	last  string
	note  string // SetNote's text, after the bar
	// Line mode (NewLines): a whole line at most every every.
	every   time.Duration
	lastAt  time.Time
	printed bool
}

// New returns a bar for total items (unit names them, e.g. "games") drawn on
// w, starting now.
func New(w io.Writer, total int, unit string) *Bar {
	return &Bar{w: w, total: total, unit: unit, start: time.Now(), now: time.Now, width: 30}
}

// NewLines returns a bar for w that is not a terminal: Set writes the
// state as a whole line when every has passed since the start or the last
// line, and Done writes the final state when a line was written before
// (short runs stay silent).
func NewLines(w io.Writer, total int, unit string, every time.Duration) *Bar {
	b := New(w, total, unit)
	b.every, b.lastAt = every, b.start
	return b
}

// SetTotal changes the number of items (for work whose size is known only
// once it has started).
func (b *Bar) SetTotal(total int) { b.total = total }

// SetNote sets a text shown after the bar from the next Set on, such as
// a match's running score ("" for none).
func (b *Bar) SetNote(note string) { b.note = note }

// line is the bar's line at done items, elapsed after the start, with
// its note.
func (b *Bar) line(done int, elapsed time.Duration) string {
	l := Line(done, b.total, elapsed, b.width, b.unit)
	if b.note != "" {
		l += "  " + b.note
	}
	return l
}

// Set redraws the bar with done items finished (only when the line changes).
func (b *Bar) Set(done int) {
	now := b.now()
	if b.every > 0 {
		if now.Sub(b.lastAt) < b.every {
			return
		}
		b.lastAt, b.printed = now, true
		fmt.Fprintln(b.w, b.line(done, now.Sub(b.start)))
		return
	}
	line := b.line(done, now.Sub(b.start))
	if line == b.last {
		return
	}
	b.last = line
	fmt.Fprintf(b.w, "\r%s\x1b[K", line)
}

// Done draws the final state and ends the line.
func (b *Bar) Done(done int) {
	if b.every > 0 {
		if b.printed {
			fmt.Fprintln(b.w, b.line(done, b.now().Sub(b.start)))
		}
		return
	}
	b.Set(done)
	fmt.Fprintln(b.w)
}

// Line formats the bar for done of total items after elapsed time, with a
// bar of width characters.
func Line(done, total int, elapsed time.Duration, width int, unit string) string {
	frac := 0.0
	if total > 0 {
		frac = min(1, max(0, float64(done)/float64(total)))
	}
	filled := int(frac * float64(width))
	var sb strings.Builder
	sb.WriteByte('[')
	sb.WriteString(strings.Repeat("#", filled))
	sb.WriteString(strings.Repeat(".", width-filled))
	sb.WriteByte(']')
	fmt.Fprintf(&sb, " %*d/%d %3.0f%%", len(fmt.Sprint(total)), done, total, 100*frac)
	if secs := elapsed.Seconds(); secs > 0 && done > 0 {
		rate := float64(done) / secs
		fmt.Fprintf(&sb, " %s %s/s", human(rate), unit)
		if done < total {
			eta := time.Duration(float64(total-done) / rate * float64(time.Second))
			fmt.Fprintf(&sb, " ETA %s", clock(eta))
		}
	}
	return sb.String()
}

// human formats a rate with a k or M suffix.
func human(v float64) string {
	switch {
	case v >= 1e6:
		return fmt.Sprintf("%.1fM", v/1e6)
	case v >= 1e4:
		return fmt.Sprintf("%.1fk", v/1e3)
	default:
		return fmt.Sprintf("%.0f", v)
	}
}

// clock formats d as h:mm:ss.
func clock(d time.Duration) string {
	s := int(d.Round(time.Second).Seconds())
	return fmt.Sprintf("%d:%02d:%02d", s/3600, s/60%60, s%60)
}
