package sonar

import (
	"fmt"

	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/game/grid"
)

// PublicView is the public view of one game (game.View): both seats are
// told every ping, where it was and its echo, and that a boat moved, not
// which nor where; the boats afloat follow from them.
type PublicView struct{ g *Game }

var _ game.View[Step] = (*PublicView)(nil)

// NewPublicView is the public view of g, from its start.
func NewPublicView(g *Game) game.View[Step] { return &PublicView{g: g} }

// Public is the sea and the fleet: columns lettered from a, rows
// numbered from 1 (as the terminal seat types cells); the one counter of
// a fleet is its boats afloat.
func (v *PublicView) Public() game.Public {
	r := v.g.rules
	board, _ := grid.NewBoard(r.Width, r.Height, nil) // the rules are valid: at most 8x8
	p := game.Public{Game: Name, Board: board, HP: []int{r.Boats}, HPNames: []string{"boats afloat "}}
	for x := range r.Width {
		p.Cols = append(p.Cols, string(rune('a'+x)))
	}
	for y := range r.Height {
		p.Rows = append(p.Rows, fmt.Sprint(y+1))
	}
	for range r.Boats {
		p.Ships = append(p.Ships, "boat")
	}
	return p
}

// See is the public view of st: a ping's cell and echo, a move without
// its boat or cell.
func (v *PublicView) See(st *Step, _ error, e *game.Seen) bool {
	r := v.g.rules
	*e = game.Seen{Seat: st.Seat, At: grid.None}
	a := st.Action
	switch {
	case st.Illegal:
		e.Text = "plays an illegal action and forfeits"
	case a.Kind == Move:
		e.Text = "moves a boat"
	default:
		e.At = grid.Cell(a.At)
		e.Text = fmt.Sprintf("pings %c%d: %s", 'a'+int(a.At)%r.Width, int(a.At)/r.Width+1, echoNames[st.Echo])
		if st.Echo == Hit {
			e.Hit = true
			e.Sunk = []grid.Cell{e.At}
		}
	}
	e.HP = [2][]int{{v.g.Afloat(0)}, {v.g.Afloat(1)}}
	return true
}

// Fleets are the boats afloat of each seat.
func (v *PublicView) Fleets() [2][]grid.Cell {
	var out [2][]grid.Cell
	for s := range 2 {
		for _, c := range v.g.boats[s] {
			if c != None {
				out[s] = append(out[s], grid.Cell(c))
			}
		}
	}
	return out
}
