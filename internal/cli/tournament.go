package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/kaisen-ai/kaisen/arena"
	"github.com/kaisen-ai/kaisen/internal/config"
	"github.com/kaisen-ai/kaisen/internal/progress"
	"github.com/kaisen-ai/kaisen/players"
	"github.com/kaisen-ai/kaisen/tournament"
)

type tournamentFlags struct {
	players   string
	configs   []string
	games     int
	seed      uint64
	workers   int
	bootstrap int
	config    string
	timing    bool
	json      bool
}

func newTournamentCmd(e *env) *cobra.Command {
	var f tournamentFlags
	cmd := &cobra.Command{
		Use:   "tournament --players A,B,C [-n N] [--seed S] [--workers K] [--json]",
		Short: "Play a round robin between AIs and rate them (cross table, Elo)",
		Long: `Play a round robin: every pair of the listed players plays N games in this
process, seats alternating (the first-listed player of the pair acts first in
even-numbered games), then print

  - the cross table: the row player's score against the column player as a
    percentage (a draw counts half) and wins-draws-losses;
  - Elo ratings fitted by maximum likelihood under the Bradley-Terry model,
    a draw counting as half a win for each side (one virtual draw per pair
    keeps a perfect score finite), centred on 0, with 95% intervals from a
    bootstrap over games (each pair's games resampled with replacement,
    --bootstrap times, seeded by --seed).

A player may appear twice with different weights: name an entry NAME@LABEL
and give its config with --player-config NAME@LABEL=FILE (for example
admiral@tuned). --timing measures every player's decision time (mean, p50,
p99, max per Act over all its games); use --workers 1 for clean timings.

Reproducible: pair k plays an arena match seeded from --seed and k, so the
same flags give the same results whatever --workers is. Without --seed a seed
is drawn and printed on stderr. --json prints one JSON object as the last line
of stdout instead of the tables. Ctrl-C stops and rates the games played.

Examples:
  kaisen tournament --players admiral,stateplayer2,state,simple,random -n 200 --seed 1
  kaisen tournament --players admiral,admiral@tuned --player-config admiral@tuned=admiral-tuned.yaml -n 2000
  kaisen tournament --players admiral,stateplayer2 -n 500 --workers 1 --timing
  kaisen tournament --players stateplayer2,state -n 1000 --seed 7 --json | tail -1 | jq .ratings`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := defaultSeed(cmd, e, &f.seed, "plays this again"); err != nil {
				return err
			}
			return runTournament(cmd.Context(), e, &f)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.players, "players", "", "comma-separated players, at least two (NAME or NAME@LABEL; see kaisen players)")
	fl.StringArrayVar(&f.configs, "player-config", nil, "ENTRY=FILE: YAML weights of one entry (repeatable)")
	fl.IntVarP(&f.games, "games", "n", 100, "games per pair")
	fl.Uint64Var(&f.seed, "seed", 0, "tournament seed (default: drawn at random and printed)")
	fl.IntVar(&f.workers, "workers", 0, "games played in parallel (0 = one per CPU)")
	fl.IntVar(&f.bootstrap, "bootstrap", 1000, "bootstrap resamples for the rating intervals")
	fl.StringVar(&f.config, "config", "", "match YAML: board, fleet, draw limit (default: the published game)")
	fl.BoolVar(&f.timing, "timing", false, "measure every player's decision time")
	fl.BoolVar(&f.json, "json", false, "print the result as one JSON object (last line of stdout)")
	return cmd
}

func runTournament(ctx context.Context, e *env, f *tournamentFlags) error {
	names := splitList(f.players)
	switch {
	case len(names) < 2:
		return usageError("--players needs at least two players (known: %s)", strings.Join(players.Names(), ", "))
	case f.games < 1:
		return usageError("-n %d: want at least 1 game per pair", f.games)
	case f.workers < 0:
		return usageError("--workers %d: want 0 (one per CPU) or more", f.workers)
	case f.bootstrap < 1:
		return usageError("--bootstrap %d: want at least 1", f.bootstrap)
	}
	configs := map[string]string{}
	for _, kv := range f.configs {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" || v == "" {
			return usageError("--player-config %q: want ENTRY=FILE", kv)
		}
		configs[k] = v
	}
	cfg, err := loadMatchConfig(f.config)
	if err != nil {
		return err
	}
	if cfg.Game != "submarine" {
		return usageError("--config %s is a %q config; this command plays the submarine game only", f.config, cfg.Game)
	}
	rules, err := cfg.Rules.Build()
	if err != nil {
		return err
	}
	var entrants []arena.SubmarineEntrant
	for _, entry := range names {
		name, _, _ := strings.Cut(entry, "@")
		fac, err := players.New(name, rules, config.File(configs[entry]))
		if err != nil {
			return usageError("--players %s: %v", entry, err)
		}
		delete(configs, entry)
		entrants = append(entrants, arena.SubmarineEntrant{Name: entry, Factory: fac})
	}
	for k := range configs {
		return usageError("--player-config %s: no such entry in --players", k)
	}
	tc := tournament.Config{Rules: rules, Players: entrants, Games: f.games, Seed: f.seed,
		Workers: f.workers, Bootstrap: f.bootstrap, Timing: f.timing, Log: e.log}
	if err := tc.Validate(); err != nil {
		return usageError("%v", err)
	}
	var bar *progress.Bar
	var onProgress func(done, total int)
	if progress.IsTerminal(e.stderr) {
		total := len(entrants) * (len(entrants) - 1) / 2 * f.games
		bar = progress.New(e.stderr, total, "games")
		onProgress = func(done, _ int) { bar.Set(done) }
	}
	res, runErr := tournament.Run(ctx, tc, onProgress)
	if bar != nil {
		bar.Done(len(entrants) * (len(entrants) - 1) / 2 * f.games)
	}
	interrupted := errors.Is(runErr, context.Canceled) || errors.Is(runErr, context.DeadlineExceeded)
	if runErr != nil && !interrupted {
		return runErr
	}
	if f.json {
		data, err := json.Marshal(res)
		if err != nil {
			return err
		}
		fmt.Fprintln(e.stdout, string(data))
	} else if err := res.WriteTable(e.stdout); err != nil {
		return err
	}
	if interrupted {
		return &ExitError{Code: 130, Err: fmt.Errorf("tournament: interrupted")}
	}
	return nil
}
