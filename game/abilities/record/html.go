package record

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/kaisen-ai/kaisen/explain"
	"github.com/kaisen-ai/kaisen/game/abilities"
	"github.com/kaisen-ai/kaisen/game/battleship"
	bsrecord "github.com/kaisen-ai/kaisen/game/battleship/record"
	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/replay"
)

// HTML is the data of the HTML view of a verified abilities replay
// (replay.WriteHTML draws it): a frame per action with both fleets where
// they are then (1-decks move), the action in words (Render's line), the
// cells it fired at and the 1-deck it moved, and the actor's decision when
// recorded. A false-missed cell stays a ship cell ('O') until it is hit.
func HTML(rp *Replay) (*replay.HTMLData, error) {
	r, err := rp.Rules()
	if err != nil {
		return nil, err
	}
	b := r.Base.Board
	h := &rp.Header
	who := func(s int) string { return replay.SeatName(h.Players[s]) }
	d := bsrecord.NewHTMLData(Name, b, who, r.Base.Fleet)
	var head bytes.Buffer
	fmt.Fprintf(&head, "%s: %s, fleet %s, sides %s (seat 0) and %s (seat 1)\n", h.Game, replay.BoardShape(b), battleship.FormatFleet(r.Base.Fleet), h.Sides[0], h.Sides[1])
	replay.WriteSeed(&head, h.Seed, h.Match)
	fmt.Fprintln(&head)
	replay.WriteSeats(&head, h.First, "acts first", who)
	d.Header = strings.Split(strings.TrimSpace(head.String()), "\n")
	var res bytes.Buffer
	shots := fmt.Sprintf("cells fired at %d (seat 0) and %d (seat 1)", rp.Result.Shots[0], rp.Result.Shots[1])
	switch rp.Result.Outcome {
	case replay.OutcomeDraw:
		fmt.Fprintf(&res, "result: draw; %s\n", shots)
	case replay.OutcomeAborted:
		fmt.Fprintf(&res, "result: aborted by the server; %s\n", shots)
	default:
		fmt.Fprintf(&res, "result: seat %d %s wins; %s\n", rp.Result.Winner, who(rp.Result.Winner), shots)
	}
	replay.WriteForfeits(&res, rp.Result.Forfeits, who)
	d.Result = strings.TrimSpace(res.String())
	var falseMiss [2]grid.Set // by seat: its cells answered "miss" and not hit since
	_, err = rp.replay(func(g *abilities.Game, l *Action, st *abilities.Step) {
		seat, text, why := -1, "start", (*explain.Decision)(nil)
		if st != nil {
			seat, text, why = st.Seat, abStepText(b, st), l.Decision
			def := 1 - st.Views[0].Attacker
			for _, c := range st.Views[def].Cells {
				if c.FalseMiss {
					falseMiss[def].Add(c.At)
				} else if c.Outcome != battleship.Miss {
					falseMiss[def].Remove(c.At)
				}
			}
		}
		d.AddFrame(len(d.Frames), seat, text, why, func(s int) replay.HTMLBoard {
			hb := abHTMLBoard(g, s, falseMiss[s])
			if st == nil {
				return hb
			}
			if v := st.Views[s]; s == st.Seat && v.Mine && v.Moved {
				hb.Moved = []int{int(v.From), int(v.To)}
			}
			if def := 1 - st.Views[0].Attacker; s == def && len(st.Views[def].Cells) > 0 {
				hb.Shot = int(st.Views[def].Cells[0].At)
			}
			return hb
		})
	})
	if err != nil {
		return nil, err
	}
	return d, nil
}

// abHTMLBoard is seat's fleet in g: O ship, x hit, # sunk ship, o miss,
// . sea, - rock (fm: its false-missed cells, still undamaged).
func abHTMLBoard(g *abilities.Game, seat int, fm grid.Set) replay.HTMLBoard {
	b := g.Rules().Base.Board
	cells := make([]byte, b.Size())
	for c := range cells {
		cells[c] = '.'
		if !b.IsUsable(grid.Cell(c)) {
			cells[c] = '-'
		}
	}
	shot := g.Shot(seat)
	for c := range shot.All() {
		cells[c] = 'o'
	}
	hb := replay.HTMLBoard{Shot: -1}
	for i, sh := range g.Ships(seat) {
		left := 0
		for _, c := range sh {
			switch {
			case !g.Afloat(seat, i):
				cells[c] = '#'
			case shot.Has(c) && !fm.Has(c):
				cells[c] = 'x'
			default:
				cells[c] = 'O'
				left++
			}
		}
		hb.HP = append(hb.HP, [2]int{len(sh), left})
	}
	hb.Cells = string(cells)
	return hb
}
