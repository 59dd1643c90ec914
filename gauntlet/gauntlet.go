package gauntlet

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/kaisen-ai/kaisen/arena"
)

// ErrConfig reports an invalid gauntlet.
var ErrConfig = errors.New("gauntlet: invalid config")

// Config describes a gauntlet of one game.
type Config struct {
	// Game names the game played: every opponent's family must be of it
	// (arena.Family.Game).
	Game string
	// Bot names the bot tested (a built-in AI's name or exec:COMMAND).
	Bot string
	// Pool names the opponents, at least one, distinct.
	Pool []string
	// Family builds the match of the bot, as P1, against Pool[k], as P2.
	// It is called once per opponent, just before its games; its error
	// stops the gauntlet.
	Family func(k int) (arena.Family, error)
	// Games is the number of games against each opponent, even: they are
	// played in pairs, games 2i and 2i+1 on one deal with seats swapped.
	Games   int
	Seed    uint64 // gauntlet seed
	Workers int    // parallel games; 0 = GOMAXPROCS
	// Replays, when set, is the directory of the games' replays: one
	// subdirectory per opponent (ReplayDir), one file per game as kaisen
	// match --replays writes them.
	Replays string
	// Render, when set with Replays, writes each game's replay as a web
	// page beside it (game-000000.html): it is given the replay's path
	// and the page's.
	Render func(replay, page string) error
	// Record, when set, is given every game played in game order with
	// its players' names (the bot is P1) and its replay
	// (arena.Match.Record); the games of Done are not given again.
	Record func(p1, p2 string, r *arena.GameResult, replay []byte) error
	// Done are the results of the first games of the gauntlet, played
	// before (a resumed run), numbered opponent after opponent and each
	// numbered in its match (arena.GameResult.Index): counted as if
	// played, not played again.
	Done []arena.GameResult
	Log  *slog.Logger // forfeits; nil = discard
}

// Validate checks the config.
func (c *Config) Validate() error {
	var errs []error
	if c.Game == "" {
		errs = append(errs, fmt.Errorf("%w: no game", ErrConfig))
	}
	if c.Bot == "" {
		errs = append(errs, fmt.Errorf("%w: no bot", ErrConfig))
	}
	if len(c.Pool) == 0 {
		errs = append(errs, fmt.Errorf("%w: no opponent in the pool", ErrConfig))
	}
	seen := map[string]bool{}
	for _, p := range c.Pool {
		if seen[p] {
			errs = append(errs, fmt.Errorf("%w: opponent %q listed twice", ErrConfig, p))
		}
		seen[p] = true
	}
	if c.Family == nil {
		errs = append(errs, fmt.Errorf("%w: no Family to build the matches", ErrConfig))
	}
	if c.Games < 2 || c.Games%2 != 0 {
		errs = append(errs, fmt.Errorf("%w: %d games per opponent, want an even number (pairs), at least 2", ErrConfig, c.Games))
	}
	if c.Workers < 0 {
		errs = append(errs, fmt.Errorf("%w: %d workers, want 0 (all CPUs) or more", ErrConfig, c.Workers))
	}
	if len(c.Done) > len(c.Pool)*c.Games {
		errs = append(errs, fmt.Errorf("%w: %d games played before, the gauntlet has %d", ErrConfig, len(c.Done), len(c.Pool)*c.Games))
	}
	return errors.Join(errs...)
}

// MatchSeed is the match seed of the bot against opponent k of a gauntlet
// with seed.
func MatchSeed(seed uint64, k int) uint64 { return arena.GameSeed(seed^0x9a047e7, k) }

// ReplayDir is the subdirectory of Config.Replays holding the replays of
// the games against opponent k called name, e.g. "01-simple".
func ReplayDir(k int, name string) string {
	safe := strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.' {
			return r
		}
		return '_'
	}, name)
	return fmt.Sprintf("%02d-%s", k, safe)
}

// Progress is where a running gauntlet is.
type Progress struct {
	Done, Total int    // games finished, games of the gauntlet
	Line        string // the running score: "Score W - L - D [s]  Elo x +/- y" ("" before the first game)
}

// Run plays the gauntlet: opponent after opponent, each an arena match of
// c.Games paired games with the bot as P1 (in seat 0 in even games).
// progress, when not nil, is called from one goroutine about ten times a
// second. A cancelled context stops the gauntlet; the result then holds
// the games played so far (Complete is false) and the context's error is
// returned with it.
func Run(ctx context.Context, c Config, progress func(Progress)) (Result, error) {
	if err := c.Validate(); err != nil {
		return Result{}, err
	}
	res := Result{Game: c.Game, Bot: c.Bot, Seed: c.Seed, Games: c.Games, Pool: slices.Clone(c.Pool)}
	start := time.Now()
	var mu sync.Mutex // guards res's tallies: Observe against progress
	total := len(c.Pool) * c.Games
	runErr := c.play(ctx, &res, &mu, total, progress)
	elapsed := time.Since(start) // the games' time, without their pages
	// The games played get their pages even when the gauntlet stopped: the
	// report of a stopped run links them too.
	if err := c.render(&res); err != nil && runErr == nil {
		runErr = err
	}
	return res.finish(elapsed, runErr == nil), runErr
}

// play plays the opponents one after the other into res, stopping at the
// first error.
func (c *Config) play(ctx context.Context, res *Result, mu *sync.Mutex, total int, progress func(Progress)) error {
	for k, name := range c.Pool {
		res.Opponents = append(res.Opponents, Opponent{Name: name, Seed: MatchSeed(c.Seed, k)})
		fam, err := c.family(k)
		if err != nil {
			return err
		}
		m := c.match(k, fam)
		m.Observe = func(r *arena.GameResult) bool {
			mu.Lock()
			defer mu.Unlock()
			res.add(k, r, c.replayPath(k, r.Index))
			return false
		}
		var cb func(int)
		if progress != nil {
			base := k * c.Games
			cb = func(n int) {
				mu.Lock()
				line := res.line()
				mu.Unlock()
				progress(Progress{Done: base + n, Total: total, Line: line})
			}
		}
		sum, err := m.Run(ctx, cb)
		res.Opponents[k].Forfeits, res.Opponents[k].OpponentForfeits = sum.P1Forfeits, sum.P2Forfeits
		res.Opponents[k].Actions = sum.Actions
		res.Workers = max(res.Workers, sum.Workers)
		if err != nil {
			return err
		}
	}
	return nil
}

// family builds and checks the match against opponent k.
func (c *Config) family(k int) (arena.Family, error) {
	fam, err := c.Family(k)
	switch {
	case err != nil:
		return nil, fmt.Errorf("gauntlet: %s against %s: %w", c.Bot, c.Pool[k], err)
	case fam == nil:
		return nil, fmt.Errorf("%w: no family for %s against %s", ErrConfig, c.Bot, c.Pool[k])
	case fam.Game() != c.Game:
		return nil, fmt.Errorf("%w: %s against %s plays the %s game, not %s", ErrConfig, c.Bot, c.Pool[k], fam.Game(), c.Game)
	}
	return fam, nil
}

// match is the arena match against opponent k (without Observe).
func (c *Config) match(k int, fam arena.Family) arena.Match {
	m := arena.Match{Family: fam, Games: c.Games, Seed: MatchSeed(c.Seed, k), Workers: c.Workers, Pairs: true, Log: c.Log}
	if lo := k * c.Games; lo < len(c.Done) {
		m.Done = c.Done[lo:min(lo+c.Games, len(c.Done))]
	}
	if c.Replays != "" {
		m.Replays = filepath.Join(c.Replays, ReplayDir(k, c.Pool[k]))
	}
	if c.Record != nil {
		name := c.Pool[k]
		m.Record = func(r *arena.GameResult, replay []byte) error { return c.Record(c.Bot, name, r, replay) }
	}
	return m
}

// replayPath is the path of game i's replay against opponent k, relative
// to Replays, with slashes ("" without Replays); a page (.html) with
// Render.
func (c *Config) replayPath(k, i int) string {
	if c.Replays == "" {
		return ""
	}
	name := arena.ReplayName(i)
	if c.Render != nil {
		name = strings.TrimSuffix(name, ".jsonl") + ".html"
	}
	return ReplayDir(k, c.Pool[k]) + "/" + name
}

// render writes the web page of every replay (Config.Render). A game
// played before (Done) whose replay is not in Replays gets no page and no
// link.
func (c *Config) render(res *Result) error {
	if c.Render == nil || c.Replays == "" {
		return nil
	}
	for i, g := range res.List {
		page := filepath.Join(c.Replays, filepath.FromSlash(g.Replay))
		replay := strings.TrimSuffix(page, ".html") + ".jsonl"
		if _, err := os.Stat(replay); err != nil && i < len(c.Done) {
			res.List[i].Replay = ""
			continue
		}
		if err := c.Render(replay, page); err != nil {
			return fmt.Errorf("gauntlet: replay page of game %d: %w", g.Index, err)
		}
	}
	return nil
}
