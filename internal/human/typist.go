package human

import (
	"bufio"
	"io"

	"github.com/kaisen-ai/kaisen/game"
)

// maxTyped bounds the lines a typist types in one game: a seat that keeps
// refusing its lines reads the end of the input then (and resigns).
const maxTyped = 1 << 16

// NewTypist returns the seat of text whose lines ai types (a scripted
// person, for the tests): ai is told what the seat is told, and each line
// the seat reads is ai's placement (Typed.PlaceLine) or its next action
// (Typed.Line). A line the seat refuses is asked again, and ai acts again.
func NewTypist[P, A, O any](text Text[P, A, O], ai game.Player[P, A, O], out io.Writer) *Person[P, A, O] {
	src := &typist[P, A, O]{ai: ai, text: text}
	return NewPerson[P, A, O](told[P, A, O]{Text: text, ai: ai}, bufio.NewReader(src), out)
}

// told is a typist's Text: it tells the typing AI what it tells the seat.
type told[P, A, O any] struct {
	Text[P, A, O]
	ai game.Player[P, A, O]
}

func (t told[P, A, O]) Tell(o O) string {
	t.ai.Observe(o)
	return t.Text.Tell(o)
}

// typist is the seat's input: one line per read, made when it is read.
type typist[P, A, O any] struct {
	ai     game.Player[P, A, O]
	text   Typed[P, A]
	placed bool
	typed  int
	buf    []byte
}

func (t *typist[P, A, O]) Read(b []byte) (int, error) {
	if len(t.buf) == 0 {
		if t.typed == maxTyped {
			return 0, io.EOF
		}
		t.typed++
		var line string
		if t.placed {
			line = t.text.Line(t.ai.Act())
		} else {
			t.placed = true
			line = t.text.PlaceLine(t.ai.Place())
		}
		t.buf = []byte(line + "\n")
	}
	n := copy(b, t.buf)
	t.buf = t.buf[n:]
	return n, nil
}
