package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/kaisen-ai/kaisen/arena"
	"github.com/kaisen-ai/kaisen/extern"
	"github.com/kaisen-ai/kaisen/games"
	"github.com/kaisen-ai/kaisen/tune"
)

type tuneFlags struct {
	game        string
	player      string
	against     string
	budget      int
	batch       int
	finalGames  int
	config      string
	matchConfig string
	keys        string
	out         string
	checkpoint  string
	seed        uint64
	workers     int
	drawScore   float64
	json        bool
	objective   string
	temperature float64
	a, c        float64
	queue       queueFlags
	bot         botFlags // exec: opponents
}

// tuneLong is kaisen tune --help's description.
const tuneLong = `Optimise the numeric weights of a player's YAML config by playing games
against a pool of opponents, and write the tuned config.

Any game of the registry (--game, default the --rules config's game, else
the submarine game): the player and the opponents are that game's AIs (kaisen
players), the matches its arena matches under the rules of --rules (board,
fleet, draw limit; the sides and options of the abilities variant). Seats
alternate: the tuned player takes seat 0 in half of the games (in the
abilities variant, each side in half of them).

The optimiser is SPSA (simultaneous perturbation stochastic approximation):
each iteration perturbs every weight at once by ±c (a random sign per
weight), plays --batch games at each of the two perturbed points with the same
seeds (common random numbers: the same deals, seats and opponents), and steps
along the estimated gradient of the win rate. The result is the average of the
iterates of the second half of the run. Games run in parallel (--workers).

Tunable weights: for a player with a config struct (every built-in AI
that takes settings) every float64 field of the struct; a tune:"min,max"
tag gives its range, otherwise [0, 2 x its value]. For any other player,
every floating-point value of its YAML file. --keys restricts
the run to some of them. The starting point is --weights (default: the
player's file under configs/).

Pool: --against lists the opponents, each NAME or NAME@WEIGHTS.yaml (that
player with the weights of that file, e.g. an exploiter written by kaisen
exploit). They share every batch equally. --objective mean maximises the
score over all the games; --objective min the worst opponent's score,
smoothed for SPSA as a soft-min of the per-opponent rates m_i,
-T ln(mean_i exp(-m_i/T)), with T = --min-temperature (default 0.05; 0 is
the plain minimum). The final measurement prints the rates against each
opponent, of the tuned and of the starting weights on the same games.

Budget: --budget-games counts every game. A final measurement plays
--final-games games with the tuned weights and the same games with the
starting weights; the rest is split into iterations of 2 x --batch games.
A draw scores --draw-score (default 0: draws count as non-wins).

A progress line per iteration shows the scores of both perturbed points and
the current point's win rate with its 95% interval (pooled over the last
iterations); the best weights so far are listed every 5 iterations.

Checkpoint: after every iteration the state is written to --checkpoint
(default OUT.checkpoint.json). Run the same command again after a stop
(Ctrl-C, a crash) and it resumes where it stopped; a checkpoint from
different settings is refused (delete it to start over).

Output: --out (default NAME-tuned.yaml) is the starting config with the tuned
values, its comments kept, under a header that records the command, the seed,
the games played and the measured win rate with its 95% interval, next to
the starting weights' rate on the same games. The same seed and settings give
the same file (except the date).

External opponents: an --against entry exec:'CMD {host} {port}' is a
program of your own (docs/cli.md#external-players-exec): every game against
it is served on a loopback port of its own, the candidate (its weights in
memory) being the house AI, and the program plays it over TCP as in kaisen
match; a crash, hang or garbage line forfeits its game. --dialect,
--action-timeout, --handshake-timeout, --game-timeout, --bot-memory,
--bot-cpu and --bot-logs as in kaisen match (--bot-logs keeps the latest
evaluation's games). The command has no comma (the list's separator). The
run stays reproducible from --seed when the program is: it gets each game's
seed as {seed}. Not with --rules or --nats.`

func newTuneCmd(e *env) *cobra.Command {
	var f tuneFlags
	cmd := &cobra.Command{
		Use:   "tune [--game G] --player NAME --against A,B,... [--budget-games N] [--seed S]",
		Short: "Optimise a player's YAML weights against a pool of opponents",
		Long:  tuneLong,
		Example: `  kaisen tune --player admiral --against stateplayer2,state,random --budget-games 20000 --seed 1
  kaisen tune --player admiral --against stateplayer2 --keys value.leak,value.info --budget-games 4000
  kaisen tune --player stateplayer2 --against state --budget-games 10000 --out sp2.yaml
  kaisen tune --player admiral --against stateplayer2,stateplayer2@sp2-vs-admiral.yaml --objective min
  kaisen tune --game abilities --player ab-belief --against ab-plain,ab-density --budget-games 2000 --batch 40
  kaisen tune --game battleship --player density --against greedy,gridbot --budget-games 2000
  kaisen tune --player admiral --against stateplayer2,exec:'python3 bot.py {host} {port} --seed {seed}' --budget-games 2000
  kaisen match --p1 admiral --p1-weights admiral-tuned.yaml --p2 stateplayer2 -n 2000`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := f.queue.check(cmd); err != nil {
				return err
			}
			if f.queue.url != "" && cmd.Flags().Changed("checkpoint") {
				return usageError("--checkpoint is a file; with --nats the checkpoint is kept in the queue under --run-id")
			}
			return runTune(cmd.Context(), e, &f)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.game, "game", "", gameFlagHelp("the game played")+" (default: the --rules config's game, else "+games.Default().Name+")")
	_ = cmd.RegisterFlagCompletionFunc("game", completeGames)
	fl.StringVar(&f.player, "player", "", "the player to tune (required; see kaisen players)")
	fl.StringVar(&f.against, "against", "", "comma-separated opponents, played in equal shares (required)")
	fl.IntVar(&f.budget, "budget-games", 20000, "total games, the final measurement included")
	fl.IntVar(&f.batch, "batch", 200, "games per evaluation of one point (an iteration plays two)")
	fl.IntVar(&f.finalGames, "final-games", 0, "games of the final measurement of each of the tuned and starting weights (0 = a tenth of the budget)")
	addWeightsFlag(cmd, &f.config, "weights", "starting YAML weights (default: the player's file under configs/)", "config")
	addRulesFlag(cmd, &f.matchConfig, "match rules YAML: game, board, fleet, draw limit, sides (default: the published rules of --game)", "match-config")
	fl.StringVar(&f.keys, "keys", "", "comma-separated dotted keys to tune (default: every tunable weight)")
	fl.StringVar(&f.out, "out", "", "tuned YAML to write (default: NAME-tuned.yaml)")
	fl.StringVar(&f.checkpoint, "checkpoint", "", "checkpoint file (default: OUT.checkpoint.json)")
	addSeedFlag(cmd, &f.seed, "seed of the whole run")
	addWorkersFlag(cmd, &f.workers, 0)
	addJSONFlag(cmd, &f.json, "print the result as one JSON object instead of the table")
	completePlayers(cmd, "player", false, anyGame)
	completePlayers(cmd, "against", true, anyGame)
	completeYAML(cmd, "weights", "rules", "out")
	defer completeWords(cmd, "objective", "mean", "min")
	fl.StringVar(&f.objective, "objective", "mean", "mean: the score over the whole pool; min: the worst opponent's (a soft-min, see --min-temperature)")
	fl.Float64Var(&f.temperature, "min-temperature", tune.DefaultTemperature, "temperature of the soft-min of --objective min, in win-rate units (0 = the plain minimum)")
	fl.Float64Var(&f.drawScore, "draw-score", 0, "points of a draw (0 = a draw counts as a non-win, 0.5 = half a win)")
	fl.Float64Var(&f.a, "spsa-a", 0, "SPSA step gain a (0 = default 0.5)")
	fl.Float64Var(&f.c, "spsa-c", 0, "SPSA perturbation c, a fraction of each range (0 = default 0.1)")
	addQueueFlags(cmd, &f.queue, defaultTuneShardGames)
	addBotFlags(cmd, &f.bot)
	return cmd
}

// tuneGame is the game a tuning command plays and its arena: the --game
// named, else the game of the --rules config (the submarine game without
// either), under the rules of that config. The arena builds matches
// through the game's registry entry (games.Game.Family), so every game of
// the registry is tuned alike; a match with an exec: entrant is played
// through package extern with the settings of bots (nil: refused), the
// built-in side's weights in memory.
func tuneGame(game, rules string, bots *botFlags) (games.Game, tune.Arena, error) {
	cfg, err := loadMatchConfig(rules)
	if err != nil {
		return games.Game{}, nil, err
	}
	if game == "" {
		game = cfg.Game
	} else if rules != "" && game != cfg.Game {
		return games.Game{}, nil, usageError("--game %q but --rules %s is a %q config", game, rules, cfg.Game)
	}
	g, err := lookupGame(game)
	if err != nil {
		return g, nil, err
	}
	return g, func(p1, p2 tune.Entrant) (arena.Family, error) {
		es := [2]games.Entrant{{Name: p1.Player, Load: p1.Load}, {Name: p2.Player, Load: p2.Load}}
		if !extern.Is(p1.Player) && !extern.Is(p2.Player) {
			return g.Family(cfg, es[0], es[1])
		}
		switch {
		case bots == nil:
			return nil, usageError("exec: players are not played here")
		case rules != "":
			return nil, usageError("exec: players play the served rules of --game and --dialect, not --rules")
		}
		return bots.family(g, cfg, es, [2]string{})
	}, nil
}

// tunedPlayer checks that the tuned player is an AI of g (gamePlayer):
// an exec: program has no weights to tune.
func tunedPlayer(g games.Game, flag, player string) error {
	if extern.Is(player) {
		return usageError("%s %s: an exec: program has no weights to tune; it can be the opponent (kaisen tune --against, kaisen exploit --target)", flag, player)
	}
	return gamePlayer(g, flag, player)
}

// execQueued refuses exec: opponents in a run on the queue's workers
// (url): the program runs on this machine.
func execQueued(url string, opps []tune.Entrant) error {
	for _, o := range opps {
		if url != "" && extern.Is(o.Player) {
			return usageError("%s: exec: programs play on this machine, not with --nats", o.Name)
		}
	}
	return nil
}

// gamePlayer checks that player is an AI of g: a usage error (exit 2)
// naming g's AIs when it is not.
func gamePlayer(g games.Game, flag, player string) error {
	if err := g.CheckPlayer(player); err != nil {
		return &UsageError{Err: fmt.Errorf("%s: %w", flag, err)}
	}
	return nil
}

// playerNames lists the AIs of g.
func playerNames(g games.Game) string {
	var names []string
	for _, p := range g.Players() {
		names = append(names, p.Name)
	}
	return strings.Join(names, ", ")
}

// tuneBase reads the starting config of the tuned player of g: the file
// config, else the player's registered config file, else its built-in
// defaults (its config struct, through tune.Probe).
func tuneBase(g games.Game, a tune.Arena, player, config string) (name, text string, err error) {
	path := config
	if path == "" {
		for _, p := range g.Players() {
			if p.Name == player {
				path = p.Config
			}
		}
	}
	if path != "" {
		data, err := os.ReadFile(path)
		switch {
		case err == nil:
			return path, string(data), nil
		case config != "" || !errors.Is(err, fs.ErrNotExist):
			return "", "", fmt.Errorf("tune: %w", err)
		}
	}
	if cfg := tune.Probe(a, player); cfg != nil {
		return "built-in defaults", tune.DefaultYAML(cfg), nil
	}
	return "", "", usageError("--player %s has no YAML config to tune (pass one with --weights)", player)
}

// tuneSpace reads the starting config of player (tuneBase) and the space of
// its tunable parameters, narrowed to the comma-separated keys when set.
func tuneSpace(g games.Game, a tune.Arena, player, config, keys string) (baseName, base string, space tune.Space, err error) {
	if baseName, base, err = tuneBase(g, a, player, config); err != nil {
		return "", "", nil, err
	}
	if space, err = tune.SpaceFor(tune.Probe(a, player), baseName, base); err != nil {
		if errors.Is(err, tune.ErrSpace) {
			return "", "", nil, &UsageError{Err: fmt.Errorf("--player %s: %w", player, err)}
		}
		return "", "", nil, err
	}
	if keys != "" {
		if space, err = space.Select(splitList(keys)); err != nil {
			return "", "", nil, usageError("--keys: %v", err)
		}
	}
	return baseName, base, space, nil
}

func runTune(ctx context.Context, e *env, f *tuneFlags) error {
	g, a, err := tuneGame(f.game, f.matchConfig, &f.bot)
	if err != nil {
		return err
	}
	switch {
	case f.player == "" || f.against == "":
		return usageError("--player and --against are required (%s players: %s)", g.Name, playerNames(g))
	case f.budget < 1 || f.batch < 1 || f.finalGames < 0:
		return usageError("--budget-games, --batch must be positive and --final-games not negative")
	case f.workers < 0:
		return usageError("--workers %d: want 0 (one per CPU) or more", f.workers)
	case f.drawScore < 0 || f.drawScore > 1:
		return usageError("--draw-score %g: want 0 to 1", f.drawScore)
	}
	agg, err := tune.ParseAggregate(f.objective, f.temperature)
	if err != nil {
		return usageError("--objective %s --min-temperature %g: %v", f.objective, f.temperature, err)
	}
	if err := tunedPlayer(g, "--player", f.player); err != nil {
		return err
	}
	baseName, base, space, err := tuneSpace(g, a, f.player, f.config, f.keys)
	if err != nil {
		return err
	}
	opps, err := pool(g, a, "--against", f.against)
	if err != nil {
		return err
	}
	out := f.out
	if out == "" {
		out = f.player + "-tuned.yaml"
	}
	ck := f.checkpoint
	if ck == "" {
		ck = out + ".checkpoint.json"
	}
	final := f.finalGames
	if final == 0 {
		final = max(len(opps), f.budget/10)
	}
	t := &tune.Tuning{
		Objective: &tune.GameObjective{Arena: a, Player: f.player, Base: base, Space: space,
			Opponents: opps, Games: f.batch, Workers: f.workers, DrawScore: f.drawScore, Aggregate: agg, Log: e.log},
		Budget: f.budget, Batch: f.batch, EvalGames: final, Seed: f.seed, A: f.a, C: f.c,
		Checkpoint: ck, Progress: e.stderr, Against: strings.Join(splitList(f.against), ","), Game: g.Name,
	}
	iters, _, err := t.Plan()
	if err != nil {
		return usageError("%v", err)
	}
	if err := execQueued(f.queue.url, opps); err != nil {
		return err
	}
	if f.queue.url != "" {
		qt := queuedTuning{command: "tune", q: f.queue, against: splitList(f.against), game: f.game, matchConfig: f.matchConfig, gameName: g.Name}
		var closeConn func()
		if ck, closeConn, err = qt.useQueue(ctx, e, t); err != nil {
			return err
		}
		defer closeConn()
	}
	fmt.Fprintf(e.stderr, "tuning %d weights of %s (from %s) against %s (%s), objective %s: %d iterations x 2 x %d games, then 2 x %d final games\n",
		len(space), f.player, baseName, t.Against, g.Name, agg, iters, f.batch, final)
	if err := printEstimate(ctx, e, t, iters, f.queue.url != ""); err != nil {
		return err
	}
	res, err := t.Run(ctx)
	if err != nil {
		if errors.Is(err, context.Canceled) {
			return &ExitError{Code: ExitInterrupted, Err: fmt.Errorf("tune: interrupted; run the same command again to resume from %s", ck)}
		}
		return err
	}
	if err := os.WriteFile(out, []byte(res.YAML), 0o644); err != nil {
		return fmt.Errorf("tune: %w", err)
	}
	ct := arena.Wilson(int(math.Round(res.Tuned.Sum)), res.Tuned.N, arena.Z95)
	cb := arena.Wilson(int(math.Round(res.Baseline.Sum)), res.Baseline.N, arena.Z95)
	if f.json {
		return json.NewEncoder(e.stdout).Encode(tuneJSON{Game: g.Name, Player: f.player, Against: t.Against, Objective: agg.String(),
			Seed: f.seed, Games: res.Games, Tuned: res.Tuned, Start: res.Baseline,
			TunedCI95: [2]float64{ct.Lo, ct.Hi}, StartCI95: [2]float64{cb.Lo, cb.Hi}, Weights: res.Space.Values(res.Best), Out: out})
	}
	fmt.Fprintf(e.stdout, "tuned   %.4f [%.4f, %.4f] over %d games\n", res.Tuned.Mean(), ct.Lo, ct.Hi, res.Tuned.N)
	fmt.Fprintf(e.stdout, "start   %.4f [%.4f, %.4f] over the same games\n", res.Baseline.Mean(), cb.Lo, cb.Hi)
	if len(opps) > 1 {
		fmt.Fprintf(e.stdout, "objective %s: tuned %.4f, start %.4f\n", agg, agg.Score(res.Tuned), agg.Score(res.Baseline))
	}
	printPool(e.stdout, opps, res)
	for i, p := range res.Space {
		fmt.Fprintf(e.stdout, "  %-28s %10s -> %s\n", p.Key, tune.FormatValue(res.Start[i]), tune.FormatValue(res.Best[i]))
	}
	fmt.Fprintf(e.stdout, "wrote %s (%d games played, seed %d)\n", out, res.Games, f.seed)
	if w := worseWarning(agg.Score(res.Tuned), agg.Score(res.Baseline), out, baseName); w != "" {
		fmt.Fprintln(e.stderr, w)
	}
	return nil
}

// worseWarning is the warning of a tuning run whose tuned weights scored
// below the starting ones on the same final games, "" when they did not.
func worseWarning(tuned, start float64, out, base string) string {
	if tuned >= start {
		return ""
	}
	return fmt.Sprintf("warning: the tuned weights scored %.4f, below the starting weights' %.4f on the same final games: "+
		"%s is likely no better than %s; keep the start, or tune with a larger --budget-games or --batch", tuned, start, out, base)
}

// printEstimate says, before a tuning run starts, how many games it plays
// in all and about how long that takes: the pace of a few probe games
// (tune.Tuning.Pace) played here first, or, queued, the workers' pace
// that the iteration lines' ETA follows.
func printEstimate(ctx context.Context, e *env, t *tune.Tuning, iterations int, queued bool) error {
	total := t.Total(iterations)
	if queued {
		fmt.Fprintf(e.stderr, "estimate: %d games in all, played by the queue's workers; each iteration line gives the ETA\n", total)
		return nil
	}
	n, took, err := t.Pace(ctx)
	if err != nil {
		return err
	}
	if n == 0 || took <= 0 {
		return nil
	}
	rate := float64(n) / took.Seconds()
	eta := time.Duration(float64(total) / rate * float64(time.Second))
	fmt.Fprintf(e.stderr, "estimate: %d games in all, about %s at %.1f games/s (%d probe games; each iteration line gives the ETA)\n",
		total, tune.Clock(eta), rate, n)
	return nil
}

// tuneJSON is the --json output of kaisen tune.
type tuneJSON struct {
	Game      string             `json:"game"`
	Player    string             `json:"player"`
	Against   string             `json:"against"`
	Objective string             `json:"objective"`
	Seed      uint64             `json:"seed"`
	Games     int                `json:"games"` // played in all
	Tuned     tune.Sample        `json:"tuned"` // final games with the tuned weights
	Start     tune.Sample        `json:"start"` // the same games with the starting weights
	TunedCI95 [2]float64         `json:"tuned_ci95"`
	StartCI95 [2]float64         `json:"start_ci95"`
	Weights   map[string]float64 `json:"weights"` // every tuned key and its value
	Out       string             `json:"out"`
}

// splitList splits a comma-separated flag value, dropping empty items.
func splitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}
