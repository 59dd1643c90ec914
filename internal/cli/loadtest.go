package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"runtime/pprof"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/kaisen-ai/kaisen/games"
	"github.com/kaisen-ai/kaisen/loadtest"
	"github.com/kaisen-ai/kaisen/server"
)

// loadtestJSON is the last line of kaisen loadtest --json.
type loadtestJSON struct {
	Games         int     `json:"games"`
	Errors        int     `json:"errors"`
	ActionsPerSec float64 `json:"actions_per_sec"`
	RTTP50ms      float64 `json:"rtt_p50_ms"`
	RTTP99ms      float64 `json:"rtt_p99_ms"`
	Seed          uint64  `json:"seed"`
	// Server CPU (--server-pid only).
	ServerCPUs           *float64 `json:"server_cpu_s,omitempty"`
	ServerCPUusPerAction *float64 `json:"server_cpu_us_per_action,omitempty"`
}

// startCPUProfile writes a CPU profile of this process to path ("" =
// none) until stop is called.
func startCPUProfile(path string) (stop func(), err error) {
	if path == "" {
		return func() {}, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, err
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}, nil
}

// usPerAction is the server's CPU microseconds per action of rep.
func usPerAction(rep loadtest.Report) float64 {
	return float64(rep.ServerCPUPerAction) / float64(time.Microsecond)
}

// printLoadtest prints rep: the table, the server's CPU, the first
// error, and the JSON line when asJSON.
func printLoadtest(e *env, rep loadtest.Report, opts loadtest.Options, asJSON bool) error {
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	tw := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "games\terrors\twins\tlosses\tdraws\tactions\tseconds\tactions/s\tgames/s\trtt p50 ms\trtt p90 ms\trtt p99 ms\trtt max ms\t\n")
	fmt.Fprintf(tw, "%d\t%d\t%d\t%d\t%d\t%d\t%.2f\t%.0f\t%.1f\t%.3f\t%.3f\t%.3f\t%.3f\t\n",
		rep.Games, rep.Errors, rep.Wins, rep.Losses, rep.Draws, rep.Actions, rep.Elapsed.Seconds(),
		rep.ActionsPerSec, rep.GamesPerSec, ms(rep.RTT.P50), ms(rep.RTT.P90), ms(rep.RTT.P99), ms(rep.RTT.Max))
	if err := tw.Flush(); err != nil {
		return err
	}
	if opts.ServerPID != 0 {
		fmt.Fprintf(e.stdout, "server CPU: %.2f s, %.2f µs per action\n", rep.ServerCPU.Seconds(), usPerAction(rep))
	}
	if rep.FirstError != "" {
		fmt.Fprintf(e.stdout, "first error: %s\n", rep.FirstError)
	}
	if asJSON {
		out := loadtestJSON{
			Games: rep.Games, Errors: rep.Errors, ActionsPerSec: rep.ActionsPerSec,
			RTTP50ms: ms(rep.RTT.P50), RTTP99ms: ms(rep.RTT.P99), Seed: opts.Seed,
		}
		if opts.ServerPID != 0 {
			cpu, per := rep.ServerCPU.Seconds(), usPerAction(rep)
			out.ServerCPUs, out.ServerCPUusPerAction = &cpu, &per
		}
		b, jerr := json.Marshal(out)
		if jerr != nil {
			return jerr
		}
		fmt.Fprintln(e.stdout, string(b))
	}
	return nil
}

func newLoadtestCmd(e *env) *cobra.Command {
	var opts loadtest.Options
	var asJSON bool
	var cpuProfile string
	cmd := &cobra.Command{
		Use:   "loadtest",
		Short: "Drive a turn server with many concurrent TCP clients and measure it",
		Long: `Play many games at once against a turn server (kaisen serve, or any
server that speaks the protocol) with real TCP clients, and measure the
server under load: actions per second over all games, and the round trip of
each action (from sending the action to receiving its result line, on the
client side) at the 50th, 90th and 99th percentile.

--concurrency games run at once. Against a server with a house AI (kaisen
serve --house random) every connection is one game. Against a server that
pairs its clients, add --pairs: every game is then two of our connections,
and each action is counted once. Every client is kaisen play's, with the
AI --player (kaisen players). Connections that fail (refused by a limit,
broken, a protocol error) are counted as errors and retried.

--game load-tests a server of another game (kaisen serve --game battleship
--house gridbot), with its kaisen play client (default AI: the game's kaisen
play default); every game is played through the same client loop.

Run the server in its own process so that both are measured as they run in
production; raise its per-IP limit above the concurrency (see the examples).

Without --rate every client sends its next action as soon as it has read
the answer, so the server is saturated and, by Little's law, the round
trip is about concurrency x 2 / (actions/s): it measures the queue. With
--rate the clients pace themselves and the round trip is the server's
latency at that load.

--server-pid PID (Linux, the server on this machine) reads the server
process's CPU time (user + system, /proc/PID/stat, to 10 ms) before and
after the run and prints the server's CPU microseconds per action: the
headline figure of the server's cost, stable on a shared machine where
actions/s follows what the other processes take.

--json prints the table's numbers as one JSON line last:
  {"games":N,"errors":E,"actions_per_sec":A,"rtt_p50_ms":x,"rtt_p99_ms":y,"seed":S}
  (with --server-pid also "server_cpu_s" and "server_cpu_us_per_action")`,
		Example: `  kaisen serve --house random --max-connections-per-ip 2000 --result-log "" --replay-dir "" &
  kaisen loadtest --addr 127.0.0.1:2000 -n 2000 --concurrency 200 --player random
  kaisen loadtest -n 500 --concurrency 10 --json | tail -n 1
  kaisen loadtest --addr 127.0.0.1:2001 --pairs -n 200 --concurrency 50
  kaisen loadtest --game battleship --addr 127.0.0.1:2002 -n 200 --concurrency 20
  kaisen loadtest -n 2000 --concurrency 200 --rate 20000   latency below saturation
  kaisen loadtest -n 3000 --concurrency 200 --server-pid "$(pgrep -n -f 'kaisen serve')"   server CPU per action`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if opts.Game != "" {
				g, err := games.Lookup(opts.Game)
				if err != nil {
					return usageError("--game: %w", err)
				}
				if !g.Has(games.ToolLoadtest) {
					return usageError("--game %s: kaisen loadtest plays %s", g.Name, strings.Join(games.With(games.ToolLoadtest), ", "))
				}
				if !cmd.Flags().Changed("player") && g.Name != games.Default().Name {
					opts.Player = "" // the game's PlayDefault
				}
			}
			stop, err := startCPUProfile(cpuProfile)
			if err != nil {
				return err
			}
			defer stop()
			rep, err := loadtest.Run(cmd.Context(), opts)
			if err != nil && rep.Games == 0 {
				return err
			}
			if perr := printLoadtest(e, rep, opts, asJSON); perr != nil {
				return perr
			}
			return err
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&opts.Addr, "addr", server.DefaultAddress, "server address host:port")
	fl.StringVar(&opts.Game, "game", "", gameFlagHelp("the game the server plays")+" (default "+games.Default().Name+")")
	_ = cmd.RegisterFlagCompletionFunc("game", completeGames)
	addGamesFlag(cmd, &opts.Games, 1000, "games to play in total")
	fl.IntVar(&opts.Concurrency, "concurrency", 10, "games at once")
	fl.StringVar(&opts.Player, "player", "random", "AI of every client (kaisen players; with another --game: its kaisen play default)")
	fl.BoolVar(&opts.Pairs, "pairs", false, "the server pairs clients: two connections per game")
	addSeedFlag(cmd, &opts.Seed, "seed of the clients' random streams")
	fl.StringVar(&opts.Name, "name", "", "name sent to submarine-py servers (default kaisen)")
	fl.DurationVar(&opts.ReadTimeout, "timeout", 30*time.Second, "longest wait for a line from the server")
	fl.Float64Var(&opts.Rate, "rate", 0, "pace the clients to about this many actions/s in total (0 = as fast as possible)")
	addJSONFlag(cmd, &asJSON, "print a JSON summary as the last line")
	fl.StringVar(&cpuProfile, "cpuprofile", "", "write a CPU profile of the clients to this file")
	fl.IntVar(&opts.ServerPID, "server-pid", 0, "process id of the server (Linux, this machine): report its CPU per action")
	completePlayers(cmd, "player", false, hasTool(games.ToolLoadtest))
	return cmd
}
