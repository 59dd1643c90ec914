package hiddenfleet_test

import (
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/belief/hiddenfleet"
	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/game/abilities"
	"github.com/kaisen-ai/kaisen/game/battleship"
	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/internal/race"
)

// playTracked plays a random game and calls at with the observer's tracker
// before each of the observer's own actions.
func playTracked(t testing.TB, r *abilities.Rules, seed uint64, at func(g *abilities.Game, tr *hiddenfleet.Tracker)) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 5))
	all := allPlacementsOrSample(t, r.Base, rng)
	g, err := abilities.NewGame(r, all[0], all[1], rng.IntN(2))
	require.NoError(t, err)
	obs := rng.IntN(2)
	tr, err := hiddenfleet.New(r, obs)
	require.NoError(t, err)
	for steps := 0; g.Status() == game.Running && steps < 600; steps++ {
		if g.ToAct() == obs && g.Pending() == nil {
			at(g, tr)
		}
		st, err := g.Apply(randomAction(g, rng))
		require.NoError(t, err)
		tr.Observe(st.Views[obs])
	}
}

// allPlacementsOrSample returns two layouts: uniform ones on the board.
func allPlacementsOrSample(t testing.TB, r *battleship.Rules, rng *rand.Rand) [2]battleship.Placement {
	t.Helper()
	if r.Board.Size() <= 36 {
		all := allPlacements(r)
		return [2]battleship.Placement{all[rng.IntN(len(all))], all[rng.IntN(len(all))]}
	}
	var out [2]battleship.Placement
	for i := range out {
		for {
			p := randomLayout(r, rng)
			if r.ValidatePlacement(p) == nil {
				out[i] = p
				break
			}
		}
	}
	return out
}

func randomLayout(r *battleship.Rules, rng *rand.Rand) battleship.Placement {
	b := r.Board
	var p battleship.Placement
	for _, l := range r.Fleet {
		for range 1000 {
			x, y := rng.IntN(b.Width()), rng.IntN(b.Height())
			d := [2]int{1, 0}
			if rng.IntN(2) == 0 {
				d = [2]int{0, 1}
			}
			var sh battleship.Ship
			for k := range l {
				c, ok := b.At(x+k*d[0], y+k*d[1])
				if !ok {
					sh = nil
					break
				}
				sh = append(sh, c)
			}
			if sh != nil && !touches(b, p, sh) {
				p = append(p, sh)
				break
			}
		}
	}
	return p
}

// TestEstimateConvergesToCount checks the sampler statistically on small
// boards: at positions of random games its weighted shares agree with the
// exact ones within 4 standard errors (from the effective sample size).
func TestEstimateConvergesToCount(t *testing.T) {
	games, draws := 6, 20000
	if race.Enabled {
		games, draws = 1, 4000
	}
	for _, c := range bruteCases() {
		if c.heavy {
			continue
		}
		t.Run(c.name, func(t *testing.T) {
			base, err := battleship.NewRules(grid.MustBoard(c.w, c.h, nil), c.fleet)
			require.NoError(t, err)
			r, err := abilities.NewRules(base, c.sides[0], c.sides[1], c.opt)
			require.NoError(t, err)
			rng := rand.New(rand.NewPCG(9, 9))
			checked := 0
			for seed := range uint64(games) {
				n := 0
				playTracked(t, r, seed, func(g *abilities.Game, tr *hiddenfleet.Tracker) {
					n++
					if n%4 != 1 {
						return
					}
					exact, err := tr.Count(1<<20, 0)
					require.NoError(t, err)
					require.Positive(t, exact.Total)
					est := tr.Estimate(rng, draws, 0)
					require.Positive(t, est.ESS)
					for cell := range base.Board.Usable().All() {
						p := exact.Share(cell)
						se := math.Sqrt(p*(1-p)/est.ESS) + 1e-9
						require.InDelta(t, p, est.Share(cell), 4*se+0.002, "seed %d, cell %d, ESS %.0f", seed, cell, est.ESS)
					}
					checked++
				})
			}
			require.Positive(t, checked)
		})
	}
}

// BenchmarkEstimate10x10 times one decision's estimate (600 draws, as the
// ability bot) at every turn of the observer in random games on the classic
// 10x10 board with the Russian fleet, and reports p50 and p99.
func BenchmarkEstimate10x10(b *testing.B) {
	r := abilities.DefaultRules()
	rng := rand.New(rand.NewPCG(1, 2))
	var times []time.Duration
	kept := 0
	seed := uint64(0)
	for b.Loop() {
		playTracked(b, r, seed, func(g *abilities.Game, tr *hiddenfleet.Tracker) {
			start := time.Now()
			est := tr.Estimate(rng, 600, 0)
			times = append(times, time.Since(start))
			if est.Stats.Consistent > 0 {
				kept++
			}
		})
		seed++
	}
	slices.Sort(times)
	q := func(f float64) float64 {
		return float64(times[sort.Search(len(times), func(i int) bool { return float64(i) >= f*float64(len(times)-1) })]) / 1e6
	}
	b.ReportMetric(q(0.5), "ms/move-p50")
	b.ReportMetric(q(0.99), "ms/move-p99")
	b.ReportMetric(float64(len(times))/float64(seed), "moves/game")
	b.ReportMetric(float64(kept)/float64(len(times)), "consistent-share")
}
