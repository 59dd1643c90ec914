package chart

import (
	"fmt"
	"math"
	"math/bits"

	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/game/submarine"
)

// MaxPlacements bounds the explicit placement list of a Chart (8 bytes
// each, one list per side and game): 5x5 with 3 ships has 13,800.
const MaxPlacements = 1_000_000

// Chart is the joint belief about one fleet kept by the joint-greedy
// players: the explicit list of every placement of the living ships that is
// consistent with the public history, each equally likely (the "chart" of
// hirota_player). Placement k holds the cell of ship i in byte i of pl[k]
// (cells are below 256, fleets at most submarine.MaxShips = 8 ships); the
// bytes of sunk ships are ignored.
//
// With hitNear the updates are those of belief.Joint (exact); without it, a
// hit keeps every placement that has the hit ship on the attacked cell,
// whatever the near report says about the other ships — hirota_player's
// chart ignores the splash of a hit (only a miss is checked against it).
type Chart struct {
	board   *grid.Board
	n       int
	alive   submarine.ShipMask
	hitNear bool
	pl      []uint64

	// statistics of pl, filled by stats and valid until the next update
	statsOK bool
	counts  []int32 // counts[i*size+c]: placements with ship i on c
	cover   []int32 // cover[c]: placements with a living ship within 1 of c
}

// Enumerate lists every placement of the fleet of r (distinct usable
// cells, ship i in byte i), or fails when there are more than limit.
func Enumerate(r *submarine.Rules, limit int) ([]uint64, error) {
	cells := r.Board.Usable().Cells()
	n := len(r.Fleet)
	total := 1.0
	for k := range n {
		total *= float64(len(cells) - k)
	}
	if n == 0 || n > submarine.MaxShips || total < 1 || total > float64(limit) {
		return nil, fmt.Errorf("%d ships on %d cells make %.0f placements, want 1 to %d for an exact joint belief",
			n, len(cells), math.Max(total, 0), limit)
	}
	out := make([]uint64, 0, int(total))
	var used grid.Set
	var rec func(i int, acc uint64)
	rec = func(i int, acc uint64) {
		if i == n {
			out = append(out, acc)
			return
		}
		for _, c := range cells {
			if used.Has(c) {
				continue
			}
			used.Add(c)
			rec(i+1, acc|uint64(c)<<(8*i))
			used.Remove(c)
		}
	}
	rec(0, 0)
	return out, nil
}

// Reset makes c the belief before any event: every placement of all.
func (c *Chart) Reset(b *grid.Board, n int, hitNear bool, all []uint64) {
	c.board, c.n, c.hitNear = b, n, hitNear
	c.alive = submarine.ShipMask(1)<<uint(n) - 1
	c.pl = append(c.pl[:0], all...)
	c.statsOK = false
}

// Cell is the cell of ship i in placement p (byte i).
func Cell(p uint64, i int) grid.Cell { return grid.Cell(uint8(p >> (8 * i))) }

// Keep filters the placements by ok. When none would survive the chart is
// left as it was and keep reports false (the history contradicts the
// belief: it cannot happen with a legal opponent, but a belief that is
// empty cannot guide play).
func (c *Chart) Keep(ok func(p uint64) bool) bool {
	kept := 0
	for _, p := range c.pl {
		if ok(p) {
			kept++
		}
	}
	if kept == 0 {
		return false
	}
	k := 0
	for _, p := range c.pl {
		if ok(p) {
			c.pl[k] = p
			k++
		}
	}
	c.pl = c.pl[:k]
	c.statsOK = false
	return true
}

// fired applies a legal attack at `at` made by the tracked fleet: some
// living ship is within distance 1 of it.
func (c *Chart) fired(at grid.Cell) bool {
	around := c.board.Around(at)
	return c.Keep(func(p uint64) bool {
		for i := range c.n {
			if c.alive.Has(i) && around.Has(Cell(p, i)) {
				return true
			}
		}
		return false
	})
}

// attacked applies an attack on the tracked fleet at `at` with its answer.
func (c *Chart) attacked(at grid.Cell, hit int, sunk bool, near submarine.ShipMask) bool {
	around := c.board.Around(at)
	splash := func(p uint64, skip int) bool {
		for i := range c.n {
			if i != skip && c.alive.Has(i) && near.Has(i) != around.Has(Cell(p, i)) {
				return false
			}
		}
		return true
	}
	var ok bool
	if hit != submarine.NoShip {
		ok = c.Keep(func(p uint64) bool {
			return Cell(p, hit) == at && (!c.hitNear || splash(p, hit))
		})
		if ok && sunk {
			c.alive = c.alive.Without(hit)
			c.statsOK = false
		}
		return ok
	}
	return c.Keep(func(p uint64) bool {
		for i := range c.n {
			if c.alive.Has(i) && Cell(p, i) == at {
				return false
			}
		}
		return splash(p, submarine.NoShip)
	})
}

// moved applies a move of tracked ship i by (dx, dy): placements where it
// would leave the board, land on a rock or on another living ship of the
// fleet are dropped, the others shift.
func (c *Chart) moved(i, dx, dy int) bool {
	if !c.alive.Has(i) {
		return false
	}
	b := c.board
	dest := func(p uint64) (grid.Cell, bool) {
		x, y := b.XY(Cell(p, i))
		to, ok := b.At(x+dx, y+dy)
		if !ok || !b.IsUsable(to) {
			return grid.None, false
		}
		for j := range c.n {
			if j != i && c.alive.Has(j) && Cell(p, j) == to {
				return grid.None, false
			}
		}
		return to, true
	}
	if !c.Keep(func(p uint64) bool { _, ok := dest(p); return ok }) {
		return false
	}
	mask := ^(uint64(0xff) << (8 * i))
	for k, p := range c.pl {
		to, _ := dest(p)
		c.pl[k] = p&mask | uint64(to)<<(8*i)
	}
	return true
}

// stats fills counts and cover.
func (c *Chart) stats() {
	if c.statsOK {
		return
	}
	size := c.board.Size()
	c.counts = Counts(c.counts, c.n*size)
	c.cover = Counts(c.cover, size)
	for _, p := range c.pl {
		var s grid.Set
		for i := range c.n {
			if c.alive.Has(i) {
				cell := Cell(p, i)
				c.counts[i*size+int(cell)]++
				s = s.Union(c.board.Around(cell))
			}
		}
		for w, word := range s {
			for word != 0 {
				c.cover[w*64+bits.TrailingZeros64(word)]++
				word &= word - 1
			}
		}
	}
	c.statsOK = true
}

// Counts returns s resized to n counters, all zero, reusing its storage
// when it is large enough.
func Counts(s []int32, n int) []int32 {
	if cap(s) < n {
		return make([]int32, n)
	}
	s = s[:n]
	clear(s)
	return s
}

// Placements is the list of consistent placements (ship i in byte i; the
// bytes of sunk ships are ignored). It is the chart's own storage: read it,
// never modify it, and not past the next update.
func (c *Chart) Placements() []uint64 { return c.pl }

// Alive is the set of living ships of the tracked fleet.
func (c *Chart) Alive() submarine.ShipMask { return c.alive }

// Set replaces the placements by a copy of pl and the living ships by alive
// (a position set by hand, e.g. in a test; the board and fleet size are
// those of the last Reset).
func (c *Chart) Set(pl []uint64, alive submarine.ShipMask) {
	c.pl = append(c.pl[:0], pl...)
	c.alive = alive
	c.statsOK = false
}

// Total is the number of consistent placements.
func (c *Chart) Total() int { return len(c.pl) }

// Count is the number of placements with ship i on cell (0 for a sunk ship).
func (c *Chart) Count(i int, cell grid.Cell) int {
	if !c.alive.Has(i) {
		return 0
	}
	c.stats()
	return int(c.counts[i*c.board.Size()+int(cell)])
}

// Covered is the number of placements with a living ship within 1 of cell:
// those in which the fleet can attack cell.
func (c *Chart) Covered(cell grid.Cell) int {
	c.stats()
	return int(c.cover[cell])
}

// Gain is the expected information, in bits, of the answer to an attack on
// at (AnswerGain on the chart's placements).
func (c *Chart) Gain(at grid.Cell, buckets []int32) float64 {
	return AnswerGain(c.board, c.n, c.alive, c.pl, at, buckets)
}

// AnswerGain is the expected information, in bits, of the answer to an
// attack on at over the placements pl of an n-ship fleet whose live ships
// are alive: log2(total) minus the expected log2 of the placements that
// remain, the answer being (ship hit, exact near set). buckets, of length
// (n+1)<<n, is scratch; it is summed in index order, so the float result
// does not depend on any map's iteration order.
func AnswerGain(board *grid.Board, n int, alive submarine.ShipMask, pl []uint64, at grid.Cell, buckets []int32) float64 {
	around := board.Around(at)
	clear(buckets)
	for _, p := range pl {
		hit, near := 0, 0
		for i := range n {
			if !alive.Has(i) {
				continue
			}
			switch cell := Cell(p, i); {
			case cell == at:
				hit = i + 1
			case around.Has(cell):
				near |= 1 << i
			}
		}
		buckets[hit<<n|near]++
	}
	t := float64(len(pl))
	h := 0.0
	for _, k := range buckets {
		if k > 0 {
			h += float64(k) / t * math.Log2(float64(k))
		}
	}
	return math.Log2(t) - h
}

// Observe applies ev, as told to the player who keeps the chart, to the
// chart of the enemy fleet (own false) or of the player's own fleet as the
// enemy can know it (own true). Illegal actions end the game and are
// ignored. It reports false when the chart could not explain ev (and was
// left as it was).
func (c *Chart) Observe(ev submarine.Event, own bool) bool {
	byTracked := ev.Mine == own
	switch {
	case ev.Illegal:
		return true
	case ev.Kind == submarine.Attack && byTracked:
		return c.fired(ev.At)
	case ev.Kind == submarine.Attack:
		return c.attacked(ev.At, ev.Hit, ev.Sunk, ev.Near)
	case ev.Kind == submarine.Move && byTracked:
		return c.moved(ev.Ship, ev.DX, ev.DY)
	}
	return true
}
