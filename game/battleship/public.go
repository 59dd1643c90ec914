package battleship

import (
	"fmt"

	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/game/grid"
)

// PublicView is the public view of one game (game.View): both sides are
// told every shot and its answer (the Defender event), and the cells
// afloat of each fleet follow from them.
type PublicView struct {
	g     *Game
	total int
	hp    [2]int
}

var _ game.View[Step] = (*PublicView)(nil)

// NewPublicView is the public view of g, from its start.
func NewPublicView(g *Game) *PublicView {
	v := &PublicView{g: g, total: g.rules.FleetCells()}
	v.hp = [2]int{v.total, v.total}
	return v
}

// Public is the board and the fleet (game.View): columns are lettered from
// A and rows numbered from 1 (Coord); the one counter of a fleet is its
// cells afloat.
func (v *PublicView) Public() game.Public {
	r := v.g.rules
	p := game.Public{Game: Name, Board: r.Board, HP: []int{v.total}, HPNames: []string{"afloat cells "}}
	for x := range r.Board.Width() {
		p.Cols = append(p.Cols, ColumnName(x, false))
	}
	for y := range r.Board.Height() {
		p.Rows = append(p.Rows, fmt.Sprint(y+1))
	}
	for _, l := range r.Fleet {
		p.Ships = append(p.Ships, fmt.Sprint(l))
	}
	return p
}

// See is the public view of st (game.View): every shot is public, an
// illegal one included (its Step says so).
func (v *PublicView) See(st *Step, _ error, e *game.Seen) bool {
	ev := st.Defender
	*e = game.Seen{Seat: st.Seat, At: grid.None, Event: ev}
	if ev.Illegal {
		e.Text = "shoots off the board or at a rock and forfeits"
	} else {
		e.At = st.At
		e.Text = fmt.Sprintf("shoots %s: %s", v.g.rules.Coord(st.At, false), ev.Outcome)
		if ev.Repeat {
			e.Text += " (shot before)"
		}
		if ev.Outcome != Miss && !ev.Repeat {
			e.Hit = true
			v.hp[1-st.Seat]--
		}
		e.Sunk = append(e.Sunk, ev.Sunk...)
	}
	e.HP = [2][]int{{v.hp[0]}, {v.hp[1]}}
	return true
}

// Fleets is every ship cell of each fleet (game.View).
func (v *PublicView) Fleets() [2][]grid.Cell {
	var out [2][]grid.Cell
	for s := range 2 {
		out[s] = v.g.seas[s].ships.Cells().Cells()
	}
	return out
}
