package replay

import (
	"bufio"
	"embed"
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"math"
	"strings"

	"github.com/kaisen-ai/kaisen/explain"
	"github.com/kaisen-ai/kaisen/game/grid"
)

// The HTML replay: one self-contained page (html/replay.html with the
// script html/replay.js and the style html/replay.css inlined, and the game
// as a JSON data section built here, packed: htmlpack.go). The page needs
// no network.
//
//go:embed html/replay.html html/replay.js html/replay.css
var htmlAssets embed.FS

var htmlPage = template.Must(template.ParseFS(htmlAssets, "html/replay.html"))

// HTMLData is the data section of an HTML replay: everything the page shows,
// frame by frame, computed here so that the page's script only draws.
type HTMLData struct {
	Game    string      `json:"game"`    // the header's "game"
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

// NewHTMLData starts the data of a game's HTML replay on board b: the
// game's name, the labels of column x and row y, the players by seat
// (who), the ships' names in fleet order and the glyphs' legend. The
// game's record format adds the header, the frames and the result.
func NewHTMLData(game string, b *grid.Board, col, row func(i int) string, who func(seat int) string, ships []string, legend [][2]string) *HTMLData {
	d := &HTMLData{Game: game, W: b.Width(), H: b.Height(), Ships: ships, Legend: legend}
	for x := range b.Width() {
		d.Cols = append(d.Cols, col(x))
	}
	for y := range b.Height() {
		d.Rows = append(d.Rows, row(y))
	}
	for s := range 2 {
		d.Players[s] = who(s)
	}
	return d
}

// AddFrame appends the frame of the n-th recorded action (0: the start,
// by no seat, seat -1): seat acted, text tells it, why is its recorded
// decision (nil: none) and board draws each seat's board after it.
func (d *HTMLData) AddFrame(n, seat int, text string, why *explain.Decision, board func(seat int) HTMLBoard) {
	f := HTMLFrame{N: n, Seat: seat, Text: text, Why: HTMLWhy(why), Heat: HTMLHeats(why, d.W, d.H)}
	for s := range 2 {
		f.Boards[s] = board(s)
	}
	d.Frames = append(d.Frames, f)
}

// SetResult sets the result in words to what result writes.
func (d *HTMLData) SetResult(result func(w io.Writer)) {
	var b strings.Builder
	result(&b)
	d.Result = strings.TrimSpace(b.String())
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

func Milli(p []float64) []int {
	out := make([]int, len(p))
	for i, v := range p {
		if !math.IsNaN(v) {
			out[i] = int(math.Round(min(max(v, 0), 1) * 1000))
		}
	}
	return out
}

func HTMLHeats(d *explain.Decision, w, h int) []HTMLHeat {
	if d == nil {
		return nil
	}
	var out []HTMLHeat
	for _, hm := range d.Heatmaps {
		if hm.W != w || hm.H != h || len(hm.Cells) != w*h {
			continue // drawn on another board: not this game's
		}
		out = append(out, HTMLHeat{Name: hm.Name, Side: hm.Side, Cells: Milli(hm.Cells)})
	}
	return out
}

func HTMLWhy(d *explain.Decision) string {
	if d == nil {
		return ""
	}
	return Summarize(d)
}

// HeaderLines is what header writes, one string per line, the legend left out.
func HeaderLines(header func(io.Writer), legend string) []string {
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
	packed, err := pack(data)
	if err != nil {
		return err
	}
	raw, err := json.Marshal(packed) // escapes <, > and &: safe inside <script>
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
