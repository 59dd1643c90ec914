package record

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/kaisen-ai/kaisen/belief"
	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/game/submarine"
	"github.com/kaisen-ai/kaisen/replay"
)

// RenderOptions choose the part of a game Render draws: the positions after
// actions From to To (0 is the initial position; To < 0 means the last one).
type RenderOptions struct {
	From, To int
	// Heatmap adds under each board what the opponent can know of that
	// fleet: the probability, in percent, that a living ship is on each cell,
	// exact over every placement consistent with what the opponent was told
	// (package belief).
	Heatmap bool
	// Fold, when 2 or more, draws every run of at least Fold actions in a
	// row without a hit (moves and misses) as one line, then the position
	// at the run's last action (FoldStretches).
	Fold int
}

// Legend explains Render's board symbols.
const Legend = `legend: letters are ships (fleet order), . sea, # rock, x sunk ship,
        [ ] the attacked cell, ~ the sea around it (where "near" looks),
        ( ) the ship that moved and the cell it left;
        columns are letters, rows numbers from 1 (A1 is the top left corner);
        on the wire and in the replay file a cell is [x,y] from 0: C4 is [2,3]`

// Render draws rp as ASCII boards, both fleets side by side, one frame per
// action: the attacked cell with its hit and splash area, each move with its
// displacement, and the hp left. It verifies the replay on the way and fails
// (with replay.ErrMismatch) rather than draw a game the rules do not allow.
func Render(w io.Writer, rp *Replay, opt RenderOptions) error {
	r, to, err := replay.RenderStart(rp.Rules, opt.From, opt.To, len(rp.Steps), "actions")
	if err != nil {
		return err
	}
	rd := newRenderer(r, rp)
	if opt.Heatmap {
		for s := range 2 {
			if rd.exposure[s], err = belief.NewJoint(r, 0); err != nil {
				return fmt.Errorf("replay: heatmap: %w", err)
			}
		}
	}
	t := &replay.Text[*submarine.Game, submarine.Step, Step]{Header: rd.header, Result: rd.result, Who: rd.who, Ends: to == len(rp.Steps)}
	for s := range 2 {
		if r.ValidatePlacement(rp.Placement(r, s)) != nil {
			t.Refused[s] = fmt.Sprintf("placed its fleet illegally: %v", rp.Placements[s].Cells)
		}
	}
	rr, err := rp.rerun()
	if err != nil {
		return err
	}
	folds := FoldStretches(rp, opt.Fold, opt.From, to)
	var trackErr error
	t.Frame = func(w io.Writer, f *frame) error {
		if f.Line != nil && trackErr == nil {
			trackErr = rd.track(f)
		}
		for len(folds) > 0 && folds[0][1] < f.N {
			folds = folds[1:]
		}
		if len(folds) > 0 && f.N >= folds[0][0] && f.N < folds[0][1] {
			if f.N == folds[0][0] {
				rd.folded(w, folds[0])
			}
			return trackErr
		}
		if f.N >= opt.From && f.N <= to {
			rd.frame(w, f)
		}
		return trackErr
	}
	return rr.RenderText(w, t)
}

// frame is the state after one step, as the renderings draw it.
type frame = replay.Frame[*submarine.Game, submarine.Step, Step]

type renderer struct {
	r        *submarine.Rules
	rp       *Replay
	glyph    []byte
	cellW    int
	sunkAt   [2][submarine.MaxShips]grid.Cell
	exposure [2]*belief.Joint // seat s's fleet as the opponent knows it (Heatmap)
}

func newRenderer(r *submarine.Rules, rp *Replay) *renderer {
	rd := &renderer{r: r, rp: rp, glyph: shipGlyphs(r)}
	rd.cellW = max(3, len(strconv.Itoa(r.Board.Width()-1))+1)
	for s := range rd.sunkAt {
		for i := range rd.sunkAt[s] {
			rd.sunkAt[s][i] = grid.None
		}
	}
	return rd
}

// shipGlyphs picks one character per ship: the first character of its name
// when that is an ASCII letter or digit, unique in the fleet and not a board
// symbol; otherwise the ship's fleet index.
func shipGlyphs(r *submarine.Rules) []byte {
	g := make([]byte, len(r.Fleet))
	count := map[byte]int{}
	for _, s := range r.Fleet {
		count[s.Name[0]]++
	}
	for i, s := range r.Fleet {
		c := s.Name[0]
		ok := (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') && c != 'x' && count[c] == 1
		if !ok {
			c = byte('0' + i)
		}
		g[i] = c
	}
	return g
}

func (rd *renderer) who(seat int) string { return replay.SeatName(rd.rp.Header.Players[seat]) }

func (rd *renderer) header(w io.Writer) {
	h := &rd.rp.Header
	r := rd.r
	fmt.Fprintf(w, "%s: %s, fleet %s, draw after %s\n",
		h.Game, replay.BoardShape(r.Board), fleetNames(r), replay.Plural(r.DrawLimit, "action"))
	replay.WriteSeed(w, h.Seed, h.Match)
	fmt.Fprintf(w, ", recorded by kaisen %s\n", h.Version)
	replay.WriteSeats(w, h.First, "acts first", rd.who)
	var names []string
	for i, s := range r.Fleet {
		if string(rd.glyph[i]) != s.Name {
			names = append(names, fmt.Sprintf("%c = %s", rd.glyph[i], s.Name))
		}
	}
	fmt.Fprintln(w, Legend)
	if len(names) > 0 {
		fmt.Fprintf(w, "ships: %s\n", strings.Join(names, ", "))
	}
}

// track remembers where ships sank, to draw their wrecks, and updates the
// beliefs of the heatmap.
func (rd *renderer) track(f *frame) error {
	st := &f.St
	if f.Err == nil && st.Action.Kind == submarine.Attack && st.Actor.Sunk {
		rd.sunkAt[1-st.Seat][st.Actor.Hit] = st.Action.To
	}
	for s, j := range rd.exposure {
		if j == nil {
			continue
		}
		ev := st.Other
		if s == st.Seat {
			ev = st.Actor
		}
		if err := j.Observe(ev, belief.Own); err != nil {
			return fmt.Errorf("replay: heatmap: step %d: %w", f.N, err)
		}
	}
	return nil
}

func (rd *renderer) frame(w io.Writer, f *frame) {
	fmt.Fprintln(w)
	if f.Line == nil {
		fmt.Fprintln(w, "start")
	} else {
		fmt.Fprintf(w, "#%d seat %d %s %s\n", f.N, f.St.Seat, rd.who(f.St.Seat), rd.describe(f))
		if d := f.Line.Decision; d != nil {
			fmt.Fprintf(w, "   why: %s\n", replay.Summarize(d))
		}
	}
	var boards [2][]string
	width := 0
	for s := range 2 {
		boards[s] = rd.board(f, s)
		for _, l := range boards[s] {
			width = max(width, len(l))
		}
	}
	for i := range boards[0] {
		fmt.Fprintf(w, "%-*s    %s\n", width, boards[0][i], boards[1][i])
	}
}

// FoldStretches returns the runs of at least n actions in a row without a
// hit (a move, a miss) among actions from to to of rp, as [first, last]
// action numbers (none when n < 2): Render's Fold.
func FoldStretches(rp *Replay, n, from, to int) [][2]int {
	if n < 2 {
		return nil
	}
	ev := make([]replay.Event, len(rp.Steps)+1)
	for i, st := range rp.Steps {
		if st.Actor.Hit != "" || st.Error != "" {
			ev[i+1] = replay.EventHit // not quiet: a hit, or the illegal end
		}
	}
	var out [][2]int
	for _, s := range replay.QuietStretches(ev, n) {
		s = [2]int{max(s[0], from), min(s[1], to)}
		if s[1]-s[0]+1 >= n {
			out = append(out, s)
		}
	}
	return out
}

// folded writes the line that stands for the actions of a folded run but
// its last one.
func (rd *renderer) folded(w io.Writer, run [2]int) {
	var attacks, moves int
	for _, st := range rd.rp.Steps[run[0]-1 : run[1]-1] {
		if st.Action.Kind == submarine.Move.String() {
			moves++
		} else {
			attacks++
		}
	}
	fmt.Fprintf(w, "\n#%d to #%d: %s without a hit (%s, %s), folded (--fold 0 draws them)\n",
		run[0], run[1]-1, replay.Plural(run[1]-run[0], "action"), replay.Plural(attacks, "missed attack"), replay.Plural(moves, "move"))
}

func (rd *renderer) pos(c grid.Cell) string { return rd.r.CellName(c) }

func signed(v int) string {
	if v > 0 {
		return "+" + strconv.Itoa(v)
	}
	return strconv.Itoa(v)
}

// describe says in words what the step did.
func (rd *renderer) describe(f *frame) string {
	st := &f.St
	r := rd.r
	if f.Err != nil {
		return fmt.Sprintf("makes an illegal %s and forfeits: %s", st.Action.Kind, f.Line.Error)
	}
	ev := st.Actor
	switch st.Action.Kind {
	case submarine.Attack:
		var sb strings.Builder
		fmt.Fprintf(&sb, "attacks %s: ", rd.pos(st.Action.To))
		if ev.Hit == submarine.NoShip {
			sb.WriteString("miss")
		} else {
			fmt.Fprintf(&sb, "hit %s", r.Fleet[ev.Hit].Name)
			if ev.Sunk {
				sb.WriteString(", sunk")
			} else {
				v := f.Game.View(1 - st.Seat)
				fmt.Fprintf(&sb, " (%d hp left)", v.Me.HP[ev.Hit])
			}
		}
		var near []string
		for i := range len(r.Fleet) {
			if ev.Near.Has(i) {
				near = append(near, r.Fleet[i].Name)
			}
		}
		if len(near) > 0 {
			fmt.Fprintf(&sb, "; near: %s", strings.Join(near, " "))
		} else {
			sb.WriteString("; nothing near")
		}
		return sb.String()
	case submarine.Move:
		from := grid.Cell(int(st.Action.To) - ev.DY*r.Board.Width() - ev.DX)
		return fmt.Sprintf("moves %s %s -> %s (the enemy sees %s moved [%s,%s])",
			r.Fleet[st.Action.Ship].Name, rd.pos(from), rd.pos(st.Action.To),
			r.Fleet[st.Action.Ship].Name, signed(ev.DX), signed(ev.DY))
	}
	return st.Action.Kind.String()
}

// board draws seat's board after frame f, with its title and hp line.
func (rd *renderer) board(f *frame, seat int) []string {
	r, b := rd.r, rd.r.Board
	fl := f.Game.Fleet(seat)
	cw := rd.cellW
	labelW := len(strconv.Itoa(b.Height()))
	lines := []string{fmt.Sprintf("seat %d: %s", seat, rd.who(seat))}

	var sb strings.Builder
	sb.WriteString(strings.Repeat(" ", labelW+1))
	for x := range b.Width() {
		fmt.Fprintf(&sb, "%*s ", cw-1, grid.ColumnName(x, false)) // the last letter above the ship letter
	}
	lines = append(lines, strings.TrimRight(sb.String(), " "))

	// Marks of this frame's action.
	attacked, splash := grid.None, grid.Set{}
	moved, left := grid.None, grid.None
	if f.Line != nil && f.Err == nil {
		a := f.St.Action
		switch {
		case a.Kind == submarine.Attack && f.St.Seat != seat:
			attacked = a.To
			splash = b.Around(a.To)
		case a.Kind == submarine.Move && f.St.Seat == seat:
			moved = a.To
			left = grid.Cell(int(a.To) - f.St.Actor.DY*b.Width() - f.St.Actor.DX)
		}
	}
	for y := range b.Height() {
		sb.Reset()
		fmt.Fprintf(&sb, "%*d ", labelW, y+1)
		for x := range b.Width() {
			c, _ := b.At(x, y)
			g := rd.cellGlyph(&fl, seat, c)
			if g == '.' && splash.Has(c) && c != attacked {
				g = '~'
			}
			open, shut := byte(' '), byte(' ')
			switch c {
			case attacked:
				open, shut = '[', ']'
			case moved, left:
				open, shut = '(', ')'
				if c == left && g == '.' {
					g = ' '
				}
			}
			sb.WriteString(strings.Repeat(" ", cw-3))
			sb.WriteByte(open)
			sb.WriteByte(g)
			sb.WriteByte(shut)
		}
		lines = append(lines, strings.TrimRight(sb.String(), " "))
	}
	sb.Reset()
	sb.WriteString("hp")
	for i, s := range r.Fleet {
		if fl.HP[i] > 0 {
			fmt.Fprintf(&sb, " %s%d", s.Name, fl.HP[i])
		} else {
			fmt.Fprintf(&sb, " %s-", s.Name)
		}
	}
	lines = append(lines, sb.String())
	if j := rd.exposure[seat]; j != nil {
		lines = append(lines, fmt.Sprintf("seat %d's belief, %% ship:", 1-seat))
		heat := strings.TrimSuffix(belief.Heatmap(b, j.CellProbs(), belief.Percent), "\n")
		for y, row := range strings.Split(heat, "\n") {
			lines = append(lines, fmt.Sprintf("%*d %s", labelW, y, row))
		}
	}
	return lines
}

// cellGlyph is c on seat's board: # rock, the ship's glyph, x a wreck, .
// sea.
func (rd *renderer) cellGlyph(fl *submarine.Fleet, seat int, c grid.Cell) byte {
	switch {
	case !rd.r.Board.IsUsable(c):
		return '#'
	case fl.ShipAt(c) != submarine.NoShip:
		return rd.glyph[fl.ShipAt(c)]
	case rd.wreck(seat, c):
		return 'x'
	}
	return '.'
}

func (rd *renderer) wreck(seat int, c grid.Cell) bool {
	for _, at := range rd.sunkAt[seat] {
		if at == c {
			return true
		}
	}
	return false
}

func (rd *renderer) result(w io.Writer) {
	res := &rd.rp.Result
	fmt.Fprintln(w)
	switch {
	case res.Outcome == replay.OutcomeDraw && res.Adjudicated != "":
		fmt.Fprintf(w, "result: draw after %s (adjudicated: %s; %s)\n", replay.Plural(res.Actions, "action"),
			res.Adjudicated, rd.rp.Header.Adjudication)
	case res.Outcome == replay.OutcomeDraw:
		fmt.Fprintf(w, "result: draw after %s\n", replay.Plural(res.Actions, "action"))
	case res.Outcome == replay.OutcomeAborted:
		fmt.Fprintf(w, "result: aborted by the server after %s\n", replay.Plural(res.Actions, "action"))
	default:
		fmt.Fprintf(w, "result: seat %d %s wins after %s\n", res.Winner, rd.who(res.Winner), replay.Plural(res.Actions, "action"))
	}
	replay.WriteForfeits(w, res.Forfeits, rd.who)
}
