package arena

import (
	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/game/battleship"
	bsrecord "github.com/kaisen-ai/kaisen/game/battleship/record"
)

// fleetWriter is what the Battleship-board replay writers
// (bsrecord.Writer, abrecord.Writer) share: the placement
// lines, the result line and the flush.
type fleetWriter interface {
	Placement(seat int, pl battleship.Placement)
	NoPlacement(seat int)
	Result(r bsrecord.Result)
	Flush() error
}

// fleetRecord writes the placement and result lines of a Battleship-board
// replay on the contract; each family adds its Action.
type fleetRecord struct{ w fleetWriter }

func (r fleetRecord) Placement(seat int, p battleship.Placement, ok bool) {
	if ok {
		r.w.Placement(seat, p)
	} else {
		r.w.NoPlacement(seat)
	}
}

func (r fleetRecord) Result(res *game.Result) {
	r.w.Result(bsrecord.Result{Outcome: replayOutcome(res), Winner: res.Winner, Shots: res.Shots, Forfeits: replayForfeits(res)})
}

func (r fleetRecord) Flush() error { return r.w.Flush() }
