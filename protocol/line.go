package protocol

import (
	"bufio"
	"errors"
	"fmt"
	"io"
)

// DefaultMaxLine is the line limit NewLineReader uses for max <= 0. The
// longest legal line of the default game is under 300 bytes.
const DefaultMaxLine = 16 << 10

// LineReader reads "\n"-terminated lines (a "\r" before the "\n" is dropped)
// with a maximum length. It buffers at most max+2 bytes of a line: an
// over-long line yields a *ProtocolError wrapping ErrLineTooLong as soon as
// the limit is passed, and the rest of that line is discarded by the next
// ReadLine, which then returns the line after it.
type LineReader struct {
	r    *bufio.Reader
	max  int
	skip bool // the rest of an over-long line is still to be discarded
}

// NewLineReader reads lines of at most limit bytes (without terminator) from
// r; limit <= 0 means DefaultMaxLine.
func NewLineReader(r io.Reader, limit int) *LineReader {
	if limit <= 0 {
		limit = DefaultMaxLine
	}
	size := max(min(limit+2, 64<<10), 16)
	return &LineReader{r: bufio.NewReaderSize(r, size), max: limit}
}

// Buffered is the number of bytes read from the underlying reader but not
// yet returned.
func (l *LineReader) Buffered() int { return l.r.Buffered() }

// ReadLine returns the next line without its "\n" or "\r\n", as a new slice.
// A last line without "\n" is returned as is; after it ReadLine returns
// io.EOF. Read errors of the underlying reader are returned unchanged.
func (l *LineReader) ReadLine() ([]byte, error) {
	if l.skip {
		if err := l.discard(); err != nil {
			return nil, err
		}
	}
	var line []byte
	for {
		frag, err := l.r.ReadSlice('\n')
		switch {
		case err == nil:
			line = append(line, frag[:len(frag)-1]...)
			line = trimCR(line)
			if len(line) > l.max {
				return nil, l.tooLong(line)
			}
			return line, nil
		case errors.Is(err, bufio.ErrBufferFull):
			line = append(line, frag...)
			// Even if the next byte is "\n" and the last one "\r", the line
			// is longer than max.
			if len(line) > l.max+1 {
				l.skip = true
				return nil, l.tooLong(line)
			}
		case errors.Is(err, io.EOF):
			line = append(line, frag...)
			if len(line) == 0 {
				return nil, io.EOF
			}
			line = trimCR(line)
			if len(line) > l.max {
				return nil, l.tooLong(line)
			}
			return line, nil
		default:
			return nil, err
		}
	}
}

func (l *LineReader) tooLong(line []byte) error {
	return NewProtocolError(line, fmt.Errorf("%w: more than %d bytes", ErrLineTooLong, l.max))
}

// discard drops input up to and including the next "\n".
func (l *LineReader) discard() error {
	for {
		_, err := l.r.ReadSlice('\n')
		if err == nil {
			l.skip = false
			return nil
		}
		if !errors.Is(err, bufio.ErrBufferFull) {
			return err
		}
	}
}

func trimCR(b []byte) []byte {
	if n := len(b); n > 0 && b[n-1] == '\r' {
		return b[:n-1]
	}
	return b
}
