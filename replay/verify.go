package replay

import (
	"errors"
	"fmt"
	"slices"

	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/game/submarine"
)

// ErrMismatch is wrapped by VerifySubmarine's (and VerifyBattleship's) errors: the replay does not describe
// what the rules engine does with the recorded placements and actions.
var ErrMismatch = errors.New("replay: mismatch")

// VerifySubmarine re-plays rp through submarine.Game and checks that it is exactly
// what the engine produces: each step acts on the right seat's turn, every
// recorded actor and other Event equals the engine's, a step is marked
// illegal exactly when the engine refuses it, and the result (outcome,
// winner, number of actions, which seats forfeited and why in kind) follows.
// A game may end before the rules end it only by one forfeit outside the
// rules (ForfeitPanic or ForfeitWaiting) or by the server stopping it
// (OutcomeAborted, winner -1, no forfeit), and may not start only when a
// recorded placement is invalid (ForfeitPlacement, or ForfeitPanic for a
// player that crashed before placing). VerifySubmarine does not re-run the players.
func VerifySubmarine(rp *SubmarineReplay) error {
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
	err   error // why st's action was illegal, nil when it was legal
}

func mismatch(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrMismatch, fmt.Sprintf(format, args...))
}

func simulate(rp *SubmarineReplay, visit func(f *frame)) error {
	h := &rp.Header
	r, err := rp.Rules()
	if err != nil {
		return err
	}
	if err := checkSeats(h.First, h.Players); err != nil {
		return err
	}
	res := &rp.Result
	var place [2]submarine.Placement
	var bad [2]bool
	for s := range 2 {
		place[s] = rp.Placement(r, s)
		bad[s] = r.ValidatePlacement(place[s]) != nil
	}
	aborted := res.Outcome == OutcomeAborted
	if bad[0] || bad[1] {
		if aborted { // stopped during the handshake
			return verifyAbortedHandshake(len(rp.Steps), func() error { return checkResult(res, OutcomeAborted, -1, 0, nil) })
		}
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
		if g.Status() != game.Running {
			return mismatch("step %d after the game ended", rs.N)
		}
		if rs.Seat != g.ToAct() {
			return mismatch("step %d by seat %d, but it is seat %d's turn", rs.N, rs.Seat, g.ToAct())
		}
		a, err := rs.Action.Decode(r)
		if err != nil {
			return fmt.Errorf("step %d: %w", rs.N, err)
		}
		st, err := g.Apply(a)
		if (err != nil) != (rs.Error != "") {
			return mismatch("step %d: recorded as illegal=%t, the engine says %v", rs.N, rs.Error != "", err)
		}
		if got := EncodeEvent(r, st.Actor); !got.Equal(rs.Actor) {
			return mismatch("step %d: actor was told %v, the engine says %v", rs.N, rs.Actor, got)
		}
		if got := EncodeEvent(r, st.Other); !got.Equal(rs.Other) {
			return mismatch("step %d: other side was told %v, the engine says %v", rs.N, rs.Other, got)
		}
		if visit != nil {
			f.n, f.step, f.st, f.err = rs.N, rs, st, err
			visit(f)
		}
	}
	var want []Forfeit
	if n := len(rp.Steps); n > 0 && rp.Steps[n-1].Error != "" {
		want = append(want, Forfeit{Seat: rp.Steps[n-1].Seat, Kind: ForfeitIllegal})
	}
	if g.Status() == game.Running && aborted {
		return checkResult(res, OutcomeAborted, -1, g.Actions(), nil)
	}
	if g.Status() == game.Running {
		// Only a crash outside the rules, or a seat that breaks the protocol
		// while waiting (ForfeitWaiting), ends a game early.
		ff, err := earlyForfeit(res.Forfeits, outsideRules, len(rp.Steps), "steps", "panic or waiting")
		if err != nil {
			return err
		}
		g.Forfeit(ff.Seat)
		want = append(want, ff)
	}
	return checkResult(res, outcomeOf(g), g.Winner(), g.Actions(), want)
}

// verifyAbortedHandshake checks a game the server stopped before both
// placements were in: no move (moves of them) may follow; check checks the
// result.
func verifyAbortedHandshake(moves int, check func() error) error {
	if moves > 0 {
		return mismatch("%d moves in a game aborted before both placements were in", moves)
	}
	return check()
}

// verifyPlacementForfeit checks a game that never started because a seat
// placed its fleet illegally (or crashed while placing it).
func verifyPlacementForfeit(rp *SubmarineReplay, bad [2]bool) error {
	if len(rp.Steps) > 0 {
		return mismatch("%d steps after an invalid placement", len(rp.Steps))
	}
	outcome, winner, want := placementForfeits(bad, rp.Result.Forfeits)
	return checkResult(&rp.Result, outcome, winner, 0, want)
}

// earlyForfeit returns the forfeit (without its reason) that ended a game
// the rules had not ended after played moves (steps or shots): the result
// must record exactly one, by seat 0 or 1, of a kind outside the rules
// (outside; kinds names them in the error).
func earlyForfeit(fs []Forfeit, outside func(kind string) bool, played int, moves, kinds string) (Forfeit, error) {
	if len(fs) != 1 || !outside(fs[0].Kind) {
		return Forfeit{}, mismatch("the game is still running after %d %s, but the result records no %s forfeit", played, moves, kinds)
	}
	seat := fs[0].Seat
	if seat != 0 && seat != 1 {
		return Forfeit{}, mismatch("forfeit of seat %d", seat)
	}
	return Forfeit{Seat: seat, Kind: fs[0].Kind}, nil
}

// checkSeats checks the header's first seat and players' seat numbers.
func checkSeats(first int, players [2]SeatInfo) error {
	if first != 0 && first != 1 {
		return fmt.Errorf("%w: first seat %d", ErrFormat, first)
	}
	for s, p := range players {
		if p.Seat != s {
			return fmt.Errorf("%w: players[%d] has seat %d", ErrFormat, s, p.Seat)
		}
	}
	return nil
}

// placementForfeits returns the result the rules give a game that never
// started because of the invalid placements bad: the outcome, the winner
// and the expected forfeits, ForfeitPlacement for each bad seat, or
// ForfeitPanic where recorded (it crashed before placing).
func placementForfeits(bad [2]bool, recorded []Forfeit) (outcome string, winner int, want []Forfeit) {
	for s := range 2 {
		if !bad[s] {
			continue
		}
		kind := ForfeitPlacement
		for _, f := range recorded {
			if f.Seat == s && f.Kind == ForfeitPanic {
				kind = ForfeitPanic // it crashed before placing
			}
		}
		want = append(want, Forfeit{Seat: s, Kind: kind})
	}
	outcome, winner = OutcomeWin, 0
	switch {
	case bad[0] && bad[1]:
		outcome, winner = OutcomeDraw, -1
	case bad[0]:
		winner = 1
	}
	return outcome, winner, want
}

func outcomeOf(g *submarine.Game) string {
	if g.Status() == game.Drawn {
		return OutcomeDraw
	}
	return OutcomeWin
}

func checkResult(res *SubmarineResult, outcome string, winner, actions int, want []Forfeit) error {
	if res.Outcome != outcome || res.Winner != winner || res.Actions != actions {
		return mismatch("result %s/winner %d/%d actions, the engine says %s/winner %d/%d actions",
			res.Outcome, res.Winner, res.Actions, outcome, winner, actions)
	}
	if got := forfeitKinds(res.Forfeits); !slices.Equal(got, want) {
		return mismatch("forfeits %v, want %v", got, want)
	}
	return nil
}

// forfeitKinds returns fs without their reasons: the part the rules decide.
func forfeitKinds(fs []Forfeit) []Forfeit {
	out := make([]Forfeit, len(fs))
	for i, f := range fs {
		out[i] = Forfeit{Seat: f.Seat, Kind: f.Kind}
	}
	return out
}
