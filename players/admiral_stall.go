package players

import (
	"math"
)

// The stall rule: getting bolder when nothing is hit, so games end.

// boldness is the factor on every cost of ours (leak, danger, hp and ships
// lost, the lost game) after a long stretch without hits: a stalled game is
// heading for a draw, which counts no more than a loss, so the player takes
// more and more risk to decide it.
func (p *planner) boldness() float64 {
	e := p.a.cfg.Endgame
	quiet := (p.a.actions - p.a.lastHit) / 2 // our turns without a hit
	if quiet < e.Stall {
		return 1
	}
	return math.Pow(e.Boldness, float64(quiet/e.Stall))
}
