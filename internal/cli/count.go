package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/big"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	bsbelief "github.com/kaisen-ai/kaisen/belief/battleship"
	"github.com/kaisen-ai/kaisen/game/battleship"
	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/internal/progress"
	"github.com/kaisen-ai/kaisen/internal/report"
)

type countFlags struct {
	size      string
	fleet     string
	div       string
	json      bool
	html      string
	maxMemory string
	progress  string
	workers   int
}

func newCountCmd(e *env) *cobra.Command {
	var f countFlags
	cmd := &cobra.Command{
		Use:   "count [POSITION-FILE | -]",
		Short: "Count the Battleship fleet layouts consistent with a position, exactly",
		Long: `Count, exactly, the Battleship fleet layouts consistent with a position, and
for every cell how many of them put a ship there (the probability-density
map the density AI shoots by).

A position is a small text board, one line per row:
  .  not shot          o  miss          x  hit (ship not sunk)
  #  sunk ship         -  not part of the board (shaped boards)
Spaces inside a row, blank lines and lines starting with // are ignored. An
optional first line "fleet: 4,3,3,2,2,2,1,1,1,1" (or "fleet: 4:1,3:2,2:3,1:4")
gives the whole fleet; sunk ships are the groups of # cells and are taken off
it. Read from POSITION-FILE, or stdin with "-"; without an argument the board
is empty and --size gives its size.

Layouts are sets of cells: ships of equal length are not told apart, so the
empty classic board has 1855545978831780 layouts. Unsunk hits must be
covered, and not by a ship made of hits only (it would have been sunk).

The map is printed divided by --div (integer division): "auto" picks the
smallest power of ten that keeps every number below 1000000 (1e9 on the
empty 10x10 board, the scale of the published map); --div 1 prints exact
counts. --json prints exact numbers. --html FILE also draws the map as a
heatmap (the probability of a ship on each cell) in a web page.

Memory: the count keeps every profile of its transfer-matrix programme
(a board symmetric left to right keeps one of each profile and its mirror
image, one symmetric top to bottom walks its top half only): about 60 MiB
for the empty 10x10 board, 300 MiB for 12x12 and hundreds of GiB for
16x16. The
estimate (from the board, the fleet and the shots) is printed on stderr
before counting, and a count above --max-memory (default 4GiB) is refused
at once. Progress goes to stderr (--progress) on boards above 64 cells.`,
		Example: `  kaisen count                                 the empty 10x10 board, Russian fleet
  kaisen count --size 8x8 --fleet 4,3,2,2,1,1
  kaisen count --size 12x12 --max-memory 8GiB --progress lines
  kaisen count position.txt
  printf 'fleet: 3,2,1\n.....\n.o...\n..x..\n.....\n' | kaisen count - --div 1
  kaisen count position.txt --html map.html`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error { return runCount(cmd, e, &f, args) },
	}
	cmd.Flags().StringVar(&f.size, "size", "10x10", "board WIDTHxHEIGHT when no position is given")
	cmd.Flags().StringVar(&f.fleet, "fleet", battleship.FormatFleet(battleship.DefaultFleet()), "ship lengths (a fleet: line in the position overrides it)")
	cmd.Flags().StringVar(&f.div, "div", "auto", `divide the map by this (integer division): "auto", or a number such as 1, 1000, 1e9`)
	addJSONFlag(cmd, &f.json, "print JSON with exact numbers")
	cmd.Flags().StringVar(&f.maxMemory, "max-memory", "4GiB", "refuse a count whose estimated memory is above this (such as 512MiB, 4GiB, 16GB)")
	addProgressFlag(cmd, &f.progress)
	// --workers as the other commands' (0 = one per CPU), for the count's
	// steps instead of games.
	cmd.Flags().IntVar(&f.workers, "workers", 0, "cores the count's heavy steps are split over (0 = one per CPU)")
	annotate(cmd, "workers", kindWorkers)
	cmd.Flags().StringVar(&f.html, "html", "", "also write the map as a heatmap in a self-contained HTML page to this file")
	return cmd
}

// runCount is kaisen count: the position read (args, or the empty board
// of f), its memory checked, counted and printed.
func runCount(cmd *cobra.Command, e *env, f *countFlags, args []string) error {
	pos, err := countPosition(e, f, args)
	if err != nil {
		return err
	}
	if err := checkCountMemory(cmd, e, pos, f.maxMemory); err != nil {
		return err
	}
	start := time.Now()
	opt := bsbelief.CountOptions{Workers: f.workers}
	var bar *progress.Bar
	if w := pos.Rules.Board; w.Width()*w.Height() > 64 { // smaller counts take milliseconds
		bar = newProgress(e, f.progress, 1, "steps")
	}
	steps := 0 // the total of the last progress report
	if bar != nil {
		opt.Progress = func(done, total int) {
			steps = total
			bar.SetTotal(total)
			bar.Set(done)
		}
	}
	// The count's memory is mostly live until it ends: no
	// collection until the runtime holds countGCFloor, then one
	// at every 10% of heap growth, which keeps the peak resident
	// memory near what is live (collectFrom).
	defer collectFrom(countGCFloor, 10)()
	counts, err := bsbelief.Count(cmd.Context(), pos, opt)
	if bar != nil && err == nil {
		bar.Done(steps)
	}
	if err != nil {
		if cmd.Context().Err() != nil {
			return fmt.Errorf("count: interrupted: %w", err)
		}
		return fmt.Errorf("count: %w", err)
	}
	e.log.Debug("counted", "states", counts.States, "work", counts.Work, "elapsed", time.Since(start))
	if f.html != "" {
		if err := writeReport(f.html, countPage(pos, counts)); err != nil {
			return err
		}
	}
	if f.json {
		return writeCountJSON(e.stdout, pos, counts)
	}
	div, err := countDivisor(f.div, counts.Cells)
	if err != nil {
		return err
	}
	return writeCountText(e.stdout, pos, counts, div)
}

// countGCFloor is the memory the Go runtime of kaisen count may hold
// before its first collection: about 30 MB of heap, most of the empty
// 10x10 count's peak, which then collects 2-5 times instead of about 30
// (at 10% of heap growth from the start), each stopping and preempting
// the count's goroutines. The process's peak resident memory stays under
// the 64 MB (the binary's own pages are about 20 MiB of it).
const countGCFloor = 40 << 20

// checkCountMemory prints the memory estimate of counting pos on stderr
// and refuses a count above --max-memory (a usage error: the count is
// refused before it starts).
func checkCountMemory(cmd *cobra.Command, e *env, pos *battleship.Position, maxMemory string) error {
	limit, err := parseBytes(maxMemory)
	if err != nil {
		return usageError("--max-memory %q: %v", maxMemory, err)
	}
	need, err := bsbelief.EstimateMemory(pos)
	if err != nil {
		return fmt.Errorf("count: %w", err) // a position that cannot be counted, as Count would say
	}
	fmt.Fprintf(e.stderr, "%s: about %s of memory (estimated from the board, the fleet and the shots)\n",
		cmd.CommandPath(), formatBytes(need))
	if need > limit {
		return usageError("count: this count needs about %s of memory, more than --max-memory %s: count a smaller board, "+
			"a position with more shots, or raise --max-memory", formatBytes(need), formatBytes(limit))
	}
	return nil
}

// parseBytes reads a size: a number with an optional unit B, KB, MB, GB,
// TB (powers of 1000) or KiB, MiB, GiB, TiB (powers of 1024).
func parseBytes(s string) (int64, error) {
	num := strings.TrimRight(strings.TrimSpace(s), "BiKMGTkmgtb")
	unit := strings.ToLower(strings.TrimSpace(s)[len(num):])
	x, err := strconv.ParseFloat(strings.TrimSpace(num), 64)
	if err != nil || x <= 0 || math.IsInf(x, 0) {
		return 0, errors.New("want a positive size such as 512MiB or 4GiB")
	}
	scale := map[string]float64{"": 1, "b": 1, "kb": 1e3, "mb": 1e6, "gb": 1e9, "tb": 1e12,
		"kib": 1 << 10, "mib": 1 << 20, "gib": 1 << 30, "tib": 1 << 40}
	f, ok := scale[unit]
	if !ok {
		return 0, fmt.Errorf("unit %q: want B, KB, MB, GB, TB, KiB, MiB, GiB or TiB", unit)
	}
	if x*f > math.MaxInt64/2 {
		return 0, errors.New("too large")
	}
	return int64(x * f), nil
}

// formatBytes writes a size with a binary unit and three significant digits.
func formatBytes(n int64) string {
	units := []string{"B", "KiB", "MiB", "GiB", "TiB", "PiB"}
	x, i := float64(n), 0
	for x >= 1024 && i < len(units)-1 {
		x /= 1024
		i++
	}
	switch {
	case i == 0:
		return fmt.Sprintf("%d B", n)
	case x >= 100:
		return fmt.Sprintf("%.0f %s", x, units[i])
	case x >= 10:
		return fmt.Sprintf("%.1f %s", x, units[i])
	default:
		return fmt.Sprintf("%.2f %s", x, units[i])
	}
}

// maxPositionFile bounds what count reads.
const maxPositionFile = 1 << 20

func countPosition(e *env, f *countFlags, args []string) (*battleship.Position, error) {
	fleet, err := battleship.ParseFleet(f.fleet)
	if err != nil {
		return nil, usageError("--fleet: %w", err)
	}
	if len(args) == 0 {
		w, h, err := parseSize(f.size)
		if err != nil {
			return nil, err
		}
		b, err := grid.NewBoard(w, h, nil)
		if err != nil {
			return nil, usageError("--size: %w", err)
		}
		r, err := battleship.NewRules(b, fleet)
		if err != nil {
			return nil, usageError("count: %w", err)
		}
		return battleship.NewPosition(r), nil
	}
	var in io.Reader = e.stdin
	name := "stdin"
	if args[0] != "-" {
		file, err := os.Open(args[0])
		if err != nil {
			return nil, fmt.Errorf("count: %w", err)
		}
		defer file.Close()
		in, name = file, args[0]
	}
	text, err := io.ReadAll(io.LimitReader(in, maxPositionFile+1))
	if err != nil {
		return nil, fmt.Errorf("count: read %s: %w", name, err)
	}
	if len(text) > maxPositionFile {
		return nil, fmt.Errorf("count: %s is larger than %d bytes", name, maxPositionFile)
	}
	pos, err := battleship.ParsePosition(string(text), fleet)
	if err != nil {
		return nil, fmt.Errorf("count: %s: %w", name, err)
	}
	return pos, nil
}

// parseSize reads WIDTHxHEIGHT.
func parseSize(s string) (int, int, error) {
	ws, hs, ok := strings.Cut(strings.ToLower(s), "x")
	w, err1 := strconv.Atoi(ws)
	h, err2 := strconv.Atoi(hs)
	if !ok || err1 != nil || err2 != nil || w < 1 || h < 1 {
		return 0, 0, usageError("--size %q: want WIDTHxHEIGHT, e.g. 10x10", s)
	}
	return w, h, nil
}

// countDivisor reads --div; "auto" is the smallest power of ten that keeps
// every divided cell count below 1e6.
func countDivisor(s string, cells []*big.Int) (*big.Int, error) {
	if s == "auto" {
		top := new(big.Int)
		for _, c := range cells {
			if c.Cmp(top) > 0 {
				top = c
			}
		}
		div, limit := big.NewInt(1), big.NewInt(1_000_000)
		q := new(big.Int)
		for q.Quo(top, div).Cmp(limit) >= 0 {
			div.Mul(div, big.NewInt(10))
		}
		return div, nil
	}
	if mant, exp, ok := strings.Cut(strings.ToLower(s), "e"); ok {
		m, err1 := strconv.Atoi(mant)
		x, err2 := strconv.Atoi(exp)
		if err1 != nil || err2 != nil || m < 1 || x < 0 || x > 300 {
			return nil, usageError("--div %q: want auto, a positive integer or MeN (such as 1e9)", s)
		}
		d := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(x)), nil)
		return d.Mul(d, big.NewInt(int64(m))), nil
	}
	d, ok := new(big.Int).SetString(s, 10)
	if !ok || d.Sign() <= 0 {
		return nil, usageError("--div %q: want auto, a positive integer or MeN (such as 1e9)", s)
	}
	return d, nil
}

// formatDiv writes a power of ten as 1eN, anything else in full.
func formatDiv(d *big.Int) string {
	s := d.String()
	if strings.Trim(s[1:], "0") == "" && s[0] == '1' && len(s) > 1 {
		return "1e" + strconv.Itoa(len(s)-1)
	}
	return s
}

func writeCountText(w io.Writer, pos *battleship.Position, c *bsbelief.Counts, div *big.Int) error {
	fmt.Fprintf(w, "layouts: %s\n", c.Total)
	fmt.Fprintf(w, "board: %dx%d, fleet afloat: %s\n", pos.Rules.Board.Width(), pos.Rules.Board.Height(), battleship.FormatFleet(c.Remaining))
	if div.Cmp(big.NewInt(1)) == 0 {
		fmt.Fprintln(w, "layouts with a ship on each cell:")
	} else {
		fmt.Fprintf(w, "layouts with a ship on each cell, divided by %s (integer division):\n", formatDiv(div))
	}
	_, err := fmt.Fprintln(w, bsbelief.FormatMap(c.Cells, pos.Rules.Board.Width(), div))
	return err
}

// countJSON is the --json output.
type countJSON struct {
	Width     int             `json:"width"`
	Height    int             `json:"height"`
	Remaining []int           `json:"remaining"`
	Total     json.Number     `json:"total"`
	Cells     [][]json.Number `json:"cells"` // rows of exact counts
}

func writeCountJSON(w io.Writer, pos *battleship.Position, c *bsbelief.Counts) error {
	width := pos.Rules.Board.Width()
	out := countJSON{Width: width, Height: pos.Rules.Board.Height(), Remaining: c.Remaining, Total: json.Number(c.Total.String())}
	if out.Remaining == nil {
		out.Remaining = []int{}
	}
	for i, v := range c.Cells {
		if i%width == 0 {
			out.Cells = append(out.Cells, nil)
		}
		out.Cells[len(out.Cells)-1] = append(out.Cells[len(out.Cells)-1], json.Number(v.String()))
	}
	return json.NewEncoder(w).Encode(out)
}

// countPage is the --html report: the map as a heatmap, each cell's
// probability of holding a ship (its count over the total).
func countPage(pos *battleship.Position, c *bsbelief.Counts) report.Page {
	b := pos.Rules.Board
	var cols, rows []string
	for x := range b.Width() {
		if b.Width() <= 26 {
			cols = append(cols, string(rune('A'+x)))
		} else {
			cols = append(cols, strconv.Itoa(x+1))
		}
	}
	for y := range b.Height() {
		rows = append(rows, strconv.Itoa(y+1))
	}
	total := new(big.Float).SetInt(c.Total)
	prob := func(i int) float64 {
		if c.Total.Sign() == 0 {
			return 0
		}
		p, _ := new(big.Float).Quo(new(big.Float).SetInt(c.Cells[i]), total).Float64()
		return p
	}
	top := 0.0 // the largest probability of a cell not shot: the darkest colour
	for cell := range pos.Set(battleship.Unknown).All() {
		top = max(top, prob(int(cell)))
	}
	cells := make([]report.HeatCell, b.Size())
	marks := []struct {
		m     battleship.Mark
		glyph string
	}{{battleship.Water, "o"}, {battleship.Damaged, "x"}, {battleship.Sunk, "#"}}
	for i := range cells {
		cell := grid.Cell(i)
		if !b.IsUsable(cell) {
			cells[i] = report.HeatCell{Rock: true}
			continue
		}
		p := prob(i)
		shade := 0.0
		if top > 0 {
			shade = min(p/top, 1)
		}
		hc := report.HeatCell{Value: shade, Title: fmt.Sprintf("%s%d: %s of %s layouts", cols[i%b.Width()], i/b.Width()+1, c.Cells[i], c.Total)}
		for _, mk := range marks {
			if pos.Set(mk.m).Has(cell) {
				hc.Text = mk.glyph
			}
		}
		if hc.Text == "" && p > 0 {
			hc.Text = fmt.Sprintf("%.1f", 100*p)
		}
		cells[i] = hc
	}
	return report.Page{
		Title: "Battleship layout counts",
		Lines: []string{
			fmt.Sprintf("board %dx%d, fleet afloat %s: %s layouts", b.Width(), b.Height(), battleship.FormatFleet(c.Remaining), c.Total),
		},
		Sections: []report.Section{{
			Heading: "Probability of a ship on each cell",
			Body:    report.Heatmap(cols, rows, cells),
			Notes: []string{"Percent of the consistent layouts with a ship on the cell, shaded from white (0) to dark red (the largest cell not shot yet); o miss, x hit, # sunk ship. Hover a cell for its exact count.",
				"The density AI shoots the largest unknown cell."},
		}},
	}
}
