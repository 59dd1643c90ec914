// Package tournament plays round robins between the AIs of one game (any
// game an arena.Family plays: the submarine game, Battleship, abilities)
// and rates them: a cross table of every pair's results and Elo ratings
// fitted by maximum likelihood (Bradley-Terry, a draw counting as half a
// win for each side) with bootstrap 95% intervals. It is the engine of
// `kaisen tournament`.
//
// The package knows no game: Config names the entrants and builds the
// arena.Family of each pair (Config.Family; `kaisen tournament` takes it
// from the games registry). Every pair plays an arena.Match whose seed is
// derived from the tournament seed and the pair's index, so seats alternate
// within the pair and the whole tournament is reproducible by seed whatever
// the number of workers.
package tournament

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/kaisen-ai/kaisen/arena"
)

// ErrConfig reports an invalid tournament.
var ErrConfig = errors.New("tournament: invalid config")

// Config describes a round robin of one game.
type Config struct {
	// Game names the game played: every pair's family must be of it
	// (arena.Family.Game), e.g. "battleship".
	Game string
	// Players names the entrants, at least two, distinct; the results use
	// these names (e.g. "admiral@tuned"), whatever the families call them.
	Players []string
	// Family builds the match of Players[i], as P1, against Players[j], as
	// P2 (i < j): the game's rules and both players' factories. It is
	// called once for every pair that plays, just before the pair's games;
	// its error stops the tournament.
	Family func(i, j int) (arena.Family, error)
	// Timed, needed with Timing, returns fam with its players wrapped so
	// that each decision of P1 Adds its duration to p1 and each decision of
	// P2 to p2.
	Timed     func(fam arena.Family, p1, p2 *Clock) (arena.Family, error)
	Games     int    // games per pair, seats alternating
	Seed      uint64 // tournament seed
	Workers   int    // parallel games per pair; 0 = GOMAXPROCS
	Bootstrap int    // bootstrap resamples for the intervals; 0 = 1000
	Timing    bool   // measure every player's decision time (Rating.Timing; needs Timed)
	// Record, when set, is given every game played, pair after pair and
	// in game order within each pair, with the entries a and b of its pair
	// (a is P1) and its replay (arena.Match.Record); its error stops the
	// tournament. The games of Done are not given again.
	Record func(a, b string, r *arena.GameResult, replay []byte) error
	// Done are the results of the first games of the round robin, played
	// before (a resumed run), numbered pair after pair (game i of pair k
	// is k·Games+i) and each numbered in its pair (arena.GameResult.Index
	// = i): counted as if played, not played again (arena.Match.Done).
	Done []arena.GameResult
	Log  *slog.Logger // forfeits; nil = discard
}

// Validate checks the config.
func (c *Config) Validate() error {
	var errs []error
	if c.Game == "" {
		errs = append(errs, fmt.Errorf("%w: no game", ErrConfig))
	}
	if len(c.Players) < 2 {
		errs = append(errs, fmt.Errorf("%w: %d players, want at least 2", ErrConfig, len(c.Players)))
	}
	seen := map[string]bool{}
	for _, p := range c.Players {
		if seen[p] {
			errs = append(errs, fmt.Errorf("%w: player %q listed twice", ErrConfig, p))
		}
		seen[p] = true
	}
	if c.Family == nil {
		errs = append(errs, fmt.Errorf("%w: no Family to build the pairs' matches", ErrConfig))
	}
	if c.Timing && c.Timed == nil {
		errs = append(errs, fmt.Errorf("%w: timing the %s game needs Timed", ErrConfig, c.Game))
	}
	if c.Games < 1 {
		errs = append(errs, fmt.Errorf("%w: %d games per pair, want at least 1", ErrConfig, c.Games))
	}
	if c.Workers < 0 || c.Bootstrap < 0 {
		errs = append(errs, fmt.Errorf("%w: negative workers or bootstrap", ErrConfig))
	}
	return errors.Join(errs...)
}

// Rating is one player's line of the result.
type Rating struct {
	Name string  `json:"name"`
	Elo  float64 `json:"elo"`
	// Lo and Hi are the 95% bootstrap interval. The games of a player who
	// lost every one of them bound its rating above only: Lo is -Inf
	// (null in JSON); those of a player who won every one, below only: Hi
	// is +Inf. Its Elo is then the prior's (one virtual draw per pair).
	Lo     float64 `json:"lo"`
	Hi     float64 `json:"hi"`
	Games  int     `json:"games"`
	Wins   int     `json:"wins"`
	Draws  int     `json:"draws"`
	Losses int     `json:"losses"`
	Score  float64 `json:"score"` // points per game, a draw counting 1/2
	// Timing is the player's decision time over all its games (with
	// Config.Timing only).
	Timing *Timing `json:"timing,omitempty"`
}

// Pair is one pair's record, from the point of view of A.
type Pair struct {
	A      string `json:"a"`
	B      string `json:"b"`
	Wins   int    `json:"wins"`
	Draws  int    `json:"draws"`
	Losses int    `json:"losses"`
	Seed   uint64 `json:"seed"` // the pair's match seed (arena.Match.Seed)
}

// Result is a finished (or stopped) tournament.
type Result struct {
	Players   []string `json:"players"`
	Games     int      `json:"games_per_pair"`
	Seed      uint64   `json:"seed"`
	Bootstrap int      `json:"bootstrap"`
	Pairs     []Pair   `json:"pairs"`
	Ratings   []Rating `json:"ratings"` // best first
	Complete  bool     `json:"complete"`
	scores    []Score
}

// PairSeed is the match seed of the k-th pair (in the order of Pairs) of a
// tournament with seed.
func PairSeed(seed uint64, k int) uint64 { return arena.GameSeed(seed^0x7a11e5, k) }

// Run plays the round robin: every pair (i < j, in player order) plays an
// arena match of c.Games games with i as P1 (P1 acts first in even-numbered
// games). progress, when not nil, gets the number of finished games and the
// total. A cancelled context stops the tournament; the result then rates the
// games played so far (Complete is false) and the context's error is
// returned with it.
func Run(ctx context.Context, c Config, progress func(done, total int)) (Result, error) {
	if err := c.Validate(); err != nil {
		return Result{}, err
	}
	n := len(c.Players)
	res := Result{Games: c.Games, Seed: c.Seed, Bootstrap: c.Bootstrap}
	if res.Bootstrap == 0 {
		res.Bootstrap = 1000
	}
	res.Players = slices.Clone(c.Players)
	var clocks []*Clock
	if c.Timing {
		for range n {
			clocks = append(clocks, &Clock{})
		}
	}
	pairs, scores, runErr := play(ctx, c, clocks, 0, n*(n-1)/2*c.Games, progress)
	for _, p := range pairs {
		res.Pairs = append(res.Pairs, p.Pair)
	}
	res.scores = scores
	res.Complete = runErr == nil
	if err := res.rate(c.Seed); err != nil {
		return res, err
	}
	for i := range res.Ratings {
		if c.Timing {
			k := slices.Index(res.Players, res.Ratings[i].Name)
			tm := clocks[k].timing()
			res.Ratings[i].Timing = &tm
		}
	}
	return res, runErr
}

// ShardPair is the part of pair Index's record (in the order of
// Result.Pairs) that a shard played.
type ShardPair struct {
	Index int `json:"index"`
	Pair
}

// Shard plays games first..first+count-1 of the round robin, the games
// numbered pair after pair (game i of pair k is k·Games+i), exactly as Run
// plays them, and returns the records of the pairs it reached in pair
// order. Summing the records of shards that cover every game once gives
// Run's Pairs (FromPairs rates them). c.Timing is ignored.
func Shard(ctx context.Context, c Config, first, count int, progress func(done, total int)) ([]ShardPair, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	n := len(c.Players)
	if first < 0 || count < 0 || first+count > n*(n-1)/2*c.Games {
		return nil, fmt.Errorf("%w: games %d..%d of %d", ErrConfig, first, first+count-1, n*(n-1)/2*c.Games)
	}
	pairs, _, err := play(ctx, c, nil, first, count, progress)
	return pairs, err
}

// FromPairs rates a finished round robin from its pairs' records, as Run
// does: the same players, games per pair, seed and bootstrap give the same
// Result as Run's (without timings).
func FromPairs(players []string, games int, seed uint64, bootstrap int, pairs []Pair) (Result, error) {
	res := Result{Players: players, Games: games, Seed: seed, Bootstrap: bootstrap, Pairs: pairs, Complete: true}
	if res.Bootstrap == 0 {
		res.Bootstrap = 1000
	}
	err := res.rate(seed)
	return res, err
}

// play plays games first..first+count-1 of the round robin (numbered pair
// after pair) and returns the records of the pairs it reached; clocks, when
// not nil, time every entrant's decisions (Config.Timed). It stops at the
// first error.
func play(ctx context.Context, c Config, clocks []*Clock, first, count int, progress func(done, total int)) ([]ShardPair, []Score, error) {
	var (
		pairs  []ShardPair
		scores []Score
	)
	n := len(c.Players)
	done, k := 0, 0
	for i := range n {
		for j := i + 1; j < n; j++ {
			lo, hi := max(first, k*c.Games), min(first+count, (k+1)*c.Games)
			k++
			if lo >= hi {
				continue
			}
			fam, err := c.family(i, j, clocks)
			if err != nil {
				return pairs, scores, err
			}
			m := arena.Match{
				Family:  fam,
				Games:   hi - lo,
				First:   lo - (k-1)*c.Games,
				Seed:    PairSeed(c.Seed, k-1),
				Workers: c.Workers,
				Log:     c.Log,
			}
			if lo < len(c.Done) {
				m.Done = c.Done[lo:min(hi, len(c.Done))]
			}
			if c.Record != nil {
				a, b := c.Players[i], c.Players[j]
				m.Record = func(r *arena.GameResult, replay []byte) error { return c.Record(a, b, r, replay) }
			}
			base := done
			var cb func(int)
			if progress != nil {
				cb = func(d int) { progress(base+d, count) }
			}
			sum, err := m.Run(ctx, cb)
			pairs = append(pairs, ShardPair{Index: k - 1, Pair: Pair{A: c.Players[i], B: c.Players[j],
				Wins: sum.P1Wins, Draws: sum.Draws, Losses: sum.P2Wins, Seed: m.Seed}})
			scores = append(scores, Score{A: i, B: j, Wins: sum.P1Wins, Draws: sum.Draws, Losses: sum.P2Wins})
			done += sum.Games
			if err != nil {
				return pairs, scores, err
			}
		}
	}
	return pairs, scores, nil
}

// family builds the match of Players[i] against Players[j], timed by
// their clocks when clocks is not nil.
func (c *Config) family(i, j int, clocks []*Clock) (arena.Family, error) {
	a, b := c.Players[i], c.Players[j]
	fam, err := c.Family(i, j)
	switch {
	case err != nil:
		return nil, fmt.Errorf("tournament: %s against %s: %w", a, b, err)
	case fam == nil:
		return nil, fmt.Errorf("%w: no family for %s against %s", ErrConfig, a, b)
	case fam.Game() != c.Game:
		return nil, fmt.Errorf("%w: %s against %s plays the %s game, not %s", ErrConfig, a, b, fam.Game(), c.Game)
	}
	if clocks == nil {
		return fam, nil
	}
	if fam, err = c.Timed(fam, clocks[i], clocks[j]); err != nil {
		return nil, fmt.Errorf("tournament: timing %s against %s: %w", a, b, err)
	}
	return fam, nil
}

// rate fits the ratings and fills the per-player totals from the pairs.
func (r *Result) rate(seed uint64) error {
	if r.scores == nil {
		idx := map[string]int{}
		for i, p := range r.Players {
			idx[p] = i
		}
		for _, p := range r.Pairs {
			r.scores = append(r.scores, Score{A: idx[p.A], B: idx[p.B], Wins: p.Wins, Draws: p.Draws, Losses: p.Losses})
		}
	}
	n := len(r.Players)
	elo, err := FitElo(n, r.scores)
	if err != nil {
		return err
	}
	ci, err := Bootstrap(n, r.scores, r.Bootstrap, seed)
	if err != nil {
		return err
	}
	r.Ratings = make([]Rating, n)
	for i, name := range r.Players {
		r.Ratings[i] = Rating{Name: name, Elo: elo[i], Lo: ci[i].Lo, Hi: ci[i].Hi}
	}
	for _, s := range r.scores {
		a, b := &r.Ratings[s.A], &r.Ratings[s.B]
		a.Wins += s.Wins
		a.Draws += s.Draws
		a.Losses += s.Losses
		b.Wins += s.Losses
		b.Draws += s.Draws
		b.Losses += s.Wins
	}
	for i := range r.Ratings {
		rt := &r.Ratings[i]
		rt.Games = rt.Wins + rt.Draws + rt.Losses
		if rt.Games > 0 {
			rt.Score = (float64(rt.Wins) + float64(rt.Draws)/2) / float64(rt.Games)
		}
		rt.unbound()
	}
	slices.SortStableFunc(r.Ratings, func(a, b Rating) int {
		switch {
		case a.Elo > b.Elo:
			return -1
		case a.Elo < b.Elo:
			return 1
		}
		return 0
	})
	return nil
}

// Record is the record of a against b (wins, draws, losses), from a's
// point of view; ok is false when they did not meet.
func (r *Result) Record(a, b string) (w, d, l int, ok bool) {
	for _, p := range r.Pairs {
		switch {
		case p.A == a && p.B == b:
			return p.Wins, p.Draws, p.Losses, true
		case p.A == b && p.B == a:
			return p.Losses, p.Draws, p.Wins, true
		}
	}
	return 0, 0, 0, false
}

// WriteTable prints the cross table (row player's score against the column
// player, as a percentage and wins-draws-losses) and the ratings, best first.
func (r *Result) WriteTable(w io.Writer) error {
	order := make([]string, len(r.Ratings))
	for i, rt := range r.Ratings {
		order[i] = rt.Name
	}
	tw := tabwriter.NewWriter(w, 2, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "%d games per pair, seats alternating, seed %d; cell = row's score %% (wins-draws-losses)\n", r.Games, r.Seed)
	fmt.Fprint(tw, "\t"+strings.Join(order, "\t")+"\n")
	for _, a := range order {
		fmt.Fprint(tw, a)
		for _, b := range order {
			if a == b {
				fmt.Fprint(tw, "\t-")
				continue
			}
			wn, d, l, ok := r.Record(a, b)
			if !ok || wn+d+l == 0 {
				fmt.Fprint(tw, "\t")
				continue
			}
			pct := 100 * (float64(wn) + float64(d)/2) / float64(wn+d+l)
			fmt.Fprintf(tw, "\t%.1f (%d-%d-%d)", pct, wn, d, l)
		}
		fmt.Fprintln(tw)
	}
	fmt.Fprintln(tw)
	fmt.Fprintf(tw, "rank\tplayer\telo\t95%% interval (bootstrap, %d)\tgames\tw-d-l\tscore\n", r.Bootstrap)
	for i, rt := range r.Ratings {
		fmt.Fprintf(tw, "%d\t%s\t%+.0f\t%s\t%d\t%d-%d-%d\t%.1f%%\n", i+1, rt.Name, rt.Elo, rt.Interval(),
			rt.Games, rt.Wins, rt.Draws, rt.Losses, 100*rt.Score)
	}
	if !r.Complete {
		fmt.Fprintln(tw, "(stopped early: ratings cover the games played so far)")
	}
	if len(r.Ratings) > 0 && r.Ratings[0].Timing != nil {
		fmt.Fprintln(tw)
		fmt.Fprintln(tw, "player\tdecisions\tmean ms\tp50 ms\tp99 ms\tmax ms")
		for _, rt := range r.Ratings {
			tm := rt.Timing
			fmt.Fprintf(tw, "%s\t%d\t%.3f\t%.3f\t%.3f\t%.3f\n", rt.Name, tm.Decisions, tm.MeanMS, tm.P50MS, tm.P99MS, tm.MaxMS)
		}
	}
	return tw.Flush()
}
