package record

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/game/battleship"
	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/replay"
)

// When Render draws the boards (RenderOptions.Boards).
const (
	BoardsEnd  = "end"  // after the last shot shown (the default)
	BoardsTurn = "turn" // also after every turn: a turn ends when the shooter misses or repeats a cell
	BoardsShot = "shot" // also after every shot
)

// RenderOptions choose what Render draws.
type RenderOptions struct {
	// From and To are the shots shown (0 is the start, before any shot; To
	// < 0 means the last shot). The boards are always drawn after To.
	From, To int
	// Boards is when else to draw both boards: BoardsEnd ("" too),
	// BoardsTurn or BoardsShot. With BoardsTurn or BoardsShot and From 0,
	// the start position is drawn too.
	Boards string
	// Cyrillic names the columns а б в г д е ж з и к (then л м н ...)
	// instead of A B C ... J (then K L ...).
	Cyrillic bool
}

// Legend explains Render's board symbols.
const Legend = `legend: O ship, x hit, # sunk ship, o miss, . sea, - rock, [ ] the last shot;
        columns are letters, rows numbers from 1 (A1 is the top left corner);
        on the wire and in the replay file a cell is [row,col] from 0: C4 is [3,2]`

// Render draws rp for people: the header, every shot in words
// with letter+number coordinates (A1 is row 0, column 0: "at":[0,0]), both
// boards (ships, hits, misses, sunk ships) after the last shot shown and,
// as opt.Boards says, after every turn or shot, then the result. It
// verifies the replay on the way and fails (with replay.ErrMismatch) rather than
// draw a game the rules do not allow.
func Render(w io.Writer, rp *Replay, opt RenderOptions) error {
	r, to, err := replay.RenderStart(rp.Rules, opt.From, opt.To, len(rp.Shots), "shots")
	if err != nil {
		return err
	}
	switch opt.Boards {
	case "", BoardsEnd, BoardsTurn, BoardsShot:
	default:
		return fmt.Errorf("replay: render: boards %q: want %s, %s or %s", opt.Boards, BoardsEnd, BoardsTurn, BoardsShot)
	}
	rd := &bsRenderer{r: r, rp: rp, cyrillic: opt.Cyrillic}
	t := &replay.Text[*battleship.Game, battleship.Step, Shot]{Header: rd.header, Result: rd.result, Who: rd.who, Ends: to == len(rp.Shots)}
	for s := range 2 {
		p, err := rp.Placement(r, s)
		if err != nil {
			return err
		}
		switch {
		case rp.Placements[s].Ships == nil:
			t.Refused[s] = "placed no valid fleet: no fleet was placed"
		default:
			if err := r.ValidatePlacement(p); err != nil {
				t.Refused[s] = "placed no valid fleet: " + oneLine(err)
			}
		}
	}
	rr, err := rp.rerun()
	if err != nil {
		return err
	}
	listed := false // a shot line was written since the last boards
	t.Frame = func(w io.Writer, f *bsFrame) error {
		if f.N < opt.From || f.N > to {
			return nil
		}
		if f.Line != nil {
			if !listed {
				fmt.Fprintln(w)
			}
			rd.shotLine(w, f)
			listed = true
		}
		var draw bool
		switch {
		case f.N == to:
			draw = true
		case opt.Boards == BoardsShot:
			draw = true
		case opt.Boards == BoardsTurn:
			// The start, or a shot after which the other seat shoots.
			draw = f.Line == nil || f.N < len(rp.Shots) && rp.Shots[f.N].Seat != f.Line.Seat
		}
		if draw {
			rd.boards(w, f)
			listed = false
		}
		return nil
	}
	return rr.RenderText(w, t)
}

// bsFrame is the state after one shot, as the renderings draw it.
type bsFrame = replay.Frame[*battleship.Game, battleship.Step, Shot]

type bsRenderer struct {
	r        *battleship.Rules
	rp       *Replay
	cyrillic bool
}

// name is the letter+number name of a cell on the board, e.g. E5.
func (rd *bsRenderer) name(c grid.Cell) string { return rd.r.Coord(c, rd.cyrillic) }

func (rd *bsRenderer) who(seat int) string { return replay.SeatName(rd.rp.Header.Players[seat]) }

func (rd *bsRenderer) header(w io.Writer) {
	h := &rd.rp.Header
	fmt.Fprintf(w, "%s: %s, fleet %s, draw after %s\n",
		h.Game, replay.BoardShape(rd.r.Board), battleship.FormatFleet(rd.r.Fleet), replay.Plural(rd.r.DrawLimit, "shot"))
	replay.WriteSeed(w, h.Seed, h.Match)
	if h.Version != "" {
		fmt.Fprintf(w, ", recorded by kaisen %s", h.Version)
	}
	fmt.Fprintln(w)
	replay.WriteSeats(w, h.First, "shoots first", rd.who)
	legend := Legend
	if rd.cyrillic {
		legend = strings.NewReplacer("(A1 is", "(а1 is", "C4 is", "в4 is").Replace(legend)
	}
	fmt.Fprintln(w, legend)
}

// shipName names a ship by its end cells: "the 3-cell ship B2-B4".
func (rd *bsRenderer) shipName(cells []grid.Cell) string {
	return fmt.Sprintf("the %d-cell ship %s", len(cells), rd.r.ShipCoord(cells, rd.cyrillic))
}

// shotLine says in words what shot f.N did.
func (rd *bsRenderer) shotLine(w io.Writer, f *bsFrame) {
	st := &f.St
	b := rd.r.Board
	var sb strings.Builder
	fmt.Fprintf(&sb, "#%d seat %d %s shoots ", f.N, st.Seat, rd.who(st.Seat))
	switch {
	case f.Err != nil && st.At >= 0 && int(st.At) < b.Size():
		fmt.Fprintf(&sb, "%s, a rock: illegal, seat %d forfeits", rd.name(st.At), st.Seat)
	case f.Err != nil:
		fmt.Fprintf(&sb, "cell %d, off the board: illegal, seat %d forfeits", int(st.At), st.Seat)
	default:
		ev := st.Shooter
		sb.WriteString(rd.name(st.At))
		if ev.Repeat {
			sb.WriteString(" again")
		}
		sb.WriteString(": " + ev.Outcome.String())
		switch {
		case ev.Outcome == battleship.Kill && ev.Repeat:
			fmt.Fprintf(&sb, " (%s sank before)", rd.shipName(ev.Sunk))
		case ev.Outcome == battleship.Kill:
			fmt.Fprintf(&sb, ", %s sinks", rd.shipName(ev.Sunk))
			if n := f.Game.Sea(1 - st.Seat).Afloat(); n > 0 {
				fmt.Fprintf(&sb, " (%d afloat)", n)
			} else {
				sb.WriteString(", the last one")
			}
		}
		switch {
		case ev.Again && st.Status == game.Running:
			sb.WriteString("; shoots again")
		case ev.Repeat && ev.Outcome != battleship.Miss:
			sb.WriteString("; a cell shot before earns no extra shot")
		}
		if st.Status == game.Drawn {
			fmt.Fprintf(&sb, "; the draw limit of %s is reached", replay.Plural(rd.r.DrawLimit, "shot"))
		}
	}
	fmt.Fprintln(w, sb.String())
	if d := f.Line.Decision; d != nil {
		fmt.Fprintf(w, "   why: %s\n", replay.Summarize(d))
	}
}

// boards draws both seats' boards side by side after frame f.
func (rd *bsRenderer) boards(w io.Writer, f *bsFrame) {
	fmt.Fprintln(w)
	switch {
	case f.Line == nil:
		fmt.Fprintln(w, "start")
	case f.N == len(rd.rp.Shots):
		fmt.Fprintf(w, "after shot %d (the last)\n", f.N)
	default:
		fmt.Fprintf(w, "after shot %d\n", f.N)
	}
	replay.WriteSideBySide(w, rd.board(f, 0), rd.board(f, 1))
}

// board draws seat's fleet under the other seat's fire after frame f: its
// title, column letters, one line per row and what is still afloat.
func (rd *bsRenderer) board(f *bsFrame, seat int) []string {
	g := rd.glyphs(f, seat)
	var afloat []string
	for _, sh := range g.ships {
		for _, c := range sh {
			if !g.shot.Has(c) {
				afloat = append(afloat, strconv.Itoa(len(sh)))
				break
			}
		}
	}
	bb := Board{Title: fmt.Sprintf("seat %d: %s", seat, rd.who(seat)), Cells: g.cells, Last: grid.None}
	if f.Line != nil && f.St.Seat != seat {
		bb.Last = f.St.At
	}
	bb.Status = fmt.Sprintf("afloat %d/%d", len(afloat), len(rd.r.Fleet))
	if len(afloat) > 0 {
		bb.Status += ": " + strings.Join(afloat, " ")
	}
	return bb.Lines(rd.r.Board, rd.cyrillic)
}

// Board is one Battleship board drawn for people, as kaisen
// replay and the terminal seat of kaisen play --human draw it.
type Board struct {
	Title  string    // the line above the board
	Cells  []byte    // one glyph per cell index (Legend)
	Last   grid.Cell // the cell drawn in brackets (grid.None: none)
	Status string    // the line under the board
}

// Lines draws bb on board b: the title, the column letters (Cyrillic ones
// with cyrillic), one line per row numbered from 1, the status.
func (bb Board) Lines(b *grid.Board, cyrillic bool) []string {
	labelW := len(strconv.Itoa(b.Height()))
	lines := []string{bb.Title}
	var sb strings.Builder
	sb.WriteString(strings.Repeat(" ", labelW+1))
	for x := range b.Width() {
		name := battleship.ColumnName(x, cyrillic)
		sb.WriteString(" " + name + strings.Repeat(" ", max(0, 2-utf8.RuneCountInString(name))))
	}
	lines = append(lines, strings.TrimRight(sb.String(), " "))
	for y := range b.Height() {
		sb.Reset()
		fmt.Fprintf(&sb, "%*d ", labelW, y+1)
		for x := range b.Width() {
			c, _ := b.At(x, y)
			ch := bb.Cells[c]
			if c == bb.Last {
				sb.WriteString("[" + string(ch) + "]")
			} else {
				sb.WriteString(" " + string(ch) + " ")
			}
		}
		lines = append(lines, strings.TrimRight(sb.String(), " "))
	}
	return append(lines, bb.Status)
}

func (rd *bsRenderer) result(w io.Writer) {
	res := &rd.rp.Result
	fmt.Fprintln(w)
	shots := fmt.Sprintf("shots %d (seat 0) and %d (seat 1)", res.Shots[0], res.Shots[1])
	switch res.Outcome {
	case replay.OutcomeDraw:
		fmt.Fprintf(w, "result: draw; %s\n", shots)
	case replay.OutcomeAborted:
		fmt.Fprintf(w, "result: aborted by the server; %s\n", shots)
	default:
		fmt.Fprintf(w, "result: seat %d %s wins; %s\n", res.Winner, rd.who(res.Winner), shots)
	}
	replay.WriteForfeits(w, res.Forfeits, rd.who)
}

// oneLine joins a (possibly joined) error's lines with "; ".
func oneLine(err error) string {
	return strings.ReplaceAll(err.Error(), "\n", "; ")
}
