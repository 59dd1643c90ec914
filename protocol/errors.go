package protocol

import (
	"errors"
	"fmt"
	"unicode/utf8"
)

// Sentinel errors wrapped by *ProtocolError; match them with errors.Is.
var (
	// ErrSyntax: the line is not one JSON object (or not valid UTF-8, or has a
	// duplicate key).
	ErrSyntax = errors.New("protocol: invalid JSON")
	// ErrType: a value has the wrong type or shape (a float or a string where
	// an integer belongs, a position without exactly two elements, a missing
	// required key).
	ErrType = errors.New("protocol: wrong type")
	// ErrUnknownShip: a ship name that the fleet does not have.
	ErrUnknownShip = errors.New("protocol: unknown ship")
	// ErrFleet: a placement or a reported fleet that breaks the rules (a ship
	// missing or twice, two ships on one cell, a ship off the board or on a rock).
	ErrFleet = errors.New("protocol: invalid fleet")
	// ErrUnexpected: a line that is not what the protocol allows at this point.
	ErrUnexpected = errors.New("protocol: unexpected line")
	// ErrLineTooLong: a line longer than the reader's limit.
	ErrLineTooLong = errors.New("protocol: line too long")
)

// MaxQuote is the number of bytes of the offending line a ProtocolError keeps.
const MaxQuote = 120

// ProtocolError reports a malformed line from the peer. Line holds the line
// (at most its first MaxQuote bytes), Len the full length of the line.
type ProtocolError struct {
	Line string
	Len  int
	Err  error
}

// NewProtocolError returns a *ProtocolError for line, keeping at most
// MaxQuote bytes of it (cut on a rune boundary when the line is valid UTF-8).
func NewProtocolError(line []byte, err error) *ProtocolError {
	return &ProtocolError{Line: quotePrefix(line), Len: len(line), Err: err}
}

func quotePrefix(line []byte) string {
	if len(line) <= MaxQuote {
		return string(line)
	}
	cut := MaxQuote
	if utf8.Valid(line) {
		for cut > 0 && !utf8.RuneStart(line[cut]) {
			cut--
		}
	}
	return string(line[:cut])
}

func (e *ProtocolError) Error() string {
	if e.Len > len(e.Line) {
		return fmt.Sprintf("%v: in line %q... (%d bytes, first %d shown)", e.Err, e.Line, e.Len, len(e.Line))
	}
	return fmt.Sprintf("%v: in line %q", e.Err, e.Line)
}

func (e *ProtocolError) Unwrap() error { return e.Err }

// Wrap turns a decoding error into a *ProtocolError quoting line.
func Wrap(line []byte, err error) error {
	if err == nil {
		return nil
	}
	return NewProtocolError(line, err)
}
