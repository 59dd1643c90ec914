package bsplayers

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	bsbelief "github.com/kaisen-ai/kaisen/belief/battleship"
	"github.com/kaisen-ai/kaisen/game/battleship"
	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/internal/config"
	"github.com/kaisen-ai/kaisen/internal/cputime"
)

// cpuTimed measures each Shoot of a player: the CPU time of the whole
// process (every goroutine of the count: its two numeric passes run on
// two) and the wall time.
type cpuTimed struct {
	Player
	cpu, wall []time.Duration
}

func (p *cpuTimed) Shoot() grid.Cell {
	c0, _ := cputime.Process()
	w0 := time.Now()
	c := p.Player.Shoot()
	p.wall = append(p.wall, time.Since(w0))
	c1, _ := cputime.Process()
	p.cpu = append(p.cpu, c1-c0)
	return c
}

// BenchmarkShotTime plays whole games (one per iteration; game i: fleet
// PCG(7, 2i) uniform, player PCG(7, 2i+1)) of each counting bot at its
// built-in settings on the classic board and reports the time per shot:
// p50, p99 and max of the process CPU time (both goroutines of a count,
// the figure to hold to the per-shot budget) and p99 of the wall time,
// with the shots per game. KAISEN_SHOT_TIME_WEIGHTS=FILE plays density
// with the settings of that weights file over its defaults (as kaisen
// shots --weights does), to time a setting before it becomes a default.
func BenchmarkShotTime(b *testing.B) {
	if _, ok := cputime.Process(); !ok {
		b.Skip("no process CPU time on this platform")
	}
	r := battleship.DefaultRules()
	for _, name := range []string{"density", "greedy"} {
		b.Run(name, func(b *testing.B) {
			var load Loader
			if path := os.Getenv("KAISEN_SHOT_TIME_WEIGHTS"); path != "" && name == "density" {
				load = config.File(path)
			}
			factory, err := New(name, r, load)
			if err != nil {
				b.Fatal(err)
			}
			var timed []*cpuTimed
			shots, games := playShotGames(b, r, factory, func(_ int, p Player) Player {
				timed = append(timed, &cpuTimed{Player: p})
				return timed[len(timed)-1]
			})
			var cpu, wall []time.Duration
			for _, p := range timed {
				cpu, wall = append(cpu, p.cpu...), append(wall, p.wall...)
			}
			slices.Sort(cpu)
			slices.Sort(wall)
			b.ReportMetric(ms(quantile(cpu, 0.50)), "cpu-ms/shot-p50")
			b.ReportMetric(ms(quantile(cpu, 0.99)), "cpu-ms/shot-p99")
			b.ReportMetric(ms(cpu[len(cpu)-1]), "cpu-ms/shot-max")
			b.ReportMetric(ms(quantile(wall, 0.99)), "wall-ms/shot-p99")
			b.ReportMetric(float64(shots)/float64(games), "shots/game")
		})
	}
}

// playShotGames plays one game of factory's player on r's board per
// iteration of b (game i: fleet PCG(7, 2i) placed uniformly, player
// PCG(7, 2i+1)), the player wrapped by wrap(i, player), and returns the
// shots and the games.
func playShotGames(b *testing.B, r *battleship.Rules, factory Factory, wrap func(game int, p Player) Player) (shots, games int) {
	u, err := bsbelief.NewUniformPlacer(r)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		layout, err := u.Place(rand.New(rand.NewPCG(7, uint64(2*games))))
		if err != nil {
			b.Fatal(err)
		}
		p := wrap(games, factory(rand.New(rand.NewPCG(7, uint64(2*games+1)))))
		games++
		n, err := Solo(context.Background(), r, p, layout)
		if err != nil {
			b.Fatal(err)
		}
		shots += n
	}
	return shots, games
}

// quantile is the nearest-rank q-quantile of sorted durations.
func quantile(sorted []time.Duration, q float64) time.Duration {
	return sorted[min(len(sorted)-1, int(q*float64(len(sorted))))]
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// shotRecord is what BenchmarkShotProfile learns about one shot.
type shotRecord struct {
	game, move int
	method     string        // how the shot was decided (MethodExact, ...)
	shot       time.Duration // process CPU time of the whole Shoot
	count      time.Duration // of the budgeted count alone (on the shadow Counter)
	sample     time.Duration // of the sampled fallback alone, after a broken count
	budget     time.Duration // the count's budget
	work       int64         // the count's work, when it fitted the budget
	// class: "fit" (the count fitted its budget), "first" (it broke the
	// budget in its first pass), "after" (after its first pass)
	class   string
	done    int    // cells of the first pass completed, when it broke the budget
	prev    string // the outcome of the shot before ("" for the first)
	damaged int    // unsunk hits on the board
	unknown int    // cells not shot yet
}

// BenchmarkShotProfile plays BenchmarkShotTime's density games (game i:
// fleet PCG(7, 2i), bot PCG(7, 2i+1)) and finds what the slow shots are:
// before each Shoot it runs, on a shadow Counter fed the same positions
// with the bot's budget (so that it makes the same budget decisions), the
// budgeted count and, when that breaks the budget, the sampled fallback,
// timing each (process CPU time). It logs the slowest 1 % of the shots,
// the budget-breaking counts by where they broke it, and which class of
// count follows which. KAISEN_SHOT_PROFILE_BUDGETS=25ms,12ms sets
// density's budget and probe_budget; KAISEN_SHOT_PROFILE=FILE writes every shot as
// tab-separated values.
func BenchmarkShotProfile(b *testing.B) {
	if _, ok := cputime.Process(); !ok {
		b.Skip("no process CPU time on this platform")
	}
	r := battleship.DefaultRules()
	var load Loader
	if v := os.Getenv("KAISEN_SHOT_PROFILE_BUDGETS"); v != "" {
		bs, ps, _ := strings.Cut(v, ",")
		budget, err1 := time.ParseDuration(bs)
		probe, err2 := time.ParseDuration(ps)
		if err := errors.Join(err1, err2); err != nil {
			b.Fatalf("KAISEN_SHOT_PROFILE_BUDGETS %q: want BUDGET,PROBE (25ms,12ms): %v", v, err)
		}
		load = func(into any) error {
			c := into.(*DensityConfig)
			c.Budget, c.ProbeBudget = budget, probe
			return nil
		}
	}
	factory, err := New("density", r, load)
	if err != nil {
		b.Fatal(err)
	}
	var played []*profiled
	playShotGames(b, r, factory, func(game int, p Player) Player {
		played = append(played, &profiled{Density: p.(*Density), game: game})
		return played[len(played)-1]
	})
	var recs []shotRecord
	for _, p := range played {
		recs = append(recs, p.recs...)
	}
	if path := os.Getenv("KAISEN_SHOT_PROFILE"); path != "" {
		if err := os.WriteFile(path, shotTable(recs), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	logShotProfile(b, recs)
}

// logShotProfile logs the summary of BenchmarkShotProfile.
func logShotProfile(b *testing.B, recs []shotRecord) {
	follows := map[[2]string]int{}
	byClass := map[string][]time.Duration{}
	for i, s := range recs {
		byClass[s.class] = append(byClass[s.class], s.count)
		if s.move > 1 {
			follows[[2]string{recs[i-1].class, s.class}]++
		}
	}
	for class, ts := range byClass {
		slices.Sort(ts)
		b.Logf("counts %-5s %4d: CPU p50 %5.1f ms, p99 %5.1f ms, max %5.1f ms", class, len(ts), ms(quantile(ts, 0.5)), ms(quantile(ts, 0.99)), ms(ts[len(ts)-1]))
	}
	b.Logf("class of a count after the class of the one before: %v", follows)
	slices.SortFunc(recs, func(x, y shotRecord) int { return int(y.shot - x.shot) })
	n := max(1, len(recs)/100)
	byMove := map[int]int{}
	for _, s := range recs[:n] {
		byMove[s.move]++
	}
	var exact int
	for _, s := range recs {
		if s.method == MethodExact {
			exact++
		}
	}
	b.Logf("%d shots, %d exact; the slowest 1%% (%d, from %.1f ms) by move: %v", len(recs), exact, n, ms(recs[n-1].shot), byMove)
	for _, s := range recs[:n] {
		b.Logf("game %3d move %2d %-7s shot %5.1f ms: count %5.1f (%s, budget %v, work %d, first pass %d cells), sampling %4.1f",
			s.game, s.move, s.method, ms(s.shot), ms(s.count), s.class, s.budget, s.work, s.done, ms(s.sample))
	}
}

// shotTable is recs as tab-separated values with a header line.
func shotTable(recs []shotRecord) []byte {
	var buf bytes.Buffer
	buf.WriteString("game\tmove\tmethod\tshot_ms\tcount_ms\tsample_ms\tbudget_ms\twork\tclass\tdone\tprev\tdamaged\tunknown\n")
	for _, s := range recs {
		fmt.Fprintf(&buf, "%d\t%d\t%s\t%.3f\t%.3f\t%.3f\t%d\t%d\t%s\t%d\t%s\t%d\t%d\n",
			s.game, s.move, s.method, ms(s.shot), ms(s.count), ms(s.sample), s.budget.Milliseconds(), s.work, s.class, s.done, s.prev, s.damaged, s.unknown)
	}
	return buf.Bytes()
}

// profiled is a Density whose shots BenchmarkShotProfile splits.
type profiled struct {
	*Density
	game   int
	shadow bsbelief.Counter
	prev   string
	recs   []shotRecord
}

func (p *profiled) Observe(ev battleship.Event) {
	p.Density.Observe(ev)
	if ev.Mine {
		p.prev = ev.Result.Outcome.String()
	}
}

func (p *profiled) Shoot() grid.Cell {
	rec := shotRecord{
		game: p.game, move: len(p.recs) + 1, budget: p.budget(), prev: p.prev,
		damaged: p.pos.Set(battleship.Damaged).Count(), unknown: p.pos.Set(battleship.Unknown).Count(),
	}
	c0, _ := cputime.Process()
	counts, err := p.shadow.Count(context.Background(), p.pos, countOptions(MaxWork(rec.budget, p.cfg.WorkPerMS)))
	c1, _ := cputime.Process()
	rec.count = c1 - c0
	var be *bsbelief.BudgetError
	switch {
	case err == nil:
		rec.class, rec.work = "fit", counts.Work
	case errors.As(err, &be):
		rec.class, rec.done = "after", be.Done
		if be.InFirstPass() {
			rec.class = "first"
		}
		if _, err := bsbelief.EstimateCounts(p.pos, rand.New(rand.NewPCG(1, 2)), p.cfg.Samples); err != nil {
			panic(err) // the games are valid
		}
		c2, _ := cputime.Process()
		rec.sample = c2 - c1
	default:
		rec.class = "error"
	}
	c2, _ := cputime.Process()
	c := p.Density.Shoot()
	c3, _ := cputime.Process()
	rec.shot, rec.method = c3-c2, p.last.State
	p.recs = append(p.recs, rec)
	return c
}
