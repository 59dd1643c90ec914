// Package transcript reads and writes Kaisen's golden protocol transcripts:
// both connections of one server session, line by line, in the order the
// server writes them. The golden files under protocol/testdata/ use it; so
// can any test that plays a scripted client or server against them.
//
// The format is line-oriented UTF-8 text:
//
//	# comment (free text)
//	# dialect: classic          header comments of the form "key: value" are metadata
//	P1 S>C you are connected. please send me initial state.
//	P1 C>S {"w":[0,0],"c":[2,0],"s":[4,0]}
//
// Each transcript line is the player ("P1" is the first connection), the
// direction ("S>C" server to client, "C>S" client to server), one space and
// the protocol line exactly as sent, without its "\n". An empty protocol
// line is written as "P1 S>C" with nothing after the direction.
package transcript

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
)

// Dir is the direction of a line.
type Dir uint8

// Directions.
const (
	ToClient Dir = iota + 1 // S>C
	ToServer                // C>S
)

func (d Dir) String() string {
	if d == ToServer {
		return "C>S"
	}
	return "S>C"
}

// Line is one protocol line of one connection.
type Line struct {
	Player int // 1 or 2
	Dir    Dir
	Text   string
}

func (l Line) String() string {
	if l.Text == "" {
		return fmt.Sprintf("P%d %s", l.Player, l.Dir)
	}
	return fmt.Sprintf("P%d %s %s", l.Player, l.Dir, l.Text)
}

// Meta is one "key: value" header entry.
type Meta struct {
	Key, Value string
}

// Transcript is a parsed golden transcript.
type Transcript struct {
	Comments []string // header comment lines that are not metadata, without "# "
	Meta     []Meta
	Lines    []Line
}

// ErrFormat reports a malformed transcript file.
var ErrFormat = errors.New("transcript: malformed")

// Load parses the transcript file at path.
func Load(path string) (*Transcript, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("transcript: %w", err)
	}
	defer f.Close()
	t, err := Parse(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return t, nil
}

// Parse reads a transcript.
func Parse(r io.Reader) (*Transcript, error) {
	t := &Transcript{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	n := 0
	for sc.Scan() {
		n++
		s := sc.Text()
		if s == "" {
			continue
		}
		if c, ok := strings.CutPrefix(s, "#"); ok {
			c = strings.TrimPrefix(c, " ")
			if len(t.Lines) == 0 {
				if k, v, ok := strings.Cut(c, ": "); ok && isKey(k) {
					t.Meta = append(t.Meta, Meta{Key: k, Value: v})
					continue
				}
				t.Comments = append(t.Comments, c)
			}
			continue
		}
		l, err := parseLine(s)
		if err != nil {
			return nil, fmt.Errorf("%w: line %d: %v", ErrFormat, n, err)
		}
		t.Lines = append(t.Lines, l)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("transcript: %w", err)
	}
	return t, nil
}

func isKey(k string) bool {
	if k == "" {
		return false
	}
	for _, c := range k {
		if (c < 'a' || c > 'z') && c != '-' && (c < '0' || c > '9') {
			return false
		}
	}
	return true
}

func parseLine(s string) (Line, error) {
	var l Line
	switch {
	case strings.HasPrefix(s, "P1 "):
		l.Player = 1
	case strings.HasPrefix(s, "P2 "):
		l.Player = 2
	default:
		return l, fmt.Errorf("want P1 or P2 at the start of %q", s)
	}
	rest := s[3:]
	switch {
	case strings.HasPrefix(rest, "S>C"):
		l.Dir = ToClient
	case strings.HasPrefix(rest, "C>S"):
		l.Dir = ToServer
	default:
		return l, fmt.Errorf("want S>C or C>S after the player in %q", s)
	}
	rest = rest[3:]
	switch {
	case rest == "":
	case rest[0] == ' ':
		l.Text = rest[1:]
	default:
		return l, fmt.Errorf("want a space after the direction in %q", s)
	}
	return l, nil
}

// Get returns the value of metadata key ("" when absent).
func (t *Transcript) Get(key string) string {
	for _, m := range t.Meta {
		if m.Key == key {
			return m.Value
		}
	}
	return ""
}

// Side returns the lines of one player's connection, in order.
func (t *Transcript) Side(player int) []Line {
	var out []Line
	for _, l := range t.Lines {
		if l.Player == player {
			out = append(out, l)
		}
	}
	return out
}

// Texts returns the text of the lines of player going in direction dir.
func (t *Transcript) Texts(player int, dir Dir) []string {
	var out []string
	for _, l := range t.Lines {
		if l.Player == player && l.Dir == dir {
			out = append(out, l.Text)
		}
	}
	return out
}

// Format renders t in the golden format (Parse(Format(t)) == t).
func (t *Transcript) Format() []byte {
	var b bytes.Buffer
	for _, c := range t.Comments {
		if c == "" {
			b.WriteString("#\n")
			continue
		}
		fmt.Fprintf(&b, "# %s\n", c)
	}
	for _, m := range t.Meta {
		fmt.Fprintf(&b, "# %s: %s\n", m.Key, m.Value)
	}
	for _, l := range t.Lines {
		b.WriteString(l.String())
		b.WriteByte('\n')
	}
	return b.Bytes()
}
