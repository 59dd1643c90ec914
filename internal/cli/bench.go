package cli

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"runtime"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/kaisen-ai/kaisen/arena"
	"github.com/kaisen-ai/kaisen/game/submarine"
	"github.com/kaisen-ai/kaisen/players"
)

func newBenchCmd(e *env) *cobra.Command {
	var games int
	var seed uint64
	cmd := &cobra.Command{
		Use:   "bench [-n GAMES]",
		Short: "Measure in-process game throughput (random vs random)",
		Long: `Measure how fast this machine plays submarine games in-process: random vs
random on the default rules, as kaisen match plays them, on one worker and on
one worker per CPU, and once more on one worker while encoding a replay of
every game (discarded), to show what --replays costs besides the disk.

Each row prints games, actions, wall time, games/s and actions/s. The figures
in docs/benchmarks.md come from this command and from
  go test -run '^$' -bench . ./arena/

Examples:
  kaisen bench
  kaisen bench -n 100000`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if games < 1 {
				return usageError("-n %d: want at least 1 game", games)
			}
			return runBench(cmd.Context(), e.stdout, games, seed)
		},
	}
	cmd.Flags().IntVarP(&games, "games", "n", 20000, "games per row (the replay row plays a tenth)")
	cmd.Flags().Uint64Var(&seed, "seed", 1, "match seed")
	return cmd
}

type benchRow struct {
	name    string
	workers int
	games   int
	actions int64
	elapsed time.Duration
}

func runBench(ctx context.Context, w io.Writer, games int, seed uint64) error {
	rules := submarine.DefaultRules()
	random := func(rng *rand.Rand) players.Player { return players.NewRandom(rules, rng) }
	fam := &arena.Submarine{Rules: rules,
		P1: arena.SubmarineEntrant{Name: "random", Factory: random},
		P2: arena.SubmarineEntrant{Name: "random", Factory: random}}
	cpus := runtime.GOMAXPROCS(0)
	fmt.Fprintf(w, "kaisen bench: random vs random, default rules, %d CPUs, %s/%s\n\n", cpus, runtime.GOOS, runtime.GOARCH)

	var rows []benchRow
	for _, workers := range []int{1, cpus} {
		m := arena.Match{Family: fam, Games: games, Seed: seed, Workers: workers}
		sum, err := m.Run(ctx, nil)
		if err != nil {
			return fmt.Errorf("bench: %w", err)
		}
		rows = append(rows, benchRow{"match, in-process", sum.Workers, sum.Games, sum.Actions, sum.Elapsed})
	}

	n := max(games/10, 1)
	var actions int64
	start := time.Now()
	for i := range n {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("bench: %w", err)
		}
		r, err := arena.PlayGame(rules, random, random, arena.GameSeed(seed, i), &arena.GameOptions{
			Names: [2]string{"random", "random"}, Replay: io.Discard,
		})
		if err != nil {
			return fmt.Errorf("bench: %w", err)
		}
		actions += int64(r.Actions)
	}
	rows = append(rows, benchRow{"with replay encoding", 1, n, actions, time.Since(start)})

	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "benchmark\tworkers\tgames\tactions\tseconds\tgames/s\tactions/s\tµs/game\t")
	for _, r := range rows {
		secs := r.elapsed.Seconds()
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%.2f\t%.0f\t%.0f\t%.1f\t\n", r.name, r.workers, r.games, r.actions,
			secs, float64(r.games)/secs, float64(r.actions)/secs, 1e6*secs/float64(r.games))
	}
	return tw.Flush()
}
