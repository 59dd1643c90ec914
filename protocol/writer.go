package protocol

import (
	"strconv"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/kaisen-ai/kaisen/game/grid"
)

// Writer builds one line of JSON in a dialect's spacing: compact (classic,
// as the reference Ruby server prints it) or Python json.dumps spacing
// (submarine-py: ", " and ": "). The games' encoders write their keys in
// their own order with it and return Bytes.
type Writer struct {
	py bool
	b  []byte
}

// NewWriter returns an empty Writer in d's spacing with room for capacity
// bytes.
func NewWriter(d Dialect, capacity int) *Writer {
	return &Writer{py: d.py(), b: make([]byte, 0, capacity)}
}

// Bytes is the line written so far (without "\n"); it aliases the
// Writer's buffer.
func (w *Writer) Bytes() []byte { return w.b }

// Raw writes s as it is.
func (w *Writer) Raw(s string) { w.b = append(w.b, s...) }

// Byte writes c.
func (w *Writer) Byte(c byte) { w.b = append(w.b, c) }

// Comma separates two values: "," or ", ".
func (w *Writer) Comma() {
	if w.py {
		w.b = append(w.b, ", "...)
	} else {
		w.b = append(w.b, ',')
	}
}

// Key writes "k": (or "k": with a space in the py dialect).
func (w *Writer) Key(k string) {
	w.Str(k)
	if w.py {
		w.b = append(w.b, ": "...)
	} else {
		w.b = append(w.b, ':')
	}
}

// Int writes v in decimal.
func (w *Writer) Int(v int) { w.b = strconv.AppendInt(w.b, int64(v), 10) }

// Pair writes [a,b] or [a, b].
func (w *Writer) Pair(a, b int) {
	w.Byte('[')
	w.Int(a)
	w.Comma()
	w.Int(b)
	w.Byte(']')
}

// Cell writes the [x, y] position of c (the order Position reads); an
// off-board cell is written [-1, -1].
func (w *Writer) Cell(b *grid.Board, c grid.Cell) {
	if c < 0 || int(c) >= b.Size() {
		w.Pair(-1, -1)
		return
	}
	x, y := b.XY(c)
	w.Pair(x, y)
}

// RowCol writes the [row, col] position of c (the order RowCol reads); an
// off-board cell is written [-1,-1].
func (w *Writer) RowCol(b *grid.Board, c grid.Cell) {
	if c < 0 || int(c) >= b.Size() {
		w.Pair(-1, -1)
		return
	}
	x, y := b.XY(c)
	w.Pair(y, x)
}

// RowCols writes cells as [[r,c],...].
func (w *Writer) RowCols(b *grid.Board, cells []grid.Cell) {
	w.Byte('[')
	for k, c := range cells {
		if k > 0 {
			w.Byte(',')
		}
		w.RowCol(b, c)
	}
	w.Byte(']')
}

// Outcome writes ,"outcome":true for Won and ,"outcome":false for Lost
// (compact spacing; nothing for NoOutcome).
func (w *Writer) Outcome(outcome int) {
	switch outcome {
	case Won:
		w.Raw(`,"outcome":true`)
	case Lost:
		w.Raw(`,"outcome":false`)
	}
}

// Str writes s as a JSON string. Like Ruby's to_json the classic dialect keeps
// non-ASCII text as UTF-8; like Python's json.dumps the py dialect escapes it
// as \uXXXX. Invalid UTF-8 is written as U+FFFD.
func (w *Writer) Str(s string) {
	const hex = "0123456789abcdef"
	w.Byte('"')
	for _, r := range s {
		switch {
		case r == '"':
			w.Raw(`\"`)
		case r == '\\':
			w.Raw(`\\`)
		case r == '\n':
			w.Raw(`\n`)
		case r == '\r':
			w.Raw(`\r`)
		case r == '\t':
			w.Raw(`\t`)
		case r == '\b':
			w.Raw(`\b`)
		case r == '\f':
			w.Raw(`\f`)
		case r < 0x20 || (w.py && r >= 0x7f):
			var units [2]uint16
			n := 1
			if r >= 0x10000 {
				r1, r2 := utf16.EncodeRune(r)
				units[0], units[1], n = uint16(r1), uint16(r2), 2
			} else {
				units[0] = uint16(r)
			}
			for _, u := range units[:n] {
				w.b = append(w.b, '\\', 'u', hex[u>>12&15], hex[u>>8&15], hex[u>>4&15], hex[u&15])
			}
		default:
			w.b = utf8.AppendRune(w.b, r)
		}
	}
	w.Byte('"')
}
