package bsbelief

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"

	"github.com/kaisen-ai/kaisen/game/battleship"
	"github.com/kaisen-ai/kaisen/game/grid"
)

// ErrNoLayout is returned when no layout of the fleet exists on the board.
var ErrNoLayout = errors.New("battleship: the fleet does not fit on the board")

// spot is one position of one ship: its cells and its cells plus the cells
// around them (the zone no other ship may touch).
type spot struct {
	cells grid.Set
	zone  grid.Set
}

// spots lists every position of a ship of length l on the usable cells that
// avoid the forbidden set: horizontal ones, then vertical ones (for l = 1 the
// two coincide and are listed once).
func spots(b *grid.Board, l int, forbidden grid.Set) []spot {
	var out []spot
	dirs := [][2]int{{1, 0}, {0, 1}}
	if l == 1 {
		dirs = dirs[:1]
	}
	for _, d := range dirs {
		for y := range b.Height() {
			for x := range b.Width() {
				var sp spot
				ok := true
				for i := range l {
					c, on := b.At(x+i*d[0], y+i*d[1])
					if !on || !b.IsUsable(c) || forbidden.Has(c) {
						ok = false
						break
					}
					sp.cells.Add(c)
					sp.zone = sp.zone.Union(b.Around(c))
				}
				if ok {
					out = append(out, sp)
				}
			}
		}
	}
	return out
}

// Spot is one position of a ship: its cells and its zone (the cells and
// their neighbours, corners included), where no other ship may lie.
type Spot struct{ Cells, Zone grid.Set }

// Spots lists every position of a ship of length l on the usable cells of
// b: horizontal ones, then vertical ones (once for l = 1).
func Spots(b *grid.Board, l int) []Spot {
	in := spots(b, l, grid.Set{})
	out := make([]Spot, len(in))
	for i, sp := range in {
		out[i] = Spot{Cells: sp.cells, Zone: sp.zone}
	}
	return out
}

// Placer draws fleet layouts: UniformPlacer, HumanPlacer (NewStylePlacer).
type Placer interface {
	Place(rng *rand.Rand) (battleship.Placement, error)
}

// UniformPlacer draws layouts uniformly over all valid layouts of the fleet
// (ships of equal length are not told apart, so this is also uniform over
// labelled layouts). It is safe for concurrent use.
//
// How: rejection sampling. Each ship, longest first, gets a position drawn
// uniformly and independently from all positions of its length on the board
// (ignoring the other ships); the draw is rejected as soon as a ship overlaps
// or touches an earlier one, and starts again. Every labelled layout has the
// same proposal probability, the product of 1/(positions of length l) over
// the ships, so conditioned on acceptance the labelled layout is uniform;
// each unlabelled layout is the image of the same number (the product of
// count(l)!) of labelled ones, so it is uniform too. Stopping a draw early at
// the first conflict does not change which draws are accepted.
//
// The acceptance rate on the classic 10x10 board is about 2.6e-4 (1.86e15 *
// 288 valid labelled layouts out of 140*160^2*180^3*100^4 proposals), a few
// thousand cheap bitset tests per layout. On crowded boards where a draw
// fails more than MaxTries times in a row, the placer switches for good to
// exact sampling: it counts completions with the same programme as Count
// and draws cell by cell with probabilities proportional to the counts.
type UniformPlacer struct {
	rules *battleship.Rules
	// MaxTries is the number of rejected draws after which the placer
	// switches to exact sampling (default 1<<20).
	MaxTries int
	byShip   [][]spot // per ship of the fleet, longest first

	mu    sync.Mutex
	exact *Sampler
}

// NewUniformPlacer prepares a uniform placer for the rules' fleet.
func NewUniformPlacer(r *battleship.Rules) (*UniformPlacer, error) {
	u := &UniformPlacer{rules: r, MaxTries: 1 << 20}
	cache := map[int][]spot{}
	for _, l := range r.Fleet {
		if _, ok := cache[l]; !ok {
			cache[l] = spots(r.Board, l, grid.Set{})
		}
		if len(cache[l]) == 0 {
			return nil, fmt.Errorf("%w: no room for a ship of length %d", ErrNoLayout, l)
		}
		u.byShip = append(u.byShip, cache[l])
	}
	return u, nil
}

// Place draws one layout.
func (u *UniformPlacer) Place(rng *rand.Rand) (battleship.Placement, error) {
	u.mu.Lock()
	ex := u.exact
	u.mu.Unlock()
	if ex == nil {
		if p, ok := u.reject(rng); ok {
			return p, nil
		}
		var err error
		if ex, err = u.sampler(); err != nil {
			return nil, err
		}
	}
	return ex.Sample(rng)
}

// reject runs rejection sampling for at most MaxTries draws.
func (u *UniformPlacer) reject(rng *rand.Rand) (battleship.Placement, bool) {
	chosen := make([]*spot, len(u.byShip))
	for range u.MaxTries {
		var zone grid.Set
		ok := true
		for i, list := range u.byShip {
			sp := &list[rng.IntN(len(list))]
			if sp.cells.Intersects(zone) {
				ok = false
				break
			}
			zone = zone.Union(sp.zone)
			chosen[i] = sp
		}
		if ok {
			p := make(battleship.Placement, len(chosen))
			for i, sp := range chosen {
				p[i] = battleship.Ship(sp.cells.Cells())
			}
			return p, true
		}
	}
	return nil, false
}

func (u *UniformPlacer) sampler() (*Sampler, error) {
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.exact != nil {
		return u.exact, nil
	}
	s, err := NewSampler(context.Background(), battleship.NewPosition(u.rules), 0)
	if err != nil {
		return nil, err
	}
	u.exact = s
	return s, nil
}

// HumanPlacer is a deliberately non-uniform, "human-like" placer. Many
// people put the big ships along the edge of the board (they feel safer
// there and leave open water for the small ones) and scatter the single
// cells in the middle. HumanPlacer places the ships longest first, each at a
// position drawn among those that do not overlap or touch the ships already
// placed, with weight EdgeWeight for a ship of 2+ cells lying entirely on the
// border ring (cells with a side on the board's edge or a rock), weight
// InnerWeight for a single cell off the border, and 1 otherwise. When a
// ship has no room left it starts again (at most 1000 times, then it returns
// a uniform layout). It is safe for concurrent use.
type HumanPlacer struct {
	rules       *battleship.Rules
	EdgeWeight  float64 // default 6
	InnerWeight float64 // default 3
	border      grid.Set
	byLen       map[int][]spot
	uniform     *UniformPlacer
}

// NewHumanPlacer prepares a human-like placer for the rules' fleet.
func NewHumanPlacer(r *battleship.Rules) (*HumanPlacer, error) {
	u, err := NewUniformPlacer(r)
	if err != nil {
		return nil, err
	}
	h := &HumanPlacer{rules: r, EdgeWeight: 6, InnerWeight: 3, byLen: map[int][]spot{}, uniform: u}
	b := r.Board
	for c := range b.Usable().All() {
		x, y := b.XY(c)
		for _, d := range [4][2]int{{0, -1}, {1, 0}, {0, 1}, {-1, 0}} {
			if n, ok := b.At(x+d[0], y+d[1]); !ok || !b.IsUsable(n) {
				h.border.Add(c)
				break
			}
		}
	}
	for _, l := range r.Fleet {
		if _, ok := h.byLen[l]; !ok {
			h.byLen[l] = spots(b, l, grid.Set{})
		}
	}
	return h, nil
}

// Place draws one layout.
func (h *HumanPlacer) Place(rng *rand.Rand) (battleship.Placement, error) {
	weights := make([]float64, 0, 256)
	idx := make([]int, 0, 256)
restart:
	for range 1000 {
		var zone grid.Set
		p := make(battleship.Placement, 0, len(h.rules.Fleet))
		for _, l := range h.rules.Fleet {
			weights, idx = weights[:0], idx[:0]
			total := 0.0
			for i, sp := range h.byLen[l] {
				if sp.cells.Intersects(zone) {
					continue
				}
				w := 1.0
				onBorder := sp.cells.AndNot(h.border).Empty()
				switch {
				case l >= 2 && onBorder:
					w = h.EdgeWeight
				case l == 1 && !onBorder:
					w = h.InnerWeight
				}
				weights = append(weights, w)
				idx = append(idx, i)
				total += w
			}
			if len(idx) == 0 {
				continue restart
			}
			x := rng.Float64() * total
			k := 0
			for k < len(weights)-1 && x >= weights[k] {
				x -= weights[k]
				k++
			}
			sp := h.byLen[l][idx[k]]
			zone = zone.Union(sp.zone)
			p = append(p, battleship.Ship(sp.cells.Cells()))
		}
		return p, nil
	}
	return h.uniform.Place(rng)
}

// Placement styles (NewStylePlacer): how a player places its own fleet.
const (
	StyleUniform = "uniform" // every legal layout equally likely (UniformPlacer)
	StyleHuman   = "human"   // HumanPlacer's defaults: big ships on the border, single cells inside
	StyleInner   = "inner"   // the human placer with big ships off the border
	StyleEdge    = "edge"    // every ship on the border when it can
)

// Styles lists the placement styles, uniform first.
var Styles = []string{StyleUniform, StyleHuman, StyleInner, StyleEdge}

// ErrUnknownStyle is the error of NewStylePlacer for a name not in Styles.
var ErrUnknownStyle = errors.New("unknown placement style")

// NewStylePlacer returns the placer of a style: uniform (UniformPlacer),
// human (HumanPlacer: weight 6 for a ship of 2+ cells entirely on the
// border ring, 3 for a single cell off it), inner (the human placer with
// weight 0.1 for such a border ship: big ships off the border) or edge
// (weight 30 for a border ship of 2+ cells, 1/30 for a single cell off the
// border: every ship on the border when it can).
func NewStylePlacer(r *battleship.Rules, style string) (Placer, error) {
	switch style {
	case StyleUniform:
		return NewUniformPlacer(r)
	case StyleHuman, StyleInner, StyleEdge:
		h, err := NewHumanPlacer(r)
		if err != nil {
			return nil, err
		}
		switch style {
		case StyleInner:
			h.EdgeWeight = 0.1
		case StyleEdge:
			h.EdgeWeight, h.InnerWeight = 30, 1.0/30
		}
		return h, nil
	}
	return nil, fmt.Errorf("%w %q: want one of %s", ErrUnknownStyle, style, strings.Join(Styles, ", "))
}
