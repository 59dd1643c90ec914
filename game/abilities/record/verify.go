package record

import (
	"fmt"

	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/game/abilities"
	"github.com/kaisen-ai/kaisen/game/battleship"
	bsrecord "github.com/kaisen-ai/kaisen/game/battleship/record"
	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/replay"
)

// replayed is a replay played again through the rules.
type replayed struct {
	rules *abilities.Rules
	game  *abilities.Game // nil when a placement was invalid
	steps []abilities.Step
	lines []*Action // the line of each step
}

// Verify plays the replay again through the rules (Rerun.Play):
// every action must be by the seat to act and legal (an illegal one only
// as the last, marked illegal), and the result must be what the rules give.
func Verify(rp *Replay) error {
	_, err := rp.replay(nil)
	return err
}

// Rerun is an abilities replay as replay.Rerun plays it again.
type Rerun = replay.Rerun[*abilities.Game, battleship.Placement, abilities.Action, abilities.Step, Action]

// rerun is rp ready to be played again through the rules it records.
func (rp *Replay) rerun() (*Rerun, error) {
	r, err := rp.Rules()
	if err != nil {
		return nil, err
	}
	h := &rp.Header
	rr := &Rerun{Rules: r, Codec: abCodec{r.Base.Board}, First: h.First, Players: h.Players, Lines: rp.Actions,
		End: bsrecord.Ending(&rp.Result), Protocol: true, Adjudication: h.Adjudication}
	for s, p := range rp.Placements {
		if p.Seat != s {
			return nil, fmt.Errorf("%w: placement %d is seat %d's", replay.ErrMismatch, s, p.Seat)
		}
		if rr.Placements[s], err = bsrecord.DecodeFleet(r.Base.Board, s, p.Ships); err != nil {
			return nil, fmt.Errorf("%w: %w", replay.ErrFormat, err)
		}
	}
	return rr, nil
}

// replay plays the replay again; visit, when set, sees the game after
// every legal action, its line and step (and once at the start, with nil
// ones).
func (rp *Replay) replay(visit func(g *abilities.Game, l *Action, st *abilities.Step)) (*replayed, error) {
	rr, err := rp.rerun()
	if err != nil {
		return nil, err
	}
	out := &replayed{rules: rr.Rules.(*abilities.Rules)}
	err = rr.Play(func(g *abilities.Game, l *Action, st *abilities.Step, err error) {
		out.game = g
		if err != nil {
			return
		}
		if st != nil {
			out.steps = append(out.steps, *st)
			out.lines = append(out.lines, l)
		}
		if visit != nil {
			visit(g, l, st)
		}
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// abCodec is the abilities record format of action lines (Codec).
type abCodec struct{ b *grid.Board }

func (abCodec) Noun() string { return "action" }

func (abCodec) Move(l *Action) (n, seat int, illegal bool) { return l.N, l.Seat, l.Illegal }

func (abCodec) Where(*Action) string { return "" }

func (c abCodec) Decode(l *Action) (abilities.Action, error) {
	a, err := l.decode(c.b)
	if err != nil {
		return a, fmt.Errorf("%w: %w", replay.ErrFormat, err)
	}
	return a, nil
}

// Check has nothing to compare: an action line records no answer.
func (abCodec) Check(*Action, *abilities.Step, error) error { return nil }

func (abCodec) Tally(c game.Count) string { return bsrecord.Tally(c) }
