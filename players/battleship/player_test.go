package bsplayers

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	bsbelief "github.com/kaisen-ai/kaisen/belief/battleship"
	"github.com/kaisen-ai/kaisen/explain"
	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/game/battleship"
	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/internal/config"
	"github.com/kaisen-ai/kaisen/internal/race"
)

func TestConfigFilesEqualDefaults(t *testing.T) {
	var g GridConfig // zero: every key must come from the file
	require.NoError(t, config.Load(filepath.Join("..", "..", "configs", "gridbot.yaml"), &g))
	require.Equal(t, DefaultGridConfig(), g)
	var d DensityConfig
	d.WorkPerMS, d.Samples = 1, 1 // pass Validate only if the file sets them
	require.NoError(t, config.Load(filepath.Join("..", "..", "configs", "density.yaml"), &d))
	require.Equal(t, DefaultDensityConfig(), d)
	var gr DensityConfig
	gr.WorkPerMS, gr.Samples, gr.Lookahead = 1, 1, 7
	require.NoError(t, config.Load(filepath.Join("..", "..", "configs", "greedy.yaml"), &gr))
	require.Equal(t, DefaultGreedyConfig(), gr)
	a := AdaptiveConfig{PriorGames: 1, BaseDraws: 100}
	a.WorkPerMS, a.Samples = 1, 1
	require.NoError(t, config.Load(filepath.Join("..", "..", "configs", "adaptive.yaml"), &a))
	require.Equal(t, DefaultAdaptiveConfig(), a)
	var rc RandomConfig
	require.NoError(t, config.Load(filepath.Join("..", "..", "configs", "bs-random.yaml"), &rc))
	require.Equal(t, DefaultRandomConfig(), rc)
}

func TestConfigValidation(t *testing.T) {
	g := DefaultGridConfig()
	err := config.LoadString("x", "pattern: spiral\n", &g)
	require.ErrorContains(t, err, `pattern "spiral"`)
	g = DefaultGridConfig()
	require.ErrorIs(t, config.LoadString("x", "patern: blocks\n", &g), config.ErrUnknownKey)
	d := DefaultDensityConfig()
	require.ErrorContains(t, config.LoadString("x", "samples: 0\n", &d), "samples 0")
	d = DefaultDensityConfig()
	require.ErrorIs(t, config.LoadString("x", "tries: 10\n", &d), config.ErrUnknownKey)
	d = DefaultDensityConfig()
	require.NoError(t, config.LoadString("x", "budget: 0s\n", &d))
	require.Equal(t, time.Duration(0), d.Budget)
	for _, bad := range []string{"lookahead: -1\n", "lookahead_weight: 11\n", "lookahead_budget: 2h\n", "probe_budget: -1ms\n", "diag_weight: -1\n", "entropy_weight: 11\n", "kill_clear_weight: -0.5\n"} {
		d = DefaultDensityConfig()
		key, _, _ := strings.Cut(bad, ":")
		require.ErrorContains(t, config.LoadString("x", bad, &d), key+" ", bad)
	}
	for _, bad := range []string{"prior_games: 0\n", "strength: -1\n", "base_draws: 10\n", "samples: 0\n"} {
		a := DefaultAdaptiveConfig()
		key, _, _ := strings.Cut(bad, ":")
		require.ErrorContains(t, config.LoadString("x", bad, &a), key+" ", bad)
	}
	g, d, a, rc := DefaultGridConfig(), DefaultDensityConfig(), DefaultAdaptiveConfig(), DefaultRandomConfig()
	for _, into := range []any{&g, &d, &a, &rc} {
		require.ErrorContains(t, config.LoadString("x", "placement: corner\n", into), `placement "corner": want one of uniform, human, inner, edge`)
	}
}

// TestPlacementStyleFullSize: with placement: edge in its YAML, each bot places its big ships on the border far more often than
// with the default (uniform), and the default places exactly as a
// UniformPlacer drawing from the bot's stream.
func TestPlacementStyleFullSize(t *testing.T) {
	race.SkipFullSize(t)
	r := battleship.DefaultRules()
	dir := t.TempDir()
	edgeYAML := filepath.Join(dir, "edge.yaml")
	require.NoError(t, os.WriteFile(edgeYAML, []byte("placement: edge\n"), 0o600))
	u := mustPlacer(t, r)
	onBorder := func(p battleship.Placement) (edge int) {
		for _, s := range p {
			all := len(s) > 1
			for _, c := range s {
				x, y := r.Board.XY(c)
				all = all && (x == 0 || y == 0 || x == 9 || y == 9)
			}
			if all {
				edge++
			}
		}
		return edge
	}
	for _, name := range []string{"bs-random", "gridbot", "density", "greedy", "adaptive"} {
		t.Run(name, func(t *testing.T) {
			plain, err := New(name, r, nil)
			require.NoError(t, err)
			edge, err := New(name, r, config.File(edgeYAML))
			require.NoError(t, err)
			var nPlain, nEdge int
			for i := range 40 {
				p := plain(rand.New(rand.NewPCG(uint64(i), 5))).Place()
				want, err := u.Place(rand.New(rand.NewPCG(uint64(i), 5)))
				require.NoError(t, err)
				require.Equal(t, want, p, "the default places as the uniform placer")
				nPlain += onBorder(p)
				q := edge(rand.New(rand.NewPCG(uint64(i), 5))).Place()
				require.NoError(t, r.ValidatePlacement(q))
				nEdge += onBorder(q)
			}
			// 6 big ships a fleet: about 0.34 of them on the border
			// uniform, over 0.75 edge.
			require.Less(t, nPlain, 120)
			require.Greater(t, nEdge, 160)
		})
	}
}

func TestRegistry(t *testing.T) {
	require.Equal(t, []string{"bs-random", "gridbot", "density", "greedy", "adaptive"}, Names())
	r := battleship.DefaultRules()
	for _, e := range Entries() {
		f, err := New(e.Name, r, nil)
		require.NoError(t, err, e.Name)
		p := f(rand.New(rand.NewPCG(1, 2)))
		require.NoError(t, r.ValidatePlacement(p.Place()), e.Name)
	}
	_, err := New("nobody", r, nil)
	require.ErrorIs(t, err, ErrUnknownPlayer)
	_, err = New("bs-random", r, config.File("x.yaml"))
	require.ErrorContains(t, err, "x.yaml")
	_, err = New("gridbot", r, config.File("does-not-exist.yaml"))
	require.ErrorContains(t, err, "gridbot")
}

// smallRules is a board where every density move is an exact count.
func smallRules(t testing.TB) *battleship.Rules {
	r, err := battleship.NewRules(grid.MustBoard(7, 7, nil), []int{3, 2, 2, 1, 1})
	require.NoError(t, err)
	return r
}

func TestEveryPlayerSinksEveryFleet(t *testing.T) {
	for _, rules := range []*battleship.Rules{smallRules(t), battleship.DefaultRules()} {
		for _, name := range Names() {
			if name != "bs-random" && name != "gridbot" && rules.Board.Size() > 49 {
				continue // TestFullSizeDensitySinksTheClassicFleet
			}
			games := 10
			if race.Enabled && name != "bs-random" && name != "gridbot" {
				games = 3 // the counting bots are slow under -race
			}
			sinksEveryFleet(t, rules, name, games)
		}
	}
}

// TestFullSizeDensitySinksTheClassicFleet is the 10x10 case of
// TestEveryPlayerSinksEveryFleet for density: a game takes seconds (tens
// under -race).
func TestFullSizeDensitySinksTheClassicFleet(t *testing.T) {
	race.SkipFullSize(t)
	sinksEveryFleet(t, battleship.DefaultRules(), "density", 1)
}

// sinksEveryFleet plays that many solo games of the named player on rules and
// checks that each ends with the fleet sunk in a possible number of shots.
func sinksEveryFleet(t *testing.T, rules *battleship.Rules, name string, games int) {
	u, err := bsbelief.NewUniformPlacer(rules)
	require.NoError(t, err)
	t.Run(fmt.Sprintf("%s/%dx%d", name, rules.Board.Width(), rules.Board.Height()), func(t *testing.T) {
		f, err := New(name, rules, nil)
		require.NoError(t, err)
		rng := rand.New(rand.NewPCG(5, 5))
		for range games {
			layout, err := u.Place(rng)
			require.NoError(t, err)
			shots, err := Solo(context.Background(), rules, f(rng), layout)
			require.NoError(t, err)
			require.GreaterOrEqual(t, shots, rules.FleetCells())
			require.LessOrEqual(t, shots, rules.Board.Usable().Count())
		}
	})
}

func TestDensityIsExactOnSmallBoardsAndSamplesWithoutBudget(t *testing.T) {
	r := smallRules(t)
	u, err := bsbelief.NewUniformPlacer(r)
	require.NoError(t, err)
	layout, err := u.Place(rand.New(rand.NewPCG(1, 1)))
	require.NoError(t, err)

	look := DefaultDensityConfig()
	look.Lookahead = 4
	d := NewDensity(r, look, u, rand.New(rand.NewPCG(2, 2)))
	shots, err := Solo(context.Background(), r, d, layout)
	require.NoError(t, err)
	st := d.Stats()
	require.Equal(t, shots, st.Exact)
	require.Zero(t, st.Sampled+st.Heuristic)
	require.Positive(t, st.Lookahead, "the lookahead decides moves where the count is cheap")
	require.Equal(t, MethodExact, d.Explain().State)

	cfg := DefaultDensityConfig()
	cfg.Budget = 0
	s := NewDensity(r, cfg, u, rand.New(rand.NewPCG(2, 2)))
	shots, err = Solo(context.Background(), r, s, layout)
	require.NoError(t, err)
	st = s.Stats()
	require.Zero(t, st.Exact)
	require.Equal(t, shots, st.Sampled+st.Heuristic)
	require.Positive(t, st.Sampled)
}

func TestDensityFirstShotIsTheDensestCell(t *testing.T) {
	// On an empty 5x5 board with one 3-ship the centre cell is covered by
	// the most positions (6 of 30).
	r, err := battleship.NewRules(grid.MustBoard(5, 5, nil), []int{3})
	require.NoError(t, err)
	u, err := bsbelief.NewUniformPlacer(r)
	require.NoError(t, err)
	d := NewDensity(r, DefaultGreedyConfig(), u, rand.New(rand.NewPCG(3, 3)))
	require.Equal(t, "C3", r.CellName(d.Shoot()))
	require.Contains(t, d.Explain().Reason, "6 of 30 layouts")
	// After a hit there, the next shot is a neighbour (ties broken at random).
	d.Observe(battleship.Event{Mine: true, Result: battleship.Result{At: 12, Outcome: battleship.Hit}})
	next := d.Shoot()
	require.Contains(t, []string{"C2", "B3", "D3", "C4"}, r.CellName(next))
}

func TestPlayersAreDeterministicBySeed(t *testing.T) {
	r := smallRules(t)
	u, err := bsbelief.NewUniformPlacer(r)
	require.NoError(t, err)
	layout, err := u.Place(rand.New(rand.NewPCG(9, 9)))
	require.NoError(t, err)
	for _, name := range Names() {
		f, err := New(name, r, nil)
		require.NoError(t, err)
		shots := func() []grid.Cell {
			p := f(rand.New(rand.NewPCG(4, 4)))
			sea, err := battleship.NewSea(r, layout)
			require.NoError(t, err)
			var out []grid.Cell
			for sea.Afloat() > 0 {
				c := p.Shoot()
				out = append(out, c)
				res, err := sea.Fire(c)
				require.NoError(t, err)
				p.Observe(battleship.Event{Mine: true, Result: res})
			}
			return out
		}
		require.Equal(t, shots(), shots(), name)
	}
}

// fake is a scripted player.
type fake struct {
	place func() battleship.Placement
	shoot func() grid.Cell
	seen  []battleship.Event
}

func (f *fake) Place() battleship.Placement { return f.place() }
func (f *fake) Shoot() grid.Cell            { return f.shoot() }
func (f *fake) Observe(ev battleship.Event) { f.seen = append(f.seen, ev) }
func (f *fake) Explain() explain.Decision   { return explain.Decision{} }
func valid(p battleship.Placement) func() battleship.Placement {
	return func() battleship.Placement { return p }
}

func TestPlayGame(t *testing.T) {
	r, err := battleship.NewRules(grid.MustBoard(4, 4, nil), []int{2, 1})
	require.NoError(t, err)
	layout := battleship.Placement{{0, 1}, {15}}

	// Two real players: someone wins, both were told every shot.
	rs := rand.New(rand.NewPCG(1, 2))
	a := NewRandom(r, mustPlacer(t, r), rs)
	g := NewGridBot(r, DefaultGridConfig(), mustPlacer(t, r), rs)
	res := PlayGame(r, a, g, 0)
	require.NoError(t, res.Err)
	require.Equal(t, game.Won, res.Status)
	require.Contains(t, []int{0, 1}, res.Winner)

	// An invalid layout forfeits.
	bad := &fake{place: valid(battleship.Placement{{0, 5}, {15}})}
	good := &fake{place: valid(layout), shoot: func() grid.Cell { return 0 }}
	res = PlayGame(r, bad, good, 0)
	require.Equal(t, 1, res.Winner)
	require.ErrorIs(t, res.Err, battleship.ErrPlacement)

	// An illegal shot loses; both players are told.
	off := &fake{place: valid(layout), shoot: func() grid.Cell { return 99 }}
	other := &fake{place: valid(layout), shoot: func() grid.Cell { return 0 }}
	res = PlayGame(r, off, other, 0)
	require.Equal(t, 1, res.Winner)
	require.ErrorIs(t, res.Err, battleship.ErrIllegal)
	require.Len(t, off.seen, 1)
	require.True(t, off.seen[0].Illegal && off.seen[0].Mine)
	require.Len(t, other.seen, 1)

	// Repeating one cell forever ends in a draw at the draw limit.
	rep := &fake{place: valid(layout), shoot: func() grid.Cell { return 5 }}
	rep2 := &fake{place: valid(layout), shoot: func() grid.Cell { return 6 }}
	res = PlayGame(r, rep, rep2, 0)
	require.Equal(t, game.Drawn, res.Status)
	require.Equal(t, -1, res.Winner)
	require.Equal(t, r.DrawLimit, res.Shots[0]+res.Shots[1])
}

func TestSoloFailsForAStuckPlayer(t *testing.T) {
	r, err := battleship.NewRules(grid.MustBoard(4, 4, nil), []int{1})
	require.NoError(t, err)
	stuck := &fake{shoot: func() grid.Cell { return 5 }}
	_, err = Solo(context.Background(), r, stuck, battleship.Placement{{0}})
	require.ErrorIs(t, err, ErrTooManyShots)
}

func mustPlacer(t *testing.T, r *battleship.Rules) *bsbelief.UniformPlacer {
	t.Helper()
	u, err := bsbelief.NewUniformPlacer(r)
	require.NoError(t, err)
	return u
}

func ExamplePlayGame() {
	r := battleship.DefaultRules()
	p0, _ := New("gridbot", r, nil)
	p1, _ := New("bs-random", r, nil)
	res := PlayGame(r, p0(rand.New(rand.NewPCG(1, 1))), p1(rand.New(rand.NewPCG(2, 2))), 0)
	fmt.Println(res.Status == game.Won, res.Winner, res.Err)
	// Output: true 0 <nil>
}

// budgeted records the budget of each of a Density's counts, the method
// of each shot and the cells shot.
type budgeted struct {
	*Density
	budgets []time.Duration
	methods []string
	cells   []grid.Cell
}

func (b *budgeted) Shoot() grid.Cell {
	b.budgets = append(b.budgets, b.budget())
	c := b.Density.Shoot()
	b.methods, b.cells = append(b.methods, b.last.State), append(b.cells, c)
	return c
}

func TestDensityProbeBudget(t *testing.T) {
	play := func(t *testing.T, r *battleship.Rules, cfg DensityConfig) *budgeted {
		u := mustPlacer(t, r)
		layout, err := u.Place(rand.New(rand.NewPCG(4, 4)))
		require.NoError(t, err)
		b := &budgeted{Density: NewDensity(r, cfg, u, rand.New(rand.NewPCG(5, 5)))}
		_, err = Solo(context.Background(), r, b, layout)
		require.NoError(t, err)
		return b
	}
	t.Run("at or above the budget, or 0, it changes nothing", func(t *testing.T) {
		r := battleship.DefaultRules()
		if race.Enabled {
			r = smallRules(t)
		}
		base := DefaultGreedyConfig()
		want := play(t, r, base)
		for _, probe := range []time.Duration{base.Budget, 2 * base.Budget} {
			cfg := base
			cfg.ProbeBudget = probe
			got := play(t, r, cfg)
			require.Equal(t, want.cells, got.cells, "probe %v", probe)
			require.Equal(t, want.Stats(), got.Stats(), "probe %v", probe)
		}
	})
	t.Run("the first count and those after a break in the first pass", func(t *testing.T) {
		if race.Enabled {
			t.Skip("10x10 counts: slow under -race")
		}
		cfg := DefaultGreedyConfig()
		cfg.ProbeBudget = 12 * time.Millisecond
		b := play(t, battleship.DefaultRules(), cfg)
		require.Equal(t, cfg.ProbeBudget, b.budgets[0], "a game's first count")
		for i, m := range b.methods[:len(b.methods)-1] {
			if m == MethodExact {
				require.Equal(t, cfg.Budget, b.budgets[i+1], "after the exact move %d", i)
			}
		}
		st := b.Stats()
		require.Positive(t, st.Exact)
		require.Positive(t, st.Sampled, "the opening's counts break 12 ms")
		require.Contains(t, b.budgets, cfg.Budget)
	})
	t.Run("budget", func(t *testing.T) {
		tests := []struct {
			probe   time.Duration
			counted bool
			want    time.Duration
		}{
			{0, false, 50 * time.Millisecond},
			{0, true, 50 * time.Millisecond},
			{12 * time.Millisecond, false, 12 * time.Millisecond},
			{12 * time.Millisecond, true, 50 * time.Millisecond},
			{time.Second, false, 50 * time.Millisecond},
		}
		for _, tt := range tests {
			cfg := DefaultGreedyConfig()
			cfg.ProbeBudget = tt.probe
			d := NewDensity(battleship.DefaultRules(), cfg, nil, rand.New(rand.NewPCG(1, 1)))
			d.counted = tt.counted
			require.Equal(t, tt.want, d.budget(), "probe %v, counted %v", tt.probe, tt.counted)
		}
	})
}
