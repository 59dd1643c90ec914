package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	bsbelief "github.com/kaisen-ai/kaisen/belief/battleship"
	"github.com/kaisen-ai/kaisen/game/battleship"
	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/games"
	"github.com/kaisen-ai/kaisen/internal/config"
	"github.com/kaisen-ai/kaisen/internal/report"
	"github.com/kaisen-ai/kaisen/jobs"
	bsplayers "github.com/kaisen-ai/kaisen/players/battleship"
	"github.com/kaisen-ai/kaisen/queue"
	"github.com/kaisen-ai/kaisen/shots"
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

func runShots(ctx context.Context, e *env, f *shotsFlags) error {
	run, err := shotsConfig(f)
	if err != nil {
		return err
	}
	switch {
	case f.shard.queued:
		spec, err := shotsSpec(f, run)
		if err != nil {
			return err
		}
		return f.shard.runQueued(ctx, e, queue.Item{Kind: jobs.CommandShots, Shots: spec}, f.seed, f.games, f.games, f.progress, f.json)
	case f.shard.on:
		return runShotsShard(ctx, e, f, run)
	}
	run.Lo, run.Hi = 0, f.games
	bar := newProgress(e, f.progress, f.games, "games")
	done := 0
	if bar != nil {
		run.Progress = func(n int) { done = n; bar.Set(n) }
	}
	res, err := shots.Run(ctx, run)
	if bar != nil {
		bar.Done(done)
	}
	if err != nil {
		return shotsError(f, err)
	}
	e.log.Debug("shots finished", "games", len(res.Shots), "elapsed", res.Elapsed)
	tm := shotsTiming{moves: int64(len(res.Moves)), p50: shots.Percentile(res.Moves, 0.50), p99: shots.Percentile(res.Moves, 0.99), elapsed: res.Elapsed}
	stats := res.Stats
	sum := shots.Summarize(f.player, res.Shots, res.Moves)
	sum.Seed = f.seed
	if run.Vs != nil {
		sum.Pair(f.vs, res.Shots, res.Vs)
	}
	if f.html != "" {
		if err := writeReport(f.html, shotsPage(run.Rules, f, sum, res.Shots)); err != nil {
			return err
		}
	}
	if err := printShots(e, run.Rules, f, sum, tm, densityLine(f.player, stats.Exact, stats.Sampled, stats.Heuristic, stats.Lookahead)); err != nil {
		return err
	}
	if len(res.Shots) < f.games {
		return &ExitError{Code: ExitInterrupted, Err: fmt.Errorf("shots: interrupted after %d of %d games", len(res.Shots), f.games)}
	}
	return nil
}

// runShotsShard plays the games of --shard of run and writes them to
// --out (nothing when stopped: a shard is all its games or nothing).
func runShotsShard(ctx context.Context, e *env, f *shotsFlags, run shots.Config) error {
	s := f.shard.job(e, f.seed, f.games, f.workers)
	lo, hi := s.Spec.Range(f.games)
	bar := newProgress(e, f.progress, hi-lo, "games")
	done := 0
	if bar != nil {
		run.Progress = func(n int) { done = n; bar.Set(n) }
	}
	h, res, err := s.Shots(ctx, run, f.player)
	if bar != nil {
		bar.Done(done)
	}
	var stopped *jobs.Interrupted
	switch {
	case errors.As(err, &stopped):
		return &ExitError{Code: ExitInterrupted, Err: err}
	case err != nil:
		return shotsError(f, err)
	}
	e.log.Debug("shots finished", "games", h.Count, "elapsed", h.Elapsed())
	return f.shard.write(e, h, res)
}

// shotsSpec is the shots run of the flags (run, as shotsConfig made it)
// as typed settings for the workers of --nats: the weights as text.
func shotsSpec(f *shotsFlags, run shots.Config) (*jobs.Shots, error) {
	weights, err := readText(f.config)
	if err != nil {
		return nil, err
	}
	return &jobs.Shots{Player: f.player, Weights: weights, Width: run.Rules.Board.Width(), Height: run.Rules.Board.Height(),
		Fleet: run.Rules.Fleet, Placer: f.placer}, nil
}

// shotsConfig checks the flags of f and makes the run they ask for (its
// games not set).
func shotsConfig(f *shotsFlags) (shots.Config, error) {
	if f.player == "" {
		return shots.Config{}, usageError(`required flag(s) "player" not set (players: %s)`, strings.Join(bsplayers.Names(), ", "))
	}
	w, h, err := parseSize(f.size)
	if err != nil {
		return shots.Config{}, err
	}
	fleet, err := battleship.ParseFleet(f.fleet)
	if err != nil {
		return shots.Config{}, usageError("--fleet: %w", err)
	}
	board, err := grid.NewBoard(w, h, nil)
	if err != nil {
		return shots.Config{}, usageError("--size: %w", err)
	}
	rules, err := battleship.NewRules(board, fleet)
	if err != nil {
		return shots.Config{}, usageError("shots: %w", err)
	}
	run := shots.Config{Rules: rules, Series: f.series, Seed: f.seed, Workers: workersOf(f.workers)}
	if run.Player, err = bsplayers.New(f.player, rules, config.File(f.config)); err != nil {
		return shots.Config{}, usageError("--player: %w", err)
	}
	if run.Placer, err = newShotsPlacer(rules, f.placer); err != nil {
		return shots.Config{}, err
	}
	if f.vs != "" {
		if run.Vs, err = bsplayers.New(f.vs, rules, nil); err != nil {
			return shots.Config{}, usageError("--vs: %w", err)
		}
	}
	if f.series < 0 {
		return shots.Config{}, usageError("--series %d: want 0 (no series) or more", f.series)
	}
	return run, nil
}

// shotsError words a failed game in the flags' terms.
func shotsError(f *shotsFlags, err error) error {
	var ge *shots.GameError
	if !errors.As(err, &ge) {
		return fmt.Errorf("shots: %w", err)
	}
	inner := ge.Err
	switch {
	case errors.Is(inner, shots.ErrNotLearner):
		inner = fmt.Errorf("--series: %w", inner)
	case ge.Vs:
		inner = fmt.Errorf("--vs %s: %w", f.vs, inner)
	}
	return fmt.Errorf("shots: game %d (seed %d): %w", ge.Game, f.seed, inner)
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
func printShots(e *env, rules *battleship.Rules, f *shotsFlags, sum shots.Summary, tm shotsTiming, density string) error {
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

// newShotsPlacer returns the placer of --placer: a placement style
// (bsbelief.NewStylePlacer).
func newShotsPlacer(rules *battleship.Rules, name string) (shots.Placer, error) {
	p, err := bsbelief.NewStylePlacer(rules, name)
	if errors.Is(err, bsbelief.ErrUnknownStyle) {
		return nil, usageError("--placer %q: want one of %s", name, strings.Join(bsbelief.Styles, ", "))
	}
	if err != nil {
		return nil, fmt.Errorf("shots: %w", err)
	}
	return p.Place, nil
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

func writeShotsTable(w io.Writer, rules *battleship.Rules, f *shotsFlags, s shots.Summary, tm shotsTiming) error {
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
func shotsPage(rules *battleship.Rules, f *shotsFlags, s shots.Summary, counts []int) report.Page {
	return report.Page{
		Title: fmt.Sprintf("Shots per game: %s", f.player),
		Lines: []string{
			fmt.Sprintf("%s alone against %d %s (%dx%d, fleet %s), seed %d (kaisen shots --seed %d)",
				f.player, s.Games, fleetsPhrase(f), rules.Board.Width(), rules.Board.Height(), battleship.FormatFleet(rules.Fleet), f.seed, f.seed),
			fmt.Sprintf("mean %.2f, median %.1f, sd %.2f, p90 %d, max %d", s.Mean, s.Median, s.SD, s.P90, s.Max),
		},
		Sections: []report.Section{{
			Heading: "Histogram",
			Body:    report.Histogram(counts, "shots to sink the whole fleet"),
			Notes:   []string{"Games by the number of shots the AI needed; the dashed line is the mean. Hover a bar for its count."},
		}},
	}
}
