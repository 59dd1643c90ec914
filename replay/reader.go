package replay

import (
	"encoding/json"
	"fmt"
	"io"
)

// MaxLine is the longest replay line ReadSubmarine (and ReadBattleship) accepts (a step with a long
// Decision is the longest kind).
const MaxLine = 4 << 20

// ReadSubmarine parses a whole replay. It checks the structure (a header, the two
// placements in seat order, steps numbered 1, 2, ... and one result line at
// the end; blank lines are ignored) but not the game itself: see VerifySubmarine.
// Unknown keys are ignored so that newer files stay readable.
func ReadSubmarine(r io.Reader) (*SubmarineReplay, error) {
	rp := &SubmarineReplay{}
	stage := 0 // 0 header, 1-2 placements, 3 steps, 4 done
	err := scanLines(r, func(line []byte) error {
		var probe struct {
			Type string `json:"type"`
		}
		if err := json.Unmarshal(line, &probe); err != nil {
			return err
		}
		want := [...]string{TypeHeader, TypePlacement, TypePlacement, TypeStep, ""}[stage]
		if stage == 3 && probe.Type == TypeResult {
			want = TypeResult
		}
		if probe.Type != want {
			if stage == 4 {
				return fmt.Errorf("%q line after the result", probe.Type)
			}
			return fmt.Errorf("%q line where a %q line belongs", probe.Type, want)
		}
		var err error
		switch probe.Type {
		case TypeHeader:
			if err = json.Unmarshal(line, &rp.Header); err == nil && rp.Header.Game != GameSubmarine {
				return fmt.Errorf("game %q, want %q", rp.Header.Game, GameSubmarine)
			}
			stage = 1
		case TypePlacement:
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
		case TypeResult:
			err = json.Unmarshal(line, &rp.Result)
			stage = 4
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	if stage != 4 {
		return nil, fmt.Errorf("%w: truncated: no result line", ErrFormat)
	}
	return rp, nil
}

// ReadSubmarineFile is ReadSubmarine of the file at path.
func ReadSubmarineFile(path string) (*SubmarineReplay, error) { return readFile(path, ReadSubmarine) }
