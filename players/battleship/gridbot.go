package bsplayers

import (
	"fmt"
	"math/rand/v2"
	"slices"

	bsbelief "github.com/kaisen-ai/kaisen/belief/battleship"
	"github.com/kaisen-ai/kaisen/explain"
	"github.com/kaisen-ai/kaisen/game/battleship"
	"github.com/kaisen-ai/kaisen/game/grid"
)

// Hunt patterns of the grid bot.
const (
	PatternDiagonal = "diagonal"
	PatternBlocks   = "blocks"
)

// GridConfig holds the grid bot's settings (configs/gridbot.yaml).
type GridConfig struct {
	// Pattern is the hunt pattern: "diagonal" (default; cells with
	// r mod n == c mod n, by residue then row-major: 26 cells for n = 4 on
	// 10x10) or "blocks" (r mod n < 2 and c mod n < 2, row-major: 36 cells).
	Pattern string `mapstructure:"pattern"`
	// Start is the first hunt density n. Default 0: the longest ship of the
	// fleet (4 for the Russian fleet, as in the seed).
	Start int `mapstructure:"start"`
	// Placement is how the bot places its own fleet: a placement style
	// (bsbelief.Styles: uniform, human, inner, edge). Default uniform.
	Placement string `mapstructure:"placement"`
}

func (c GridConfig) placementStyle() string { return c.Placement }

// DefaultGridConfig is the built-in configuration (equal to configs/gridbot.yaml).
func DefaultGridConfig() GridConfig {
	return GridConfig{Pattern: PatternDiagonal, Start: 0, Placement: bsbelief.StyleUniform}
}

// Validate checks the ranges.
func (c *GridConfig) Validate() error {
	if c.Pattern != PatternDiagonal && c.Pattern != PatternBlocks {
		return fmt.Errorf("pattern %q: want %q or %q", c.Pattern, PatternDiagonal, PatternBlocks)
	}
	if c.Start < 0 || c.Start > battleship.MaxShipLen {
		return fmt.Errorf("start %d: want 0 (longest ship) to %d", c.Start, battleship.MaxShipLen)
	}
	return checkStyle(c.Placement)
}

// Grid bot cell marks (the seed's CELL_* values).
type gridMark uint8

const (
	gUnknown gridMark = iota
	gMiss
	gHit
	gKilled
	gImpossible
)

// Grid bot modes and directions.
const (
	modeHunt   = "HUNT"
	modeTarget = "TARGET"
)

type direction uint8

const (
	dirNone direction = iota
	dirHorizontal
	dirVertical
)

// GridBot ("gridbot") is the classic hunt/target bot of
// shared/spec/battleship.md:
//
//   - HUNT shoots the UNKNOWN cells of the hunt pattern for density n in
//     order; when the list is exhausted n drops by one (down to 1, every
//     UNKNOWN cell) and the list is rebuilt from the cells still UNKNOWN.
//   - A hit marks HIT, joins the target hits and switches to TARGET. With 2+
//     hits the direction is horizontal if they share a row, vertical if they
//     share a column.
//   - TARGET with one hit tries its UNKNOWN neighbours up, right, down, left;
//     with a direction, the UNKNOWN cells between the extreme hits, then the
//     cell beyond the low end, then the cell beyond the high end. With
//     nothing left to try it clears the target and hunts again.
//   - A kill marks the sunk ship (the cells the defender reports) KILLED and
//     every UNKNOWN cell around it IMPOSSIBLE, updates the fleet counters and
//     hunts again with the target cleared.
//
// It places its fleet by its placement style (uniform by default).
type GridBot struct {
	rules   *battleship.Rules
	cfg     GridConfig
	placer  bsbelief.Placer
	rng     *rand.Rand
	marks   []gridMark
	mode    string
	n       int
	hunt    []grid.Cell
	huntIdx int
	hits    []grid.Cell
	dir     direction
	left    []int // ships afloat by length (the seed's fleet counters)
	reason  string
}

var (
	_ Player            = (*GridBot)(nil)
	_ explain.Explainer = (*GridBot)(nil)
)

// NewGridBot returns a grid bot for rules that places its fleet with
// placer.
func NewGridBot(r *battleship.Rules, cfg GridConfig, placer bsbelief.Placer, rng *rand.Rand) *GridBot {
	b := &GridBot{rules: r, cfg: cfg, placer: placer, rng: rng, marks: make([]gridMark, r.Board.Size()), mode: modeHunt}
	for _, c := range r.Board.Rocks() {
		b.marks[c] = gImpossible
	}
	b.left = battleship.CountByLength(r.Fleet)
	b.n = cfg.Start
	if b.n == 0 {
		b.n = r.Fleet[0]
	}
	b.hunt = b.huntCells(b.n)
	return b
}

// HuntCells lists the cells of the hunt pattern for density n on an
// unexplored board, in shooting order.
func (b *GridBot) HuntCells(n int) []grid.Cell { return b.huntCells(n) }

// huntCells builds the hunt list for density n from the UNKNOWN cells.
func (b *GridBot) huntCells(n int) []grid.Cell {
	w, h := b.rules.Board.Width(), b.rules.Board.Height()
	var out []grid.Cell
	add := func(r, c int) {
		if cell, ok := b.rules.Cell(r, c); ok && b.marks[cell] == gUnknown {
			out = append(out, cell)
		}
	}
	if b.cfg.Pattern == PatternBlocks {
		for r := range h {
			for c := range w {
				if r%n < 2 && c%n < 2 {
					add(r, c)
				}
			}
		}
		return out
	}
	for res := range n {
		for r := range h {
			if r%n != res {
				continue
			}
			for c := range w {
				if c%n == res {
					add(r, c)
				}
			}
		}
	}
	return out
}

// Place implements Player.
func (b *GridBot) Place() battleship.Placement { return placeOrEmpty(b.placer, b.rng) }

// Shoot implements Player.
func (b *GridBot) Shoot() grid.Cell {
	if b.mode == modeTarget {
		if c, ok := b.targetShot(); ok {
			return c
		}
		b.mode, b.hits, b.dir = modeHunt, nil, dirNone
	}
	for {
		for b.huntIdx < len(b.hunt) {
			c := b.hunt[b.huntIdx]
			b.huntIdx++
			if b.marks[c] == gUnknown {
				b.reason = fmt.Sprintf("hunt n=%d (%s), cell %d of %d", b.n, b.cfg.Pattern, b.huntIdx, len(b.hunt))
				return c
			}
		}
		if b.n > 1 {
			b.n--
		}
		b.hunt, b.huntIdx = b.huntCells(b.n), 0
		if len(b.hunt) == 0 {
			break
		}
	}
	// Nothing UNKNOWN is left: the fleet must be sunk already. Shoot any cell.
	b.reason = "no unknown cell left"
	return b.rules.Board.Usable().First()
}

// targetShot is the next cell to try around the target hits.
func (b *GridBot) targetShot() (grid.Cell, bool) {
	try := func(r, c int) (grid.Cell, bool) {
		cell, ok := b.rules.Cell(r, c)
		return cell, ok && b.marks[cell] == gUnknown
	}
	switch b.dir {
	case dirHorizontal, dirVertical:
		rcs := make([][2]int, len(b.hits))
		for i, h := range b.hits {
			r, c := b.rules.RowCol(h)
			rcs[i] = [2]int{r, c}
		}
		axis := 1 // the coordinate that varies
		if b.dir == dirVertical {
			axis = 0
		}
		slices.SortFunc(rcs, func(a, z [2]int) int { return a[axis] - z[axis] })
		lo, hi := rcs[0], rcs[len(rcs)-1]
		at := func(v int) [2]int {
			p := lo
			p[axis] = v
			return p
		}
		for v := lo[axis] + 1; v < hi[axis]; v++ {
			if p := at(v); true {
				if c, ok := try(p[0], p[1]); ok {
					b.reason = fmt.Sprintf("target %s: gap between the hits", b.dirName())
					return c, true
				}
			}
		}
		for _, v := range []int{lo[axis] - 1, hi[axis] + 1} {
			p := at(v)
			if c, ok := try(p[0], p[1]); ok {
				b.reason = fmt.Sprintf("target %s: beyond an end", b.dirName())
				return c, true
			}
		}
		return grid.None, false
	default:
		for _, h := range b.hits {
			r, c := b.rules.RowCol(h)
			for _, d := range [4][2]int{{-1, 0}, {0, 1}, {1, 0}, {0, -1}} { // up, right, down, left
				if cell, ok := try(r+d[0], c+d[1]); ok {
					b.reason = "target: a neighbour of the hit"
					return cell, true
				}
			}
		}
		return grid.None, false
	}
}

func (b *GridBot) dirName() string {
	if b.dir == dirVertical {
		return "vertical"
	}
	return "horizontal"
}

// detectDirection sets the direction from the target hits (2 or more).
func (b *GridBot) detectDirection() {
	b.dir = dirNone
	if len(b.hits) < 2 {
		return
	}
	r0, c0 := b.rules.RowCol(b.hits[0])
	sameRow, sameCol := true, true
	for _, h := range b.hits[1:] {
		r, c := b.rules.RowCol(h)
		sameRow = sameRow && r == r0
		sameCol = sameCol && c == c0
	}
	switch {
	case sameRow:
		b.dir = dirHorizontal
	case sameCol:
		b.dir = dirVertical
	}
}

// Observe implements Player. Only the answers to its own shots matter.
func (b *GridBot) Observe(ev battleship.Event) {
	if !ev.Mine || ev.Illegal || ev.Repeat || !b.rules.Board.IsUsable(ev.At) {
		return
	}
	c := ev.At
	switch ev.Outcome {
	case battleship.Miss:
		b.marks[c] = gMiss
	case battleship.Hit:
		b.marks[c] = gHit
		if !slices.Contains(b.hits, c) {
			b.hits = append(b.hits, c)
		}
		b.mode = modeTarget
		b.detectDirection()
	case battleship.Kill:
		b.marks[c] = gHit
		sunk := slices.Clone(ev.Sunk)
		if len(sunk) == 0 { // a defender that does not report the cells
			sunk = append(slices.Clone(b.hits), c)
		}
		for _, s := range append(sunk, b.hits...) {
			if b.rules.Board.IsUsable(s) {
				b.marks[s] = gKilled
			}
		}
		for _, s := range sunk {
			if !b.rules.Board.IsUsable(s) {
				continue
			}
			for n := range b.rules.Board.Around(s).All() {
				if b.marks[n] == gUnknown {
					b.marks[n] = gImpossible
				}
			}
		}
		if l := len(sunk); l < len(b.left) && b.left[l] > 0 {
			b.left[l]--
		}
		b.mode, b.hits, b.dir = modeHunt, nil, dirNone
	}
}

// Mode is HUNT or TARGET.
func (b *GridBot) Mode() string { return b.mode }

// Explain implements explain.Explainer.
func (b *GridBot) Explain() explain.Decision {
	return explain.Decision{State: b.mode, Reason: b.reason}
}
