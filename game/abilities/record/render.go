package record

import (
	"fmt"
	"io"
	"strings"

	"github.com/kaisen-ai/kaisen/game/abilities"
	bsrecord "github.com/kaisen-ai/kaisen/game/battleship/record"
	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/replay"
)

// Render draws actions From to To (0 = the start, To < 0 = the
// end) of a verified replay, one line each with the answers as the
// attacker heard them, then both boards at the end: '#' a ship, 'x' a hit
// ship cell, 'o' a shot at water, '~' a false miss, '.' water.
func Render(w io.Writer, rp *Replay, from, to int) error {
	g, err := rp.replay(nil)
	if err != nil {
		return err
	}
	if to < 0 || to > len(g.steps) {
		to = len(g.steps)
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "abilities: seat 0 %s (%s) vs seat 1 %s (%s)\n", rp.Header.Players[0].Name, rp.Header.Sides[0], rp.Header.Players[1].Name, rp.Header.Sides[1])
	b := g.rules.Base.Board
	for i := max(0, from-1); i < to; i++ {
		fmt.Fprintf(&sb, "%4d %s\n", i+1, abStepText(b, &g.steps[i]))
		if d := g.lines[i].Decision; d != nil {
			fmt.Fprintf(&sb, "   why: %s\n", replay.Summarize(d))
		}
	}
	if g.game != nil {
		for s := range 2 {
			fmt.Fprintf(&sb, "seat %d fleet:\n", s)
			var ships grid.Set
			for _, sh := range g.game.Ships(s) {
				ships = ships.Union(grid.Of(sh...))
			}
			for y := range b.Height() {
				for x := range b.Width() {
					c, _ := b.At(x, y)
					shot := g.game.Shot(s).Has(c)
					switch {
					case !b.IsUsable(c):
						sb.WriteByte(' ')
					case ships.Has(c) && shot:
						sb.WriteByte('x')
					case ships.Has(c):
						sb.WriteByte('#')
					case shot:
						sb.WriteByte('o')
					default:
						sb.WriteByte('.')
					}
				}
				sb.WriteByte('\n')
			}
		}
	}
	fmt.Fprintf(&sb, "result: %s, winner %d, shots %v\n", rp.Result.Outcome, rp.Result.Winner, rp.Result.Shots)
	_, err = io.WriteString(w, sb.String())
	return err
}

// abStepText tells step st in words: who did what, the answers as the
// defender gave them, the count, the question raised.
func abStepText(b *grid.Board, st *abilities.Step) string {
	var sb strings.Builder
	name := func(c grid.Cell) string {
		if c < 0 || int(c) >= b.Size() {
			return fmt.Sprintf("off-board(%d)", c)
		}
		return bsrecord.RCOf(b, c).String()
	}
	v := st.Views[st.Views[0].Attacker]
	fmt.Fprintf(&sb, "seat %d %s", st.Seat, st.Action.Kind)
	switch st.Action.Kind {
	case abilities.Shoot:
		fmt.Fprintf(&sb, " %s", name(st.Action.At))
		if st.Action.Special {
			sb.WriteString(" with the 3-deck")
		}
	case abilities.Move:
		if st.Views[st.Seat].Moved {
			fmt.Fprintf(&sb, " %s -> %s", name(st.Action.At), name(st.Action.To))
		}
	case abilities.Salvo:
		fmt.Fprintf(&sb, " %s %s", name(st.Action.At), name(st.Action.To))
	case abilities.Defend:
		fmt.Fprintf(&sb, " %t", st.Action.Use)
	}
	for _, c := range st.Views[1-v.Attacker].Cells {
		fmt.Fprintf(&sb, " | %s %s", name(c.At), cellWord(c))
	}
	if v.Scan >= 0 {
		fmt.Fprintf(&sb, " | count %d", v.Scan)
	}
	if q := st.Views[1-v.Attacker].Ask; q != nil {
		fmt.Fprintf(&sb, " | asks seat %d", q.Seat)
	}
	return sb.String()
}

func cellWord(c abilities.CellResult) string {
	switch {
	case c.AirDefence:
		return "air defence"
	case c.FalseMiss:
		return "false miss"
	case c.Repeat:
		return c.Outcome.String() + " (repeat)"
	}
	return c.Outcome.String()
}
