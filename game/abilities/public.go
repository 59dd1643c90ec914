package abilities

import (
	"fmt"
	"strings"

	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/game/battleship"
	"github.com/kaisen-ai/kaisen/game/grid"
)

// PublicView is the public view of one game (game.View): what both seats
// are told. A move is public as its enemy is told it (a 1-deck moved,
// never which one or where; nothing under Options.HideMoves); a volley is
// public as its shooter is told it, once it is told it: a shot the
// defender is asked about (false miss, air defence) shows nothing until
// the answer, and then the volley as the shooter sees it (a false miss is
// a miss). The defender's questions about a shot, its unspent defences
// and its false answers are never public.
type PublicView struct {
	g     *Game
	total int
	hp    [2]int
}

var _ game.View[Step] = (*PublicView)(nil)

// NewPublicView is the public view of g, from its start.
func NewPublicView(g *Game) *PublicView {
	v := &PublicView{g: g, total: g.rules.Base.FleetCells()}
	v.hp = [2]int{v.total, v.total}
	return v
}

// Public is the board, the fleet and the sides (game.View), as Battleship
// has them: columns lettered from A, rows numbered from 1, one counter of
// cells afloat per fleet.
func (v *PublicView) Public() game.Public {
	r := v.g.rules
	p := game.Public{Game: Name, Board: r.Base.Board, HP: []int{v.total}, HPNames: []string{"afloat cells "},
		Sides: [2]string{r.Sides[0].String(), r.Sides[1].String()}}
	for x := range r.Base.Board.Width() {
		p.Cols = append(p.Cols, battleship.ColumnName(x, false))
	}
	for y := range r.Base.Board.Height() {
		p.Rows = append(p.Rows, fmt.Sprint(y+1))
	}
	for _, l := range r.Base.Fleet {
		p.Ships = append(p.Ships, fmt.Sprint(l))
	}
	return p
}

// public is the event of st both seats are told, or false when one of
// them is told nothing of it.
func public(st *Step) (Event, bool) {
	att := st.Views[0].Attacker
	ev := st.Views[att] // the shooter's view of its volley
	if st.Action.Kind == Move {
		ev = st.Views[1-st.Seat] // the enemy's view of the move
	}
	return ev, !ev.Silent
}

// See is the public view of st (game.View): Seat is the attacker, whose
// turn it is (the seat whose volley a defender's answer settles). An
// illegal action shows nothing: it changed nothing, and Apply returned no
// step (the host forfeits the actor, and the result says so).
func (v *PublicView) See(st *Step, err error, e *game.Seen) bool {
	if err != nil {
		return false
	}
	ev, ok := public(st)
	if !ok {
		return false
	}
	*e = game.Seen{Seat: ev.Attacker, At: grid.None, Event: ev}
	var sb strings.Builder
	switch ev.Kind {
	case Move:
		sb.WriteString("moves a 1-deck")
	case Shoot:
		sb.WriteString("shoots")
		if ev.Special {
			sb.WriteString(" with the 3-deck")
		}
	case Salvo:
		sb.WriteString("fires a salvo")
	case Reveal: // the defender's answer to a Humans' salvo
		sb.WriteString("has its salvo answered")
	default: // Defend: the answer that settles a volley
		sb.WriteString("has its volley answered")
	}
	v.cells(ev, e, &sb)
	if ev.Scan >= 0 {
		fmt.Fprintf(&sb, "; %d ships in the 5x5", ev.Scan)
		if len(ev.Cells) > 0 {
			e.Near = v.square(ev.Cells[0].At)
		}
	}
	if ev.Special && v.g.rules.Sides[ev.Attacker] == Humans {
		sb.WriteString("; the ships around are suppressed")
	}
	if q := ev.Ask; q != nil && q.Ask == AskReveal {
		fmt.Fprintf(&sb, "; the defender names the %d cells hit around %s", q.Count, v.g.rules.Base.Coord(q.At, false))
	}
	e.Text = sb.String()
	e.HP = [2][]int{{v.hp[0]}, {v.hp[1]}}
	return true
}

// cells writes the cells of ev's volley to sb and e, and counts its new
// hits.
func (v *PublicView) cells(ev Event, e *game.Seen, sb *strings.Builder) {
	for i, c := range ev.Cells {
		if i == 0 {
			sb.WriteString(": ")
		} else {
			sb.WriteString(", ")
		}
		sb.WriteString(v.g.rules.Base.Coord(c.At, false))
		shot := game.Shot{At: c.At}
		switch {
		case c.AirDefence:
			sb.WriteString(" air defence")
			shot.Blocked = true
		default:
			sb.WriteString(" " + c.Outcome.String())
			shot.Hit = c.Outcome != battleship.Miss
			if c.Repeat {
				sb.WriteString(" (shot before)")
			} else if shot.Hit {
				v.hp[1-ev.Attacker]--
			}
			e.Sunk = append(e.Sunk, c.Sunk...)
		}
		e.Shots = append(e.Shots, shot)
	}
}

// square is the 5x5 around c (the AI's count), c left out.
func (v *PublicView) square(c grid.Cell) []grid.Cell {
	b := v.g.rules.Base.Board
	var out []grid.Cell
	for d := range b.Usable().All() {
		if d != c && b.Chebyshev(c, d) <= 2 {
			out = append(out, d)
		}
	}
	return out
}

// Fleets is every ship cell of each fleet where it is now (game.View).
func (v *PublicView) Fleets() [2][]grid.Cell {
	var out [2][]grid.Cell
	for s := range 2 {
		out[s] = v.g.Ships(s).Cells().Cells()
	}
	return out
}
