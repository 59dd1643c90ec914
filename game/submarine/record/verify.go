package record

import (
	"fmt"

	"github.com/kaisen-ai/kaisen/adjudicate"
	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/game/submarine"
	"github.com/kaisen-ai/kaisen/replay"
)

// Verify re-plays rp through submarine.Game and checks that it is
// exactly what the engine produces (Rerun.Play): every recorded actor and
// other Event equals the engine's. Verify does not re-run the
// players.
func Verify(rp *Replay) error { return replay.Verify(rp.rerun()) }

// Rerun is a submarine replay as replay.Rerun plays it again.
type Rerun = replay.Rerun[*submarine.Game, submarine.Placement, submarine.Action, submarine.Step, Step]

// rerun is rp ready to be played again through the rules it records.
func (rp *Replay) rerun() (*Rerun, error) {
	r, err := rp.Rules()
	if err != nil {
		return nil, err
	}
	h, res := &rp.Header, &rp.Result
	rr := &Rerun{Rules: r, Codec: subCodec{r}, First: h.First, Players: h.Players, Lines: rp.Steps,
		End: replay.Ending{Outcome: res.Outcome, Winner: res.Winner, Count: game.Count{Actions: res.Actions}, Forfeits: res.Forfeits,
			Adjudicated: res.Adjudicated},
		Adjudication: h.Adjudication}
	for s := range 2 {
		rr.Placements[s] = rp.Placement(r, s)
	}
	if a := h.Adjudication; a != nil && a.Draw > 0 {
		if rr.Judge, err = adjudicate.NewDraw(r, a.Draw); err != nil {
			return nil, fmt.Errorf("%w: %w", replay.ErrFormat, err)
		}
	}
	return rr, nil
}

// subCodec is the submarine record format of step lines (Codec).
type subCodec struct{ r *submarine.Rules }

func (subCodec) Noun() string { return "step" }

func (subCodec) Move(l *Step) (n, seat int, illegal bool) { return l.N, l.Seat, l.Error != "" }

func (subCodec) Where(*Step) string { return "" }

func (c subCodec) Decode(l *Step) (submarine.Action, error) { return l.Action.Decode(c.r) }

func (c subCodec) Check(l *Step, st *submarine.Step, _ error) error {
	if got := EncodeEvent(c.r, st.Actor); !got.Equal(l.Actor) {
		return replay.Mismatch("step %d: actor was told %v, the engine says %v", l.N, l.Actor, got)
	}
	if got := EncodeEvent(c.r, st.Other); !got.Equal(l.Other) {
		return replay.Mismatch("step %d: other side was told %v, the engine says %v", l.N, l.Other, got)
	}
	return nil
}

func (subCodec) Tally(c game.Count) string { return fmt.Sprintf("%d actions", c.Actions) }
