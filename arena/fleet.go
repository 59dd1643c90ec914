package arena

import (
	"runtime/debug"

	"github.com/kaisen-ai/kaisen/game/battleship"
	"github.com/kaisen-ai/kaisen/replay"
)

// The Battleship-board families (Battleship and its abilities variant) share
// their tables' plumbing here: panic guards, the placement phase and the end
// of a game; each family's file keeps only its game loop.

// guard runs f for seat, turning a panic into a message (logged with its
// stack at debug level); "" when f returned normally.
func (t *seatRands) guard(seat int, f func()) (panicMsg string) {
	defer func() {
		if v := recover(); v != nil {
			panicMsg = panicText(v)
			t.log.Debug("player panicked", "seat", seat, "panic", panicMsg, "stack", string(debug.Stack()))
		}
	}()
	f()
	return ""
}

// fleetRecorder is what the shared plumbing needs of a Battleship-board
// replay writer (replay.BattleshipWriter, replay.AbilitiesWriter).
type fleetRecorder interface {
	Placement(seat int, pl battleship.Placement)
	NoPlacement(seat int)
	Result(r replay.BattleshipResult)
	Flush() error
}

// placeFleets makes each seat's player with mk (after reseeding the seat's
// stream for seed) and asks it for its fleet, checked by validate. A seat that
// panics (its player and placement are then zero) or places an invalid fleet
// gets a forfeit in ff. rec, when not nil, records the placements.
func placeFleets[P interface{ Place() battleship.Placement }](t *seatRands, seed uint64, mk func(seat int) P, validate func(battleship.Placement) error, rec fleetRecorder, ff *forfeits) (p [2]P, pl [2]battleship.Placement) {
	for s := range 2 {
		t.reseed(seed, s)
		if msg := t.guard(s, func() { p[s] = mk(s); pl[s] = p[s].Place() }); msg != "" {
			var zero P
			p[s], pl[s] = zero, nil
			ff.set(s, replay.ForfeitPanic, "panic: "+msg)
		} else if err := validate(pl[s]); err != nil {
			ff.set(s, replay.ForfeitPlacement, err.Error())
		}
		if rec != nil {
			if ff.kind[s] == replay.ForfeitPanic {
				rec.NoPlacement(s)
			} else {
				rec.Placement(s, pl[s])
			}
		}
	}
	return p, pl
}

// finishFleetGame fills in the forfeits and, when rec is not nil, writes the
// replay's result line and flushes it.
func finishFleetGame(res *GameResult, ff *forfeits, rec fleetRecorder) (GameResult, error) {
	forfeits := ff.fill(res)
	if rec == nil {
		return *res, nil
	}
	rec.Result(replay.BattleshipResult{Outcome: res.replayOutcome(), Winner: res.Winner, Shots: res.Shots, Forfeits: forfeits})
	return *res, rec.Flush()
}
