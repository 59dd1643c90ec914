package jsonrecord

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	"github.com/kaisen-ai/kaisen/explain"
	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/replay"
)

// TypeAction is the "type" of an action line.
const TypeAction = "action"

// Header is the first line of a file.
type Header struct {
	Type         string               `json:"type"`
	Game         string               `json:"game"`
	Version      string               `json:"version"`
	Seed         uint64               `json:"seed"`
	Match        *replay.MatchRef     `json:"match,omitempty"`
	Rules        json.RawMessage      `json:"rules"`
	Players      [2]replay.SeatInfo   `json:"players"`
	First        int                  `json:"first"`
	Adjudication *replay.Adjudication `json:"adjudication,omitempty"`
}

// Placement is a seat's placement line; Placement is null when the
// seat's player crashed before placing.
type Placement struct {
	Type      string          `json:"type"`
	Seat      int             `json:"seat"`
	Placement json.RawMessage `json:"placement"`
}

// Action is the line of the N-th action (from 1): the action, the rules'
// answer (Step) or, for an action the rules refused, their reason
// (Illegal), and the actor's decision when explanations were asked.
type Action struct {
	Type     string            `json:"type"`
	N        int               `json:"n"`
	Seat     int               `json:"seat"`
	Action   json.RawMessage   `json:"action"`
	Step     json.RawMessage   `json:"step,omitempty"`
	Illegal  string            `json:"illegal,omitempty"`
	Decision *explain.Decision `json:"decision,omitempty"`
}

// Result is the last line: how the game ended.
type Result struct {
	Type        string           `json:"type"`
	Outcome     string           `json:"outcome"` // replay.OutcomeWin, OutcomeDraw or OutcomeAborted
	Winner      int              `json:"winner"`  // the winning seat, -1 on a draw
	Actions     int              `json:"actions"`
	Shots       [2]int           `json:"shots"`
	Forfeits    []replay.Forfeit `json:"forfeits,omitempty"`
	Adjudicated string           `json:"adjudicated,omitempty"`
}

// Replay is a whole file as read.
type Replay struct {
	Header     Header
	Placements [2]Placement
	Actions    []Action
	Result     Result
}

// Read reads a file: the header, both placements, the action lines and
// the result line, each checked for its type and required keys (errors
// wrap replay.ErrFormat).
func Read(r io.Reader) (*Replay, error) {
	rp := &Replay{}
	n := 0
	done := false
	err := replay.ScanLines(r, func(b []byte) error {
		n++
		if done {
			return fmt.Errorf("%w: line %d: a line after the result", replay.ErrFormat, n)
		}
		var head struct {
			Type string `json:"type"`
		}
		if err := json.Unmarshal(b, &head); err != nil {
			return fmt.Errorf("%w: line %d: %w", replay.ErrFormat, n, err)
		}
		want := lineType(n)
		if head.Type == replay.TypeResult && n > 3 {
			want = replay.TypeResult
		}
		if head.Type != want {
			return fmt.Errorf("%w: line %d: type %q, want %q", replay.ErrFormat, n, head.Type, want)
		}
		var err error
		switch want {
		case replay.TypeHeader:
			err = strict(b, &rp.Header)
		case replay.TypePlacement:
			err = strict(b, &rp.Placements[n-2])
			if err == nil && rp.Placements[n-2].Seat != n-2 {
				err = fmt.Errorf("placement of seat %d, want seat %d's", rp.Placements[n-2].Seat, n-2)
			}
		case TypeAction:
			rp.Actions = append(rp.Actions, Action{})
			err = strict(b, &rp.Actions[len(rp.Actions)-1])
		default:
			err, done = strict(b, &rp.Result), true
		}
		if err != nil {
			return fmt.Errorf("%w: line %d: %w", replay.ErrFormat, n, err)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if !done {
		return nil, fmt.Errorf("%w: no result line (%d lines)", replay.ErrFormat, n)
	}
	return rp, nil
}

// ReadFile reads the file at path.
func ReadFile(path string) (*Replay, error) { return replay.ReadFile(path, Read) }

// lineType is the type line n (from 1) has before the result.
func lineType(n int) string {
	switch {
	case n == 1:
		return replay.TypeHeader
	case n <= 3:
		return replay.TypePlacement
	default:
		return TypeAction
	}
}

// strict decodes b into v, refusing keys v does not have.
func strict(b []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	return dec.Decode(v)
}

// Tally is the count of a result line in words, as replay.Codec says it.
func Tally(c game.Count) string { return fmt.Sprintf("%d actions, shots %v", c.Actions, c.Shots) }
