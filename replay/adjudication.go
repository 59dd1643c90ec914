package replay

import (
	"errors"
	"fmt"

	"github.com/kaisen-ai/kaisen/game"
)

// Adjudication is how a research run ends games early (kaisen match
// --adjudicate, --max-actions), as a replay header records it; the zero
// value adjudicates nothing. The served rules never adjudicate: a replay
// without it ends by the rules or a forfeit only.
type Adjudication struct {
	// Draw is K: a running game is adjudicated a draw (AdjudicatedDraw)
	// after an action that leaves both fleets common knowledge and a
	// position the exact endgame solver values drawn, when none of the
	// last K actions hit a ship (submarine only); 0: off.
	Draw int `json:"draw,omitempty"`
	// MaxActions is a cap on actions: a game still running after that many
	// is adjudicated a draw (AdjudicatedCap), distinct from the rules' own
	// draw limit; 0: no cap.
	MaxActions int `json:"max_actions,omitempty"`
}

// The reasons of an adjudicated game (a result line's "adjudicated").
const (
	AdjudicatedCap  = "cap"         // Adjudication.MaxActions reached
	AdjudicatedDraw = "solver draw" // Adjudication.Draw: a known position the solver values drawn
)

// ErrAdjudication is wrapped by the errors of invalid adjudication
// settings.
var ErrAdjudication = errors.New("replay: invalid adjudication")

// On reports whether a adjudicates anything (a nil a does not).
func (a *Adjudication) On() bool { return a != nil && (a.Draw > 0 || a.MaxActions > 0) }

// Validate checks the settings: no negative count.
func (a *Adjudication) Validate() error {
	if a == nil {
		return nil
	}
	if a.Draw < 0 || a.MaxActions < 0 {
		return fmt.Errorf("%w: draw=%d, max actions %d: want 0 (off) or more", ErrAdjudication, a.Draw, a.MaxActions)
	}
	return nil
}

// Adjudge is the adjudication of a game still running after its n-th
// action (from 1), draw being the game's draw verdict there (Draw's
// conditions hold): AdjudicatedDraw, else AdjudicatedCap at the cap, else
// "" (play on). The hosts and the re-play of a replay both decide by it.
func (a *Adjudication) Adjudge(n int, draw bool) string {
	switch {
	case a == nil:
		return ""
	case draw && a.Draw > 0:
		return AdjudicatedDraw
	case a.MaxActions > 0 && n >= a.MaxActions:
		return AdjudicatedCap
	}
	return ""
}

// String is the settings as kaisen match's flags write them, e.g.
// "draw=200, max-actions=5000"; "off" for none.
func (a *Adjudication) String() string {
	if !a.On() {
		return "off"
	}
	var s string
	if a.Draw > 0 {
		s = fmt.Sprintf("draw=%d", a.Draw)
	}
	if a.MaxActions > 0 {
		if s != "" {
			s += ", "
		}
		s += fmt.Sprintf("max-actions=%d", a.MaxActions)
	}
	return s
}

// DrawJudge is a game's draw adjudication (Adjudication.Draw) as a host or
// a re-play runs it: Reset starts a game, then Step sees, in order, every
// action that left the game running, with the game after it, and says
// whether the draw conditions hold there.
type DrawJudge[G, S any] interface {
	Reset()
	Step(g G, st *S) (draw bool, err error)
}

// adjudicate is the adjudication of g after its n-th action st (rr's
// header settings and draw judge).
func (rr *Rerun[G, P, A, S, L]) adjudicate(g G, n int, st *S) (string, error) {
	a := rr.Adjudication
	draw := false
	if a.Draw > 0 {
		if rr.Judge == nil {
			return "", fmt.Errorf("%w: draw adjudication in a game that has none", ErrFormat)
		}
		var err error
		if draw, err = rr.Judge.Step(g, st); err != nil {
			return "", fmt.Errorf("%s %d: draw adjudication: %w", rr.Codec.Noun(), n, err)
		}
	}
	return a.Adjudge(n, draw), nil
}

// checkAdjudicated checks the result of a game the re-play adjudicated
// for why after its last action: a draw, no forfeit, the same reason.
func (rr *Rerun[G, P, A, S, L]) checkAdjudicated(why string, c game.Count) error {
	if got := rr.End.Adjudicated; got != why {
		return Mismatch("the result says adjudicated %q, the adjudication (%s) says %q", got, rr.Adjudication, why)
	}
	return rr.checkResult(OutcomeDraw, -1, c, nil)
}

// checkNotAdjudicated checks that a game the re-play did not adjudicate
// does not say it was.
func (rr *Rerun[G, P, A, S, L]) checkNotAdjudicated() error {
	got := rr.End.Adjudicated
	switch {
	case got != "" && !rr.Adjudication.On():
		return Mismatch("the result says adjudicated %q, but the header records no adjudication", got)
	case got != "":
		return Mismatch("the result says adjudicated %q, but the adjudication (%s) never fired", got, rr.Adjudication)
	}
	return nil
}
