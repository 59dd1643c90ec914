package bsplayers

// The adaptive bot: density with a placement prior learnt over a series of
// games against the same opponent.

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	bsbelief "github.com/kaisen-ai/kaisen/belief/battleship"
	"github.com/kaisen-ai/kaisen/explain"
	"github.com/kaisen-ai/kaisen/game/battleship"
	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/series"
)

// AdaptiveConfig holds the adaptive bot's settings (configs/adaptive.yaml):
// density's, and how fast it trusts what it has seen of the opponent.
type AdaptiveConfig struct {
	DensityConfig `mapstructure:",squash"`
	// PriorGames is how many uniform layouts the estimate starts from: the
	// learnt weight of a ring after g layouts is (seen + k·expected) /
	// ((g + k)·expected) with k = PriorGames. Default 3.
	PriorGames float64 `mapstructure:"prior_games"`
	// Strength is the power the learnt ratios are raised to (0: never
	// adapt, 1: use them as they are). Default 1.
	Strength float64 `mapstructure:"strength"`
	// BaseDraws is how many uniform layouts (fixed seed) estimate the
	// cells of each length each ring has under uniform placement. Default
	// 2000.
	BaseDraws int `mapstructure:"base_draws"`
}

// DefaultAdaptiveConfig is the built-in configuration (equal to
// configs/adaptive.yaml).
func DefaultAdaptiveConfig() AdaptiveConfig {
	return AdaptiveConfig{DensityConfig: DefaultDensityConfig(), PriorGames: 3, Strength: 1, BaseDraws: 2000}
}

// Validate checks the ranges.
func (c *AdaptiveConfig) Validate() error {
	errs := []error{c.DensityConfig.Validate()}
	if !(c.PriorGames > 0 && c.PriorGames <= 1e6) {
		errs = append(errs, fmt.Errorf("prior_games %v: want more than 0, at most 1e6", c.PriorGames))
	}
	if !(c.Strength >= 0 && c.Strength <= 4) {
		errs = append(errs, fmt.Errorf("strength %v: want 0 to 4", c.Strength))
	}
	if c.BaseDraws < 100 || c.BaseDraws > 10_000_000 {
		errs = append(errs, fmt.Errorf("base_draws %d: want 100 to 10000000", c.BaseDraws))
	}
	return errors.Join(errs...)
}

// Learner is a Player that plays a series of games against one opponent
// and learns from the layouts it has seen. The series driver calls
// NewGame before each game (the first included) and Learn after it with
// the opponent's whole layout.
type Learner interface {
	Player
	// NewGame starts a game: what the player knows of the position is
	// cleared, what it has learnt is kept; rng is this game's randomness.
	NewGame(rng *rand.Rand)
	// Learn tells the player the layout the opponent used in the game just
	// played.
	Learn(layout battleship.Placement)
}

// PlacementModel estimates how an opponent places its fleet by ship
// length and ring (a cell's ring is its distance to the nearest edge: 0
// for the border): the cells its ships of each length occupy in each ring
// against what a uniform placer puts there. Lengths are kept apart because
// people place big and small ships differently (the human-like placer puts
// big ships on the border and single cells inside).
type PlacementModel struct {
	board    *grid.Board
	ring     []int             // by cell
	fleet    map[int]float64   // by length: ships of that length in the fleet
	expected map[int][]float64 // by length, by ring: cells per uniform layout
	seen     map[int][]float64 // by length, by ring: cells of the ships learnt
	ships    map[int]float64   // by length: ships learnt
	games    int
}

// NewPlacementModel estimates the uniform cells of each length in each
// ring of r's board from draws layouts of u drawn with rng.
func NewPlacementModel(r *battleship.Rules, u *bsbelief.UniformPlacer, rng *rand.Rand, draws int) (*PlacementModel, error) {
	b := r.Board
	m := &PlacementModel{board: b, ring: make([]int, b.Size()), fleet: map[int]float64{}, expected: map[int][]float64{}}
	rings := 0
	for c := range b.Size() {
		x, y := b.XY(grid.Cell(c))
		m.ring[c] = min(x, y, b.Width()-1-x, b.Height()-1-y)
		rings = max(rings, m.ring[c]+1)
	}
	for _, l := range r.Fleet {
		m.expected[l] = make([]float64, rings)
		m.fleet[l]++
	}
	for range draws {
		layout, err := u.Place(rng)
		if err != nil {
			return nil, fmt.Errorf("bsplayers: placement model: %w", err)
		}
		m.add(m.expected, nil, layout)
	}
	for _, e := range m.expected {
		for i := range e {
			e[i] /= float64(draws)
		}
	}
	return m.Fresh(), nil
}

// add counts the cells of the ships by length and ring into into, and the
// ships by length into ships when it is not nil.
func (m *PlacementModel) add(into map[int][]float64, ships map[int]float64, layout []battleship.Ship) {
	for _, s := range layout {
		v, ok := into[len(s)]
		if !ok {
			continue // a length the fleet does not have
		}
		if ships != nil {
			ships[len(s)]++
		}
		for _, c := range s {
			if m.board.IsUsable(c) {
				v[m.ring[c]]++
			}
		}
	}
}

// Fresh returns a model with the same uniform estimate and nothing learnt.
func (m *PlacementModel) Fresh() *PlacementModel {
	f := &PlacementModel{board: m.board, ring: m.ring, fleet: m.fleet, expected: m.expected, seen: map[int][]float64{}, ships: map[int]float64{}}
	for l, e := range m.expected {
		f.seen[l] = make([]float64, len(e))
	}
	return f
}

// Learn adds one whole layout of the opponent (a game learnt).
func (m *PlacementModel) Learn(layout battleship.Placement) {
	m.LearnShips(layout)
}

// LearnShips adds the ships of the opponent seen in one game (a game
// learnt): its whole layout, or the ships sunk in a game lost before the
// fleet was sunk. Each length counts the games its ships make up (ships
// seen over ships of that length in the fleet), so a whole layout counts
// as Learn's one game.
func (m *PlacementModel) LearnShips(ships []battleship.Ship) {
	m.add(m.seen, m.ships, ships)
	m.games++
}

// Games is the number of games learnt.
func (m *PlacementModel) Games() int { return m.games }

// Ratios returns, by ring, the learnt cells of ships of length l against
// the uniform expectation, shrunk towards 1 as if k uniform layouts had
// been seen too (all 1 for a length the fleet does not have). The layouts
// learnt are the ships of length l seen over those of the fleet.
func (m *PlacementModel) Ratios(l int, k float64) []float64 {
	e := m.expected[l]
	out := make([]float64, 0, max(len(e), 1))
	layouts := 0.0
	if n := m.fleet[l]; n > 0 {
		layouts = m.ships[l] / n
	}
	for r := range max(len(e), 1) {
		x := 1.0
		if r < len(e) && e[r] > 0 {
			x = (m.seen[l][r] + k*e[r]) / ((layouts + k) * e[r])
		}
		out = append(out, x)
	}
	return out
}

// Weights returns the per-cell prior weights for a hunt among the ships
// rem: each ring's ratio, averaged over the lengths of rem weighted by
// their cells, to the power strength; nil when nothing has been learnt
// (the uniform prior).
func (m *PlacementModel) Weights(rem []int, k, strength float64) []float64 {
	if m.games == 0 || strength == 0 || len(rem) == 0 {
		return nil
	}
	var ring []float64
	cells := 0
	for _, l := range rem {
		rs := m.Ratios(l, k)
		if ring == nil {
			ring = make([]float64, len(rs))
		}
		for r, x := range rs {
			ring[r] += float64(l) * x
		}
		cells += l
	}
	w := make([]float64, len(m.ring))
	for c, r := range m.ring {
		w[c] = math.Pow(ring[r]/float64(cells), strength)
	}
	return w
}

// Adaptive ("adaptive") is density with a learnt placement prior: over a
// series of games (Learner in kaisen shots --series, arena.Learner in
// kaisen match --series and the server's series, where it learns the
// ships it sank) it estimates how the opponent places its fleet
// by ship length and ring (PlacementModel) and, while it hunts (no unsunk
// hit on the board), multiplies each cell's share of consistent layouts by
// the weight of its ring for the ships still afloat before choosing. In its first game, or outside a series, it
// plays exactly as density.
type Adaptive struct {
	*Density
	r     *battleship.Rules
	place bsbelief.Placer // its own fleet's
	cfg   AdaptiveConfig
	model *PlacementModel
	sunk  []battleship.Ship // the enemy ships sunk in this game
}

var (
	_ Learner           = (*Adaptive)(nil)
	_ explain.Explainer = (*Adaptive)(nil)
)

// NewAdaptive returns an adaptive bot for rules that learns into model
// (not to be shared: Learn adds to it) and places its fleet with placer.
func NewAdaptive(r *battleship.Rules, cfg AdaptiveConfig, model *PlacementModel, placer bsbelief.Placer, rng *rand.Rand) *Adaptive {
	a := &Adaptive{r: r, place: placer, cfg: cfg, model: model}
	a.NewGame(rng)
	return a
}

// NewGame implements Learner.
func (a *Adaptive) NewGame(rng *rand.Rand) {
	a.Density = NewDensity(a.r, a.cfg.DensityConfig, a.place, rng)
	a.sunk = a.sunk[:0]
}

// Observe implements Player: density's, keeping the enemy ships it sinks.
func (a *Adaptive) Observe(ev battleship.Event) {
	a.Density.Observe(ev)
	if ev.Mine && ev.Outcome == battleship.Kill && !ev.Repeat && !ev.Illegal {
		a.sunk = append(a.sunk, slices.Clone(ev.Sunk))
	}
}

// EndGame learns the enemy ships the bot sank in the game just played:
// the whole layout when it won (as Learn), the ships it sank when not
// (arena.Learner, with NewGame).
func (a *Adaptive) EndGame(series.End) {
	a.model.LearnShips(a.sunk)
}

// Shoot implements Player: density's shot with the prior of the ships
// still afloat.
func (a *Adaptive) Shoot() grid.Cell {
	rem, err := a.pos.Remaining()
	a.prior = nil
	if err == nil {
		a.prior = a.model.Weights(rem, a.cfg.PriorGames, a.cfg.Strength)
	}
	return a.Density.Shoot()
}

// Learn implements Learner.
func (a *Adaptive) Learn(layout battleship.Placement) {
	a.model.Learn(layout)
}

// Model is what the bot has learnt.
func (a *Adaptive) Model() *PlacementModel { return a.model }

// Series lets p shoot alone (Solo) at each of layouts in turn, calling
// NewGame with rngs(i) before game i and Learn with its layout after, and
// returns the shots of each game.
func Series(ctx context.Context, r *battleship.Rules, p Learner, layouts []battleship.Placement, rngs func(i int) *rand.Rand) ([]int, error) {
	shots := make([]int, 0, len(layouts))
	for i, l := range layouts {
		p.NewGame(rngs(i))
		n, err := Solo(ctx, r, p, l)
		if err != nil {
			return shots, fmt.Errorf("bsplayers: series game %d: %w", i, err)
		}
		shots = append(shots, n)
		p.Learn(l)
	}
	return shots, nil
}
