package record

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/kaisen-ai/kaisen/replay"
)

// Read parses a whole replay. It checks the structure (a header, the two
// placements in seat order, steps numbered 1, 2, ... and one result line at
// the end; blank lines are ignored) but not the game itself: see Verify.
// Unknown keys are ignored so that newer files stay readable.
func Read(r io.Reader) (*Replay, error) {
	rp := &Replay{}
	stage := 0 // 0 header, 1-2 placements, 3 steps, 4 done
	err := replay.ScanLines(r, func(line []byte) error {
		var probe struct {
			Type string `json:"type"`
		}
		if err := json.Unmarshal(line, &probe); err != nil {
			return err
		}
		want := [...]string{replay.TypeHeader, replay.TypePlacement, replay.TypePlacement, TypeStep, ""}[stage]
		if stage == 3 && probe.Type == replay.TypeResult {
			want = replay.TypeResult
		}
		if probe.Type != want {
			if stage == 4 {
				return fmt.Errorf("%q line after the result", probe.Type)
			}
			return fmt.Errorf("%q line where a %q line belongs", probe.Type, want)
		}
		var err error
		switch probe.Type {
		case replay.TypeHeader:
			if err = json.Unmarshal(line, &rp.Header); err == nil && rp.Header.Game != Name {
				return fmt.Errorf("game %q, want %q", rp.Header.Game, Name)
			}
			stage = 1
		case replay.TypePlacement:
			seat := stage - 1
			if err = json.Unmarshal(line, &rp.Placements[seat]); err == nil && rp.Placements[seat].Seat != seat {
				return fmt.Errorf("placement of seat %d, want seat %d", rp.Placements[seat].Seat, seat)
			}
			stage++
		case TypeStep:
			var st Step
			if err = json.Unmarshal(line, &st); err == nil {
				if st.N != len(rp.Steps)+1 {
					return fmt.Errorf("step %d, want %d", st.N, len(rp.Steps)+1)
				}
				if st.Seat != 0 && st.Seat != 1 {
					return fmt.Errorf("step %d by seat %d", st.N, st.Seat)
				}
				rp.Steps = append(rp.Steps, st)
			}
		case replay.TypeResult:
			err = json.Unmarshal(line, &rp.Result)
			stage = 4
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	if stage != 4 {
		return nil, fmt.Errorf("%w: truncated: no result line", replay.ErrFormat)
	}
	return rp, nil
}

// ReadFile is Read of the file at path.
func ReadFile(path string) (*Replay, error) { return replay.ReadFile(path, Read) }
