package submarine

import (
	"fmt"
	"strings"

	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/game/grid"
)

// PublicView is the public view of one game (game.View): what both sides are
// told of each action is the Step's Other event (an attack and its answer,
// the ship and displacement of a move, never its destination), and the hp
// of every ship follows from it.
type PublicView struct {
	g  *Game
	hp [2][]int
}

var _ game.View[Step] = (*PublicView)(nil)

// NewPublicView is the public view of g, from its start. It allocates
// nothing more until it is first used (a host makes one for every game,
// watched or not).
func NewPublicView(g *Game) *PublicView { return &PublicView{g: g} }

// start sets the hp of the start, once.
func (v *PublicView) start() {
	if v.hp[0] != nil {
		return
	}
	for s := range 2 {
		for _, sh := range v.g.rules.Fleet {
			v.hp[s] = append(v.hp[s], sh.HP)
		}
	}
}

// Public is the board and the fleet (game.View): columns are letters and
// rows numbered from 1, as people name cells (C4 is the wire's [2,3]).
func (v *PublicView) Public() game.Public {
	r := v.g.rules
	p := game.Public{Game: Name, Board: r.Board, PerShip: true, Rules: r}
	for x := range r.Board.Width() {
		p.Cols = append(p.Cols, grid.ColumnName(x, false))
	}
	for y := range r.Board.Height() {
		p.Rows = append(p.Rows, fmt.Sprint(y+1))
	}
	for _, s := range r.Fleet {
		p.Ships = append(p.Ships, s.Name)
		p.HP = append(p.HP, s.HP)
	}
	p.HPNames = p.Ships
	return p
}

// See is the public view of st (game.View): every action is public, as
// the other side is told it, an illegal one included (its Step says so).
func (v *PublicView) See(st *Step, _ error, e *game.Seen) bool {
	v.start()
	r, ev := v.g.rules, st.Other
	*e = game.Seen{Seat: st.Seat, At: grid.None, Event: ev}
	switch {
	case ev.Illegal:
		e.Text = fmt.Sprintf("makes an illegal %s and forfeits", ev.Kind)
	case ev.Kind == Attack:
		e.At = ev.At
		var sb strings.Builder
		fmt.Fprintf(&sb, "attacks %s: ", r.CellName(ev.At))
		if ev.Hit != NoShip {
			e.Hit = true
			hp := v.hp[1-st.Seat]
			hp[ev.Hit] = max(hp[ev.Hit]-1, 0)
			fmt.Fprintf(&sb, "hit %s", r.Fleet[ev.Hit].Name)
			if ev.Sunk {
				hp[ev.Hit] = 0
				sb.WriteString(", sunk")
			}
		} else {
			sb.WriteString("miss")
		}
		if near := r.Names(ev.Near); len(near) > 0 {
			fmt.Fprintf(&sb, "; near: %s", strings.Join(near, " "))
			for c := range r.Board.Around(ev.At).All() {
				if c != ev.At {
					e.Near = append(e.Near, c)
				}
			}
		}
		e.Text = sb.String()
	case ev.Kind == Move:
		e.Text = fmt.Sprintf("moves %s by [%+d,%+d]", r.Fleet[ev.Ship].Name, ev.DX, ev.DY)
	}
	e.HP = [2][]int{append([]int(nil), v.hp[0]...), append([]int(nil), v.hp[1]...)}
	return true
}

// Fleets is each ship's cell now, in fleet order (game.View); a sunk ship
// stays where it sank.
func (v *PublicView) Fleets() [2][]grid.Cell {
	var out [2][]grid.Cell
	for s := range 2 {
		out[s] = append(out[s], v.g.fleets[s].Pos[:len(v.g.rules.Fleet)]...)
	}
	return out
}
