package replay

import (
	"fmt"
	"slices"
	"strings"

	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/game/battleship"
	"github.com/kaisen-ai/kaisen/game/grid"
)

// VerifyBattleship re-plays rp through battleship.Game and checks that it
// is exactly what the rules produce from the recorded placements: each shot
// is fired on its seat's turn (a hit or kill shoots again), its recorded
// answer (outcome, the sunk ship's cells, repeat, again) is the engine's, a
// shot is marked illegal exactly when the engine refuses it, and the result
// (outcome, winner, shots of each seat, which seats forfeited and how)
// follows. A game may stop before the rules end it only with one forfeit
// outside the rules: ForfeitPanic (the player crashed), ForfeitWaiting (the
// seat not to shoot broke the protocol) or ForfeitProtocol (the seat to
// shoot broke it); it may not start only when a recorded placement is
// invalid (ForfeitPlacement, or ForfeitPanic for a player that crashed
// before placing). Errors wrap ErrMismatch (or ErrFormat for a replay
// ReadBattleship would refuse). VerifyBattleship does not re-run the players.
func VerifyBattleship(rp *BattleshipReplay) error {
	return simulateBattleship(rp, nil)
}

// bsFrame is the state after one shot, passed to simulateBattleship's
// visitor. n is 0 for the initial position (shot is nil then).
type bsFrame struct {
	n     int
	rules *battleship.Rules
	game  *battleship.Game
	shot  *Shot
	st    battleship.Step
	err   error // why st's shot was illegal, nil when it was legal
}

// simulateBattleship verifies rp, calling visit (when not nil) with the
// initial position and after every shot. A game that never started (an
// invalid placement) is checked without a visit.
func simulateBattleship(rp *BattleshipReplay, visit func(f *bsFrame)) error {
	h := &rp.Header
	r, err := rp.Rules()
	if err != nil {
		return err
	}
	if err := checkSeats(h.First, h.Players); err != nil {
		return err
	}
	var place [2]battleship.Placement
	var bad [2]bool
	for s := range 2 {
		if place[s], err = rp.Placement(r, s); err != nil {
			return err
		}
		bad[s] = r.ValidatePlacement(place[s]) != nil
	}
	res := &rp.Result
	aborted := res.Outcome == OutcomeAborted
	if bad[0] || bad[1] {
		if aborted { // stopped during the handshake
			return verifyAbortedHandshake(len(rp.Shots), func() error { return checkBSResult(res, OutcomeAborted, -1, [2]int{}, nil) })
		}
		return verifyBSPlacementForfeit(rp, bad)
	}
	g, err := battleship.NewGame(r, place[0], place[1], h.First)
	if err != nil {
		return mismatch("start: %v", err)
	}
	f := &bsFrame{rules: r, game: g}
	if visit != nil {
		visit(f)
	}
	for i := range rp.Shots {
		s := &rp.Shots[i]
		if s.N != i+1 {
			return fmt.Errorf("%w: shot %d is numbered %d", ErrFormat, i+1, s.N)
		}
		if g.Status() != game.Running {
			return mismatch("shot %d after the game ended", s.N)
		}
		if s.Seat != g.ToAct() {
			return mismatch("shot %d by seat %d, but it is seat %d's turn", s.N, s.Seat, g.ToAct())
		}
		at, err := s.cell(r.Board)
		if err != nil {
			return fmt.Errorf("shot %d: %w", s.N, err)
		}
		st, err := g.Apply(at)
		if s.Illegal != (err != nil) {
			return mismatch("shot %d at %s: recorded as illegal=%t, the engine says %v", s.N, s.where(), s.Illegal, errOrLegal(err))
		}
		if want := EncodeShot(r, s.N, &st, err, nil); !want.sameAnswer(s) {
			return mismatch("shot %d at %s: recorded %s, the engine says %s", s.N, s.where(), s.answer(), want.answer())
		}
		if visit != nil {
			f.n, f.shot, f.st, f.err = s.N, s, st, err
			visit(f)
		}
	}
	var want []Forfeit
	if n := len(rp.Shots); n > 0 && rp.Shots[n-1].Illegal {
		want = append(want, Forfeit{Seat: rp.Shots[n-1].Seat, Kind: ForfeitIllegal})
	}
	if g.Status() == game.Running && aborted {
		return checkBSResult(res, OutcomeAborted, -1, [2]int{g.Shots(0), g.Shots(1)}, nil)
	}
	if g.Status() == game.Running {
		ff, err := earlyForfeit(res.Forfeits, bsOutsideRules, len(rp.Shots), "shots",
			fmt.Sprintf("%s, %s or %s", ForfeitPanic, ForfeitWaiting, ForfeitProtocol))
		if err != nil {
			return err
		}
		if ff.Kind == ForfeitProtocol && ff.Seat != g.ToAct() {
			return mismatch("a %s forfeit of seat %d, but it was seat %d's turn", ForfeitProtocol, ff.Seat, g.ToAct())
		}
		g.Forfeit(ff.Seat)
		want = append(want, ff)
	}
	outcome := OutcomeWin
	if g.Status() == game.Drawn {
		outcome = OutcomeDraw
	}
	return checkBSResult(res, outcome, g.Winner(), [2]int{g.Shots(0), g.Shots(1)}, want)
}

// bsOutsideRules is outsideRules with Battleship's ForfeitProtocol.
func bsOutsideRules(kind string) bool {
	return outsideRules(kind) || kind == ForfeitProtocol
}

func errOrLegal(err error) string {
	if err == nil {
		return "legal"
	}
	return err.Error()
}

// cell is the cell the shot was fired at.
func (s *Shot) cell(b *grid.Board) (grid.Cell, error) {
	switch {
	case s.At != nil:
		c, err := s.At.cell(b)
		if err != nil {
			return grid.None, fmt.Errorf("%w: %w", ErrFormat, err)
		}
		return c, nil
	case s.Cell != nil:
		return grid.Cell(*s.Cell), nil
	}
	return grid.None, fmt.Errorf(`%w: shot without "at" or "cell"`, ErrFormat)
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

// verifyBSPlacementForfeit checks a game that never started because a seat
// placed its fleet illegally (or crashed before placing it).
func verifyBSPlacementForfeit(rp *BattleshipReplay, bad [2]bool) error {
	if len(rp.Shots) > 0 {
		return mismatch("%d shots after an invalid placement", len(rp.Shots))
	}
	outcome, winner, want := placementForfeits(bad, rp.Result.Forfeits)
	return checkBSResult(&rp.Result, outcome, winner, [2]int{}, want)
}

func checkBSResult(res *BattleshipResult, outcome string, winner int, shots [2]int, want []Forfeit) error {
	if res.Outcome != outcome || res.Winner != winner || res.Shots != shots {
		return mismatch("result %s/winner %d/shots %v, the engine says %s/winner %d/shots %v",
			res.Outcome, res.Winner, res.Shots, outcome, winner, shots)
	}
	if got := forfeitKinds(res.Forfeits); !slices.Equal(got, want) {
		return mismatch("forfeits %s, the engine says %s", formatForfeits(got), formatForfeits(want))
	}
	return nil
}

// formatForfeits lists forfeits as "seat 1 illegal, seat 0 panic".
func formatForfeits(fs []Forfeit) string {
	if len(fs) == 0 {
		return "none"
	}
	parts := make([]string, len(fs))
	for i, f := range fs {
		parts[i] = fmt.Sprintf("seat %d %s", f.Seat, f.Kind)
	}
	return strings.Join(parts, ", ")
}
