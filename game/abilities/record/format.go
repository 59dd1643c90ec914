package record

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/kaisen-ai/kaisen/explain"
	"github.com/kaisen-ai/kaisen/game/abilities"
	bsrecord "github.com/kaisen-ai/kaisen/game/battleship/record"
	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/replay"
)

// Name is the "game" of an abilities-variant replay header.
const Name = abilities.Name

// TypeAction is the type of an abilities replay's action lines.
const TypeAction = "action"

// Header is the first line of an abilities replay: the classic
// rules, each seat's side and the rules options.
type Header struct {
	Type    string             `json:"type"`
	Game    string             `json:"game"` // Name
	Version string             `json:"version,omitempty"`
	Seed    uint64             `json:"seed"`
	Match   *replay.MatchRef   `json:"match,omitempty"`
	Rules   bsrecord.Rules     `json:"rules"`
	Sides   [2]string          `json:"sides"` // "ai" or "humans", by seat
	Options abilities.Options  `json:"options"`
	Players [2]replay.SeatInfo `json:"players"`
	First   int                `json:"first"`
	// Adjudication is how the host ended games early (a research run's
	// kaisen match --max-actions); absent: by the rules only.
	Adjudication *replay.Adjudication `json:"adjudication,omitempty"`
}

// Action is one action of an abilities game as the seat played it: kind
// (shoot, move, salvo, reveal, defend), its cells [row, col] and flags,
// and Illegal when the rules refused it (the seat forfeited; it is the
// last action). The answers are not stored: Verify recomputes
// them from the placements.
type Action struct {
	Type    string        `json:"type"` // TypeAction
	N       int           `json:"n"`
	Seat    int           `json:"seat"`
	Kind    string        `json:"kind"`
	At      *bsrecord.RC  `json:"at,omitempty"`
	To      *bsrecord.RC  `json:"to,omitempty"`
	Special bool          `json:"special,omitempty"`
	Cells   []bsrecord.RC `json:"cells,omitempty"`
	Use     bool          `json:"use,omitempty"`
	Illegal bool          `json:"illegal,omitempty"`
	// Cell is the raw index of an off-board At (no At then).
	Cell *int `json:"cell,omitempty"`
	// Decision is the actor's explanation of the action, when recorded
	// (explain.Explainer players, with explanations asked).
	Decision *explain.Decision `json:"decision,omitempty"`
}

// Replay is a whole abilities replay file.
type Replay struct {
	Header     Header
	Placements [2]bsrecord.Placement
	Actions    []Action
	Result     bsrecord.Result
}

// Writer writes an abilities replay line by line (errors are
// sticky; Flush returns the first).
type Writer struct {
	bsrecord.FleetWriter
	rules *abilities.Rules
}

// NewWriter starts a replay of a game under r and writes h (Type,
// Game, Rules, Sides and Options filled in).
func NewWriter(w io.Writer, r *abilities.Rules, h Header) *Writer {
	aw := &Writer{FleetWriter: bsrecord.NewFleetWriter(w, r.Base.Board), rules: r}
	h.Type, h.Game, h.Rules, h.Options = replay.TypeHeader, Name, bsrecord.RulesOf(r.Base), r.Options
	h.Sides = [2]string{r.Sides[0].String(), r.Sides[1].String()}
	if h.Version == "" {
		h.Version = replay.Version()
	}
	aw.Line(h)
	return aw
}

// Action records action number n (from 1) of seat; illegal marks one the
// rules refused, and d, when not nil, is the actor's explanation of it.
func (w *Writer) Action(n, seat int, a abilities.Action, illegal bool, d *explain.Decision) {
	line := EncodeAction(w.rules.Base.Board, n, seat, a, illegal)
	line.Decision = d
	w.Line(line)
}

// EncodeAction is the replay line of an action.
func EncodeAction(b *grid.Board, n, seat int, a abilities.Action, illegal bool) Action {
	out := Action{Type: TypeAction, N: n, Seat: seat, Kind: a.Kind.String(), Special: a.Special, Use: a.Use, Illegal: illegal}
	inside := func(c grid.Cell) bool { return c >= 0 && int(c) < b.Size() }
	switch a.Kind {
	case abilities.Shoot, abilities.Move, abilities.Salvo:
		if inside(a.At) {
			at := bsrecord.RCOf(b, a.At)
			out.At = &at
		} else {
			c := int(a.At)
			out.Cell = &c
		}
		if a.Kind != abilities.Shoot && inside(a.To) {
			to := bsrecord.RCOf(b, a.To)
			out.To = &to
		}
	case abilities.Reveal:
		for _, c := range a.Cells {
			if inside(c) {
				out.Cells = append(out.Cells, bsrecord.RCOf(b, c))
			}
		}
	}
	return out
}

// decode is the action a line records.
func (a Action) decode(b *grid.Board) (abilities.Action, error) {
	out := abilities.Action{Special: a.Special, Use: a.Use, At: -1, To: -1}
	k := -1
	for i := range 5 {
		if abilities.Kind(i).String() == a.Kind {
			k = i
		}
	}
	if k < 0 {
		return out, fmt.Errorf("unknown action kind %q", a.Kind)
	}
	out.Kind = abilities.Kind(k)
	var err error
	if a.At != nil {
		if out.At, err = a.At.Cell(b); err != nil {
			return out, err
		}
	} else if a.Cell != nil {
		out.At = grid.Cell(*a.Cell)
	}
	if a.To != nil {
		if out.To, err = a.To.Cell(b); err != nil {
			return out, err
		}
	}
	for _, p := range a.Cells {
		c, err := p.Cell(b)
		if err != nil {
			return out, err
		}
		out.Cells = append(out.Cells, c)
	}
	return out, nil
}

// Rules builds the rules the header records.
func (rp *Replay) Rules() (*abilities.Rules, error) {
	base, err := rp.Header.Rules.Build()
	if err != nil {
		return nil, err
	}
	var sides [2]abilities.Side
	for i, s := range rp.Header.Sides {
		if sides[i], err = abilities.ParseSide(s); err != nil {
			return nil, fmt.Errorf("%w: %w", replay.ErrFormat, err)
		}
	}
	r, err := abilities.NewRules(base, sides[0], sides[1], rp.Header.Options)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", replay.ErrFormat, err)
	}
	return r, nil
}

// Read reads an abilities replay: a header, two placements, the
// actions and a result, every line strict (unknown keys refused).
func Read(r io.Reader) (*Replay, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	rp := &Replay{}
	placed, done := 0, false
	for lineNo := 1; ; lineNo++ {
		line, err := replay.ReadLine(br, lineNo)
		if len(bytes.TrimSpace(line)) > 0 {
			if done {
				return nil, fmt.Errorf("%w: line %d after the result", replay.ErrFormat, lineNo)
			}
			var t struct {
				Type string `json:"type"`
			}
			if err := json.Unmarshal(line, &t); err != nil {
				return nil, fmt.Errorf("%w: line %d: %w", replay.ErrFormat, lineNo, err)
			}
			var into any
			switch {
			case lineNo == 1 && t.Type == replay.TypeHeader:
				into = &rp.Header
			case lineNo == 1:
				return nil, fmt.Errorf("%w: line 1: %q line where the header belongs", replay.ErrFormat, t.Type)
			case t.Type == replay.TypePlacement && placed < 2 && len(rp.Actions) == 0:
				into = &rp.Placements[placed]
				placed++
			case t.Type == TypeAction && placed == 2:
				rp.Actions = append(rp.Actions, Action{})
				into = &rp.Actions[len(rp.Actions)-1]
			case t.Type == replay.TypeResult && placed == 2:
				into, done = &rp.Result, true
			default:
				return nil, fmt.Errorf("%w: line %d: unexpected %q line", replay.ErrFormat, lineNo, t.Type)
			}
			dec := json.NewDecoder(bytes.NewReader(line))
			dec.DisallowUnknownFields()
			if err := dec.Decode(into); err != nil {
				return nil, fmt.Errorf("%w: line %d: %w", replay.ErrFormat, lineNo, err)
			}
		}
		if err != nil {
			if errors.Is(err, io.EOF) {
				break
			}
			return nil, err
		}
	}
	if rp.Header.Game != Name {
		return nil, fmt.Errorf("%w: game %q, want %q", replay.ErrFormat, rp.Header.Game, Name)
	}
	if !done {
		return nil, fmt.Errorf("%w: no result line", replay.ErrFormat)
	}
	return rp, nil
}

// ReadFile reads the abilities replay at path.
func ReadFile(path string) (*Replay, error) {
	return replay.ReadFile(path, Read)
}

// WriteTo writes rp in the replay format (Read's inverse: a file read and
// written back is byte for byte the same when it was written by Writer).
func (rp *Replay) WriteTo(w io.Writer) (int64, error) {
	return replay.WriteReplay(w, rp.Header, rp.Placements, TypeAction, rp.Actions, rp.Result)
}
