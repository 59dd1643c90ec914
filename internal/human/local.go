package human

import (
	"fmt"
	"strings"

	"github.com/kaisen-ai/kaisen/explain"
	"github.com/kaisen-ai/kaisen/game/submarine"
	"github.com/kaisen-ai/kaisen/players"
	"github.com/kaisen-ai/kaisen/replay"
)

// PlayAgainst plays one game in-process between the seat h, in seat `seat`
// (seat 0 acts first), and ai, reporting to h's output; after each of the
// AI's actions it says why, when the AI explains itself. At the end it
// reveals the AI's fleet and returns the outcome and the winning seat (-1
// on a draw). A seat that placed illegally (the human's input ended)
// loses, as on a server.
func PlayAgainst(r *submarine.Rules, h *Seat, ai players.Player, seat int) (submarine.Outcome, int) {
	if ex, ok := ai.(explain.Explainer); ok {
		h.AfterOpponent = func() string { d := ex.Explain(); return replay.Summarize(&d) }
	}
	var p [2]players.Player
	p[seat], p[1-seat] = h, ai
	var place [2]submarine.Placement
	for s := range 2 {
		place[s] = p[s].Place()
	}
	g, err := submarine.NewGame(r, place[0], place[1], 0)
	if err != nil {
		loser := seat // the AI's placements are valid: only the human's can fail
		fmt.Fprintf(h.out, "no game: %v\n", err)
		return submarine.Win, 1 - loser
	}
	var v submarine.View
	for s := range 2 {
		g.ViewInto(s, &v)
		p[s].Observe(submarine.Event{Kind: submarine.Invalid}, &v)
	}
	for g.Outcome() == submarine.Running {
		s := g.Turn()
		st := g.Apply(p[s].Act())
		g.ViewInto(s, &v)
		p[s].Observe(st.Actor, &v)
		g.ViewInto(1-s, &v)
		p[1-s].Observe(st.Other, &v)
	}
	enemy := g.Fleet(1 - seat)
	var cells []string
	for i, sh := range r.Fleet {
		if enemy.HP[i] > 0 {
			cells = append(cells, fmt.Sprintf("%s at %s", sh.Name, r.CellName(enemy.Pos[i])))
		} else {
			cells = append(cells, sh.Name+" sunk")
		}
	}
	fmt.Fprintf(h.out, "the enemy fleet: %s\n", strings.Join(cells, ", "))
	switch {
	case g.Outcome() == submarine.Draw:
		fmt.Fprintf(h.out, "draw after %d actions\n", g.Actions())
		return g.Outcome(), -1
	case g.Winner() == seat:
		fmt.Fprintf(h.out, "you win after %d actions\n", g.Actions())
	default:
		fmt.Fprintf(h.out, "you lose after %d actions\n", g.Actions())
	}
	return g.Outcome(), g.Winner()
}
