package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
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
	var f benchFlags
	cmd := &cobra.Command{
		Use:   "bench [-n GAMES]",
		Short: "Measure in-process game throughput (random vs random)",
		Long: `Measure how fast this machine plays submarine games in-process: random vs
random on the default rules, as kaisen match plays them, on one worker and on
--workers workers (default one per CPU), and once more on one worker while
encoding a replay of every game (discarded), to show what --replays costs
besides the disk.

Each row prints games, actions, wall time, games/s and actions/s (--json:
one JSON object with the rows). The figures in docs/benchmarks.md come from
this command and from
  go test -run '^$' -bench . ./arena/`,
		Example: `  kaisen bench
  kaisen bench -n 100000 --seed 1
  kaisen bench --workers 2 --json | jq '.rows[1].games_per_sec'`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runBench(cmd.Context(), e.stdout, f)
		},
	}
	addGamesFlag(cmd, &f.games, 20000, "games per row (the replay row plays a tenth)")
	addSeedFlag(cmd, &f.seed, "match seed")
	addWorkersFlag(cmd, &f.workers, 0)
	addJSONFlag(cmd, &f.json, "print the rows as one JSON object instead of the table")
	return cmd
}

// benchFlags are the flags of kaisen bench.
type benchFlags struct {
	games   int
	seed    uint64
	workers int
	json    bool
}

type benchRow struct {
	name    string
	workers int
	games   int
	actions int64
	elapsed time.Duration
}

func runBench(ctx context.Context, w io.Writer, f benchFlags) error {
	games, seed := f.games, f.seed
	rules := submarine.DefaultRules()
	random := func(rng *rand.Rand) players.Player { return players.NewRandom(rules, rng) }
	fam := &arena.Submarine{Rules: rules,
		P1: arena.SubmarineEntrant{Name: "random", Factory: random},
		P2: arena.SubmarineEntrant{Name: "random", Factory: random}}
	cpus := runtime.GOMAXPROCS(0)
	if !f.json {
		fmt.Fprintf(w, "kaisen bench: random vs random, default rules, %d CPUs, %s/%s, seed %d\n\n", cpus, runtime.GOOS, runtime.GOARCH, seed)
	}

	var rows []benchRow
	for _, workers := range []int{1, workersOf(f.workers)} {
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
	if f.json {
		return writeBenchJSON(w, rows, cpus, seed)
	}

	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "benchmark\tworkers\tgames\tactions\tseconds\tgames/s\tactions/s\tµs/game\t")
	for _, r := range rows {
		secs := r.elapsed.Seconds()
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%.2f\t%.0f\t%.0f\t%.1f\t\n", r.name, r.workers, r.games, r.actions,
			secs, float64(r.games)/secs, float64(r.actions)/secs, 1e6*secs/float64(r.games))
	}
	return tw.Flush()
}

// benchJSON is the --json output of kaisen bench.
type benchJSON struct {
	CPUs int            `json:"cpus"`
	OS   string         `json:"os"`
	Arch string         `json:"arch"`
	Seed uint64         `json:"seed"`
	Rows []benchRowJSON `json:"rows"`
}

type benchRowJSON struct {
	Name          string  `json:"name"`
	Workers       int     `json:"workers"`
	Games         int     `json:"games"`
	Actions       int64   `json:"actions"`
	Seconds       float64 `json:"seconds"`
	GamesPerSec   float64 `json:"games_per_sec"`
	ActionsPerSec float64 `json:"actions_per_sec"`
}

func writeBenchJSON(w io.Writer, rows []benchRow, cpus int, seed uint64) error {
	out := benchJSON{CPUs: cpus, OS: runtime.GOOS, Arch: runtime.GOARCH, Seed: seed}
	for _, r := range rows {
		secs := r.elapsed.Seconds()
		out.Rows = append(out.Rows, benchRowJSON{Name: r.name, Workers: r.workers, Games: r.games, Actions: r.actions,
			Seconds: round3(secs), GamesPerSec: math.Round(float64(r.games) / secs), ActionsPerSec: math.Round(float64(r.actions) / secs)})
	}
	return json.NewEncoder(w).Encode(out)
}

func round3(x float64) float64 { return math.Round(x*1000) / 1000 }
