package admiral

import (
	"fmt"

	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/game/submarine"
)

// opponentStats are simple online statistics of the enemy's observed
// actions in this game, from which Admiral recognises the kind of player it
// faces (docs/admiral.md, "Opponent kinds").
type opponentStats struct {
	acts    int // enemy actions seen
	moves   int // of them, moves
	located int // enemy actions taken while one of its ships was located by us
	flees   int // of them, a move of a located ship
	closer  int // enemy moves of a located ship that got nearer to our fleet
	farther int // ... and farther from it
}

// opponentKind is what the statistics say about the enemy.
type opponentKind uint8

const (
	kindUnknown opponentKind = iota // too few actions seen
	kindCamper                      // (almost) never moves
	kindMover                       // moves often: a chaser or a wanderer
	kindEvader                      // moves its located ships away
)

func (k opponentKind) String() string {
	return [...]string{"unknown", "camper", "mover", "evader"}[k]
}

// observe counts one enemy action ev, taken when our belief located enemy
// ship i on locs[i] (grid.None: not located), with our fleet us.
func (o *opponentStats) observe(ev submarine.Event, locs *[submarine.MaxShips]grid.Cell, us *submarine.Fleet, b *grid.Board) {
	o.acts++
	anyLocated := false
	for _, c := range locs {
		if c != grid.None {
			anyLocated = true
		}
	}
	if anyLocated {
		o.located++
	}
	if ev.Kind != submarine.Move {
		return
	}
	o.moves++
	from := locs[ev.Ship]
	if from == grid.None {
		return
	}
	o.flees++
	x, y := b.XY(from)
	to, ok := b.At(x+ev.DX, y+ev.DY)
	if !ok {
		return
	}
	before, after := 1<<30, 1<<30
	for j := range submarine.MaxShips {
		if us.Alive.Has(j) {
			before = min(before, b.Chebyshev(from, us.Pos[j]))
			after = min(after, b.Chebyshev(to, us.Pos[j]))
		}
	}
	switch {
	case after < before:
		o.closer++
	case after > before:
		o.farther++
	}
}

// kind classifies the enemy from cfg's thresholds.
func (o *opponentStats) kind(cfg *AdmiralOpponent) opponentKind {
	if o.acts < cfg.MinActions {
		return kindUnknown
	}
	share := float64(o.moves) / float64(o.acts)
	switch {
	case o.located >= cfg.MinActions/2 && o.farther > o.closer &&
		float64(o.flees) >= cfg.Evader*float64(o.located):
		return kindEvader
	case share >= cfg.Mover:
		return kindMover
	case share <= cfg.Camper:
		return kindCamper
	}
	return kindUnknown
}

func (o *opponentStats) String() string {
	if o.acts == 0 {
		return "no enemy action yet"
	}
	return fmt.Sprintf("enemy moved %d/%d, located ships moved %d/%d (%d closer, %d farther)",
		o.moves, o.acts, o.flees, o.located, o.closer, o.farther)
}
