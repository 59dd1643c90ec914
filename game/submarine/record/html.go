package record

import (
	"fmt"
	"strconv"

	"github.com/kaisen-ai/kaisen/belief"
	"github.com/kaisen-ai/kaisen/explain"
	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/game/submarine"
	"github.com/kaisen-ai/kaisen/replay"
)

// HTML returns the data of rp's HTML replay. It verifies the replay on the
// way (Rerun.HTMLFrames) and fails (with replay.ErrMismatch) rather than draw a
// game the rules do not allow; a game that never started has the header
// and the result only.
func HTML(rp *Replay) (*replay.HTMLData, error) {
	r, err := rp.Rules()
	if err != nil {
		return nil, err
	}
	b := r.Board
	rd := newRenderer(r, rp)
	ships := make([]string, len(r.Fleet))
	for i, s := range r.Fleet {
		ships[i] = s.Name
	}
	d := replay.NewHTMLData(Name, b, func(x int) string { return grid.ColumnName(x, false) },
		func(y int) string { return strconv.Itoa(y + 1) }, rd.who, ships,
		[][2]string{{"letters", "ships"}, {".", "sea"}, {"#", "rock"}, {"x", "sunk ship"}})
	d.Header = replay.HeaderLines(rd.header, Legend)
	for s := range 2 {
		// What the opponent can know: exact when the board allows it.
		if j, err := belief.NewJoint(r, 0); err == nil {
			rd.exposure[s] = j
		}
	}
	d.SetResult(rd.result)
	rr, err := rp.rerun()
	if err != nil {
		return nil, err
	}
	var trackErr error
	err = rr.HTMLFrames(d, func(f *frame) (int, string, *explain.Decision) {
		if trackErr == nil {
			trackErr = rd.track(f)
		}
		return f.St.Seat, fmt.Sprintf("#%d seat %d %s %s", f.N, f.St.Seat, rd.who(f.St.Seat), rd.describe(f)), f.Line.Decision
	}, rd.htmlBoard)
	if err != nil {
		return nil, err
	}
	if trackErr != nil {
		// The exact belief gave up (it never should on a verified
		// replay): draw the game without it rather than not at all.
		for i := range d.Frames {
			for s := range 2 {
				d.Frames[i].Boards[s].Known = nil
			}
		}
	}
	return d, nil
}

// htmlBoard is seat's fleet after frame f.
func (rd *renderer) htmlBoard(f *frame, seat int) replay.HTMLBoard {
	r, b := rd.r, rd.r.Board
	fl := f.Game.Fleet(seat)
	cells := make([]byte, b.Size())
	for c := range cells {
		cells[c] = rd.cellGlyph(&fl, seat, grid.Cell(c))
	}
	hb := replay.HTMLBoard{Cells: string(cells), Shot: -1}
	for i, s := range r.Fleet {
		hb.HP = append(hb.HP, [2]int{s.HP, max(int(fl.HP[i]), 0)})
	}
	if f.Line != nil && f.Err == nil {
		a := f.St.Action
		switch {
		case a.Kind == submarine.Attack && f.St.Seat != seat:
			hb.Shot = int(a.To)
			for c := range b.Around(a.To).All() {
				if c != a.To {
					hb.Near = append(hb.Near, int(c))
				}
			}
		case a.Kind == submarine.Move && f.St.Seat == seat:
			from := int(a.To) - f.St.Actor.DY*b.Width() - f.St.Actor.DX
			hb.Moved = []int{from, int(a.To)}
		}
	}
	if j := rd.exposure[seat]; j != nil {
		hb.Known = replay.Milli(j.CellProbs())
	}
	return hb
}
