package replay

import (
	"bufio"
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/kaisen-ai/kaisen/belief"
	"github.com/kaisen-ai/kaisen/explain"
	"github.com/kaisen-ai/kaisen/game/battleship"
	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/game/submarine"
)

// The HTML replay: one self-contained page (html/replay.html with the
// script html/replay.js and the style html/replay.css inlined, and the game
// as a JSON data section built here). The page needs no network.
//
//go:embed html/replay.html html/replay.js html/replay.css
var htmlAssets embed.FS

var htmlPage = template.Must(template.ParseFS(htmlAssets, "html/replay.html"))

// HTMLData is the data section of an HTML replay: everything the page shows,
// frame by frame, computed here so that the page's script only draws.
type HTMLData struct {
	Game    string      `json:"game"`    // GameSubmarine or GameBattleship
	W       int         `json:"w"`       // board width
	H       int         `json:"h"`       // board height
	Cols    []string    `json:"cols"`    // column labels
	Rows    []string    `json:"rows"`    // row labels
	Players [2]string   `json:"players"` // by seat, with the role in a match
	Header  []string    `json:"header"`  // the ASCII view's header lines, without the legend
	Legend  [][2]string `json:"legend"`  // board glyph and its meaning
	Ships   []string    `json:"ships"`   // ship names in fleet order (Battleship: lengths)
	Frames  []HTMLFrame `json:"frames"`  // the start, then one per action or shot
	Result  string      `json:"result"`  // the result in words
}

// HTMLFrame is the position after one action (Frames[0] is the start).
type HTMLFrame struct {
	N      int          `json:"n"`             // action or shot number (0: the start)
	Seat   int          `json:"seat"`          // who acted (-1 at the start)
	Text   string       `json:"text"`          // what happened, in words
	Why    string       `json:"why,omitempty"` // the actor's recorded Decision, summarised
	Boards [2]HTMLBoard `json:"boards"`        // by seat: that seat's fleet
	// Heat is the actor's recorded heatmaps (explain.Mapper) when it chose
	// this action, values in thousandths.
	Heat []HTMLHeat `json:"heat,omitempty"`
}

// HTMLBoard is one seat's fleet in a frame.
type HTMLBoard struct {
	// Cells has one glyph per cell index (see HTMLData.Legend).
	Cells string `json:"cells"`
	// HP is, per ship, [hp at the start, hp left] (Battleship: [length,
	// cells not hit]).
	HP [][2]int `json:"hp"`
	// Shot is the cell the frame's action hit on this board (-1: none);
	// Near the cells around it (submarine: where "near" looks).
	Shot int   `json:"shot"`
	Near []int `json:"near,omitempty"`
	// Moved is a move on this board: [from, to].
	Moved []int `json:"moved,omitempty"`
	// Known is what the opponent can know of this fleet (submarine): the
	// exact probability, in thousandths, that a living ship is on each cell,
	// over every placement consistent with what the opponent was told.
	Known []int `json:"known,omitempty"`
}

// HTMLHeat is one recorded explain.Heatmap, values in thousandths.
type HTMLHeat struct {
	Name  string `json:"name"`
	Side  string `json:"side"`
	Cells []int  `json:"cells"`
}

func milli(p []float64) []int {
	out := make([]int, len(p))
	for i, v := range p {
		if !math.IsNaN(v) {
			out[i] = int(math.Round(min(max(v, 0), 1) * 1000))
		}
	}
	return out
}

func htmlHeat(d *explain.Decision, w, h int) []HTMLHeat {
	if d == nil {
		return nil
	}
	var out []HTMLHeat
	for _, hm := range d.Heatmaps {
		if hm.W != w || hm.H != h || len(hm.Cells) != w*h {
			continue // drawn on another board: not this game's
		}
		out = append(out, HTMLHeat{Name: hm.Name, Side: hm.Side, Cells: milli(hm.Cells)})
	}
	return out
}

func htmlWhy(d *explain.Decision) string {
	if d == nil {
		return ""
	}
	return Summarize(d)
}

// headerLines is what header writes, one string per line, the legend left out.
func headerLines(header func(io.Writer), legend string) []string {
	var b strings.Builder
	header(&b)
	text := strings.Replace(b.String(), legend+"\n", "", 1)
	return strings.Split(strings.TrimRight(text, "\n"), "\n")
}

// WriteHTML writes data as a self-contained HTML page.
func WriteHTML(w io.Writer, data *HTMLData) error {
	js, err := htmlAssets.ReadFile("html/replay.js")
	if err != nil {
		return err
	}
	css, err := htmlAssets.ReadFile("html/replay.css")
	if err != nil {
		return err
	}
	raw, err := json.Marshal(data) // escapes <, > and &: safe inside <script>
	if err != nil {
		return err
	}
	title := fmt.Sprintf("%s: %s vs %s", data.Game, data.Players[0], data.Players[1])
	bw := bufio.NewWriter(w)
	err = htmlPage.Execute(bw, map[string]any{
		"Title":  title,
		"Data":   template.JS(raw),
		"Script": template.JS(js),
		"Style":  template.CSS(css),
	})
	if err != nil {
		return fmt.Errorf("replay: html: %w", err)
	}
	return bw.Flush()
}

// SubmarineHTML returns the data of rp's HTML replay. It verifies the
// replay on the way and fails (with ErrMismatch) rather than draw a game
// the rules do not allow.
func SubmarineHTML(rp *SubmarineReplay) (*HTMLData, error) {
	if err := VerifySubmarine(rp); err != nil {
		return nil, err
	}
	r, err := rp.Rules()
	if err != nil {
		return nil, err
	}
	b := r.Board
	rd := newRenderer(r, rp)
	d := &HTMLData{Game: GameSubmarine, W: b.Width(), H: b.Height(),
		Header: headerLines(rd.header, SubmarineLegend),
		Legend: [][2]string{{"letters", "ships"}, {".", "sea"}, {"#", "rock"}, {"x", "sunk ship"}}}
	for x := range b.Width() {
		d.Cols = append(d.Cols, strconv.Itoa(x))
	}
	for y := range b.Height() {
		d.Rows = append(d.Rows, strconv.Itoa(y))
	}
	for s := range 2 {
		d.Players[s] = rd.who(s)
	}
	for _, s := range r.Fleet {
		d.Ships = append(d.Ships, s.Name)
	}
	for s := range 2 {
		// What the opponent can know: exact when the board allows it.
		if j, err := belief.NewJoint(r, 0); err == nil {
			rd.exposure[s] = j
		}
	}
	var res bytes.Buffer
	rd.result(&res)
	d.Result = strings.TrimSpace(res.String())
	if r.ValidatePlacement(rp.Placement(r, 0)) != nil || r.ValidatePlacement(rp.Placement(r, 1)) != nil {
		return d, nil // the game never started: header and result only
	}
	var trackErr error
	err = simulate(rp, func(f *frame) {
		hf := HTMLFrame{Seat: -1, Text: "start"}
		if f.step != nil {
			if trackErr == nil {
				trackErr = rd.track(f)
			}
			hf = HTMLFrame{N: f.n, Seat: f.st.Seat, Text: fmt.Sprintf("#%d seat %d %s %s", f.n, f.st.Seat, rd.who(f.st.Seat), rd.describe(f)),
				Why: htmlWhy(f.step.Decision), Heat: htmlHeat(f.step.Decision, b.Width(), b.Height())}
		}
		for s := range 2 {
			hf.Boards[s] = rd.htmlBoard(f, s)
		}
		d.Frames = append(d.Frames, hf)
	})
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
func (rd *renderer) htmlBoard(f *frame, seat int) HTMLBoard {
	r, b := rd.r, rd.r.Board
	fl := f.game.Fleet(seat)
	cells := make([]byte, b.Size())
	for c := range cells {
		cells[c] = rd.cellGlyph(&fl, seat, grid.Cell(c))
	}
	hb := HTMLBoard{Cells: string(cells), Shot: -1}
	for i, s := range r.Fleet {
		hb.HP = append(hb.HP, [2]int{s.HP, max(int(fl.HP[i]), 0)})
	}
	if f.step != nil && f.err == nil {
		a := f.st.Action
		switch {
		case a.Kind == submarine.Attack && f.st.Seat != seat:
			hb.Shot = int(a.To)
			for c := range b.Around(a.To).All() {
				if c != a.To {
					hb.Near = append(hb.Near, int(c))
				}
			}
		case a.Kind == submarine.Move && f.st.Seat == seat:
			from := int(a.To) - f.st.Actor.DY*b.Width() - f.st.Actor.DX
			hb.Moved = []int{from, int(a.To)}
		}
	}
	if j := rd.exposure[seat]; j != nil {
		hb.Known = milli(j.CellProbs())
	}
	return hb
}

// BattleshipHTML returns the data of rp's HTML replay; like
// RenderBattleship it verifies the replay on the way.
func BattleshipHTML(rp *BattleshipReplay) (*HTMLData, error) {
	if err := VerifyBattleship(rp); err != nil {
		return nil, err
	}
	r, err := rp.Rules()
	if err != nil {
		return nil, err
	}
	b := r.Board
	rd := &bsRenderer{r: r, rp: rp}
	d := &HTMLData{Game: GameBattleship, W: b.Width(), H: b.Height(),
		Header: headerLines(rd.header, BattleshipLegend),
		Legend: [][2]string{{"O", "ship"}, {"x", "hit"}, {"#", "sunk ship"}, {"o", "miss"}, {".", "sea"}, {"-", "rock"}}}
	for x := range b.Width() {
		d.Cols = append(d.Cols, battleship.ColumnName(x, false))
	}
	for y := range b.Height() {
		d.Rows = append(d.Rows, strconv.Itoa(y+1))
	}
	for s := range 2 {
		d.Players[s] = rd.who(s)
	}
	for _, l := range r.Fleet {
		d.Ships = append(d.Ships, strconv.Itoa(l))
	}
	var res bytes.Buffer
	rd.result(&res)
	d.Result = strings.TrimSpace(res.String())
	for s := range 2 {
		if p, err := rp.Placement(r, s); err != nil || p == nil || r.ValidatePlacement(p) != nil {
			return d, nil // the game never started: header and result only
		}
	}
	err = simulateBattleship(rp, func(f *bsFrame) {
		hf := HTMLFrame{Seat: -1, Text: "start"}
		if f.shot != nil {
			var line bytes.Buffer
			rd.shotLine(&line, f)
			text, _, _ := strings.Cut(line.String(), "\n")
			hf = HTMLFrame{N: f.n, Seat: f.st.Seat, Text: text,
				Why: htmlWhy(f.shot.Decision), Heat: htmlHeat(f.shot.Decision, b.Width(), b.Height())}
		}
		for s := range 2 {
			hf.Boards[s] = rd.htmlBoard(f, s)
		}
		d.Frames = append(d.Frames, hf)
	})
	if err != nil {
		return nil, err
	}
	return d, nil
}

// htmlBoard is seat's fleet under the other seat's fire after frame f.
func (rd *bsRenderer) htmlBoard(f *bsFrame, seat int) HTMLBoard {
	g := rd.glyphs(f, seat)
	hb := HTMLBoard{Cells: string(g.cells), Shot: -1}
	for _, sh := range g.ships {
		left := 0
		for _, c := range sh {
			if !g.shot.Has(c) {
				left++
			}
		}
		hb.HP = append(hb.HP, [2]int{len(sh), left})
	}
	if f.shot != nil && f.st.Seat != seat && f.err == nil {
		hb.Shot = int(f.st.At)
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
	sea := f.game.Sea(seat)
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
