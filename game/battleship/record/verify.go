package record

import (
	"fmt"
	"slices"
	"strings"

	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/game/battleship"
	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/replay"
)

// Verify re-plays rp through battleship.Game and checks that it
// is exactly what the rules produce from the recorded placements
// (Rerun.Play): each shot is fired on its seat's turn (a hit or kill shoots
// again) and its recorded answer (outcome, the sunk ship's cells, repeat,
// again) is the engine's. replay.ForfeitProtocol (the seat to shoot broke the
// protocol) is a forfeit outside the rules. Errors wrap replay.ErrMismatch (or
// replay.ErrFormat for a replay Read would refuse). Verify
// does not re-run the players.
func Verify(rp *Replay) error { return replay.Verify(rp.rerun()) }

// Rerun is a Battleship replay as replay.Rerun plays it again.
type Rerun = replay.Rerun[*battleship.Game, battleship.Placement, grid.Cell, battleship.Step, Shot]

// rerun is rp ready to be played again through the rules it records.
func (rp *Replay) rerun() (*Rerun, error) {
	r, err := rp.Rules()
	if err != nil {
		return nil, err
	}
	rr := &Rerun{Rules: r, Codec: shotCodec{r}, First: rp.Header.First, Players: rp.Header.Players, Lines: rp.Shots,
		End: Ending(&rp.Result), Protocol: true, Adjudication: rp.Header.Adjudication}
	for s := range 2 {
		if rr.Placements[s], err = rp.Placement(r, s); err != nil {
			return nil, err
		}
	}
	return rr, nil
}

// Ending is what a Battleship-board result line records.
func Ending(res *Result) replay.Ending {
	return replay.Ending{Outcome: res.Outcome, Winner: res.Winner, Count: game.Count{Shots: res.Shots}, Forfeits: res.Forfeits,
		Adjudicated: res.Adjudicated}
}

// Tally is the count of a Battleship-board result line.
func Tally(c game.Count) string { return fmt.Sprintf("shots %v", c.Shots) }

// shotCodec is the Battleship record format of shot lines (Codec).
type shotCodec struct{ r *battleship.Rules }

func (shotCodec) Noun() string { return "shot" }

func (shotCodec) Move(l *Shot) (n, seat int, illegal bool) { return l.N, l.Seat, l.Illegal }

func (shotCodec) Where(l *Shot) string { return " at " + l.where() }

func (c shotCodec) Decode(l *Shot) (grid.Cell, error) { return l.cell(c.r.Board) }

func (c shotCodec) Check(l *Shot, st *battleship.Step, err error) error {
	if want := EncodeShot(c.r, l.N, st, err, nil); !want.sameAnswer(l) {
		return replay.Mismatch("shot %d at %s: recorded %s, the engine says %s", l.N, l.where(), l.answer(), want.answer())
	}
	return nil
}

func (shotCodec) Tally(c game.Count) string { return Tally(c) }

// cell is the cell the shot was fired at.
func (s *Shot) cell(b *grid.Board) (grid.Cell, error) {
	switch {
	case s.At != nil:
		c, err := s.At.Cell(b)
		if err != nil {
			return grid.None, fmt.Errorf("%w: %w", replay.ErrFormat, err)
		}
		return c, nil
	case s.Cell != nil:
		return grid.Cell(*s.Cell), nil
	}
	return grid.None, fmt.Errorf(`%w: shot without "at" or "cell"`, replay.ErrFormat)
}

// where names the cell shot at as recorded.
func (s *Shot) where() string {
	if s.At != nil {
		return s.At.String()
	}
	if s.Cell != nil {
		return fmt.Sprintf("cell %d", *s.Cell)
	}
	return "nowhere"
}

// sameAnswer compares what the engine decides about a shot: where, whether
// legal, outcome, sunk cells, repeat and again.
func (s *Shot) sameAnswer(o *Shot) bool {
	eqAt := (s.At == nil) == (o.At == nil) && (s.At == nil || *s.At == *o.At)
	eqCell := (s.Cell == nil) == (o.Cell == nil) && (s.Cell == nil || *s.Cell == *o.Cell)
	return eqAt && eqCell && s.Illegal == o.Illegal && s.Outcome == o.Outcome &&
		slices.Equal(s.Sunk, o.Sunk) && s.Repeat == o.Repeat && s.Again == o.Again
}

// answer formats the engine-decided part of a shot.
func (s *Shot) answer() string {
	if s.Illegal {
		return "illegal"
	}
	out := s.Outcome
	if len(s.Sunk) > 0 {
		cells := make([]string, len(s.Sunk))
		for i, c := range s.Sunk {
			cells[i] = c.String()
		}
		out += " sunk [" + strings.Join(cells, ",") + "]"
	}
	if s.Repeat {
		out += " repeat"
	}
	if s.Again {
		out += " again"
	}
	return out
}
