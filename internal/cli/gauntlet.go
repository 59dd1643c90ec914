package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/kaisen-ai/kaisen/arena"
	"github.com/kaisen-ai/kaisen/extern"
	"github.com/kaisen-ai/kaisen/games"
	"github.com/kaisen-ai/kaisen/gauntlet"
	"github.com/kaisen-ai/kaisen/internal/config"
)

// gauntletFlags are the settings of kaisen gauntlet.
type gauntletFlags struct {
	game     string
	pool     string
	weights  string
	games    int
	seed     uint64
	workers  int
	json     bool
	html     string
	replays  string
	progress string
	bot      botFlags      // exec: bots (match_bot.go)
	out      gamesOutFlags // --games-out, --recover (games_out.go)
}

// gauntletLong is kaisen gauntlet --help's description.
const gauntletLong = `Test BOT against the built-in AIs of a game, as a chess engine is tested
against a gauntlet in fastchess or cutechess-cli: BOT (a built-in AI or an
exec:'COMMAND' program of your own) plays every opponent of the pool (the
game's built-in AIs, see kaisen players, or --pool a,b,c) -n games, in pairs:
games 2i and 2i+1 are one deal (the same fleets for players that place
alike, the same seeds for those that place their own) with the seats
swapped, so the luck of the deal cancels out. Then it prints, per opponent
and over the pool, from BOT's point of view: games, wins, draws, losses,
score, the Elo difference with its 95% interval from the pairs
(pentanomial), LOS (the likelihood that BOT is the stronger), the draw
ratio, BOT's forfeits and the mean actions per game; then the fastchess
lines ("Score of BOT vs the pool: W - L - D [s] N", "Elo difference: x
+/- y, LOS, DrawRatio", "Ptnml(0-2)"). A perfect score has an unbounded
side ("+inf"). The progress line shows the running score and Elo.

Opponent k plays a match seeded from --seed and k, opponents one after
the other (--workers games at once), so the same flags give the same games
whatever --workers. --json prints one JSON object (the table and every
game) as the last line of stdout.

--html FILE writes a self-contained web page: the table, a chart of the
Elo differences with their error bars, and the games (opponent, BOT's
seat, result, actions, how it ended), each linked to its replay's page,
written under --replays DIR (default FILE.replays/, one subdirectory per
opponent; links relative to the page, so the two move together).
--replays DIR alone writes the JSON-lines replays.

An exec: BOT plays as in kaisen match (a turn server per game on a
loopback port, {host} {port} {seed}; --dialect, --action-timeout,
--handshake-timeout, --game-timeout, --bot-memory, --bot-cpu, --bot-logs
DIR with one subdirectory per opponent; docs/bots.md, "Testing your
bot against the whole pool"). A crash, hang or garbage line forfeits that game, counted in the
table's forfeits with its reason in the games list.` + gamesOutHelp

// gauntletExamples are kaisen gauntlet --help's examples.
const gauntletExamples = `  kaisen gauntlet random -n 100 --seed 1          (random against every submarine AI)
  kaisen gauntlet exec:'python3 bots/submarine_bot.py {host} {port}' -n 200 --workers 4
  kaisen gauntlet exec:'./mybot {host} {port}' --pool random,simple,state -n 100 --html report.html
  kaisen gauntlet stateplayer2 --bot-weights my.yaml --pool state,hirota -n 400 --seed 2 --json
  kaisen gauntlet --game battleship density -n 100 --seed 1
  kaisen gauntlet admiral --pool hirota -n 2000 --games-out g.jsonl      (killed? add --recover)`

func newGauntletCmd(e *env) *cobra.Command {
	var f gauntletFlags
	cmd := &cobra.Command{
		Annotations: recoverAnnotations(),
		Use:         "gauntlet BOT [--game G] [--pool A,B,C] [-n N] [--seed S] [--html FILE]",
		Short:       "Test one bot against the built-in AIs of a game (Elo, intervals, LOS, report)",
		Long:        gauntletLong,
		Example:     gauntletExamples,
		Args:        cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := f.out.check(cmd, e, &f.seed); err != nil {
				return err
			}
			return runGauntlet(cmd.Context(), e, args[0], &f)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.game, "game", games.Default().Name, gameFlagHelp("the game played"))
	_ = cmd.RegisterFlagCompletionFunc("game", completeGames)
	fl.StringVar(&f.pool, "pool", "", "comma-separated opponents (default: every built-in AI of the game; see kaisen players)")
	addWeightsFlag(cmd, &f.weights, "bot-weights", "YAML weights of a built-in BOT (default: its built-in weights)")
	addGamesFlag(cmd, &f.games, 100, "games against each opponent (even: they are played in pairs)")
	addSeedFlag(cmd, &f.seed, "gauntlet seed")
	addWorkersFlag(cmd, &f.workers, 0)
	addJSONFlag(cmd, &f.json, "print the result (table and games) as one JSON object instead of the table")
	fl.StringVar(&f.html, "html", "", "also write the report as a self-contained web page to this file, the replays beside it")
	fl.StringVar(&f.replays, "replays", "", "write the games' replays under this directory, one subdirectory per opponent (with --html: default FILE.replays)")
	addProgressFlag(cmd, &f.progress)
	addBotFlags(cmd, &f.bot)
	addGamesOutFlags(cmd, &f.out)
	completePlayers(cmd, "pool", true, anyGame)
	completeYAML(cmd, "bot-weights")
	must(cmd.MarkFlagDirname("replays"))
	cmd.ValidArgsFunction = func(_ *cobra.Command, args []string, _ string) ([]cobra.Completion, cobra.ShellCompDirective) {
		if len(args) > 0 {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		var names []cobra.Completion
		for _, g := range games.All() {
			for _, p := range g.Players() {
				names = append(names, p.Name)
			}
		}
		return append(names, extern.Prefix), cobra.ShellCompDirectiveNoFileComp
	}
	return cmd
}

func runGauntlet(ctx context.Context, e *env, bot string, f *gauntletFlags) error {
	gc, err := f.config(bot)
	if err != nil {
		return err
	}
	if err := gc.Validate(); err != nil {
		return &UsageError{Err: err}
	}
	total := len(gc.Pool) * gc.Games
	out, err := f.out.open(gauntletRecord{Command: "gauntlet", Game: gc.Game, Bot: bot, Weights: f.weights, Pool: gc.Pool,
		Dialect: f.dialect(bot), Games: gc.Games, Seed: gc.Seed})
	if err != nil {
		return err
	}
	gc.Record, gc.Done = out.recordPair(), out.played(0, total)
	var onProgress func(gauntlet.Progress)
	bar := newProgress(e, f.progress, total, "games")
	if bar != nil {
		onProgress = func(p gauntlet.Progress) { bar.SetNote(p.Line); bar.Set(p.Done) }
	}
	res, runErr := gauntlet.Run(ctx, gc, onProgress)
	if bar != nil {
		bar.Done(len(res.List))
	}
	if err := out.close(); runErr == nil {
		runErr = err
	}
	interrupted := errors.Is(runErr, context.Canceled) || errors.Is(runErr, context.DeadlineExceeded)
	if runErr != nil && !interrupted {
		return runErr
	}
	if err := f.writeOutputs(e, &res); err != nil {
		return err
	}
	if interrupted {
		return &ExitError{Code: ExitInterrupted, Err: fmt.Errorf("gauntlet: interrupted after %d of %d games", len(res.List), total)}
	}
	return nil
}

// writeOutputs prints the result (table or JSON) and writes --html.
func (f *gauntletFlags) writeOutputs(e *env, res *gauntlet.Result) error {
	if f.html != "" {
		rel, err := filepath.Rel(filepath.Dir(f.html), f.replayDir())
		if err != nil {
			rel = f.replayDir()
		}
		file, err := os.Create(f.html)
		if err != nil {
			return err
		}
		err = res.WriteHTML(file, filepath.ToSlash(rel))
		if cerr := file.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return err
		}
	}
	if !f.json {
		return res.WriteTable(e.stdout)
	}
	return printJSONLine(e, res)
}

// replayDir is --replays, by default FILE.replays with --html.
func (f *gauntletFlags) replayDir() string {
	if f.replays == "" && f.html != "" {
		return f.html + ".replays"
	}
	return f.replays
}

// dialect is the wire dialect of an exec: bot of the submarine game, ""
// for a built-in bot (what the --games-out file records).
func (f *gauntletFlags) dialect(bot string) string {
	if extern.Is(bot) {
		return f.bot.dialect
	}
	return ""
}

// config is the gauntlet of bot the flags describe, the matches built
// (and checked) from the games registry.
func (f *gauntletFlags) config(bot string) (gauntlet.Config, error) {
	g, err := lookupGame(f.game)
	if err != nil {
		return gauntlet.Config{}, err
	}
	pool := splitList(f.pool)
	if f.pool == "" {
		for _, p := range g.Players() {
			pool = append(pool, p.Name)
		}
	}
	if f.games%2 != 0 {
		return gauntlet.Config{}, usageError("-n %d: the games against each opponent are played in pairs: want an even number", f.games)
	}
	cfg := arena.DefaultConfig()
	cfg.Game = g.Name
	gc := gauntlet.Config{Game: g.Name, Bot: bot, Pool: pool, Games: f.games, Seed: f.seed, Workers: f.workers, Replays: f.replayDir()}
	if f.html != "" {
		gc.Render = renderReplay
	}
	for _, name := range pool {
		if extern.Is(name) {
			return gc, usageError("--pool %s: the pool is built-in AIs (test a program as BOT)", name)
		}
		if err := g.CheckPlayer(name); err != nil {
			return gc, usageError("--pool %s: %v", name, err)
		}
	}
	if extern.Is(bot) && f.weights != "" {
		return gc, usageError("--bot-weights is for a built-in BOT, not a program")
	}
	gc.Family = func(k int) (arena.Family, error) {
		if !extern.Is(bot) {
			fam, err := g.Family(cfg, games.Entrant{Name: bot, Load: config.File(f.weights)}, games.Entrant{Name: pool[k]})
			if err != nil && k == 0 {
				return nil, &UsageError{Err: err}
			}
			return fam, err
		}
		b := f.bot
		if b.logs != "" { // each opponent's games are numbered from 0
			b.logs = filepath.Join(b.logs, gauntlet.ReplayDir(k, pool[k]))
		}
		return b.family(g, cfg, [2]games.Entrant{{Name: bot}, {Name: pool[k]}}, [2]string{})
	}
	if _, err := gc.Family(0); err != nil { // a bad bot fails before any game
		if !strings.HasPrefix(err.Error(), "--p1: ") {
			return gc, err
		}
		return gc, usageError("BOT %s: %v", bot, errors.Unwrap(err))
	}
	return gc, nil
}

// renderReplay writes the web page of the replay at path to page (kaisen
// replay --html).
func renderReplay(path, page string) error {
	rp, err := games.OfReplay(path).OpenReplay(path)
	if err != nil {
		return err
	}
	return writeHTMLFile(page, rp)
}

// gauntletRecord is the run of kaisen gauntlet as its --games-out file
// names it.
type gauntletRecord struct {
	Command string   `json:"command"`
	Game    string   `json:"game"`
	Bot     string   `json:"bot"`
	Weights string   `json:"weights,omitempty"`
	Pool    []string `json:"pool"`
	Dialect string   `json:"dialect,omitempty"`
	Games   int      `json:"games"`
	Seed    uint64   `json:"seed"`
}
