package cli

import (
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/kaisen-ai/kaisen/game/battleship"
	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/jobs"
	"github.com/kaisen-ai/kaisen/shard"
	"github.com/kaisen-ai/kaisen/shots"
	"github.com/kaisen-ai/kaisen/tournament"
)

// shardFlags are --shard K/N and --out FILE of match, tournament and shots.
type shardFlags struct {
	spec  string
	out   string
	queue queueFlags // --nats: every shard on kaisen workers
	// set by check
	sp     shard.Spec
	on     bool // --shard: this process plays one shard
	queued bool // --nats: workers play every shard
	args   map[string]string
}

// addShardFlags registers --shard and --out.
func addShardFlags(cmd *cobra.Command, f *shardFlags) {
	cmd.Flags().StringVar(&f.spec, "shard", "", "play only shard K of N of the games (K/N, e.g. 3/8) and write a file for kaisen merge to --out (docs/distributed.md)")
	cmd.Flags().StringVar(&f.out, "out", "", "with --shard: the shard's result file")
	addQueueFlags(cmd, &f.queue, defaultShardGames)
	for _, name := range []string{"shard", "nats"} {
		must(cmd.Flags().SetAnnotation(name, seedNeededKey, []string{"every shard must play the games of the same seed"}))
	}
}

// defaultShardGames is the games of a work item of a queued match,
// tournament or shots run (docs/distributed.md has the arithmetic).
const defaultShardGames = 1000

// notInArgs are the flags that do not change which games are played or how
// they are summarised, so the shards of one run may differ in them.
var notInArgs = append([]string{"shard", "out", "workers", "progress", "json", "html", "seed", "games", "log-level", "log-format"},
	queueFlagNames...)

// check reads the flags before the command runs: whether it is a shard,
// which one and the arguments that identify the run. incompatible are
// flags that make no sense for a shard (e.g. --replays).
func (f *shardFlags) check(cmd *cobra.Command, incompatible ...string) error {
	if err := f.queue.check(cmd); err != nil {
		return err
	}
	queued := f.queue.url != ""
	if f.spec == "" && f.out == "" && !queued {
		return nil
	}
	mode := "--shard"
	if queued {
		if f.spec != "" || f.out != "" {
			return usageError("--nats plays every shard on workers: not with --shard or --out")
		}
		mode = "--nats"
	} else {
		if f.spec == "" || f.out == "" {
			return usageError("--shard K/N and --out FILE go together")
		}
		sp, err := shard.Parse(f.spec)
		if err != nil {
			return &UsageError{Err: fmt.Errorf("--shard: %w", err)}
		}
		f.sp = sp
	}
	fl := cmd.Flags()
	if !fl.Changed("seed") {
		return usageError("%s needs --seed: every shard must play the games of the same seed", mode)
	}
	for _, name := range incompatible {
		if fl.Changed(name) {
			return usageError("--%s cannot be used with %s", name, mode)
		}
	}
	f.on, f.queued = !queued, queued
	f.args = map[string]string{}
	fl.Visit(func(fg *pflag.Flag) {
		if slices.Contains(notInArgs, fg.Name) {
			return
		}
		f.args[fg.Name] = fg.Value.String()
		f.hashFiles(fg)
	})
	return nil
}

// hashFiles records the SHA-256 of the files a weights or rules flag names
// (args "NAME#sha256", "NAME#sha256:ENTRY" for ENTRY=FILE values), so that
// shards given different files under the same path are not merged. A file
// that cannot be read is left to the command to report.
func (f *shardFlags) hashFiles(fg *pflag.Flag) {
	a := fg.Annotations[grammarKey]
	if len(a) == 0 || (a[0] != kindWeights && a[0] != kindRules) {
		return
	}
	values := []string{fg.Value.String()}
	if sv, ok := fg.Value.(pflag.SliceValue); ok {
		values = sv.GetSlice()
	}
	for _, v := range values {
		key := fg.Name + "#sha256"
		if entry, file, ok := strings.Cut(v, "="); ok && fg.Value.Type() != "string" {
			key, v = key+":"+entry, file
		}
		if data, err := os.ReadFile(v); err == nil {
			f.args[key] = fmt.Sprintf("%x", sha256.Sum256(data))
		}
	}
}

// job is the shard of --shard of a run of games games (every pair's for a
// tournament) with seed, workers games at once, its arguments the flags':
// what jobs.Shard plays.
func (f *shardFlags) job(e *env, seed uint64, games, workers int) jobs.Shard {
	return jobs.Shard{Args: f.args, Seed: seed, Games: games, Spec: f.sp, Workers: workersOf(workers), Log: e.log}
}

// write writes the shard's file to --out: its header, then result.
func (f *shardFlags) write(e *env, h shard.Header, result any) error {
	out, err := os.Create(f.out)
	if err != nil {
		return fmt.Errorf("%s: %w", h.Command, err)
	}
	err = shard.Write(out, h, result)
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("%s: %s: %w", h.Command, f.out, err)
	}
	e.log.Info("shard written", "shard", f.sp.String(), "games", fmt.Sprintf("%d..%d", h.First, h.First+h.Count-1), "file", f.out)
	return nil
}

type mergeFlags struct {
	json bool
}

func newMergeCmd(e *env) *cobra.Command {
	var f mergeFlags
	cmd := &cobra.Command{
		Use:   "merge FILE...",
		Short: "Merge the shard files of a match, tournament or shots run into its result",
		Long: `Read the files written by kaisen match, tournament or shots with
--shard K/N --out FILE and print the result of the whole run: the same table,
and with --json the same JSON line, as the run on one machine, byte for byte
except the timing fields (games/s, elapsed time, time per shot, which merge
takes from the slowest shard, and the workers, which it adds up).

The files must be the N shards of one run: the same command, seed, -n, N and
game-deciding flags, every shard from 1 to N exactly once, in any order. The
format and the examples for Kubernetes and Slurm are in docs/distributed.md.`,
		Example: `  kaisen match --p1 random --p2 random -n 10000 --seed 7 --shard 1/2 --out s1.jsonl
  kaisen match --p1 random --p2 random -n 10000 --seed 7 --shard 2/2 --out s2.jsonl
  kaisen merge s1.jsonl s2.jsonl --json
  kaisen merge results/shard-*.jsonl`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			return runMerge(e, &f, args)
		},
	}
	addJSONFlag(cmd, &f.json, "print the merged result as JSON, as the command itself would")
	return cmd
}

func runMerge(e *env, f *mergeFlags, names []string) error {
	var files []shard.File
	for _, name := range names {
		r, err := os.Open(name)
		if err != nil {
			return fmt.Errorf("merge: %w", err)
		}
		sf, err := shard.Read(r, name)
		r.Close()
		if err != nil {
			return &UsageError{Err: fmt.Errorf("merge: %w", err)}
		}
		files = append(files, sf)
	}
	var elapsed time.Duration
	workers := 0
	for _, sf := range files {
		elapsed = max(elapsed, sf.Header.Elapsed())
		workers += sf.Header.Workers
	}
	return printMerged(e, files, elapsed, workers, f.json)
}

// printMerged checks that files are the shards of one run and prints the
// run's result, with elapsed and workers as its timing fields.
func printMerged(e *env, files []shard.File, elapsed time.Duration, workers int, asJSON bool) error {
	files, err := shard.Check(files)
	if err != nil {
		return &UsageError{Err: fmt.Errorf("merge: %w", err)}
	}
	h := files[0].Header
	switch h.Command {
	case "match":
		sum, err := mergeParts(files, shard.MergeMatch)
		if err != nil {
			return err
		}
		sum.Seed, sum.Requested, sum.Workers, sum.Elapsed = h.Seed, h.Games, workers, elapsed
		return printMatch(e, &sum, asJSON)
	case "tournament":
		res, err := mergeParts(files, func(parts []shard.Tournament) (tournament.Result, error) {
			return shard.MergeTournament(parts, h.Seed)
		})
		if err != nil {
			return err
		}
		return printTournament(e, &res, asJSON)
	case "shots":
		s, err := mergeParts(files, shard.MergeShots)
		if err != nil {
			return err
		}
		return printMergedShots(e, &s, h.Seed, h.Games, elapsed, asJSON)
	default:
		return usageError("merge: %s: command %q cannot be merged (match, tournament, shots)", files[0].Name, h.Command)
	}
}

// mergeParts decodes every file's result line as a T, checking that it
// counts as many games as the header says, and merges them with merge.
func mergeParts[T, R any](files []shard.File, merge func([]T) (R, error)) (R, error) {
	var zero R
	out := make([]T, len(files))
	for i, sf := range files {
		if err := json.Unmarshal(sf.Result, &out[i]); err != nil {
			return zero, &UsageError{Err: fmt.Errorf("merge: %w: %s: result: %w", shard.ErrFormat, sf.Name, err)}
		}
		var n int64
		switch p := any(&out[i]).(type) {
		case *shard.Match:
			n = int64(p.Games)
		case *shard.Shots:
			n = p.Shots.Total()
		case *shard.Tournament:
			for _, q := range p.Pairs {
				n += int64(q.Wins + q.Draws + q.Losses)
			}
		}
		if n != int64(sf.Header.Count) {
			return zero, &UsageError{Err: fmt.Errorf("merge: %w: %s: the result counts %d games, the header %d",
				shard.ErrFormat, sf.Name, n, sf.Header.Count)}
		}
	}
	r, err := merge(out)
	if err != nil {
		return zero, &UsageError{Err: fmt.Errorf("merge: %w", err)}
	}
	return r, nil
}

// printMergedShots prints merged shots results as kaisen shots does.
func printMergedShots(e *env, s *shard.Shots, seed uint64, games int, elapsed time.Duration, asJSON bool) error {
	fleet, err := battleship.ParseFleet(s.Fleet)
	if err != nil {
		return &UsageError{Err: fmt.Errorf("merge: fleet %q: %w", s.Fleet, err)}
	}
	board, err := grid.NewBoard(s.Width, s.Height, nil)
	if err != nil {
		return &UsageError{Err: fmt.Errorf("merge: %w", err)}
	}
	rules, err := battleship.NewRules(board, fleet)
	if err != nil {
		return &UsageError{Err: fmt.Errorf("merge: %w", err)}
	}
	sum := shots.Summarize(s.Player, shard.Expand[int](s.Shots), nil)
	sum.Seed = seed
	sum.MsPerMoveP99 = shots.MsRound(time.Duration(s.P99NS)) // as shots.Summarize
	f := &shotsFlags{player: s.Player, games: games, seed: seed, json: asJSON}
	tm := shotsTiming{moves: s.Moves, p50: time.Duration(s.P50NS), p99: time.Duration(s.P99NS), elapsed: elapsed}
	return printShots(e, rules, f, sum, tm, densityLine(s.Player, s.Exact, s.Sampled, s.Heuristic, s.Lookahead))
}

// span is the range [lo, hi) of the n games that this command plays: the
// shard's with --shard, else all of them.
func (f *shardFlags) span(n int) (lo, hi int) {
	if !f.on {
		return 0, n
	}
	return f.sp.Range(n)
}

// errNoGames is returned by a shard that played no game.
var errNoGames = errors.New("the shard has no games: use fewer shards than games")

// checkGames refuses a shard without games.
func (f *shardFlags) checkGames(games int) error {
	if !f.on {
		return nil
	}
	if lo, hi := f.sp.Range(games); lo == hi {
		return &UsageError{Err: fmt.Errorf("--shard %s of %d games: %w", f.sp, games, errNoGames)}
	}
	return nil
}
