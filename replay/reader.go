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

// MaxLine is the longest replay line Read accepts (a step with a long
// Decision is the longest kind).
const MaxLine = 4 << 20

// Read parses a whole replay. It checks the structure (a header, the two
// placements in seat order, steps numbered 1, 2, ... and one result line at
// the end; blank lines are ignored) but not the game itself: see Verify.
// Unknown keys are ignored so that newer files stay readable.
func Read(r io.Reader) (*Replay, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), MaxLine)
	rp := &Replay{}
	lineNo, stage := 0, 0 // stage: 0 header, 1-2 placements, 3 steps, 4 done
	for sc.Scan() {
		lineNo++
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		var probe struct {
			Type string `json:"type"`
		}
		if err := json.Unmarshal(line, &probe); err != nil {
			return nil, fmt.Errorf("%w: line %d: %w", ErrFormat, lineNo, err)
		}
		bad := func(format string, args ...any) error {
			return fmt.Errorf("%w: line %d: %s", ErrFormat, lineNo, fmt.Sprintf(format, args...))
		}
		want := [...]string{TypeHeader, TypePlacement, TypePlacement, TypeStep, ""}[stage]
		if stage == 3 && probe.Type == TypeResult {
			want = TypeResult
		}
		if probe.Type != want {
			if stage == 4 {
				return nil, bad("%q line after the result", probe.Type)
			}
			return nil, bad("%q line where a %q line belongs", probe.Type, want)
		}
		var err error
		switch probe.Type {
		case TypeHeader:
			if err = json.Unmarshal(line, &rp.Header); err == nil && rp.Header.Game != GameSubmarine {
				return nil, bad("game %q, want %q", rp.Header.Game, GameSubmarine)
			}
			stage = 1
		case TypePlacement:
			seat := stage - 1
			if err = json.Unmarshal(line, &rp.Placements[seat]); err == nil && rp.Placements[seat].Seat != seat {
				return nil, bad("placement of seat %d, want seat %d", rp.Placements[seat].Seat, seat)
			}
			stage++
		case TypeStep:
			var st Step
			if err = json.Unmarshal(line, &st); err == nil {
				if st.N != len(rp.Steps)+1 {
					return nil, bad("step %d, want %d", st.N, len(rp.Steps)+1)
				}
				if st.Seat != 0 && st.Seat != 1 {
					return nil, bad("step %d by seat %d", st.N, st.Seat)
				}
				rp.Steps = append(rp.Steps, st)
			}
		case TypeResult:
			err = json.Unmarshal(line, &rp.Result)
			stage = 4
		}
		if err != nil {
			return nil, fmt.Errorf("%w: line %d: %w", ErrFormat, lineNo, err)
		}
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, fmt.Errorf("%w: line %d is longer than %d bytes", ErrFormat, lineNo+1, MaxLine)
		}
		return nil, fmt.Errorf("replay: read: %w", err)
	}
	if stage != 4 {
		return nil, fmt.Errorf("%w: truncated: no result line", ErrFormat)
	}
	return rp, nil
}

// ReadFile is Read of the file at path.
func ReadFile(path string) (*Replay, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("replay: %w", err)
	}
	defer f.Close()
	rp, err := Read(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return rp, nil
}
