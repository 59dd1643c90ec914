package jsonrecord

import (
	"bytes"
	"fmt"
	"slices"
	"strings"

	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/replay"
)

// Legend are the glyphs of the boards of an HTML page: Battleship's
// (replay/html draws them as it draws a Battleship board).
var Legend = [][2]string{{"O", "ship"}, {"x", "hit"}, {"#", "sunk ship"}, {"o", "miss"}, {".", "sea"}, {"-", "rock"}}

// HTML returns the data of rp's HTML replay (replay.WriteHTML), drawn from
// the game's public view (view: game.View) as the spectators see the game,
// with both fleets shown as the view reveals them: each action in the
// view's words, the cells it attacked on the other seat's board (hits,
// misses, sunk ships), the counters after it and the actor's recorded
// reasons. It verifies rp on the way. A game that never started (an
// invalid placement) has no board to draw: an error.
func HTML[G game.State[A, S], P, A, S any](rp *Replay, rules Rules[G, P, A, S], view func(G) game.View[S]) (*replay.HTMLData, error) {
	rr, err := Rerun(rp, rules)
	if err != nil {
		return nil, err
	}
	var (
		d *replay.HTMLData
		b htmlBoards[G, S]
	)
	err = rr.Frames(func(f *replay.Frame[G, S, Action]) {
		if f.Line == nil {
			b.start(view(f.Game))
			d = b.data(rp)
			d.AddFrame(0, -1, "start", nil, b.board)
			return
		}
		text := b.see(f)
		d.AddFrame(f.N, f.Line.Seat, text, f.Line.Decision, b.board)
	})
	if err != nil {
		return nil, err
	}
	if d == nil {
		return nil, fmt.Errorf("%s: the game never started (%s): no board to draw", rp.Header.Game, Summary(rp))
	}
	return d, nil
}

// htmlBoards are both seats' boards as a page draws them, frame by frame.
type htmlBoards[G, S any] struct {
	v     game.View[S]
	pub   game.Public
	marks [2][]byte   // by seat: the glyphs of that seat's board, its fleet left out
	hp    [2][][2]int // by seat: each counter at the start and now
	shot  [2]int      // by seat: the cell the frame's action attacked on it
}

func (b *htmlBoards[G, S]) start(v game.View[S]) {
	b.v, b.pub = v, v.Public()
	n := b.pub.Board.Width() * b.pub.Board.Height()
	for s := range 2 {
		b.marks[s] = slices.Repeat([]byte{'.'}, n)
		for _, c := range b.pub.Board.Rocks() {
			b.marks[s][c] = '-'
		}
		b.hp[s] = b.hp[s][:0]
		for _, h := range b.pub.HP {
			b.hp[s] = append(b.hp[s], [2]int{h, h})
		}
	}
	b.shot = [2]int{-1, -1}
}

// data is the page's data before its frames.
func (b *htmlBoards[G, S]) data(rp *Replay) *replay.HTMLData {
	pub := b.pub
	name := func(names []string, i int) string {
		if i < len(names) {
			return names[i]
		}
		return fmt.Sprint(i)
	}
	who := func(seat int) string {
		p := rp.Header.Players[seat]
		if p.Role != "" {
			return p.Name + " (" + p.Role + ")"
		}
		return p.Name
	}
	d := replay.NewHTMLData(rp.Header.Game, pub.Board, func(x int) string { return name(pub.Cols, x) },
		func(y int) string { return name(pub.Rows, y) }, who, pub.Ships, Legend)
	var h bytes.Buffer
	renderHeader(&h, rp)
	d.Header = strings.Split(strings.TrimRight(h.String(), "\n"), "\n")
	d.Result = Summary(rp)
	return d
}

// see takes frame f's action into the boards and returns it in words.
func (b *htmlBoards[G, S]) see(f *replay.Frame[G, S, Action]) string {
	b.shot = [2]int{-1, -1}
	var e game.Seen
	if !b.v.See(&f.St, f.Err, &e) {
		return "(nothing public)"
	}
	on := 1 - e.Seat // the board the action played on
	if on < 0 || on > 1 {
		return e.Text
	}
	mark := func(c grid.Cell, hit bool) {
		if c >= 0 && int(c) < len(b.marks[on]) {
			b.marks[on][c] = 'o'
			if hit {
				b.marks[on][c] = 'x'
			}
			b.shot[on] = int(c)
		}
	}
	if e.At != grid.None {
		mark(e.At, e.Hit)
	}
	for _, sh := range e.Shots {
		if !sh.Blocked {
			mark(sh.At, sh.Hit)
		}
	}
	for _, c := range e.Sunk {
		if c >= 0 && int(c) < len(b.marks[on]) {
			b.marks[on][c] = '#'
		}
	}
	for s := range 2 {
		for i, h := range e.HP[s] {
			if i < len(b.hp[s]) {
				b.hp[s][i][1] = h
			}
		}
	}
	return e.Text
}

// board is seat's board in the frame: its marks, its fleet where nothing
// marks the cell, its counters and the cell attacked.
func (b *htmlBoards[G, S]) board(seat int) replay.HTMLBoard {
	cells := slices.Clone(b.marks[seat])
	for _, c := range b.v.Fleets()[seat] {
		if c >= 0 && int(c) < len(cells) && cells[c] == '.' {
			cells[c] = 'O'
		}
	}
	return replay.HTMLBoard{Cells: string(cells), HP: slices.Clone(b.hp[seat]), Shot: b.shot[seat]}
}
