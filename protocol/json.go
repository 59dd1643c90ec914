package protocol

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"unicode/utf8"

	"github.com/kaisen-ai/kaisen/game/grid"
)

// Member is one key/value pair of a JSON object, in document order: the
// key unquoted, the value as raw JSON.
type Member struct {
	Key string
	Val json.RawMessage
}

// Object parses data as exactly one JSON object (a whole line from the
// peer) and returns its members in order (values as raw JSON). Invalid
// UTF-8, invalid JSON, JSON nested deeper than MaxNesting and a duplicate
// key are ErrSyntax; a value other than an object is ErrType. what names
// the object in errors. Every game's decoders start here.
func Object(data []byte, what string) ([]Member, error) {
	if !utf8.Valid(data) {
		return nil, fmt.Errorf("%w: %s is not valid UTF-8", ErrSyntax, what)
	}
	if ok, err := validJSON(data); !ok {
		if err != nil {
			return nil, fmt.Errorf("%w: %s is %v", ErrSyntax, what, err)
		}
		if KindOf(data) == 0 {
			return nil, fmt.Errorf("%w: %s is empty", ErrSyntax, what)
		}
		var v json.RawMessage
		err := json.Unmarshal(data, &v) // for the message only
		if err == nil {
			err = errors.New("not JSON")
		}
		if KindOf(data) == '{' {
			return nil, fmt.Errorf("%w: %s: %v", ErrSyntax, what, err)
		}
		return nil, fmt.Errorf("%w: %s is not JSON: %v", ErrSyntax, what, err)
	}
	return Members(data, what)
}

// Members is Object for data known to be valid JSON (a value taken from a
// line Object validated): the scan only finds the extents.
func Members(data []byte, what string) ([]Member, error) {
	i := skipSpace(data, 0)
	if i == len(data) || data[i] != '{' {
		return nil, fmt.Errorf("%w: %s must be a JSON object, got %s", ErrType, what, Describe(data))
	}
	var ms []Member
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
			if m.Key == key {
				return nil, fmt.Errorf("%w: %s has key %q twice", ErrSyntax, what, key)
			}
		}
		ms = append(ms, Member{Key: key, Val: data[i:end:end]})
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

// Lookup returns the value of key in ms.
func Lookup(ms []Member, key string) (json.RawMessage, bool) {
	for _, m := range ms {
		if m.Key == key {
			return m.Val, true
		}
	}
	return nil, false
}

// Need is Lookup for a key the object what (its name in errors) must
// have: without it, an error wrapping ErrType says that what needs key.
func Need(ms []Member, key, what string) (json.RawMessage, error) {
	if v, ok := Lookup(ms, key); ok {
		return v, nil
	}
	return nil, fmt.Errorf("%w: %s needs %q", ErrType, what, key)
}

// KindOf returns the first non-space byte of a JSON value: '{', '[', '"',
// 't', 'f', 'n', or a digit or '-' for numbers; 0 when data is blank.
func KindOf(data []byte) byte {
	for _, c := range data {
		switch c {
		case ' ', '\t', '\r', '\n':
			continue
		}
		return c
	}
	return 0
}

// Describe names a JSON value for an error message: its text when short.
func Describe(raw []byte) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) > 40 {
		return string(raw[:37]) + "..."
	}
	return string(raw)
}

// offBoard is the coordinate given to integers too large for an int32: it
// is off every board. Error messages show such an integer as sent
// (Describe), never as offBoard.
const offBoard = math.MinInt32

// Integer parses raw as a JSON integer literal (no fraction, no exponent:
// 1.0, 1e0 and "1" are ErrType). Integers that do not fit an int32 become
// math.MinInt32, a coordinate off every board.
func Integer(raw json.RawMessage, what string) (int, error) {
	s := bytes.TrimSpace(raw)
	if !isIntLiteral(s) {
		return 0, fmt.Errorf("%w: %s must be an integer, got %s", ErrType, what, Describe(raw))
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

// Array parses raw as a JSON array.
func Array(raw json.RawMessage, what string) ([]json.RawMessage, error) {
	if KindOf(raw) != '[' {
		return nil, fmt.Errorf("%w: %s must be an array, got %s", ErrType, what, Describe(raw))
	}
	return elements(raw), nil
}

// Pair parses raw as a two-integer array [a, b].
func Pair(raw json.RawMessage, what string) (a, b int, err error) {
	if KindOf(raw) != '[' {
		return 0, 0, fmt.Errorf("%w: %s must be [x, y] with two integers, got %s", ErrType, what, Describe(raw))
	}
	elems, err := Array(raw, what)
	if err != nil {
		return 0, 0, err
	}
	if len(elems) != 2 {
		return 0, 0, fmt.Errorf("%w: %s must be [x, y] with two integers, got %d elements", ErrType, what, len(elems))
	}
	if a, err = Integer(elems[0], what+"[0]"); err != nil {
		return 0, 0, err
	}
	if b, err = Integer(elems[1], what+"[1]"); err != nil {
		return 0, 0, err
	}
	return a, b, nil
}

// Position parses raw as [x, y] (x the column, the submarine game's order)
// and returns the cell, or grid.None when the integers are off the board
// (rocks count as on the board).
func Position(raw json.RawMessage, b *grid.Board, what string) (grid.Cell, error) {
	x, y, err := Pair(raw, what)
	if err != nil {
		return grid.None, err
	}
	c, ok := b.At(x, y)
	if !ok {
		return grid.None, nil
	}
	return c, nil
}

// RowCol parses raw as [row, col] (row first, the order of the Battleship
// codecs) and returns the cell, or grid.None when the integers are off the
// board (rocks count as on the board).
func RowCol(raw json.RawMessage, b *grid.Board, what string) (grid.Cell, error) {
	row, col, err := Pair(raw, what)
	if err != nil {
		return grid.None, err
	}
	c, ok := b.At(col, row)
	if !ok {
		return grid.None, nil
	}
	return c, nil
}

// Str parses raw as a JSON string.
func Str(raw json.RawMessage, what string) (string, error) {
	if KindOf(raw) != '"' {
		return "", fmt.Errorf("%w: %s must be a string, got %s", ErrType, what, Describe(raw))
	}
	s, err := unquote(bytes.TrimSpace(raw))
	if err != nil {
		return "", fmt.Errorf("%w: %s: %v", ErrSyntax, what, err)
	}
	return s, nil
}

// Boolean parses raw as true or false.
func Boolean(raw json.RawMessage, what string) (bool, error) {
	switch string(bytes.TrimSpace(raw)) {
	case "true":
		return true, nil
	case "false":
		return false, nil
	}
	return false, fmt.Errorf("%w: %s must be true or false, got %s", ErrType, what, Describe(raw))
}
