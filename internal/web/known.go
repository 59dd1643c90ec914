package web

// What each side can know of the other's fleet in the submarine game, from
// the public record: the one game whose live view has an analysis (the
// belief package's exact probability map). Other games draw the public
// events only.

import (
	"github.com/kaisen-ai/kaisen/belief"
	"github.com/kaisen-ai/kaisen/game/grid"
)

// knownAt is Known of the k-th event e of a submarine game (from 0).
// Streams ask for the events in order from the first, so the beliefs
// advance one event at a time and every map is computed once per game,
// by the first stream that needs it.
func (g *game) knownAt(k int, e *Event) [2][]int {
	g.kmu.Lock()
	defer g.kmu.Unlock()
	switch {
	case k < g.kdone:
		return g.known[k]
	case k > g.kdone: // cannot happen: every stream starts at the first event
		return [2][]int{}
	}
	if g.kdone == 0 {
		for s := range 2 {
			j, err := belief.NewJoint(g.sub, 0)
			g.joints[s], g.kfail[s] = j, err != nil
		}
	}
	// What each side can know of seat s's fleet, from the public record:
	// the events as seat s was told them, its own moves' destinations left
	// out (Joint uses their displacement only).
	var out [2][]int
	for s, j := range g.joints {
		if g.kfail[s] {
			continue
		}
		told := e.told
		told.Mine = s == e.Seat
		told.To = grid.None
		if err := j.Observe(told, belief.Own); err != nil {
			g.kfail[s] = true
			continue
		}
		out[s] = milli(j.CellProbs())
	}
	g.known = append(g.known, out)
	g.kdone++
	return out
}

func milli(p []float64) []int {
	out := make([]int, len(p))
	for i, v := range p {
		out[i] = int(min(max(v, 0), 1)*1000 + 0.5)
	}
	return out
}
