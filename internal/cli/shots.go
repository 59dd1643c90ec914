package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	bsbelief "github.com/kaisen-ai/kaisen/belief/battleship"
	"github.com/kaisen-ai/kaisen/game/battleship"
	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/games"
	"github.com/kaisen-ai/kaisen/internal/config"
	"github.com/kaisen-ai/kaisen/internal/report"
	bsplayers "github.com/kaisen-ai/kaisen/players/battleship"
	"github.com/kaisen-ai/kaisen/shard"
)

type shotsFlags struct {
	player   string
	config   string
	games    int
	seed     uint64
	workers  int
	size     string
	fleet    string
	json     bool
	html     string
	progress string
	placer   string
	series   int
	vs       string
	shard    shardFlags
}

func newShotsCmd(e *env) *cobra.Command {
	var f shotsFlags
	cmd := &cobra.Command{
		Use:   "shots --player NAME [-n GAMES] [--seed S]",
		Short: "Measure how many shots a Battleship AI needs to sink a uniformly placed fleet",
		Long: `Let a Battleship AI shoot alone at GAMES fleets placed uniformly at random
(every valid layout equally likely) until each is sunk, and print the number
of shots per game (mean, median, standard deviation, 90th percentile, worst)
and the AI's decision time per shot (50th and 99th percentile, wall clock).
For the counting AIs (density, greedy, adaptive) it also prints how many
shots were decided by exact counting (and of those, by density's
lookahead), by sampling and by the last-resort heuristic.

AIs: bs-random, gridbot, density, greedy, adaptive (see docs/battleship.md).

--placer human places the fleets with the edge-loving human-like placer
instead, --placer inner with its opposite for big ships (off the border),
--placer edge with every ship on the border when it can.
--series N plays the games in series of N consecutive games against one
player that learns the layouts between them (adaptive; the series run in
parallel, the games of one series in order); game i still has the fleet
and random stream of game i, so a series and the same games
played by density are paired.

Reproducible: game i draws its fleet and the AI's randomness from the seed
and i alone, so the same --seed, player, config and -n give the same shot
counts whatever --workers is (times vary). Without --seed a random seed is
drawn and printed on stderr.

With --json the last line of stdout is
  {"player":"NAME","games":N,"mean":m,"median":x,"sd":s,"p90":y,"max":z,"ms_per_move_p99":t}
--html FILE also writes the histogram of shots per game as a web page (no
network needed). A progress bar is drawn on stderr when stderr is a terminal. Ctrl-C stops and
prints the summary of the games finished so far (exit code 130).`,
		Example: `  kaisen shots --player gridbot -n 10000 --seed 1
  kaisen shots --player density -n 200 --seed 1 --json
  kaisen shots --player gridbot --weights my-gridbot.yaml -n 1000   (pattern: blocks)
  kaisen shots --player bs-random --size 8x8 --fleet 3,2,2,1,1 -n 5000
  kaisen shots --player density -n 200 --seed 1 --html density-shots.html
  kaisen shots --player adaptive --placer human --series 50 -n 1000 --seed 1`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := f.shard.check(cmd, "html", "series", "vs"); err != nil {
				return err
			}
			if err := f.shard.checkGames(f.games); err != nil {
				return err
			}
			return runShots(cmd.Context(), e, &f)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.player, "player", "", "battleship AI: "+strings.Join(bsplayers.Names(), ", ")+" (required)")
	addWeightsFlag(cmd, &f.config, "weights", "YAML settings of the AI (default: its built-in settings)", "config")
	addGamesFlag(cmd, &f.games, 1000, "number of games")
	addSeedFlag(cmd, &f.seed, "seed of the games")
	addWorkersFlag(cmd, &f.workers, 1)
	addProgressFlag(cmd, &f.progress)
	addShardFlags(cmd, &f.shard)
	completePlayers(cmd, "player", false, hasTool(games.ToolShots))
	completeYAML(cmd, "weights")
	fl.StringVar(&f.size, "size", "10x10", "board WIDTHxHEIGHT")
	fl.StringVar(&f.fleet, "fleet", battleship.FormatFleet(battleship.DefaultFleet()), "ship lengths")
	addJSONFlag(cmd, &f.json, "print one JSON line instead of the table")
	fl.StringVar(&f.placer, "placer", "uniform", "how the fleets are placed: "+strings.Join(bsbelief.Styles, ", "))
	fl.StringVar(&f.vs, "vs", "", "also play every game with this AI (built-in settings) on the same fleet and random stream, and report the paired difference")
	fl.IntVar(&f.series, "series", 0, "play the games in series of this many against one player that learns between them (adaptive); 0: each game on its own")
	fl.StringVar(&f.html, "html", "", "also write the histogram of shots per game as a self-contained HTML page to this file")
	return cmd
}

// shotsGame is one game's outcome.
type shotsGame struct {
	shots int
	moves []time.Duration
	stats bsplayers.DensityStats
	err   error
	done  bool
}

// timedPlayer measures the wall time of each Shoot.
type timedPlayer struct {
	bsplayers.Player
	moves []time.Duration
}

func (p *timedPlayer) Shoot() grid.Cell {
	start := time.Now()
	c := p.Player.Shoot()
	p.moves = append(p.moves, time.Since(start))
	return c
}

// shotsSeeds derives game i's two random streams from the seed.
func shotsSeeds(seed uint64, i int) (fleet, player *rand.Rand) {
	return rand.New(rand.NewPCG(seed, uint64(2*i))), rand.New(rand.NewPCG(seed, uint64(2*i+1)))
}

func runShots(ctx context.Context, e *env, f *shotsFlags) error {
	if f.player == "" {
		return usageError(`required flag(s) "player" not set (players: %s)`, strings.Join(bsplayers.Names(), ", "))
	}
	w, h, err := parseSize(f.size)
	if err != nil {
		return err
	}
	fleet, err := battleship.ParseFleet(f.fleet)
	if err != nil {
		return usageError("--fleet: %w", err)
	}
	board, err := grid.NewBoard(w, h, nil)
	if err != nil {
		return usageError("--size: %w", err)
	}
	rules, err := battleship.NewRules(board, fleet)
	if err != nil {
		return usageError("shots: %w", err)
	}
	factory, err := bsplayers.New(f.player, rules, config.File(f.config))
	if err != nil {
		return usageError("--player: %w", err)
	}
	placer, err := newShotsPlacer(rules, f.placer)
	if err != nil {
		return err
	}
	var vsFactory bsplayers.Factory
	if f.vs != "" {
		if vsFactory, err = bsplayers.New(f.vs, rules, nil); err != nil {
			return usageError("--vs: %w", err)
		}
	}
	if f.series < 0 {
		return usageError("--series %d: want 0 (no series) or more", f.series)
	}

	if f.shard.queued {
		return f.shard.runQueued(ctx, e, "shots", f.seed, f.games, f.games, f.progress, f.json)
	}
	lo, hi := f.shard.span(f.games)
	count := hi - lo
	results := make([]shotsGame, count)
	vsShots := make([]int, count) // with --vs: its shots in the same games
	jobs := make(chan int)
	finished := make(chan struct{}, count)
	// A job is a game, or with --series the first game of a series.
	step := 1
	if f.series > 0 {
		step = f.series
	}
	var wg sync.WaitGroup
	for range min(workersOf(f.workers), (count+step-1)/step) {
		wg.Go(func() {
			for i := range jobs {
				var gs []shotsGame
				if f.series == 0 {
					gs = []shotsGame{playShotsGame(ctx, rules, factory, placer, f.seed, i)}
				} else {
					gs = playShotsSeries(ctx, rules, factory, placer, f.seed, i, min(i+step, hi))
				}
				for j, g := range gs {
					if vsFactory != nil && g.done && g.err == nil {
						v := playShotsGame(ctx, rules, vsFactory, placer, f.seed, i+j)
						if !v.done || v.err != nil {
							g = shotsGame{err: v.err, done: v.done}
							if v.err != nil {
								g.err = fmt.Errorf("--vs %s: %w", f.vs, v.err)
							}
						}
						vsShots[i-lo+j] = v.shots
					}
					results[i-lo+j] = g
					finished <- struct{}{}
				}
			}
		})
	}
	bar := newProgress(e, f.progress, count, "games")
	start := time.Now()
	go func() {
		defer close(jobs)
		for i := lo; i < hi; i += step {
			select {
			case jobs <- i:
			case <-ctx.Done():
				return
			}
		}
	}()
	go func() { wg.Wait(); close(finished) }()
	done := 0
	for range finished {
		done++
		if bar != nil {
			bar.Set(done)
		}
	}
	if bar != nil {
		bar.Done(done)
	}
	elapsed := time.Since(start)

	var shots, vs []int
	var moves []time.Duration
	var stats bsplayers.DensityStats
	for i, g := range results {
		if !g.done {
			continue
		}
		if g.err != nil {
			return fmt.Errorf("shots: game %d (seed %d): %w", lo+i, f.seed, g.err)
		}
		shots = append(shots, g.shots)
		vs = append(vs, vsShots[i])
		moves = append(moves, g.moves...)
		stats = stats.Add(g.stats)
	}
	e.log.Debug("shots finished", "games", len(shots), "elapsed", elapsed)
	tm := shotsTiming{moves: int64(len(moves)), p50: percentile(moves, 0.50), p99: percentile(moves, 0.99), elapsed: elapsed}
	if f.shard.on {
		if len(shots) < count {
			return &ExitError{Code: ExitInterrupted, Err: fmt.Errorf("shots: shard interrupted after %d of %d games; no file written", len(shots), count)}
		}
		return f.shard.write(e, "shots", f.seed, f.games, workersOf(f.workers), elapsed, shard.Shots{
			Player: f.player, Width: w, Height: h, Fleet: battleship.FormatFleet(rules.Fleet), Shots: shard.HistOf(shots),
			Exact: stats.Exact, Sampled: stats.Sampled, Heuristic: stats.Heuristic, Lookahead: stats.Lookahead,
			Moves: tm.moves, P50NS: int64(tm.p50), P99NS: int64(tm.p99)})
	}
	sum := summarizeShots(f.player, shots, moves)
	sum.Seed = f.seed
	if vsFactory != nil {
		sum.pair(f.vs, shots, vs)
	}
	if f.html != "" {
		if err := writeReport(f.html, shotsPage(rules, f, sum, shots)); err != nil {
			return err
		}
	}
	if err := printShots(e, rules, f, sum, tm, densityLine(f.player, stats.Exact, stats.Sampled, stats.Heuristic, stats.Lookahead)); err != nil {
		return err
	}
	if len(shots) < f.games {
		return &ExitError{Code: ExitInterrupted, Err: fmt.Errorf("shots: interrupted after %d of %d games", len(shots), f.games)}
	}
	return nil
}

// shotsTiming are the timing fields of the shots table: shots timed,
// their p50 and p99 decision times and the wall time.
type shotsTiming struct {
	moves    int64
	p50, p99 time.Duration
	elapsed  time.Duration
}

// densityLine is the count of moves by kind of the counting AIs (density,
// greedy, adaptive), "" for another player.
func densityLine(player string, exact, sampled, heuristic, lookahead int) string {
	switch player {
	case "density", "adaptive":
		return fmt.Sprintf("%s moves: %d exact (%d of them by lookahead), %d sampled (fallback), %d heuristic", player, exact, lookahead, sampled, heuristic)
	case "greedy":
		return fmt.Sprintf("%s moves: %d exact, %d sampled (fallback), %d heuristic", player, exact, sampled, heuristic)
	}
	return ""
}

// printShots prints the summary as a table or, with --json, a JSON line
// (density, when not "", goes after the table or on stderr).
func printShots(e *env, rules *battleship.Rules, f *shotsFlags, sum shotsSummary, tm shotsTiming, density string) error {
	if density != "" {
		if f.json {
			fmt.Fprintln(e.stderr, density)
		} else {
			defer fmt.Fprintln(e.stdout, density)
		}
	}
	if f.json {
		return json.NewEncoder(e.stdout).Encode(sum)
	}
	return writeShotsTable(e.stdout, rules, f, sum, tm)
}

// shotsPlacer draws a fleet layout.
type shotsPlacer func(rng *rand.Rand) (battleship.Placement, error)

// newShotsPlacer returns the placer of --placer: a placement style
// (bsbelief.NewStylePlacer).
func newShotsPlacer(rules *battleship.Rules, name string) (shotsPlacer, error) {
	p, err := bsbelief.NewStylePlacer(rules, name)
	if errors.Is(err, bsbelief.ErrUnknownStyle) {
		return nil, usageError("--placer %q: want one of %s", name, strings.Join(bsbelief.Styles, ", "))
	}
	if err != nil {
		return nil, fmt.Errorf("shots: %w", err)
	}
	return p.Place, nil
}

// statser is a player that counts its moves by method (the counting AIs).
type statser interface{ Stats() bsplayers.DensityStats }

// playShotsSeries plays games lo..hi-1 as one series: one player, made
// from game lo's random stream, starts each game i with game i's stream
// and learns each layout after its game (bsplayers.Learner; a player that
// does not learn is an error).
func playShotsSeries(ctx context.Context, rules *battleship.Rules, factory bsplayers.Factory, placer shotsPlacer, seed uint64, lo, hi int) (gs []shotsGame) {
	gs = make([]shotsGame, hi-lo)
	defer func() {
		if r := recover(); r != nil {
			gs[0] = shotsGame{err: fmt.Errorf("player panicked: %v", r), done: true}
		}
	}()
	_, first := shotsSeeds(seed, lo)
	l, ok := factory(first).(bsplayers.Learner)
	if !ok {
		gs[0] = shotsGame{err: errors.New("--series: the player does not learn between games (adaptive does)"), done: true}
		return gs
	}
	for i := lo; i < hi; i++ {
		fleetRNG, playerRNG := shotsSeeds(seed, i)
		layout, err := placer(fleetRNG)
		if err != nil {
			gs[i-lo] = shotsGame{err: err, done: true}
			return gs
		}
		l.NewGame(playerRNG)
		p := &timedPlayer{Player: l}
		n, err := bsplayers.Solo(ctx, rules, p, layout)
		if ctx.Err() != nil {
			return gs // interrupted: the rest is not counted
		}
		gs[i-lo] = shotsGame{shots: n, moves: p.moves, err: err, done: true}
		if s, ok := l.(statser); ok {
			gs[i-lo].stats = s.Stats()
		}
		if err != nil {
			return gs
		}
		l.Learn(layout)
	}
	return gs
}

// playShotsGame plays game i; a panicking player is reported as an error.
func playShotsGame(ctx context.Context, rules *battleship.Rules, factory bsplayers.Factory, placer shotsPlacer, seed uint64, i int) (g shotsGame) {
	defer func() {
		if r := recover(); r != nil {
			g = shotsGame{err: fmt.Errorf("player panicked: %v", r), done: true}
		}
	}()
	fleetRNG, playerRNG := shotsSeeds(seed, i)
	layout, err := placer(fleetRNG)
	if err != nil {
		return shotsGame{err: err, done: true}
	}
	p := &timedPlayer{Player: factory(playerRNG)}
	n, err := bsplayers.Solo(ctx, rules, p, layout)
	if ctx.Err() != nil {
		return shotsGame{} // interrupted: not counted
	}
	g = shotsGame{shots: n, moves: p.moves, err: err, done: true}
	if d, ok := p.Player.(statser); ok {
		g.stats = d.Stats()
	}
	return g
}

// shotsSummary is the --json line; its keys are part of the command's
// interface.
type shotsSummary struct {
	Player       string  `json:"player"`
	Games        int     `json:"games"`
	Mean         float64 `json:"mean"`
	Median       float64 `json:"median"`
	SD           float64 `json:"sd"`
	P90          int     `json:"p90"`
	Max          int     `json:"max"`
	MsPerMoveP99 float64 `json:"ms_per_move_p99"`
	Seed         uint64  `json:"seed"`
	// With --vs: the other AI, its mean over the same games, and the mean
	// of the paired differences (player − vs) with the half-width of its
	// 95% interval (1.96 sample sd / sqrt(games)).
	Vs       string   `json:"vs,omitempty"`
	VsMean   *float64 `json:"vs_mean,omitempty"`
	DiffMean *float64 `json:"diff_mean,omitempty"`
	DiffCI95 *float64 `json:"diff_ci95,omitempty"`
}

// pair sets the --vs fields from the paired shot counts.
func (s *shotsSummary) pair(name string, shots, vs []int) {
	s.Vs = name
	n := float64(len(shots))
	if n == 0 {
		return
	}
	var sv, sd, sdd float64
	for i := range shots {
		d := float64(shots[i] - vs[i])
		sv += float64(vs[i])
		sd += d
		sdd += d * d
	}
	mean := sd / n
	ci := 0.0
	if n > 1 {
		ci = 1.96 * math.Sqrt(max(0, sdd-n*mean*mean)/(n-1)) / math.Sqrt(n)
	}
	vm, dm, dc := round3(sv/n), round3(mean), round3(ci)
	s.VsMean, s.DiffMean, s.DiffCI95 = &vm, &dm, &dc
}

// summarizeShots computes the statistics: sd is the sample standard
// deviation, p90 the nearest-rank 90th percentile, the median the middle
// value (the mean of the two middle ones for an even count).
func summarizeShots(player string, shots []int, moves []time.Duration) shotsSummary {
	s := shotsSummary{Player: player, Games: len(shots)}
	if len(shots) == 0 {
		return s
	}
	sorted := slices.Clone(shots)
	slices.Sort(sorted)
	sum := 0.0
	for _, x := range sorted {
		sum += float64(x)
	}
	s.Mean = round3(sum / float64(len(sorted)))
	if len(sorted) > 1 {
		ss := 0.0
		for _, x := range sorted {
			d := float64(x) - sum/float64(len(sorted))
			ss += d * d
		}
		s.SD = round3(math.Sqrt(ss / float64(len(sorted)-1)))
	}
	mid := len(sorted) / 2
	if len(sorted)%2 == 1 {
		s.Median = float64(sorted[mid])
	} else {
		s.Median = float64(sorted[mid-1]+sorted[mid]) / 2
	}
	s.P90 = nearestRank(sorted, 0.90)
	s.Max = sorted[len(sorted)-1]
	s.MsPerMoveP99 = math.Round(percentileMS(moves, 0.99)*1e6) / 1e6 // ns precision
	return s
}

func nearestRank[T int | time.Duration](sorted []T, p float64) T {
	k := int(math.Ceil(p*float64(len(sorted)))) - 1
	return sorted[max(0, min(k, len(sorted)-1))]
}

// percentile is the nearest-rank percentile of the move times.
func percentile(moves []time.Duration, p float64) time.Duration {
	if len(moves) == 0 {
		return 0
	}
	sorted := slices.Clone(moves)
	slices.Sort(sorted)
	return nearestRank(sorted, p)
}

// percentileMS is percentile in milliseconds.
func percentileMS(moves []time.Duration, p float64) float64 {
	return float64(percentile(moves, p)) / float64(time.Millisecond)
}

// roundDuration keeps three significant digits.
func roundDuration(d time.Duration) time.Duration {
	for unit := time.Duration(1); unit < time.Hour; unit *= 10 {
		if d < 1000*unit {
			return d.Round(unit)
		}
	}
	return d.Round(time.Second)
}

func round3(x float64) float64 { return math.Round(x*1000) / 1000 }

func writeShotsTable(w io.Writer, rules *battleship.Rules, f *shotsFlags, s shotsSummary, tm shotsTiming) error {
	fmt.Fprintf(w, "%s alone against %d %s (%dx%d, fleet %s), seed %d\n",
		f.player, s.Games, fleetsPhrase(f), rules.Board.Width(), rules.Board.Height(), battleship.FormatFleet(rules.Fleet), f.seed)
	if s.Games < f.games {
		fmt.Fprintf(w, "interrupted: %d of %d games played\n", s.Games, f.games)
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "games\tmean\tmedian\tsd\tp90\tmax\ttime/shot p50\ttime/shot p99\t")
	fmt.Fprintf(tw, "%d\t%.2f\t%.1f\t%.2f\t%d\t%d\t%v\t%v\t\n", s.Games, s.Mean, s.Median, s.SD, s.P90, s.Max,
		roundDuration(tm.p50), roundDuration(tm.p99))
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(w, "\n%d shots in %v\n", tm.moves, tm.elapsed.Round(time.Millisecond))
	if s.Vs != "" {
		fmt.Fprintf(w, "%s on the same fleets: mean %.2f; %s − %s per game: %+.2f ± %.2f (95%%)\n",
			s.Vs, *s.VsMean, f.player, s.Vs, *s.DiffMean, *s.DiffCI95)
	}
	return nil
}

// fleetsPhrase says how the fleets were placed and, with --series, played.
func fleetsPhrase(f *shotsFlags) string {
	p := "uniformly placed fleets"
	if f.placer != "" && f.placer != "uniform" {
		p = "fleets placed by the " + f.placer + " placer"
	}
	if f.series > 0 {
		p += fmt.Sprintf(" in series of %d", f.series)
	}
	return p
}

// shotsPage is the --html report: the histogram of shots per game.
func shotsPage(rules *battleship.Rules, f *shotsFlags, s shotsSummary, shots []int) report.Page {
	return report.Page{
		Title: fmt.Sprintf("Shots per game: %s", f.player),
		Lines: []string{
			fmt.Sprintf("%s alone against %d %s (%dx%d, fleet %s), seed %d (kaisen shots --seed %d)",
				f.player, s.Games, fleetsPhrase(f), rules.Board.Width(), rules.Board.Height(), battleship.FormatFleet(rules.Fleet), f.seed, f.seed),
			fmt.Sprintf("mean %.2f, median %.1f, sd %.2f, p90 %d, max %d", s.Mean, s.Median, s.SD, s.P90, s.Max),
		},
		Sections: []report.Section{{
			Heading: "Histogram",
			Body:    report.Histogram(shots, "shots to sink the whole fleet"),
			Notes:   []string{"Games by the number of shots the AI needed; the dashed line is the mean. Hover a bar for its count."},
		}},
	}
}
