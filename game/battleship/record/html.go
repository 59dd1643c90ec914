package record

import (
	"bytes"
	"strconv"
	"strings"

	"github.com/kaisen-ai/kaisen/explain"
	"github.com/kaisen-ai/kaisen/game/battleship"
	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/replay"
)

// HTML returns the data of rp's HTML replay; like Render it verifies the
// replay on the way. A game that never started has the header and the
// result only.
func HTML(rp *Replay) (*replay.HTMLData, error) {
	r, err := rp.Rules()
	if err != nil {
		return nil, err
	}
	rd := &bsRenderer{r: r, rp: rp}
	d := NewHTMLData(Name, r.Board, rd.who, r.Fleet)
	d.Header = replay.HeaderLines(rd.header, Legend)
	d.SetResult(rd.result)
	rr, err := rp.rerun()
	if err != nil {
		return nil, err
	}
	if err := rr.HTMLFrames(d, rd.htmlShot, rd.htmlBoard); err != nil {
		return nil, err
	}
	return d, nil
}

// htmlShot is frame f's shot as the HTML replay tells it: the shooter,
// the first line of shotLine and the shooter's decision.
func (rd *bsRenderer) htmlShot(f *bsFrame) (int, string, *explain.Decision) {
	var line bytes.Buffer
	rd.shotLine(&line, f)
	text, _, _ := strings.Cut(line.String(), "\n")
	return f.St.Seat, text, f.Line.Decision
}

// htmlBoard is seat's fleet under the other seat's fire after frame f.
func (rd *bsRenderer) htmlBoard(f *bsFrame, seat int) replay.HTMLBoard {
	g := rd.glyphs(f, seat)
	hb := replay.HTMLBoard{Cells: string(g.cells), Shot: -1}
	for _, sh := range g.ships {
		left := 0
		for _, c := range sh {
			if !g.shot.Has(c) {
				left++
			}
		}
		hb.HP = append(hb.HP, [2]int{len(sh), left})
	}
	if f.Line != nil && f.St.Seat != seat && f.Err == nil {
		hb.Shot = int(f.St.At)
	}
	return hb
}

// bsGlyphs is one seat's board as the ASCII view draws it.
type bsGlyphs struct {
	cells []byte               // one glyph per cell index
	ships battleship.Placement // the seat's fleet
	shot  grid.Set             // the cells the other seat shot
}

// glyphs draws seat's board after frame f: O ship, x hit, # sunk ship, o
// miss, . sea, - rock.
func (rd *bsRenderer) glyphs(f *bsFrame, seat int) bsGlyphs {
	b := rd.r.Board
	sea := f.Game.Sea(seat)
	out := bsGlyphs{cells: make([]byte, b.Size()), ships: sea.Ships(), shot: sea.Shot()}
	ship := make([]int, b.Size()) // ship index + 1, 0 for water
	var sunk grid.Set
	for i, sh := range out.ships {
		all := true
		for _, c := range sh {
			ship[c] = i + 1
			all = all && out.shot.Has(c)
		}
		if all {
			for _, c := range sh {
				sunk.Add(c)
			}
		}
	}
	for c := range out.cells {
		cell := grid.Cell(c)
		g := byte('.')
		switch {
		case !b.IsUsable(cell):
			g = '-'
		case ship[c] > 0 && sunk.Has(cell):
			g = '#'
		case ship[c] > 0 && out.shot.Has(cell):
			g = 'x'
		case ship[c] > 0:
			g = 'O'
		case out.shot.Has(cell):
			g = 'o'
		}
		out.cells[c] = g
	}
	return out
}

// NewHTMLData starts the HTML data of a game on a Battleship board b
// (replay.NewHTMLData): columns A, B, ..., rows from 1, the ships by length.
func NewHTMLData(game string, b *grid.Board, who func(seat int) string, fleet []int) *replay.HTMLData {
	ships := make([]string, len(fleet))
	for i, l := range fleet {
		ships[i] = strconv.Itoa(l)
	}
	return replay.NewHTMLData(game, b, func(x int) string { return battleship.ColumnName(x, false) },
		func(y int) string { return strconv.Itoa(y + 1) }, who, ships,
		[][2]string{{"O", "ship"}, {"x", "hit"}, {"#", "sunk ship"}, {"o", "miss"}, {".", "sea"}, {"-", "rock"}})
}
