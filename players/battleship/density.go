package bsplayers

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"math/rand/v2"
	"slices"
	"time"

	bsbelief "github.com/kaisen-ai/kaisen/belief/battleship"
	"github.com/kaisen-ai/kaisen/explain"
	"github.com/kaisen-ai/kaisen/game/battleship"
	"github.com/kaisen-ai/kaisen/game/grid"
)

// DensityConfig holds the density bot's settings (configs/density.yaml).
type DensityConfig struct {
	// Budget is the time allowed for the exact count of one move. Default
	// 50ms. It is turned into a deterministic amount of work (WorkPerMS units
	// per millisecond) so that a game replays bit for bit on any machine.
	Budget time.Duration `mapstructure:"budget"`
	// ProbeBudget replaces Budget (when lower) for the counts that follow a
	// count that broke its budget in its first pass, and for the first
	// count of a game: such counts were never seen to fit Budget (the
	// first count that fits follows one whose first pass did), so they
	// are abandoned sooner. 0: Budget for every count. Default 12ms
	// (greedy: 0).
	ProbeBudget time.Duration `mapstructure:"probe_budget"`
	// WorkPerMS is the calibration: counting-programme word operations per
	// millisecond of one core (BenchmarkCountWork measures it). Default 100000.
	WorkPerMS int64 `mapstructure:"work_per_ms"`
	// Samples is how many layouts the fallback draws (sequential importance
	// sampling, bsbelief.EstimateCounts). Default 2000.
	Samples int `mapstructure:"samples"`
	// Lookahead is how many of the densest cells a move compares by one
	// ply of lookahead (0: fire at the densest cell, the greedy strategy).
	Lookahead int `mapstructure:"lookahead"`
	// LookaheadWeight weighs the expected share of the best next shot
	// against the share of the cell itself.
	LookaheadWeight float64 `mapstructure:"lookahead_weight"`
	// LookaheadBudget bounds the work of the lookahead counts of one move
	// (in the same work units as Budget); beyond it the move is greedy.
	LookaheadBudget time.Duration `mapstructure:"lookahead_budget"`
	// Experimental scores, measured against greedy in docs/battleship.md
	// (all 0: off). DiagWeight, DiagCellWeight: every move scores
	// share(c) * (1 + w * (the share, the number) of the unknown cells
	// diagonal to c). With lookahead, the candidates score share(c) +
	// ClearWeight * E[share ruled out by the answer] + ClearCellWeight *
	// E[cells ruled out] + KillClearWeight * E[cells ruled out by a kill]
	// + EntropyWeight * the entropy of the answer (bits), the answers
	// counted exactly.
	DiagWeight      float64 `mapstructure:"diag_weight"`
	DiagCellWeight  float64 `mapstructure:"diag_cell_weight"`
	ClearWeight     float64 `mapstructure:"clear_weight"`
	ClearCellWeight float64 `mapstructure:"clear_cell_weight"`
	KillClearWeight float64 `mapstructure:"kill_clear_weight"`
	EntropyWeight   float64 `mapstructure:"entropy_weight"`
	// Placement is how the bot places its own fleet: a placement style
	// (bsbelief.Styles: uniform, human, inner, edge). Default uniform.
	Placement string `mapstructure:"placement"`
}

func (c DensityConfig) placementStyle() string { return c.Placement }

// DefaultDensityConfig is the built-in configuration (equal to
// configs/density.yaml): greedy's, with ProbeBudget 12ms (its p99 per
// shot within issue 14's 20 ms; docs/battleship.md, "What the slow shots
// are"). The lookahead is off (Lookahead 0): its gain over the greedy
// choice is not established yet (docs/battleship.md); LookaheadWeight and
// LookaheadBudget are what lookahead: N uses.
func DefaultDensityConfig() DensityConfig {
	c := DefaultGreedyConfig()
	c.ProbeBudget = 12 * time.Millisecond
	c.LookaheadWeight, c.LookaheadBudget = 1, 20*time.Millisecond
	return c
}

// DefaultGreedyConfig is the configuration of "greedy" (equal to
// configs/greedy.yaml): density without lookahead.
func DefaultGreedyConfig() DensityConfig {
	return DensityConfig{Budget: 50 * time.Millisecond, WorkPerMS: 100000, Samples: 2000, Placement: bsbelief.StyleUniform}
}

// Validate checks the ranges.
func (c *DensityConfig) Validate() error {
	errs := CountingErrors(c.Budget, c.WorkPerMS, c.Samples, 10_000_000)
	if c.Lookahead < 0 || c.Lookahead > 100 {
		errs = append(errs, fmt.Errorf("lookahead %d: want 0 (greedy) to 100", c.Lookahead))
	}
	if !(c.LookaheadWeight >= 0 && c.LookaheadWeight <= 10) {
		errs = append(errs, fmt.Errorf("lookahead_weight %v: want 0 to 10", c.LookaheadWeight))
	}
	for _, w := range []struct {
		key string
		v   float64
	}{{"diag_weight", c.DiagWeight}, {"diag_cell_weight", c.DiagCellWeight}, {"clear_weight", c.ClearWeight},
		{"clear_cell_weight", c.ClearCellWeight}, {"kill_clear_weight", c.KillClearWeight}, {"entropy_weight", c.EntropyWeight}} {
		if !(w.v >= 0 && w.v <= 10) {
			errs = append(errs, fmt.Errorf("%s %v: want 0 to 10", w.key, w.v))
		}
	}
	if c.ProbeBudget < 0 || c.ProbeBudget > time.Hour {
		errs = append(errs, fmt.Errorf("probe_budget %v: want 0 (budget) to 1h", c.ProbeBudget))
	}
	if c.LookaheadBudget < 0 || c.LookaheadBudget > time.Hour {
		errs = append(errs, fmt.Errorf("lookahead_budget %v: want 0 to 1h", c.LookaheadBudget))
	}
	if err := checkStyle(c.Placement); err != nil {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// CountingErrors checks the settings every density player shares (the
// YAML keys budget, work_per_ms and samples): the exact count's time per
// move, 0 (always sample) to 1h; its calibration, at least 1 work unit per
// millisecond; and the layouts a sampled estimate draws, 1 to maxSamples.
func CountingErrors(budget time.Duration, workPerMS int64, samples, maxSamples int) []error {
	var errs []error
	if budget < 0 || budget > time.Hour {
		errs = append(errs, fmt.Errorf("budget %v: want 0 (always sample) to 1h", budget))
	}
	if workPerMS < 1 {
		errs = append(errs, fmt.Errorf("work_per_ms %d: want at least 1", workPerMS))
	}
	if samples < 1 || samples > maxSamples {
		errs = append(errs, fmt.Errorf("samples %d: want 1 to %d", samples, maxSamples))
	}
	return errs
}

// MaxWork is budget in counting-programme work units at workPerMS units a
// millisecond (bsbelief.CountOptions.MaxWork), at least 1.
func MaxWork(budget time.Duration, workPerMS int64) int64 {
	return max(1, budget.Milliseconds()*workPerMS)
}

// How a density move was decided.
const (
	MethodExact     = "exact"     // bsbelief.Count within the budget
	MethodSampled   = "sampled"   // bsbelief.EstimateCounts
	MethodHeuristic = "heuristic" // sampling found nothing: single-ship positions
)

// DensityStats counts the moves by method.
type DensityStats struct {
	Exact, Sampled, Heuristic int
	Lookahead                 int // of the exact moves, those decided by lookahead
}

// Add returns s + o.
func (s DensityStats) Add(o DensityStats) DensityStats {
	return DensityStats{s.Exact + o.Exact, s.Sampled + o.Sampled, s.Heuristic + o.Heuristic, s.Lookahead + o.Lookahead}
}

// Density ("density") fires at the UNKNOWN cell that the most layouts
// consistent with everything it knows put a ship on: its misses, its unsunk
// hits (which must be covered, and not by a ship of hits only), the sunk
// ships with their surroundings, and the fleet still afloat. The counts are
// exact (bsbelief.Count) when the count fits in the budget; otherwise it
// estimates them by sampling layouts (bsbelief.EstimateCounts, sequential
// importance sampling), and if no draw is consistent it scores cells by the
// single-ship positions through them. Ties are broken uniformly at random. It places its fleet by its placement style (uniform by default).
type Density struct {
	rules  *battleship.Rules
	cfg    DensityConfig
	placer bsbelief.Placer // its own fleet's
	rng    *rand.Rand
	pos    *battleship.Position
	count  bsbelief.Counter // reuses the last count's first pass (same results as bsbelief.Count)
	// counted: a count has run in this game and the last one fitted its
	// budget or broke it after its first pass (the next count gets the
	// whole Budget, not ProbeBudget)
	counted bool
	stats   DensityStats
	last    explain.Decision
	// prior weighs the share of each cell (nil: every cell 1, the uniform
	// prior): the placement preference an Adaptive bot has learnt. It is
	// in force (inForce) only while no unsunk hit is on the board: a
	// ship already hit is found by the exact counts.
	prior, inForce []float64

	// the per-cell map behind the last shot (Heatmaps): one of these
	exact   *bsbelief.Counts
	sampled *bsbelief.Estimate
	scores  []int
}

var (
	_ Player            = (*Density)(nil)
	_ explain.Explainer = (*Density)(nil)
	_ explain.Mapper    = (*Density)(nil)
)

// NewDensity returns a density bot for rules that places its fleet with
// placer.
func NewDensity(r *battleship.Rules, cfg DensityConfig, placer bsbelief.Placer, rng *rand.Rand) *Density {
	return &Density{rules: r, cfg: cfg, placer: placer, rng: rng, pos: battleship.NewPosition(r)}
}

// Place implements Player.
func (d *Density) Place() battleship.Placement { return placeOrEmpty(d.placer, d.rng) }

// Observe implements Player.
func (d *Density) Observe(ev battleship.Event) {
	if ev.Mine && !ev.Illegal {
		d.pos.Record(ev.Result)
	}
}

// Position is what the bot knows (do not modify).
func (d *Density) Position() *battleship.Position { return d.pos }

// Stats counts this bot's moves by method.
func (d *Density) Stats() DensityStats { return d.stats }

// Explain implements explain.Explainer.
func (d *Density) Explain() explain.Decision { return d.last }

// Heatmaps implements explain.Mapper: the map the last shot was chosen on,
// named by the method (Decision.State) — "exact" and "sampled": the share
// of the remaining fleet's consistent layouts with a ship on each cell;
// "heuristic": the single-ship scores relative to the largest. A bot that
// has not shot yet, or had no cell left, draws nothing.
func (d *Density) Heatmaps() []explain.Heatmap {
	b := d.rules.Board
	p := make([]float64, b.Size())
	name := ""
	switch {
	case d.exact != nil:
		name = MethodExact
		total := new(big.Float).SetInt(d.exact.Total)
		for c, n := range d.exact.Cells {
			p[c], _ = new(big.Float).Quo(new(big.Float).SetInt(n), total).Float64()
		}
	case d.sampled != nil:
		name = MethodSampled
		for c := range p {
			p[c] = d.sampled.Share(grid.Cell(c))
		}
	case d.scores != nil:
		name = MethodHeuristic
		top := slices.Max(d.scores)
		for c, v := range d.scores {
			if top > 0 {
				p[c] = float64(v) / float64(top)
			}
		}
	default:
		return nil
	}
	return []explain.Heatmap{explain.NewHeatmap(name, explain.SideEnemy, b.Width(), b.Height(), p)}
}

// countOptions are the options of the bot's budgeted counts: on one
// goroutine. Splitting a count over cores changes none of its results
// or work, but the bot's slow shots are counts that break the budget in
// pass 1, which runs on one goroutine anyway, and a match or `kaisen
// shots` already plays games on every core: with the split, density's
// p99 per shot was 51.6 ms wall against 49.2 ms without
// (BenchmarkShotTime, 20 games, -cpu 2 against -cpu 1), and its games
// cost more CPU.
func countOptions(maxWork int64) bsbelief.CountOptions {
	return bsbelief.CountOptions{MaxWork: maxWork, Workers: 1}
}

// Shoot implements Player.
func (d *Density) Shoot() grid.Cell {
	unknown := d.pos.Set(battleship.Unknown)
	d.exact, d.sampled, d.scores = nil, nil, nil
	if unknown.Empty() {
		return d.rules.Board.Usable().First()
	}
	d.inForce = nil
	if d.pos.Set(battleship.Damaged).Empty() {
		d.inForce = d.prior
	}
	if d.cfg.Budget > 0 {
		counts, err := d.count.Count(context.Background(), d.pos, countOptions(MaxWork(d.budget(), d.cfg.WorkPerMS)))
		var be *bsbelief.BudgetError
		d.counted = !errors.As(err, &be) || !be.InFirstPass()
		if err == nil && counts.Total.Sign() > 0 {
			d.stats.Exact++
			d.exact, d.sampled, d.scores = counts, nil, nil
			if d.cfg.Lookahead > 0 {
				if best, v, ok := d.lookahead(context.Background(), counts, unknown, MaxWork(d.cfg.LookaheadBudget, d.cfg.WorkPerMS)); ok {
					d.stats.Lookahead++
					return d.pick(best, MethodExact, fmt.Sprintf("lookahead score %.4f (share + %g × best next share) of %s layouts", v, d.cfg.LookaheadWeight, counts.Total))
				}
			}
			if d.cfg.DiagWeight > 0 || d.cfg.DiagCellWeight > 0 {
				best, _ := argmax(unknown, d.shaped(d.weighted(counts.Cells), bigFloat(counts.Total)))
				return d.pick(best, MethodExact, "shaped")
			}
			if d.inForce != nil {
				best, _ := argmax(unknown, d.weighted(counts.Cells))
				return d.pick(best, MethodExact, fmt.Sprintf("%s of %s layouts, prior weight %.3f", counts.Cells[best[0]], counts.Total, d.weight(best[0])))
			}
			best, score := argmaxBig(unknown, counts.Cells)
			return d.pick(best, MethodExact, fmt.Sprintf("%s of %s layouts", score, counts.Total))
		}
	}
	est, err := bsbelief.EstimateCounts(d.pos, d.rng, d.cfg.Samples)
	if err == nil && est.Kept > 0 {
		d.stats.Sampled++
		d.exact, d.sampled, d.scores = nil, est, nil
		cells := est.Cells
		if d.inForce != nil {
			cells = slices.Clone(cells)
			for c := range cells {
				cells[c] *= d.inForce[c]
			}
		}
		if d.cfg.DiagWeight > 0 || d.cfg.DiagCellWeight > 0 {
			cells = d.shaped(cells, est.Sum)
		}
		best, _ := argmax(unknown, cells)
		return d.pick(best, MethodSampled, fmt.Sprintf("share %.3f of %d weighted draws (effective %.0f)", est.Share(best[0]), est.Draws, est.ESS))
	}
	d.stats.Heuristic++
	scores := d.singleShipScores()
	d.exact, d.sampled, d.scores = nil, nil, scores
	best, score := argmax(unknown, scores)
	return d.pick(best, MethodHeuristic, fmt.Sprintf("score %d", score))
}

// budget is the budget of the next count: ProbeBudget (when set and
// lower than Budget) for a game's first count and after a count that
// broke its budget in its first pass, else Budget.
func (d *Density) budget() time.Duration {
	if d.counted || d.cfg.ProbeBudget <= 0 {
		return d.cfg.Budget
	}
	return min(d.cfg.Budget, d.cfg.ProbeBudget)
}

// pick breaks ties uniformly and records the decision.
func (d *Density) pick(best []grid.Cell, method, why string) grid.Cell {
	c := best[d.rng.IntN(len(best))]
	d.last = explain.Decision{
		State:  method,
		Reason: fmt.Sprintf("%s: %s on %s (%d tied)", method, why, d.rules.CellName(c), len(best)),
	}
	return c
}

func argmaxBig(cells grid.Set, v []*big.Int) ([]grid.Cell, *big.Int) {
	var best []grid.Cell
	var top *big.Int
	for c := range cells.All() {
		cmp := 1
		if top != nil {
			cmp = v[c].Cmp(top)
		}
		switch {
		case cmp > 0:
			top, best = v[c], []grid.Cell{c}
		case cmp == 0:
			best = append(best, c)
		}
	}
	return best, top
}

// argmax returns the cells of cells with the largest value and that value.
func argmax[T int | float64](cells grid.Set, v []T) ([]grid.Cell, T) {
	var best []grid.Cell
	var top T
	for c := range cells.All() {
		switch {
		case len(best) == 0 || v[c] > top:
			top, best = v[c], []grid.Cell{c}
		case v[c] == top:
			best = append(best, c)
		}
	}
	return best, top
}

// singleShipScores scores each cell by the positions of single remaining
// ships through it that avoid every known empty cell, a position covering
// k unsunk hits weighing 100^k (the last resort; it ignores how ships
// interact).
func (d *Density) singleShipScores() []int {
	b := d.rules.Board
	scores := make([]int, b.Size())
	rem, err := d.pos.Remaining()
	if err != nil {
		return scores
	}
	empty := d.pos.Set(battleship.Water).Union(d.pos.Set(battleship.Sunk))
	for c := range d.pos.Set(battleship.Sunk).All() {
		empty = empty.Union(b.Around(c))
	}
	damaged := d.pos.Set(battleship.Damaged)
	for _, l := range rem {
		for _, dir := range [2][2]int{{1, 0}, {0, 1}} {
			for y := range b.Height() {
				for x := range b.Width() {
					var cells grid.Set
					ok := true
					for i := range l {
						c, on := b.At(x+i*dir[0], y+i*dir[1])
						if !on || !b.IsUsable(c) || empty.Has(c) {
							ok = false
							break
						}
						cells.Add(c)
					}
					if !ok {
						continue
					}
					w := 1
					for range cells.Intersect(damaged).Count() {
						w = min(w*100, 1<<40)
					}
					for c := range cells.All() {
						scores[c] += w
					}
				}
			}
		}
	}
	return scores
}
