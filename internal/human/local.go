package human

import (
	"fmt"
	"strings"

	"github.com/kaisen-ai/kaisen/explain"
	"github.com/kaisen-ai/kaisen/game/battleship"
	"github.com/kaisen-ai/kaisen/game/submarine"
	"github.com/kaisen-ai/kaisen/players"
	bsplayers "github.com/kaisen-ai/kaisen/players/battleship"
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

// PlayBattleshipAgainst plays one Battleship game in-process between the
// seat h, in seat `seat` (seat 0 shoots first), and ai, reporting to h's
// output; after each of the AI's shots it says why, when the AI explains
// itself. At the end it shows the AI's fleet and returns how the game
// ended. A seat whose fleet is not legal loses, as on a server.
func PlayBattleshipAgainst(r *battleship.Rules, h *BattleshipSeat, ai bsplayers.Player, seat int) bsplayers.Result {
	if ex, ok := ai.(explain.Explainer); ok {
		h.AfterOpponent = func() string { d := ex.Explain(); return replay.Summarize(&d) }
	}
	rec := &placed{Player: ai}
	var ps [2]bsplayers.Player
	ps[seat], ps[1-seat] = h, rec
	res := bsplayers.PlayGame(r, ps[0], ps[1], 0)
	if res.Err != nil && res.Shots == [2]int{} {
		fmt.Fprintf(h.out, "no game: %v\n", res.Err)
	}
	if rec.layout != nil {
		names := make([]string, len(rec.layout))
		for i, s := range rec.layout.Normalize() {
			names[i] = r.ShipCoord(s, false)
		}
		fmt.Fprintf(h.out, "the enemy fleet: %s\n", strings.Join(names, " "))
	}
	switch res.Winner {
	case seat:
		fmt.Fprintf(h.out, "you win: %d shots (the enemy fired %d)\n", res.Shots[seat], res.Shots[1-seat])
	case 1 - seat:
		fmt.Fprintf(h.out, "you lose: the enemy sank your fleet in %d shots (you fired %d)\n", res.Shots[1-seat], res.Shots[seat])
	default:
		fmt.Fprintf(h.out, "draw after %d shots\n", res.Shots[0]+res.Shots[1])
	}
	return res
}

// placed is a Battleship player whose placement is kept, to be shown at
// the end.
type placed struct {
	bsplayers.Player
	layout battleship.Placement
}

func (p *placed) Place() battleship.Placement {
	p.layout = p.Player.Place()
	return p.layout
}
