package replay

import (
	"errors"
	"fmt"
	"slices"

	"github.com/kaisen-ai/kaisen/game/submarine"
)

// ErrMismatch is wrapped by Verify's errors: the replay does not describe
// what the rules engine does with the recorded placements and actions.
var ErrMismatch = errors.New("replay: mismatch")

// Verify re-plays rp through submarine.Game and checks that it is exactly
// what the engine produces: each step acts on the right seat's turn, every
// recorded actor and other Event equals the engine's, a step is marked
// illegal exactly when the engine refuses it, and the result (outcome,
// winner, number of actions, which seats forfeited and why in kind) follows.
// A game may end before the rules end it only by one forfeit outside the
// rules (ForfeitPanic or ForfeitWaiting), and may not start only when a
// recorded placement is invalid (ForfeitPlacement, or ForfeitPanic for a
// player that crashed before placing). Verify does not re-run the players.
func Verify(rp *Replay) error {
	return simulate(rp, nil)
}

// frame is the state after one step, passed to simulate's visitor. n is 0 for
// the initial position (step is nil then).
type frame struct {
	n     int
	rules *submarine.Rules
	game  *submarine.Game
	step  *Step
	st    submarine.Step
}

func mismatch(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrMismatch, fmt.Sprintf(format, args...))
}

func simulate(rp *Replay, visit func(f *frame)) error {
	h := &rp.Header
	r, err := rp.Rules()
	if err != nil {
		return err
	}
	if h.First != 0 && h.First != 1 {
		return fmt.Errorf("%w: first seat %d", ErrFormat, h.First)
	}
	for s, p := range h.Players {
		if p.Seat != s {
			return fmt.Errorf("%w: players[%d] has seat %d", ErrFormat, s, p.Seat)
		}
	}
	res := &rp.Result
	var place [2]submarine.Placement
	var bad [2]bool
	for s := range 2 {
		place[s] = rp.Placement(r, s)
		bad[s] = r.ValidatePlacement(place[s]) != nil
	}
	if bad[0] || bad[1] {
		return verifyPlacementForfeit(rp, bad)
	}
	g, err := submarine.NewGame(r, place[0], place[1], h.First)
	if err != nil {
		return mismatch("start: %v", err)
	}
	f := &frame{rules: r, game: g}
	if visit != nil {
		visit(f)
	}
	for i := range rp.Steps {
		rs := &rp.Steps[i]
		if g.Outcome() != submarine.Running {
			return mismatch("step %d after the game ended", rs.N)
		}
		if rs.Seat != g.Turn() {
			return mismatch("step %d by seat %d, but it is seat %d's turn", rs.N, rs.Seat, g.Turn())
		}
		a, err := rs.Action.Decode(r)
		if err != nil {
			return fmt.Errorf("step %d: %w", rs.N, err)
		}
		st := g.Apply(a)
		if (st.Err != nil) != (rs.Error != "") {
			return mismatch("step %d: recorded as illegal=%t, the engine says %v", rs.N, rs.Error != "", st.Err)
		}
		if got := EncodeEvent(r, st.Actor); !got.Equal(rs.Actor) {
			return mismatch("step %d: actor was told %v, the engine says %v", rs.N, rs.Actor, got)
		}
		if got := EncodeEvent(r, st.Other); !got.Equal(rs.Other) {
			return mismatch("step %d: other side was told %v, the engine says %v", rs.N, rs.Other, got)
		}
		if visit != nil {
			f.n, f.step, f.st = rs.N, rs, st
			visit(f)
		}
	}
	var want []Forfeit
	if n := len(rp.Steps); n > 0 && rp.Steps[n-1].Error != "" {
		want = append(want, Forfeit{Seat: rp.Steps[n-1].Seat, Kind: ForfeitIllegal})
	}
	if g.Outcome() == submarine.Running {
		// Only a crash outside the rules, or a seat that breaks the protocol
		// while waiting (ForfeitWaiting), ends a game early.
		if len(res.Forfeits) != 1 || !outsideRules(res.Forfeits[0].Kind) {
			return mismatch("the game is still running after %d steps, but the result records no panic or waiting forfeit", len(rp.Steps))
		}
		seat := res.Forfeits[0].Seat
		if seat != 0 && seat != 1 {
			return mismatch("forfeit of seat %d", seat)
		}
		g.Forfeit(seat)
		want = append(want, Forfeit{Seat: seat, Kind: res.Forfeits[0].Kind})
	}
	return checkResult(res, outcomeOf(g), g.Winner(), g.Actions(), want)
}

// verifyPlacementForfeit checks a game that never started because a seat
// placed its fleet illegally (or crashed while placing it).
func verifyPlacementForfeit(rp *Replay, bad [2]bool) error {
	if len(rp.Steps) > 0 {
		return mismatch("%d steps after an invalid placement", len(rp.Steps))
	}
	var want []Forfeit
	for s := range 2 {
		if !bad[s] {
			continue
		}
		kind := ForfeitPlacement
		for _, f := range rp.Result.Forfeits {
			if f.Seat == s && f.Kind == ForfeitPanic {
				kind = ForfeitPanic // it crashed before placing
			}
		}
		want = append(want, Forfeit{Seat: s, Kind: kind})
	}
	outcome, winner := OutcomeWin, 0
	switch {
	case bad[0] && bad[1]:
		outcome, winner = OutcomeDraw, -1
	case bad[0]:
		winner = 1
	}
	return checkResult(&rp.Result, outcome, winner, 0, want)
}

func outcomeOf(g *submarine.Game) string {
	if g.Outcome() == submarine.Draw {
		return OutcomeDraw
	}
	return OutcomeWin
}

func checkResult(res *Result, outcome string, winner, actions int, want []Forfeit) error {
	if res.Outcome != outcome || res.Winner != winner || res.Actions != actions {
		return mismatch("result %s/winner %d/%d actions, the engine says %s/winner %d/%d actions",
			res.Outcome, res.Winner, res.Actions, outcome, winner, actions)
	}
	key := func(f Forfeit) Forfeit { return Forfeit{Seat: f.Seat, Kind: f.Kind} }
	got := make([]Forfeit, len(res.Forfeits))
	for i, f := range res.Forfeits {
		got[i] = key(f)
	}
	if !slices.Equal(got, want) {
		return mismatch("forfeits %v, want %v", got, want)
	}
	return nil
}
