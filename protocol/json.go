package protocol

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/kaisen-ai/kaisen/game/grid"
)

// member is one key/value pair of a JSON object, in document order.
type member struct {
	key string
	val json.RawMessage
}

// object parses data as exactly one JSON object and returns its members in
// order (values as raw JSON). A duplicate key is a syntax error; what names
// the object in errors.
func object(data []byte, what string) ([]member, error) {
	if !utf8.Valid(data) {
		return nil, fmt.Errorf("%w: %s is not valid UTF-8", ErrSyntax, what)
	}
	if ok, err := validJSON(data); !ok {
		if err != nil {
			return nil, fmt.Errorf("%w: %s is %v", ErrSyntax, what, err)
		}
		if kindOf(data) == 0 {
			return nil, fmt.Errorf("%w: %s is empty", ErrSyntax, what)
		}
		var v json.RawMessage
		err := json.Unmarshal(data, &v) // for the message only
		if err == nil {
			err = errors.New("not JSON")
		}
		if kindOf(data) == '{' {
			return nil, fmt.Errorf("%w: %s: %v", ErrSyntax, what, err)
		}
		return nil, fmt.Errorf("%w: %s is not JSON: %v", ErrSyntax, what, err)
	}
	return members(data, what)
}

// members is object for data known to be valid JSON (a value taken from a
// validated line): the scan only finds the extents.
func members(data []byte, what string) ([]member, error) {
	i := skipSpace(data, 0)
	if i == len(data) || data[i] != '{' {
		return nil, fmt.Errorf("%w: %s must be a JSON object, got %s", ErrType, what, describe(data))
	}
	var ms []member
	i = skipSpace(data, i+1)
	for data[i] != '}' {
		end := skipString(data, i)
		key, err := unquote(data[i:end])
		if err != nil {
			return nil, fmt.Errorf("%w: %s: %v", ErrSyntax, what, err)
		}
		i = skipSpace(data, end)
		i = skipSpace(data, i+1) // ':'
		end = skipValue(data, i)
		for _, m := range ms {
			if m.key == key {
				return nil, fmt.Errorf("%w: %s has key %q twice", ErrSyntax, what, key)
			}
		}
		ms = append(ms, member{key: key, val: data[i:end:end]})
		i = skipSpace(data, end)
		if data[i] == ',' {
			i = skipSpace(data, i+1)
		}
	}
	return ms, nil
}

// elements splits the valid JSON array data into its elements.
func elements(data []byte) []json.RawMessage {
	var out []json.RawMessage
	i := skipSpace(data, skipSpace(data, 0)+1)
	for i < len(data) && data[i] != ']' {
		end := skipValue(data, i)
		out = append(out, data[i:end:end])
		i = skipSpace(data, end)
		if i < len(data) && data[i] == ',' {
			i = skipSpace(data, i+1)
		}
	}
	return out
}

func skipSpace(data []byte, i int) int {
	for i < len(data) {
		switch data[i] {
		case ' ', '\t', '\r', '\n':
			i++
		default:
			return i
		}
	}
	return i
}

// skipString returns the index after the string starting at data[i] == '"'.
func skipString(data []byte, i int) int {
	for i++; i < len(data); i++ {
		switch data[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return i
}

// skipValue returns the index after the valid JSON value starting at data[i].
func skipValue(data []byte, i int) int {
	switch data[i] {
	case '"':
		return skipString(data, i)
	case '{', '[':
		depth := 0
		for i < len(data) {
			switch data[i] {
			case '"':
				i = skipString(data, i)
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1
				}
			}
			i++
		}
		return i
	default: // number, true, false, null
		for i < len(data) {
			switch data[i] {
			case ',', '}', ']', ' ', '\t', '\r', '\n':
				return i
			}
			i++
		}
		return i
	}
}

// unquote decodes a valid JSON string literal.
func unquote(lit []byte) (string, error) {
	if bytes.IndexByte(lit, '\\') < 0 {
		return string(lit[1 : len(lit)-1]), nil
	}
	var s string
	err := json.Unmarshal(lit, &s)
	return s, err
}

// lookup returns the value of key in ms.
func lookup(ms []member, key string) (json.RawMessage, bool) {
	for _, m := range ms {
		if m.key == key {
			return m.val, true
		}
	}
	return nil, false
}

// kindOf returns the first non-space byte of a JSON value: '{', '[', '"',
// 't', 'f', 'n', or a digit or '-' for numbers; 0 when data is blank.
func kindOf(data []byte) byte {
	for _, c := range data {
		switch c {
		case ' ', '\t', '\r', '\n':
			continue
		}
		return c
	}
	return 0
}

// describe names a JSON value for an error message: its text when short.
func describe(raw []byte) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) > 40 {
		return string(raw[:37]) + "..."
	}
	return string(raw)
}

// offBoard is the coordinate given to integers too large for an int32: it
// is off every board. Error messages show such an integer as sent
// (describe), never as offBoard.
const offBoard = math.MinInt32

// integer parses raw as a JSON integer literal (no fraction, no exponent).
// Integers that do not fit an int32 become offBoard.
func integer(raw json.RawMessage, what string) (int, error) {
	s := bytes.TrimSpace(raw)
	if !isIntLiteral(s) {
		return 0, fmt.Errorf("%w: %s must be an integer, got %s", ErrType, what, describe(raw))
	}
	v, err := strconv.ParseInt(string(s), 10, 32)
	if err != nil { // out of range: a valid integer, just far off the board
		return offBoard, nil
	}
	return int(v), nil
}

func isIntLiteral(s []byte) bool {
	if len(s) > 0 && s[0] == '-' {
		s = s[1:]
	}
	if len(s) == 0 || (s[0] == '0' && len(s) > 1) {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// array parses raw as a JSON array.
func array(raw json.RawMessage, what string) ([]json.RawMessage, error) {
	if kindOf(raw) != '[' {
		return nil, fmt.Errorf("%w: %s must be an array, got %s", ErrType, what, describe(raw))
	}
	return elements(raw), nil
}

// pair parses raw as a two-integer array [a, b].
func pair(raw json.RawMessage, what string) (a, b int, err error) {
	if kindOf(raw) != '[' {
		return 0, 0, fmt.Errorf("%w: %s must be [x, y] with two integers, got %s", ErrType, what, describe(raw))
	}
	elems, err := array(raw, what)
	if err != nil {
		return 0, 0, err
	}
	if len(elems) != 2 {
		return 0, 0, fmt.Errorf("%w: %s must be [x, y] with two integers, got %d elements", ErrType, what, len(elems))
	}
	if a, err = integer(elems[0], what+"[0]"); err != nil {
		return 0, 0, err
	}
	if b, err = integer(elems[1], what+"[1]"); err != nil {
		return 0, 0, err
	}
	return a, b, nil
}

// position parses raw as [x, y] and returns the cell, or grid.None when the
// integers are off the board (rocks count as on the board).
func position(raw json.RawMessage, b *grid.Board, what string) (grid.Cell, error) {
	x, y, err := pair(raw, what)
	if err != nil {
		return grid.None, err
	}
	c, ok := b.At(x, y)
	if !ok {
		return grid.None, nil
	}
	return c, nil
}

// str parses raw as a JSON string.
func str(raw json.RawMessage, what string) (string, error) {
	if kindOf(raw) != '"' {
		return "", fmt.Errorf("%w: %s must be a string, got %s", ErrType, what, describe(raw))
	}
	s, err := unquote(bytes.TrimSpace(raw))
	if err != nil {
		return "", fmt.Errorf("%w: %s: %v", ErrSyntax, what, err)
	}
	return s, nil
}

// boolean parses raw as true or false.
func boolean(raw json.RawMessage, what string) (bool, error) {
	switch string(bytes.TrimSpace(raw)) {
	case "true":
		return true, nil
	case "false":
		return false, nil
	}
	return false, fmt.Errorf("%w: %s must be true or false, got %s", ErrType, what, describe(raw))
}

// writer builds one line of JSON in a dialect's spacing.
type writer struct {
	py bool
	b  []byte
}

func newWriter(d Dialect, capacity int) *writer {
	return &writer{py: d.py(), b: make([]byte, 0, capacity)}
}

func (w *writer) raw(s string) { w.b = append(w.b, s...) }
func (w *writer) byte(c byte)  { w.b = append(w.b, c) }

// comma separates two values: "," or ", ".
func (w *writer) comma() {
	if w.py {
		w.b = append(w.b, ", "...)
	} else {
		w.b = append(w.b, ',')
	}
}

// key writes "k": (or "k": with a space in the py dialect).
func (w *writer) key(k string) {
	w.str(k)
	if w.py {
		w.b = append(w.b, ": "...)
	} else {
		w.b = append(w.b, ':')
	}
}

func (w *writer) int(v int) { w.b = strconv.AppendInt(w.b, int64(v), 10) }

// pair writes [a,b] or [a, b].
func (w *writer) pair(a, b int) {
	w.byte('[')
	w.int(a)
	w.comma()
	w.int(b)
	w.byte(']')
}

// cell writes the [x, y] position of c; an off-board cell is written [-1, -1].
func (w *writer) cell(b *grid.Board, c grid.Cell) {
	if c < 0 || int(c) >= b.Size() {
		w.pair(-1, -1)
		return
	}
	x, y := b.XY(c)
	w.pair(x, y)
}

// str writes a JSON string. Like Ruby's to_json the classic dialect keeps
// non-ASCII text as UTF-8; like Python's json.dumps the py dialect escapes it
// as \uXXXX. Invalid UTF-8 is written as U+FFFD.
func (w *writer) str(s string) {
	const hex = "0123456789abcdef"
	w.byte('"')
	for _, r := range s {
		switch {
		case r == '"':
			w.raw(`\"`)
		case r == '\\':
			w.raw(`\\`)
		case r == '\n':
			w.raw(`\n`)
		case r == '\r':
			w.raw(`\r`)
		case r == '\t':
			w.raw(`\t`)
		case r == '\b':
			w.raw(`\b`)
		case r == '\f':
			w.raw(`\f`)
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
	w.byte('"')
}
