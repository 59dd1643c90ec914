package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"os"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/kaisen-ai/kaisen/arena"
	"github.com/kaisen-ai/kaisen/extern"
	"github.com/kaisen-ai/kaisen/games"
	"github.com/kaisen-ai/kaisen/internal/config"
	"github.com/kaisen-ai/kaisen/internal/report"
	"github.com/kaisen-ai/kaisen/jobs"
	"github.com/kaisen-ai/kaisen/queue"
	"github.com/kaisen-ai/kaisen/tournament"
)

type tournamentFlags struct {
	game      string
	players   string
	configs   []string
	games     int
	seed      uint64
	workers   int
	bootstrap int
	config    string
	timing    bool
	json      bool
	html      string
	progress  string
	shard     shardFlags
	bot       botFlags      // exec: players (match_bot.go)
	out       gamesOutFlags // --games-out, --recover (games_out.go)
}

func newTournamentCmd(e *env) *cobra.Command {
	var f tournamentFlags
	cmd := &cobra.Command{
		Annotations: recoverAnnotations(),
		Use:         "tournament --players A,B,C [--game G] [-n N] [--seed S] [--workers K] [--json]",
		Short:       "Play a round robin between the AIs of a game and rate them (cross table, Elo)",
		Long: `Play a round robin between AIs of one game (every game: the submarine game by
default, --game battleship or --game abilities, or the game of a --rules
config; see kaisen players for each game's AIs): every pair of the listed
players plays N games in this process, seats alternating (the first-listed
player of the pair sits in seat 0 in even-numbered games), then print

  - the cross table: the row player's score against the column player as a
    percentage (a draw counts half) and wins-draws-losses;
  - Elo ratings fitted by maximum likelihood under the Bradley-Terry model,
    a draw counting as half a win for each side (one virtual draw per pair
    keeps a perfect score finite), centred on 0, with 95% intervals from a
    bootstrap over games (each pair's games resampled with replacement,
    --bootstrap times, seeded by --seed). A player who lost every game has
    no lower bound ("[-inf, ...]", null in --json) and one who won every
    game no upper bound ("[..., +inf]"): their games bound one side only.

A player may appear twice with different weights: name an entry NAME@LABEL
and give its config with --player-weights NAME@LABEL=FILE (for example
admiral@tuned). --timing measures every player's decision time (mean, p50,
p99, max per decision over all its games: an action of the submarine game,
a shot of Battleship, an action or answer of abilities); use --workers 1 for
clean timings.

An entry exec:'COMMAND' is a program of your own, played as in kaisen
match (a turn server per game on a loopback port, {host} {port} {seed};
--dialect, --action-timeout, --handshake-timeout, --game-timeout,
--bot-memory, --bot-cpu, --bot-logs DIR: one subdirectory per pair; see
kaisen match --help and docs/cli.md#external-players-exec). Its command
line must not contain a comma. Not with --rules, --timing, --shard or
--nats.

Reproducible: pair k plays an arena match seeded from --seed and k, so the
same flags give the same results whatever --workers is. Without --seed a seed
is drawn and printed on stderr. --json prints one JSON object as the last line
of stdout instead of the tables; --html FILE also writes them as a web page
(coloured cross table, Elo intervals as a chart; no network needed). Ctrl-C
stops and rates the games played.

Games are numbered pair after pair (game i of pair k is k·N+i) in the
--games-out file.` + gamesOutHelp,
		Example: `  kaisen tournament --players admiral,stateplayer2,state,simple,random -n 200 --seed 1
  kaisen tournament --players admiral,hirota,state -n 200 --seed 1 --games-out t.jsonl   (Ctrl-C, then add --recover)
  kaisen tournament --players admiral,hirota,exec:'python3 bot.py {host} {port}' -n 100 --workers 4
  kaisen tournament --players admiral,admiral@tuned --player-weights admiral@tuned=admiral-tuned.yaml -n 2000
  kaisen tournament --players admiral,stateplayer2 -n 500 --workers 1 --timing
  kaisen tournament --players stateplayer2,state -n 1000 --seed 7 --json | tail -1 | jq .ratings
  kaisen tournament --players admiral,hirota,stateplayer2,random -n 100 --seed 1 --html report.html
  kaisen tournament --game battleship --players density,gridbot,bs-random -n 100 --seed 1
  kaisen tournament --rules configs/battleship-match.yaml --players greedy,density,gridbot -n 200 --seed 2
  kaisen tournament --game abilities --players ab-belief,ab-density,ab-plain,ab-random -n 50 --seed 1`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if !cmd.Flags().Changed("game") {
				f.game = ""
			}
			if err := f.shard.check(cmd, "timing", "html", "games-out", "recover"); err != nil {
				return err
			}
			if err := f.out.check(cmd, e, &f.seed); err != nil {
				return err
			}
			return runTournament(cmd.Context(), e, &f)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.game, "game", games.Default().Name, gameFlagHelp("the game played")+" (default: the config's game)")
	_ = cmd.RegisterFlagCompletionFunc("game", completeGames)
	fl.StringVar(&f.players, "players", "", "comma-separated players of the game, at least two (NAME or NAME@LABEL; see kaisen players)")
	fl.StringArrayVar(&f.configs, "player-weights", nil, "ENTRY=FILE: YAML weights of one entry (repeatable)")
	annotate(cmd, "player-weights", kindWeights)
	alias(cmd, "player-config", "player-weights")
	addGamesFlag(cmd, &f.games, 100, "games per pair")
	addSeedFlag(cmd, &f.seed, "tournament seed")
	addWorkersFlag(cmd, &f.workers, 0)
	fl.IntVar(&f.bootstrap, "bootstrap", 1000, "bootstrap resamples for the rating intervals")
	addRulesFlag(cmd, &f.config, "match rules YAML: game, board, fleet, draw limit (default: the published game)", "config")
	fl.BoolVar(&f.timing, "timing", false, "measure every player's decision time")
	addJSONFlag(cmd, &f.json, "print the result as one JSON object (last line of stdout)")
	fl.StringVar(&f.html, "html", "", "also write the cross table and the Elo chart as a self-contained HTML page to this file")
	addProgressFlag(cmd, &f.progress)
	addShardFlags(cmd, &f.shard)
	addBotFlags(cmd, &f.bot)
	addGamesOutFlags(cmd, &f.out)
	completePlayers(cmd, "players", true, hasTool(games.ToolTournament))
	completeYAML(cmd, "rules")
	return cmd
}

func runTournament(ctx context.Context, e *env, f *tournamentFlags) error {
	if f.bootstrap < 1 {
		return usageError("--bootstrap %d: want at least 1", f.bootstrap)
	}
	configs := map[string]string{}
	for _, kv := range f.configs {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" || v == "" {
			return usageError("--player-weights %q: want ENTRY=FILE", kv)
		}
		configs[k] = v
	}
	cfg, err := loadMatchConfig(f.config)
	if err != nil {
		return err
	}
	g, err := tournamentGame(f, cfg)
	if err != nil {
		return err
	}
	names := splitList(f.players)
	if len(names) < 2 {
		var known []string
		for _, p := range g.Players() {
			known = append(known, p.Name)
		}
		return usageError("--players needs at least two players (%s: %s)", g.Name, strings.Join(known, ", "))
	}
	weights := maps.Clone(configs) // tournamentEntrants empties configs
	entrants, err := tournamentEntrants(g, cfg, names, configs)
	if err != nil {
		return err
	}
	tc := jobs.TournamentOf(g, cfg, names, entrants)
	tc.Games, tc.Seed, tc.Workers, tc.Bootstrap, tc.Log = f.games, f.seed, f.workers, f.bootstrap, e.log
	tc.Timed, tc.Timing = timeDecisions, f.timing
	if err := f.bot.botTournament(g, cfg, f, &tc, weights); err != nil {
		return err
	}
	if err := tc.Validate(); err != nil {
		return usageError("%v", err)
	}
	total := len(names) * (len(names) - 1) / 2 * f.games
	if err := f.shard.checkGames(total); err != nil {
		return err
	}
	if f.shard.queued {
		spec, err := tournamentSpec(g.Name, names, weights, f)
		if err != nil {
			return err
		}
		return f.shard.runQueued(ctx, e, queue.Item{Kind: jobs.CommandTournament, Tournament: spec}, f.seed, f.games, total, f.progress, f.json)
	}
	lo, hi := f.shard.span(total)
	count := hi - lo
	var onProgress func(done, total int)
	bar := newProgress(e, f.progress, count, "games")
	if bar != nil {
		onProgress = func(done, _ int) { bar.Set(done) }
	}
	if f.shard.on {
		err := runTournamentShard(ctx, e, f, tc, total, onProgress)
		if bar != nil {
			bar.Done(count)
		}
		return err
	}
	rec := tournamentRecord{Command: "tournament", Game: g.Name, Players: names, Weights: weights, Rules: f.config, Games: f.games, Seed: f.seed}
	if slices.ContainsFunc(names, extern.Is) {
		rec.Dialect = f.bot.dialect
	}
	out, err := f.out.open(rec)
	if err != nil {
		return err
	}
	tc.Record, tc.Done = out.recordPair(), out.played(0, total)
	res, runErr := tournament.Run(ctx, tc, onProgress)
	if bar != nil {
		bar.Done(total)
	}
	if err := out.close(); runErr == nil {
		runErr = err
	}
	interrupted := errors.Is(runErr, context.Canceled) || errors.Is(runErr, context.DeadlineExceeded)
	if runErr != nil && !interrupted {
		return runErr
	}
	if f.html != "" {
		if err := writeReport(f.html, tournamentPage(&res, rulesName(f.config, g.Name))); err != nil {
			return err
		}
	}
	if err := printTournament(e, &res, f.json); err != nil {
		return err
	}
	if interrupted {
		return &ExitError{Code: ExitInterrupted, Err: fmt.Errorf("tournament: interrupted")}
	}
	return nil
}

// tournamentGame is the game of a tournament, as kaisen match picks it:
// --game, else the --rules config's game (which --game must then match).
func tournamentGame(f *tournamentFlags, cfg arena.Config) (games.Game, error) {
	game := f.game
	if game == "" {
		game = cfg.Game
	} else if f.config != "" && game != cfg.Game {
		return games.Game{}, usageError("--game %q but --rules %s is a %q config", game, f.config, cfg.Game)
	}
	g, err := lookupGame(game)
	if err != nil {
		return g, err
	}
	if !g.Has(games.ToolTournament) {
		return g, usageError("the %s game has no tournament (games: %s)", g.Name, strings.Join(games.With(games.ToolTournament), ", "))
	}
	return g, nil
}

// tournamentEntrants are the entrants of the entries names (NAME or
// NAME@LABEL) of game g, with the weights files of configs (by entry). Each
// is built once, against the game's default second player, so that an
// unknown AI or bad weights fail before any game is played.
func tournamentEntrants(g games.Game, cfg arena.Config, names []string, configs map[string]string) ([]games.Entrant, error) {
	var entrants []games.Entrant
	for _, entry := range names {
		if extern.Is(entry) { // a program: botFlags.botTournament builds its pairs
			entrants = append(entrants, games.Entrant{Name: entry})
			continue
		}
		name, _, _ := strings.Cut(entry, "@")
		if err := g.CheckPlayer(name); err != nil {
			return nil, usageError("--players %s: %v", entry, err)
		}
		ent := games.Entrant{Name: name, Load: config.File(configs[entry])}
		if _, err := g.Family(cfg, ent, games.Entrant{Name: g.DefaultPlayers[1]}); err != nil {
			if inner := errors.Unwrap(err); inner != nil && strings.HasPrefix(err.Error(), "--p1: ") {
				return nil, usageError("--players %s: %v", entry, inner) // Family names the entrant --p1
			}
			return nil, err // the rules
		}
		delete(configs, entry)
		entrants = append(entrants, ent)
	}
	for k := range configs {
		return nil, usageError("--player-weights %s: no such entry in --players", k)
	}
	return entrants, nil
}

// printTournament prints the result as tables or, asJSON, a JSON line.
func printTournament(e *env, res *tournament.Result, asJSON bool) error {
	if !asJSON {
		return res.WriteTable(e.stdout)
	}
	return printJSONLine(e, res)
}

// printJSONLine prints v as one JSON line on stdout.
func printJSONLine(e *env, v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintln(e.stdout, string(data))
	return err
}

// runTournamentShard plays the tournament's games of --shard and writes
// them to --out.
func runTournamentShard(ctx context.Context, e *env, f *tournamentFlags, tc tournament.Config, total int, progress func(done, total int)) error {
	s := f.shard.job(e, f.seed, total, f.workers)
	h, res, err := s.Tournament(ctx, tc, progress)
	if err != nil {
		return err // no file: a shard is all its games or nothing
	}
	return f.shard.write(e, h, res)
}

// tournamentSpec is the tournament of game between the entries names,
// with the weights files of weights (by entry), as typed settings for the
// workers of --nats: weights and rules as text.
func tournamentSpec(game string, names []string, weights map[string]string, f *tournamentFlags) (*jobs.Tournament, error) {
	rules, err := readText(f.config)
	if err != nil {
		return nil, err
	}
	spec := &jobs.Tournament{Game: game, Rules: rules, Bootstrap: f.bootstrap}
	for _, entry := range names {
		text, err := readText(weights[entry])
		if err != nil {
			return nil, err
		}
		spec.Entries = append(spec.Entries, jobs.Entry{Entry: entry, Weights: text})
	}
	return spec, nil
}

// tournamentPage is the --html report of res: the cross table and the
// ratings with their intervals.
func tournamentPage(res *tournament.Result, rules string) report.Page {
	order := make([]string, len(res.Ratings))
	var iv []report.Interval
	for i, rt := range res.Ratings {
		order[i] = rt.Name
		// An unbounded side (a perfect record) is drawn up to the rating.
		lo, hi := rt.Lo, rt.Hi
		if math.IsInf(lo, 0) {
			lo = rt.Elo
		}
		if math.IsInf(hi, 0) {
			hi = rt.Elo
		}
		iv = append(iv, report.Interval{Name: rt.Name, Value: rt.Elo, Lo: lo, Hi: hi,
			Label: fmt.Sprintf("%+.0f %s", rt.Elo, rt.Interval())})
	}
	cell := func(a, b string) report.Cross {
		w, d, l, ok := res.Record(a, b)
		if !ok || w+d+l == 0 {
			return report.Cross{}
		}
		return report.Cross{Score: (float64(w) + float64(d)/2) / float64(w+d+l), Text: fmt.Sprintf("%d-%d-%d", w, d, l), OK: true}
	}
	p := report.Page{
		Title: "Tournament: " + strings.Join(res.Players, ", "),
		Lines: []string{
			fmt.Sprintf("%d games per pair, seats alternating, seed %d (kaisen tournament --seed %d)", res.Games, res.Seed, res.Seed),
			"rules: " + rules,
		},
		Sections: []report.Section{
			{Heading: "Cross table", Body: report.CrossTable(order, cell),
				Notes: []string{"Each cell is the row player's score against the column player (a draw counts half) and its wins-draws-losses; red below 50%, green above."}},
			{Heading: "Elo ratings", Body: report.Intervals(iv, "Elo (centred on 0)"),
				Notes: []string{fmt.Sprintf("Maximum-likelihood Bradley-Terry ratings, best first, with 95%% intervals from %d bootstrap resamples of the games.", res.Bootstrap)}},
		},
	}
	if !res.Complete {
		p.Lines = append(p.Lines, "stopped early: the ratings cover the games played so far")
	}
	return p
}

// rulesName says which rules a --rules flag chose for game.
func rulesName(file, game string) string {
	switch {
	case file != "":
		return file
	case game == games.Default().Name:
		return "the published game (configs/match.yaml)"
	}
	return "the default " + game + " rules"
}

// writeReport writes a --html page to path.
func writeReport(path string, p report.Page) error {
	var b bytes.Buffer
	if err := report.Write(&b, p); err != nil {
		return err
	}
	return os.WriteFile(path, b.Bytes(), 0o644)
}
