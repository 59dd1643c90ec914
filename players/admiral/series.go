package admiral

import (
	"fmt"
	"math/rand/v2"

	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/game/submarine"
	"github.com/kaisen-ai/kaisen/players"
	kseries "github.com/kaisen-ai/kaisen/series"
)

// Learning the enemy's placement over a series (admiral-series). Neither
// the rules nor the wire reveal the enemy fleet at the end of a game, but
// every hit locates the ship it hits: an attack at P that hits ship i puts
// ship i at P, so its initial cell is P minus its summed displacement (every
// enemy move tells it). SeriesAdmiral records those initial cells, game
// after game, and weighs the placements of its joint belief by them: the
// learnt prior multiplies the spread prior of belief.spread_weight.

// seriesPriorGames is the shrinkage of the learnt prior: a ship's weight on
// cell c after n located games is (seen(c) + k/K) / (n + k) · K, K the
// usable cells, as if k uniform games had been seen too.
const seriesPriorGames = 3.0

// learntPrior is the enemy placement prior learnt over a series: by fleet
// index, the initial cells where the ship was located, and the weights
// they give.
type learntPrior struct {
	cells  int                                        // usable cells of the board
	seen   [submarine.MaxShips][grid.MaxCells]float64 // by ship, by cell: games located there
	games  [submarine.MaxShips]float64                // by ship: games it was located in
	weight [submarine.MaxShips][grid.MaxCells]float64 // by ship, by cell: the learnt factor
	any    bool                                       // some ship was located in some game
}

// add records that ship i started the game on cell c.
func (lp *learntPrior) add(i int, c grid.Cell) {
	lp.seen[i][c]++
	lp.games[i]++
	lp.any = true
}

// update recomputes the weights for board b.
func (lp *learntPrior) update(b *grid.Board) {
	k := seriesPriorGames
	n := float64(lp.cells)
	for i := range submarine.MaxShips {
		for c := range b.Usable().All() {
			lp.weight[i][c] = (lp.seen[i][c] + k/n) / (lp.games[i] + k) * n
		}
	}
}

// at is the learnt factor of packed placement t whose living ships are
// ships, each moved back to its initial cell by disp.
func (lp *learntPrior) at(b *grid.Board, t uint64, ships []int, disp *[submarine.MaxShips][2]int) float64 {
	q := 1.0
	for _, i := range ships {
		x, y := b.XY(cellOf(t, i))
		c, ok := b.At(x-disp[i][0], y-disp[i][1])
		if !ok {
			continue // not an initial cell of this board (never expected)
		}
		q *= lp.weight[i][c]
	}
	return q
}

// corpusPrior is the learnt prior of belief.enemy_prior (counts by fleet
// index, by cell), nil when it is empty; an error names what does not fit
// the rules.
func corpusPrior(r *submarine.Rules, counts [][]int) (*learntPrior, error) {
	if len(counts) == 0 {
		return nil, nil
	}
	b := r.Board
	if len(counts) != len(r.Fleet) {
		return nil, fmt.Errorf("admiral: belief.enemy_prior: %d ships, the fleet has %d", len(counts), len(r.Fleet))
	}
	lp := &learntPrior{cells: b.Usable().Count()}
	for i, row := range counts {
		if len(row) != b.Size() {
			return nil, fmt.Errorf("admiral: belief.enemy_prior: ship %d has %d cells, the board %d", i, len(row), b.Size())
		}
		for c, n := range row {
			if n == 0 {
				continue
			}
			if n < 0 || !b.IsUsable(grid.Cell(c)) {
				return nil, fmt.Errorf("admiral: belief.enemy_prior: ship %d, cell %d: count %d on a rock or below 0", i, c, n)
			}
			lp.seen[i][c] = float64(n)
			lp.games[i] += float64(n)
			lp.any = true
		}
	}
	if !lp.any {
		return nil, nil
	}
	lp.update(b)
	return lp, nil
}

// SeriesAdmiral ("admiral-series") is admiral that learns the enemy's
// placement over a series (arena.Learner): after each game it records the
// initial cell of every enemy ship it hit, and from the second game on its
// joint belief over the enemy fleet is weighed by the learnt per-ship
// prior (learntPrior) as well as the spread prior. Its first game, and any
// game outside a series, is admiral's, move for move.
type SeriesAdmiral struct {
	*Admiral
	build   func(rng *rand.Rand) *Admiral
	prior   *learntPrior
	located [submarine.MaxShips]grid.Cell // this game: each enemy ship's initial cell, grid.None while unknown
}

var _ players.Player = (*SeriesAdmiral)(nil)

// NewSeriesAdmiral returns an admiral-series that makes the admiral of each
// game with build, starting with the one for rng.
func NewSeriesAdmiral(rules *submarine.Rules, build func(rng *rand.Rand) *Admiral, rng *rand.Rand) *SeriesAdmiral {
	s := &SeriesAdmiral{build: build, prior: &learntPrior{cells: rules.Board.Usable().Count()}}
	s.NewGame(rng)
	if c := s.Admiral.shared.corpus; c != nil {
		*s.prior = *c // the series learns on top of belief.enemy_prior
	}
	return s
}

// NewGame starts the next game of the series (arena.Learner): a fresh
// admiral with the prior learnt so far.
func (s *SeriesAdmiral) NewGame(rng *rand.Rand) {
	s.Admiral = s.build(rng)
	if s.prior.any {
		s.Admiral.learnt = s.prior
	}
	for i := range s.located {
		s.located[i] = grid.None
	}
}

// Observe implements Player: admiral's, then the initial cell of an enemy
// ship our attack hit.
func (s *SeriesAdmiral) Observe(ev submarine.Event, v *submarine.View) {
	s.Admiral.Observe(ev, v)
	if !ev.Mine || ev.Illegal || ev.Kind != submarine.Attack || ev.Hit < 0 || ev.Hit >= submarine.MaxShips || s.located[ev.Hit] != grid.None {
		return
	}
	b := s.rules.Board
	x, y := b.XY(ev.At)
	d := s.Admiral.enemyDisp[ev.Hit]
	if c, ok := b.At(x-d[0], y-d[1]); ok {
		s.located[ev.Hit] = c
	}
}

// EndGame records the initial cells located in the game just played
// (arena.Learner).
func (s *SeriesAdmiral) EndGame(kseries.End) {
	for i, c := range s.located {
		if c != grid.None {
			s.prior.add(i, c)
		}
	}
	s.prior.update(s.rules.Board)
}

// Learnt returns, by fleet index, how many games each enemy ship was
// located in so far.
func (s *SeriesAdmiral) Learnt() []int {
	out := make([]int, len(s.rules.Fleet))
	for i := range out {
		out[i] = int(s.prior.games[i])
	}
	return out
}

// buildSeriesAdmiral is admiral-series' Build: admiral's, with admiral's
// settings (configs/admiral.yaml), each game's admiral from its factory.
func buildSeriesAdmiral(rules *submarine.Rules, load players.Loader) (players.Factory, error) {
	f, err := buildAdmiral(rules, load)
	if err != nil {
		return nil, err
	}
	build := func(rng *rand.Rand) *Admiral { return f(rng).(*Admiral) }
	return func(rng *rand.Rand) players.Player { return NewSeriesAdmiral(rules, build, rng) }, nil
}

// Located returns, by fleet index, the initial cell of each enemy ship the
// current (or just finished) game has located by a hit, grid.None for the
// others.
func (s *SeriesAdmiral) Located() []grid.Cell {
	return append([]grid.Cell(nil), s.located[:len(s.rules.Fleet)]...)
}
