package replay

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
)

// The JSON-lines plumbing shared by the submarine and Battleship replays:
// writing lines through a buffer with a sticky error, and reading them back
// one at a time.

// lineWriter writes JSON lines through a buffer. Errors are sticky: after
// the first failed write every call does nothing and Flush returns that
// error.
type lineWriter struct {
	bw  *bufio.Writer
	enc *json.Encoder
	err error
}

// newLineWriter writes on w through a buffer of size bytes.
func newLineWriter(w io.Writer, size int) lineWriter {
	bw := bufio.NewWriterSize(w, size)
	return lineWriter{bw: bw, enc: json.NewEncoder(bw)}
}

// fail records err, when not nil, as the first error unless one came before.
func (w *lineWriter) fail(err error) {
	if err != nil && w.err == nil {
		w.err = fmt.Errorf("replay: write: %w", err)
	}
}

// write encodes v as one line.
func (w *lineWriter) write(v any) {
	if w.err == nil {
		w.fail(w.enc.Encode(v))
	}
}

// writeRaw writes b, one or more lines already encoded.
func (w *lineWriter) writeRaw(b []byte) {
	if w.err == nil {
		_, err := w.bw.Write(b)
		w.fail(err)
	}
}

// Flush writes any buffered data and returns the first error met.
func (w *lineWriter) Flush() error {
	if w.err == nil {
		w.fail(w.bw.Flush())
	}
	return w.err
}

// writeLines runs emit on a lineWriter over w, flushes it and returns the
// number of bytes written to w (the core of the replays' WriteTo).
func writeLines(w io.Writer, emit func(lw *lineWriter)) (int64, error) {
	cw := &countingWriter{w: w}
	lw := newLineWriter(cw, 4096) // bufio.NewWriter's size
	emit(&lw)
	err := lw.Flush()
	return cw.n, err
}

type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// scanLines calls line with every line of r that is not blank, trimmed of
// the white space around it. An error from line is returned wrapped in
// ErrFormat with the line's number; so is a line longer than MaxLine.
func scanLines(r io.Reader, line func(b []byte) error) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), MaxLine)
	lineNo := 0
	for sc.Scan() {
		lineNo++
		b := bytes.TrimSpace(sc.Bytes())
		if len(b) == 0 {
			continue
		}
		if err := line(b); err != nil {
			return fmt.Errorf("%w: line %d: %w", ErrFormat, lineNo, err)
		}
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return fmt.Errorf("%w: line %d is longer than %d bytes", ErrFormat, lineNo+1, MaxLine)
		}
		return fmt.Errorf("replay: read: %w", err)
	}
	return nil
}

// readFile runs read on the file at path; its errors name the path.
func readFile[T any](path string, read func(io.Reader) (T, error)) (T, error) {
	var zero T
	f, err := os.Open(path)
	if err != nil {
		return zero, fmt.Errorf("replay: %w", err)
	}
	defer f.Close()
	v, err := read(f)
	if err != nil {
		return zero, fmt.Errorf("%s: %w", path, err)
	}
	return v, nil
}
