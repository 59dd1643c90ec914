package gamelog

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/kaisen-ai/kaisen/arena"
	"github.com/kaisen-ai/kaisen/replay"
)

// Format is the version of the file format this package writes.
const Format = 1

// Errors of a file that is not a games file or not the run asked for.
var (
	// ErrNotGames: the file does not start with a games header.
	ErrNotGames = errors.New("gamelog: not a games file")
	// ErrTorn: the file ends inside a game (a run that was killed).
	ErrTorn = errors.New("gamelog: the last game is cut short")
	// ErrOtherRun: Resume was asked to resume another run than the file's.
	ErrOtherRun = errors.New("gamelog: the file records another run")
)

// header is the file's first line.
type header struct {
	Type   string          `json:"type"`
	Format int             `json:"format"`
	Run    json.RawMessage `json:"run"`
}

// Result is a game's outcome as the arena counts it (arena.GameResult
// without its audit).
type Result struct {
	Index   int     `json:"index"` // the game's number in its match
	Seed    uint64  `json:"seed"`
	P1Seat  int     `json:"p1_seat"`
	Winner  int     `json:"winner"` // -1 on a draw
	Actions int     `json:"actions"`
	Shots   [2]int  `json:"shots"`
	Forfeit [2]bool `json:"forfeit"`
	Reason  string  `json:"reason,omitempty"`
	// Adjudicated is why a research run ended the game as a draw
	// (arena.GameResult.Adjudicated), absent when it did not.
	Adjudicated string `json:"adjudicated,omitempty"`
}

// ResultOf is r's Result.
func ResultOf(r *arena.GameResult) Result {
	return Result{Index: r.Index, Seed: r.Seed, P1Seat: r.P1Seat, Winner: r.Winner, Actions: r.Actions,
		Shots: r.Shots, Forfeit: r.Forfeit, Reason: r.Reason, Adjudicated: r.Adjudicated}
}

// Arena is the result as an arena.GameResult.
func (r Result) Arena() arena.GameResult {
	return arena.GameResult{Index: r.Index, Seed: r.Seed, P1Seat: r.P1Seat, Winner: r.Winner, Actions: r.Actions,
		Shots: r.Shots, Forfeit: r.Forfeit, Reason: r.Reason, Adjudicated: r.Adjudicated}
}

// Game is one game of a run.
type Game struct {
	Type   string `json:"type"`  // "game"
	Index  int    `json:"index"` // the game's number in the run, from 0
	P1     string `json:"p1"`    // the players, as the run names them
	P2     string `json:"p2"`
	Lines  int    `json:"lines"` // lines of the replay that follows
	Result Result `json:"result"`
	// Replay is the game's replay file (Lines lines), when read.
	Replay []byte `json:"-"`
}

// frame is g's frame line.
func (g *Game) frame() ([]byte, error) {
	g.Type = "game"
	b, err := json.Marshal(g)
	if err != nil {
		return nil, fmt.Errorf("gamelog: game %d: %w", g.Index, err)
	}
	return append(b, '\n'), nil
}

// Writer appends games to a games file.
type Writer struct {
	f    *os.File
	next int // index of the next game
}

// Create creates (or empties) the games file at path for the run run (the
// command's settings, any JSON value).
func Create(path string, run any) (*Writer, error) {
	b, err := headerLine(run)
	if err != nil {
		return nil, err
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("gamelog: %w", err)
	}
	if _, err := f.Write(b); err != nil {
		f.Close()
		return nil, fmt.Errorf("gamelog: %w", err)
	}
	return &Writer{f: f}, nil
}

func headerLine(run any) ([]byte, error) {
	raw, err := json.Marshal(run)
	if err != nil {
		return nil, fmt.Errorf("gamelog: run: %w", err)
	}
	b, err := json.Marshal(header{Type: "games", Format: Format, Run: raw})
	if err != nil {
		return nil, fmt.Errorf("gamelog: header: %w", err)
	}
	return append(b, '\n'), nil
}

// Resume opens the games file at path of an interrupted run to go on
// with it: it reads back the complete games (without their replays),
// drops a torn last one, and returns them in order with a Writer that
// appends the next. The file must record run (the same settings as
// JSON), else the error wraps ErrOtherRun; a missing file is created.
func Resume(path string, run any) (*Writer, []Game, error) {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if errors.Is(err, os.ErrNotExist) {
		w, err := Create(path, run)
		return w, nil, err
	}
	if err != nil {
		return nil, nil, fmt.Errorf("gamelog: %w", err)
	}
	want, err := headerLine(run)
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	played, end, err := readBack(f, want)
	if err == nil {
		err = f.Truncate(end)
	}
	if err == nil {
		_, err = f.Seek(end, io.SeekStart)
	}
	if err != nil {
		f.Close()
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	return &Writer{f: f, next: len(played)}, played, nil
}

// readBack reads the games of a file whose header must be want, up to
// the end of the last complete one (end, the offset where the next goes).
func readBack(f io.Reader, want []byte) (played []Game, end int64, err error) {
	r, err := NewReader(f)
	if err != nil {
		return nil, 0, err
	}
	got, err := headerLine(r.Run)
	if err != nil {
		return nil, 0, err
	}
	if !bytes.Equal(normal(got), normal(want)) {
		return nil, 0, fmt.Errorf("%w: it has %s, this run is %s", ErrOtherRun, bytes.TrimSpace(got), bytes.TrimSpace(want))
	}
	end = r.off
	for {
		g, err := r.Next(false)
		if errors.Is(err, io.EOF) || errors.Is(err, ErrTorn) {
			return played, end, nil
		}
		if err != nil {
			return nil, 0, err
		}
		if g.Index != len(played) {
			return nil, 0, fmt.Errorf("gamelog: game %d where game %d was due", g.Index, len(played))
		}
		played = append(played, g)
		end = r.off
	}
}

// normal is a JSON line re-encoded, so that key order and spacing do not
// matter.
func normal(line []byte) []byte {
	var v any
	if json.Unmarshal(line, &v) != nil {
		return line
	}
	b, _ := json.Marshal(v)
	return b
}

// Next is the index of the next game Add takes.
func (w *Writer) Next() int { return w.next }

// Add appends game w.Next(), played by p1 and p2 (the run's names), with
// its result r and replay (a replay file's lines), whole in one write.
func (w *Writer) Add(p1, p2 string, r *arena.GameResult, rep []byte) error {
	if len(rep) > 0 && rep[len(rep)-1] != '\n' {
		rep = append(rep[:len(rep):len(rep)], '\n')
	}
	g := Game{Index: w.next, P1: p1, P2: p2, Lines: bytes.Count(rep, []byte{'\n'}), Result: ResultOf(r)}
	b, err := g.frame()
	if err != nil {
		return err
	}
	if _, err := w.f.Write(append(b, rep...)); err != nil {
		return fmt.Errorf("gamelog: game %d: %w", g.Index, err)
	}
	w.next++
	return nil
}

// Close closes the file.
func (w *Writer) Close() error {
	if err := w.f.Close(); err != nil {
		return fmt.Errorf("gamelog: %w", err)
	}
	return nil
}

// Reader reads a games file game by game.
type Reader struct {
	// Run is the run's settings, as the file's header holds them.
	Run json.RawMessage
	br  *bufio.Reader
	off int64 // bytes read: the end of the last whole line
}

// NewReader reads the header of the games file on r; its error wraps
// ErrNotGames when r holds something else (a single game's replay).
func NewReader(r io.Reader) (*Reader, error) {
	rd := &Reader{br: bufio.NewReaderSize(r, 64<<10)}
	line, err := rd.line()
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNotGames, err) // not io.EOF: a file with no header is no games file
	}
	var h header
	if json.Unmarshal(line, &h) != nil || h.Type != "games" {
		return nil, ErrNotGames
	}
	if h.Format != Format {
		return nil, fmt.Errorf("gamelog: format %d, this kaisen reads %d", h.Format, Format)
	}
	rd.Run = h.Run
	return rd, nil
}

// line reads one whole line (without its newline); a last line without a
// newline is torn (io.EOF at a clean end).
func (r *Reader) line() ([]byte, error) {
	var buf []byte
	for {
		part, err := r.br.ReadSlice('\n')
		buf = append(buf, part...)
		if len(buf) > replay.MaxLine {
			return nil, fmt.Errorf("gamelog: a line over %d bytes", replay.MaxLine)
		}
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF) && len(buf) == 0:
			return nil, io.EOF
		case errors.Is(err, io.EOF):
			return nil, ErrTorn
		case err != nil:
			return nil, fmt.Errorf("gamelog: %w", err)
		}
		r.off += int64(len(buf))
		return buf[:len(buf)-1], nil
	}
}

// Next reads the next game, with its replay when withReplay. At the end
// of the file it returns io.EOF; a game cut short (a killed run) returns
// an error wrapping ErrTorn.
func (r *Reader) Next(withReplay bool) (Game, error) {
	line, err := r.line()
	if err != nil {
		return Game{}, err
	}
	var g Game
	if err := json.Unmarshal(line, &g); err != nil || g.Type != "game" || g.Lines < 0 {
		return Game{}, fmt.Errorf("gamelog: not a game frame: %.80s", line)
	}
	var rep bytes.Buffer
	for i := range g.Lines {
		l, err := r.line()
		if errors.Is(err, io.EOF) {
			return Game{}, fmt.Errorf("%w: game %d has %d of its %d lines", ErrTorn, g.Index, i, g.Lines)
		}
		if err != nil {
			return Game{}, fmt.Errorf("game %d: %w", g.Index, err)
		}
		if !json.Valid(l) {
			return Game{}, fmt.Errorf("gamelog: game %d, line %d: not JSON", g.Index, i+1)
		}
		if withReplay {
			rep.Write(l)
			rep.WriteByte('\n')
		}
	}
	if withReplay {
		g.Replay = rep.Bytes()
	}
	return g, nil
}

// IsFile reports whether the file at path is a games file (its first line
// a games header).
func IsFile(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	_, err = NewReader(f)
	return err == nil
}

// RunOf is the run's settings as the games file at path records them.
func RunOf(path string) (json.RawMessage, error) {
	return replay.ReadFile(path, func(f io.Reader) (json.RawMessage, error) {
		r, err := NewReader(f)
		if err != nil {
			return nil, err
		}
		return r.Run, nil
	})
}
