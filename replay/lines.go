package replay

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"reflect"
)

// The JSON-lines plumbing shared by the submarine and Battleship replays:
// writing lines through a buffer with a sticky error, and reading them back
// one at a time.

// LineWriter writes JSON lines through a buffer. Errors are sticky: after
// the first failed write every call does nothing and Flush returns that
// error.
type LineWriter struct {
	bw  *bufio.Writer
	enc *json.Encoder
	err error
}

// NewLineWriter writes on w through a buffer of size bytes.
func NewLineWriter(w io.Writer, size int) LineWriter {
	bw := bufio.NewWriterSize(w, size)
	return LineWriter{bw: bw, enc: json.NewEncoder(bw)}
}

// fail records err, when not nil, as the first error unless one came before.
func (w *LineWriter) Fail(err error) {
	if err != nil && w.err == nil {
		w.err = fmt.Errorf("replay: write: %w", err)
	}
}

// write encodes v as one line.
func (w *LineWriter) Line(v any) {
	if w.err == nil {
		w.Fail(w.enc.Encode(v))
	}
}

// writeRaw writes b, one or more lines already encoded.
func (w *LineWriter) Raw(b []byte) {
	if w.err == nil {
		_, err := w.bw.Write(b)
		w.Fail(err)
	}
}

// Flush writes any buffered data and returns the first error met.
func (w *LineWriter) Flush() error {
	if w.err == nil {
		w.Fail(w.bw.Flush())
	}
	return w.err
}

// WriteReplay writes a whole replay of any game (the WriteTo of every
// game's replay, its reader's inverse): header h, the placements pl, the
// action lines (their type kind) and the result res, each line's "type" set
// as it belongs. Every line type has a string field Type (its "type"). It
// returns the bytes written to w.
func WriteReplay[H, P, L, R any](w io.Writer, h H, pl [2]P, kind string, lines []L, res R) (int64, error) {
	return writeLines(w, func(lw *LineWriter) {
		lw.Line(typed(h, TypeHeader))
		for _, p := range pl {
			lw.Line(typed(p, TypePlacement))
		}
		for _, l := range lines {
			lw.Line(typed(l, kind))
		}
		lw.Line(typed(res, TypeResult))
	})
}

// typed is line v with its Type field set to t.
func typed[T any](v T, t string) T {
	reflect.ValueOf(&v).Elem().FieldByName("Type").SetString(t)
	return v
}

// writeLines runs emit on a LineWriter over w, flushes it and returns the
// number of bytes written to w (the core of the replays' WriteTo).
func writeLines(w io.Writer, emit func(lw *LineWriter)) (int64, error) {
	cw := &countingWriter{w: w}
	lw := NewLineWriter(cw, 4096) // bufio.NewWriter's size
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

// ScanLines calls line with every line of r that is not blank, trimmed of
// the white space around it. An error from line is returned wrapped in
// ErrFormat with the line's number; so is a line longer than MaxLine.
func ScanLines(r io.Reader, line func(b []byte) error) error {
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

// ReadFile runs read on the file at path; its errors name the path.
func ReadFile[T any](path string, read func(io.Reader) (T, error)) (T, error) {
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

// MaxLine is the longest replay line ReadSubmarine (and ReadBattleship) accepts (a step with a long
// Decision is the longest kind).
const MaxLine = 4 << 20

// GameOf reads the first line of a replay that is not blank and returns its
// header's "game": GameSubmarine, GameBattleship or whatever the file says.
// It reads no further, so callers can pick the reader.
func GameOf(r io.Reader) (string, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	for lineNo := 1; ; lineNo++ {
		line, err := ReadLine(br, lineNo)
		if len(bytes.TrimSpace(line)) > 0 {
			var h struct {
				Type string `json:"type"`
				Game string `json:"game"`
			}
			if err := json.Unmarshal(line, &h); err != nil {
				return "", fmt.Errorf("%w: line %d: %w", ErrFormat, lineNo, err)
			}
			if h.Type != TypeHeader {
				return "", fmt.Errorf("%w: line %d: %q line where the header belongs", ErrFormat, lineNo, h.Type)
			}
			return h.Game, nil
		}
		if err != nil {
			if errors.Is(err, io.EOF) {
				return "", fmt.Errorf("%w: empty file", ErrFormat)
			}
			return "", err
		}
	}
}

// ReadLine reads line lineNo, of at most MaxLine bytes (without its
// newline).
func ReadLine(br *bufio.Reader, lineNo int) ([]byte, error) {
	var line []byte
	for {
		chunk, err := br.ReadSlice('\n')
		line = append(line, chunk...)
		if len(line) > MaxLine+1 {
			return nil, fmt.Errorf("%w: line %d is longer than %d bytes", ErrFormat, lineNo, MaxLine)
		}
		switch {
		case err == nil:
			return line[:len(line)-1], nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF):
			return line, io.EOF
		default:
			return nil, fmt.Errorf("replay: read: %w", err)
		}
	}
}

// GameOfFile is GameOf of the file at path.
func GameOfFile(path string) (string, error) { return ReadFile(path, GameOf) }

// Keys of each Battleship line: the required ones, then the optional ones.

// Err is the first error met, nil if none.
func (w *LineWriter) Err() error { return w.err }
