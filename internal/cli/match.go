package cli

import (
	"context"
	crand "crypto/rand"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/kaisen-ai/kaisen/arena"
	"github.com/kaisen-ai/kaisen/elo"
	"github.com/kaisen-ai/kaisen/games"
	"github.com/kaisen-ai/kaisen/internal/config"
	"github.com/kaisen-ai/kaisen/jobs"
	"github.com/kaisen-ai/kaisen/queue"
)

// matchFlags are the settings of kaisen match.
type matchFlags struct {
	game               string
	p1, p2             string
	p1Given, p2Given   bool // --p1 / --p2 were given (else each game's default pair)
	p1Config, p2Config string
	config             string
	games              int
	series             int
	pairs              bool   // --pairs: games 2k and 2k+1 on one seed, seats swapped
	sprt               string // --sprt: the test, "" for none (implies --pairs)
	seed               uint64
	workers            int
	replays            string
	explain            bool
	audit              bool
	html               bool
	json               bool
	progress           string
	shard              shardFlags
	bot                botFlags        // exec: players (match_bot.go)
	out                gamesOutFlags   // --games-out, --recover (games_out.go)
	adjudicate         adjudicateFlags // --adjudicate, --max-actions (match_adjudicate.go)
}

// matchLong is kaisen match --help's description.
const matchLong = `Play GAMES games between two AIs (see kaisen players) in this process, several
at a time, and print wins, draws and losses per player with 95% Wilson
intervals, forfeits, actions per game (mean and 90th percentile) and games per
second.

Seats: p1 sits in seat 0 in even-numbered games (0, 2, ...) and in seat 1 in
odd-numbered ones; seat 0 always acts first, so each player moves first in
half the games.

Reproducible: game i is seeded from the match seed and i alone, so the same
--seed, players, configs and -n give the same results and byte-identical
replays whatever --workers is. Without --seed a random seed is drawn and
printed (on stderr); pass it back to replay the match.

A player that acts illegally, places its fleet illegally or panics forfeits
that game (logged as a warning) and the match goes on. Ctrl-C stops the match
and prints the summary of the games finished so far (exit code 130).

Progress goes to stderr (--progress): a bar on a terminal, a line every 10
seconds elsewhere.

Classic Battleship (--game battleship, AIs from the "battleship" section of
kaisen players; default gridbot vs bs-random): the side that sinks the enemy
fleet first wins, a hit or kill gives another shot, seat 0 shoots first. The
table and the JSON add each player's mean shots per game
("p1_mean_shots", "p2_mean_shots"). Board and fleet come from the
"battleship" section of a --rules file with "game: battleship"
(configs/battleship-match.yaml). --replays writes Battleship JSON-lines
replays (schema in docs/battleship.md; kaisen replay draws them).

--series N plays the games in series of N: games 0..N-1 are series 0,
N..2N-1 series 1, and so on (the last may be shorter). The players of a
series are the same instances from its first game to its last, so a player
that learns across games (arena.Learner: the Battleship AI adaptive, the
submarine AI admiral-series) learns from the earlier games of its series
and from nothing else; every other player is made fresh for every game as
without --series. Seats still alternate (p1 in seat 0 in even games) and
game i keeps its seed, so a series match of players that do not learn
plays exactly the games of a plain one. The games of a series are played
in order, series in parallel: the results are the same whatever --workers.
Replays record the game's series ("series": {"index", "game", "size"} in
the header's "match"). Not with --shard or --nats.

Below the table, the statistics chess engine authors read in fastchess and
cutechess-cli, from p1's point of view:

  Score of A vs B: W - L - D [0.515] N
  Elo difference: 10.4 +/- 7.6, LOS: 99.6 %, DrawRatio: 51.1 %
  Elo 95% interval: [+2.8, +18.0] (trinomial: every game on its own)

A perfect score has an unbounded side: 40 wins of 40 print "Elo difference:
+inf" and "Elo 95% interval: [+407.0, +inf]" (docs/cli.md, "Reading the
statistics").

--pairs plays the games in pairs: games 2k and 2k+1 share their seed (each
seat draws the same random stream: the same fleets for players that place
alike, the same seeds for those that place their own) with the players'
seats swapped, and scores the pairs (pentanomial: "Ptnml(0-2): [LL, LD,
DD+WL, WD, WW]"), which cancels the luck of the deal. Off by default, so
the published figures stay; -n must be even.

--sprt elo0=0,elo1=5[,alpha=0.05][,beta=0.05][,model=logistic|normalized]
plays pairs until a sequential probability ratio test decides between
H0 (elo0) and H1 (elo1), then stops ("SPRT: llr 2.95 (100.3%), lbound
-2.94, ubound 2.94 - H1 was accepted"); -n is the most games (default
100000). The test decides on completed pairs in game-index order, so the
verdict and the games counted depend on the seed, never on --workers. The
progress line shows the running score, Elo and LLR as the games play.
--json adds "elo", "pentanomial" and "sprt" with --pairs or --sprt.

--audit (submarine) checks every game with the exact endgame solver
(docs/endgame.md): from the first position where both fleets are common
knowledge, it finds the games a player lost after a position the solver
values drawn or won for it, with the action that threw it away (proven
throws), and those lost from a position of three ships against two or
three that the solver's bounded search could not value (unproved). The
table lists them by game index and seed; --json adds an "audit" object.
It also says how each player's games went: a win before perfect
information, or after it from a known position the solver values won,
drawn or lost (the loser threw it), or could not value, with the loser's
ships sunk before it; a game not won as a draw forced under perfect
information (the first known position drawn for the player, with its
material, e.g. "3+2 vs 2"), lost or unvalued there, a known won position
not converted, or no perfect information at all, with the enemy's fleet
known while the player's own was hidden or the other way round.
kaisen replay --audit DIR audits a directory of replays the same way.
With --shard each shard file carries its games' audit and kaisen merge
prints the whole run's; with --nats the workers audit their games: a
20,000-game audited run spreads over machines like any other.` + botHelp + gamesOutHelp + adjudicateHelp

// matchExamples are kaisen match --help's examples.
const matchExamples = `  kaisen match                                   (stateplayer2 vs random, 1000 games)
  kaisen match --p1 random --p2 random -n 10000
  kaisen match --p1 stateplayer2 --p2 random -n 1000 --seed 42 --json
  kaisen match --p1 stateplayer2 --p2 stateplayer2 --p2-weights my-weights.yaml -n 2000
  kaisen match --p1 random --p2 random -n 10 --replays out/ && kaisen replay out/game-000003.jsonl
  kaisen match --p1 random --p2 random --rules configs/match.yaml   (board, fleet, draw limit)
  kaisen match --game battleship --p1 density --p2 gridbot -n 200 --seed 1 --json
  kaisen match --game battleship --p1 adaptive --p2 gridbot -n 500 --series 50 --seed 1
  kaisen match --p1 admiral-series --p2 hirota -n 200 --series 20 --seed 5100
  kaisen match --p1 admiral --p2 hirota -n 400 --seed 2027 --audit
  kaisen match --p1 state --p2 simple -n 2000 --seed 1 --pairs
  kaisen match --p1 admiral --p2 admiral --p1-weights tuned.yaml --sprt elo0=0,elo1=5 --seed 1
  kaisen match --p1 admiral --p2 hirota -n 20000 --seed 2046 --audit --shard 3/20 --out s3.jsonl
  kaisen match --rules configs/battleship-match.yaml --p1 gridbot --p2 bs-random -n 2000
  kaisen match --p1 exec:'python3 bot.py {host} {port}' --p2 random -n 200 --workers 4
  kaisen match --game battleship --p1 gridbot --p2 exec:'./mybot --addr {host}:{port}' --bot-logs logs/
  kaisen match --p1 admiral --p2 hirota -n 2000 --pairs --seed 1 --games-out run.jsonl   (killed? add --recover)`

func newMatchCmd(e *env) *cobra.Command {
	var f matchFlags
	cmd := &cobra.Command{
		Annotations: recoverAnnotations(),
		Use:         "match [--p1 NAME] [--p2 NAME] [-n GAMES] [--seed S]",
		Short:       "Play many AI-vs-AI games in-process and summarise them",
		Long:        matchLong,
		Example:     matchExamples,
		Args:        cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			f.p1Given, f.p2Given = cmd.Flags().Changed("p1"), cmd.Flags().Changed("p2")
			if !cmd.Flags().Changed("game") {
				f.game = ""
			}
			if err := f.shard.check(cmd, "replays", "explain", "html", "series", "pairs", "sprt", "games-out", "recover",
				"adjudicate", "max-actions"); err != nil {
				return err
			}
			if err := f.out.check(cmd, e, &f.seed); err != nil {
				return err
			}
			if f.sprt != "" && !cmd.Flags().Changed("games") {
				f.games = sprtMaxGames
			}
			if err := f.shard.checkGames(f.games); err != nil {
				return err
			}
			return runMatch(cmd.Context(), e, &f)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.game, "game", games.Default().Name, gameFlagHelp("game family")+" (default: the config's game)")
	_ = cmd.RegisterFlagCompletionFunc("game", completeGames)
	fl.StringVar(&f.p1, "p1", "stateplayer2", "first player's name (see kaisen players; battleship default: gridbot)")
	fl.StringVar(&f.p2, "p2", "random", "second player's name (battleship default: bs-random)")
	addWeightsFlag(cmd, &f.p1Config, "p1-weights", "YAML weights of the first player (default: its built-in weights)", "p1-config")
	addWeightsFlag(cmd, &f.p2Config, "p2-weights", "YAML weights of the second player", "p2-config")
	addRulesFlag(cmd, &f.config, "match rules YAML: game, board, fleet, draw limit (default: configs/match.yaml's values)", "config")
	addGamesFlag(cmd, &f.games, 1000, "number of games")
	fl.IntVar(&f.series, "series", 0, "play the games in series of this many, with the same players learning across each series (0: every game fresh)")
	addPairsFlags(cmd, &f.pairs, &f.sprt)
	addSeedFlag(cmd, &f.seed, "match seed")
	addWorkersFlag(cmd, &f.workers, 0)
	fl.StringVar(&f.replays, "replays", "", "write one replay per game into this directory (game-000000.jsonl, ...)")
	fl.BoolVar(&f.explain, "explain", false, "record each player's explanation of its actions (and its belief heatmaps) in the replays")
	fl.BoolVar(&f.audit, "audit", false, "check every game with the exact endgame solver: list the games lost after a position it values drawn or won (submarine)")
	fl.BoolVar(&f.html, "html", false, "also write each replay as a self-contained HTML page (game-000000.html, ...)")
	addJSONFlag(cmd, &f.json, "print the summary as one JSON object instead of a table")
	addProgressFlag(cmd, &f.progress)
	addShardFlags(cmd, &f.shard)
	addBotFlags(cmd, &f.bot)
	addGamesOutFlags(cmd, &f.out)
	addAdjudicateFlags(cmd, &f.adjudicate)
	completePlayers(cmd, "p1", false, anyGame)
	completePlayers(cmd, "p2", false, anyGame)
	completeYAML(cmd, "p1-weights", "p2-weights", "rules")
	must(cmd.MarkFlagDirname("replays"))
	return cmd
}

// randomSeed draws a seed below 2^53, so that it survives JSON tools that
// read numbers as doubles.
func randomSeed() (uint64, error) {
	var b [8]byte
	if _, err := crand.Read(b[:]); err != nil {
		return 0, fmt.Errorf("draw a seed: %w", err)
	}
	return binary.LittleEndian.Uint64(b[:]) & (1<<53 - 1), nil
}

// buildFamily makes the game family of a match from the games registry.
func buildFamily(game string, cfg arena.Config, f *matchFlags) (arena.Family, error) {
	g, err := lookupGame(game)
	if err != nil {
		return nil, err
	}
	if !f.p1Given {
		f.p1 = g.DefaultPlayers[0]
	}
	if !f.p2Given {
		f.p2 = g.DefaultPlayers[1]
	}
	if f.p1 == "" || f.p2 == "" {
		var names []string
		for _, p := range g.Players() {
			names = append(names, p.Name)
		}
		return nil, usageError("--p1 and --p2 must name players (players: %s)", strings.Join(names, ", "))
	}
	if f.hasBot() {
		return botFamily(g, cfg, f)
	}
	fam, err := g.Family(cfg,
		games.Entrant{Name: f.p1, Load: config.File(f.p1Config)},
		games.Entrant{Name: f.p2, Load: config.File(f.p2Config)})
	if err != nil {
		return nil, &UsageError{Err: err} // an unknown player or bad weights
	}
	return fam, nil
}

func runMatch(ctx context.Context, e *env, f *matchFlags) error {
	switch {
	case f.explain && f.replays == "":
		return usageError("--explain records explanations in replays: add --replays DIR")
	case f.html && f.replays == "":
		return usageError("--html writes the replays as web pages: add --replays DIR")
	case f.series < 0:
		return usageError("--series %d: want 0 (no series) or more", f.series)
	}
	cfg, err := loadMatchConfig(f.config)
	if err != nil {
		return err
	}
	game := f.game
	if game == "" {
		game = cfg.Game
	} else if f.config != "" && game != cfg.Game {
		return usageError("--game %q but --rules %s is a %q config", game, f.config, cfg.Game)
	}
	fam, err := buildFamily(game, cfg, f)
	if err != nil {
		return err
	}
	stats, err := f.stats()
	if err != nil {
		return err
	}
	if _, sub := fam.(*arena.Submarine); f.audit && !sub {
		return usageError("--audit is for the submarine game only")
	}
	adj, err := f.adjudicate.settings()
	if err != nil {
		return err
	}
	if _, sub := fam.(*arena.Submarine); adj != nil && (f.hasBot() || adj.Draw > 0 && !sub) {
		return usageError("--adjudicate draw= is for the submarine game's built-in players, --max-actions for built-in players")
	}
	f.adjudicate.parsed = adj
	switch {
	case f.shard.queued:
		spec, err := f.jobSpec(game)
		if err != nil {
			return err
		}
		return f.shard.runQueued(ctx, e, queue.Item{Kind: jobs.CommandMatch, Match: spec}, f.seed, f.games, f.games, f.progress, f.json)
	case f.shard.on:
		return runMatchShard(ctx, e, f, fam)
	}
	out, err := f.openGamesOut(game, fam, stats.paired)
	if err != nil {
		return err
	}
	err = playMatch(ctx, e, f, fam, stats, out)
	if cerr := out.close(); err == nil {
		err = cerr
	}
	return err
}

// playMatch plays the match of fam (recorded on out, nil for none) and
// prints it.
func playMatch(ctx context.Context, e *env, f *matchFlags, fam arena.Family, stats *matchStats, out *gamesOut) error {
	m := arena.Match{Family: fam, Games: f.games, Seed: f.seed, Workers: f.workers,
		Replays: f.replays, Explain: f.explain, Audit: f.audit, Series: f.series, Log: e.log,
		Pairs: stats.paired, Observe: stats.observe, Adjudicate: f.adjudicate.parsed}
	m.Record, m.Done = out.record(fam.Players()), out.played(0, f.games)
	var onProgress func(int)
	bar := newProgress(e, f.progress, m.Games, "games")
	if bar != nil {
		onProgress = func(n int) { bar.SetNote(stats.line()); bar.Set(n) }
	}
	sum, runErr := m.Run(ctx, onProgress)
	if bar != nil {
		bar.Done(sum.Games)
	}
	interrupted := errors.Is(runErr, context.Canceled) || errors.Is(runErr, context.DeadlineExceeded)
	if runErr != nil && !interrupted && sum.Games == 0 {
		return runErr
	}
	if f.html {
		if err := writeHTMLReplays(f.replays, sum.Games); err != nil {
			return err
		}
	}
	if err := printMatchStats(e, &sum, f.json, stats); err != nil {
		return err
	}
	if interrupted {
		return &ExitError{Code: ExitInterrupted, Err: fmt.Errorf("match: interrupted after %d of %d games", sum.Games, sum.Requested)}
	}
	return runErr
}

// runMatchShard plays the games of --shard of the match of fam and writes
// them to --out (nothing when stopped: a shard is all its games or
// nothing).
func runMatchShard(ctx context.Context, e *env, f *matchFlags, fam arena.Family) error {
	s := f.shard.job(e, f.seed, f.games, f.workers)
	lo, hi := s.Spec.Range(f.games)
	done := 0
	var onProgress func(int)
	bar := newProgress(e, f.progress, hi-lo, "games")
	if bar != nil {
		onProgress = func(n int) { done = n; bar.Set(n) }
	}
	h, res, err := s.Match(ctx, arena.Match{Family: fam, Audit: f.audit}, onProgress)
	if bar != nil {
		bar.Done(done)
	}
	if err != nil {
		return err
	}
	return f.shard.write(e, h, res)
}

// jobSpec is the match of the flags as typed settings for the workers of
// --nats: the game and players resolved, weights and rules as text.
func (f *matchFlags) jobSpec(game string) (*jobs.Match, error) {
	spec := &jobs.Match{Game: game, P1: jobs.Seat{Name: f.p1}, P2: jobs.Seat{Name: f.p2}, Audit: f.audit}
	var err error
	for _, t := range []struct {
		dst  *string
		path string
	}{{&spec.P1.Weights, f.p1Config}, {&spec.P2.Weights, f.p2Config}, {&spec.Rules, f.config}} {
		if *t.dst, err = readText(t.path); err != nil {
			return nil, err
		}
	}
	return spec, nil
}

// printMatch prints the summary as a table or, asJSON, a JSON line.
func printMatch(e *env, sum *arena.Summary, asJSON bool) error {
	return printMatchStats(e, sum, asJSON, nil)
}

// printMatchStats is printMatch followed by the statistics of stats (nil:
// those of sum's games on their own): the lines below the table, or the
// keys of a paired match's JSON.
func printMatchStats(e *env, sum *arena.Summary, asJSON bool, stats *matchStats) error {
	if stats == nil {
		stats = &matchStats{wdl: elo.WDL{Wins: sum.P1Wins, Draws: sum.Draws, Losses: sum.P2Wins}}
	}
	if asJSON {
		return writeMatchJSON(e.stdout, sum, stats)
	}
	if err := writeMatchTable(e.stdout, sum); err != nil {
		return err
	}
	return stats.write(e.stdout, sum)
}

// resultJSON is the games played and won of a match's --json summary
// (and of kaisen replay --audit DIR's).
type resultJSON struct {
	Games  int    `json:"games"`
	P1     string `json:"p1"`
	P2     string `json:"p2"`
	P1Wins int    `json:"p1_wins"`
	P2Wins int    `json:"p2_wins"`
	Draws  int    `json:"draws"`
}

// matchJSON is the --json summary; its keys are part of the command's
// interface (scripts parse the last line of stdout).
type matchJSON struct {
	resultJSON
	P1Forfeits  int     `json:"p1_forfeits"`
	P2Forfeits  int     `json:"p2_forfeits"`
	MeanActions float64 `json:"mean_actions"`
	P90Actions  int32   `json:"p90_actions"`
	GamesPerSec float64 `json:"games_per_sec"`
	Seed        uint64  `json:"seed"`
	// --series only: games per series.
	Series int `json:"series,omitempty"`
	// Battleship only: mean shots fired per game by each player.
	P1MeanShots *float64 `json:"p1_mean_shots,omitempty"`
	P2MeanShots *float64 `json:"p2_mean_shots,omitempty"`
	// --audit only.
	Audit *auditJSON `json:"audit,omitempty"`
	// --adjudicate or --max-actions only.
	Adjudicated *adjudicatedJSON `json:"adjudicated,omitempty"`
	// --pairs or --sprt only: the Elo estimate of the pairs, their
	// pentanomial counts and the SPRT.
	Elo         *eloJSON  `json:"elo,omitempty"`
	Pentanomial []int     `json:"pentanomial,omitempty"`
	SPRT        *sprtJSON `json:"sprt,omitempty"`
}

func writeMatchJSON(w io.Writer, s *arena.Summary, stats *matchStats) error {
	out := matchJSON{
		resultJSON: resultJSON{Games: s.Games, P1: s.P1, P2: s.P2, P1Wins: s.P1Wins, P2Wins: s.P2Wins, Draws: s.Draws},
		P1Forfeits: s.P1Forfeits, P2Forfeits: s.P2Forfeits, MeanActions: s.Mean, P90Actions: s.P90,
		GamesPerSec: float64(int64(s.GamesPerSec()*10+0.5)) / 10, Seed: s.Seed, Series: s.Series,
	}
	if countsShots(s.Game) {
		m1, m2 := s.P1MeanShots(), s.P2MeanShots()
		out.P1MeanShots, out.P2MeanShots = &m1, &m2
	}
	out.Audit = auditJSONOf(s)
	out.Adjudicated = adjudicatedJSONOf(s)
	stats.addJSON(&out)
	return json.NewEncoder(w).Encode(out)
}

// share formats k of n as "k  p% [lo, hi]" with the 95% Wilson interval,
// the count right-aligned to width digits.
func share(k, n, width int) string {
	iv := arena.Wilson(k, n, arena.Z95)
	p := 0.0
	if n > 0 {
		p = float64(k) / float64(n)
	}
	return fmt.Sprintf("%*d %5.1f%% [%4.1f, %4.1f]", width, k, 100*p, 100*iv.Lo, 100*iv.Hi)
}

func writeMatchTable(w io.Writer, s *arena.Summary) error {
	fmt.Fprintf(w, "%s match: %s (p1) vs %s (p2), seed %d\n", s.Game, s.P1, s.P2, s.Seed)
	if s.Games < s.Requested && !s.Stopped {
		fmt.Fprintf(w, "interrupted: %d of %d games played\n", s.Games, s.Requested)
	}
	fmt.Fprintln(w, "p1 sits in seat 0 in even games and in seat 1 in odd games; seat 0 acts first")
	if s.Series > 0 {
		fmt.Fprintf(w, "played in series of %d games: a player that learns keeps what it learnt within its series\n", s.Series)
	}
	if s.Pairs {
		fmt.Fprintln(w, "played in pairs: games 2k and 2k+1 share their seed (the same seat streams, the same fleets), seats swapped")
	}
	fmt.Fprintln(w)
	n := s.Games
	d := len(fmt.Sprint(n))
	tw := tabwriter.NewWriter(w, 0, 4, 3, ' ', 0)
	fmt.Fprintln(tw, "player\twins (95% CI)\tdraws (95% CI)\tlosses (95% CI)\tforfeits")
	fmt.Fprintf(tw, "p1 %s\t%s\t%s\t%s\t%*d\n", s.P1, share(s.P1Wins, n, d), share(s.Draws, n, d), share(s.P1Losses(), n, d), 8, s.P1Forfeits)
	fmt.Fprintf(tw, "p2 %s\t%s\t%s\t%s\t%*d\n", s.P2, share(s.P2Wins, n, d), share(s.Draws, n, d), share(s.P2Losses(), n, d), 8, s.P2Forfeits)
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "seat 0 (acts first) won %d of %d games: %s\n", s.Seat0Wins, n,
		strings.TrimSpace(strings.TrimPrefix(share(s.Seat0Wins, n, 0), fmt.Sprint(s.Seat0Wins))))
	fmt.Fprintf(w, "actions per game: mean %.1f, p90 %d\n", s.Mean, s.P90)
	if countsShots(s.Game) {
		fmt.Fprintf(w, "shots per game: p1 %s %.2f, p2 %s %.2f\n", s.P1, s.P1MeanShots(), s.P2, s.P2MeanShots())
	}
	workers := "workers"
	if s.Workers == 1 {
		workers = "worker"
	}
	if _, err := fmt.Fprintf(w, "%d games in %.2fs: %.0f games/s, %.0f actions/s, %d %s\n",
		n, s.Elapsed.Seconds(), s.GamesPerSec(), s.ActionsPerSec(), s.Workers, workers); err != nil {
		return err
	}
	writeAdjudicationTable(w, s)
	return writeAuditTable(w, s)
}

// countsShots reports whether the game's matches count shots (games.Game.Shots).
func countsShots(game string) bool {
	g, err := games.Lookup(game)
	return err == nil && g.Shots
}
