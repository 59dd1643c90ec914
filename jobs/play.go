package jobs

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/kaisen-ai/kaisen/arena"
	"github.com/kaisen-ai/kaisen/shard"
	"github.com/kaisen-ai/kaisen/shots"
	"github.com/kaisen-ai/kaisen/tournament"
)

// The commands of a shard file, one per kind of run.
const (
	CommandMatch      = "match"
	CommandTournament = "tournament"
	CommandShots      = "shots"
)

// Shard is one shard of a run to play: shard Spec of a run of Games games
// (a tournament: every pair's) seeded by Seed, Workers games at once. Args
// are the run's identity, written in the shard file's header (kaisen merge
// and the queue compare them): the command's game-deciding flags.
type Shard struct {
	Args    map[string]string
	Seed    uint64
	Games   int
	Spec    shard.Spec
	Workers int          // games at once; the header's workers for a tournament or shots shard
	Log     *slog.Logger // forfeits; nil = discard
}

// header is the shard file's header of command for count games from
// first, played by workers games at once in elapsed.
func (s *Shard) header(command string, workers int, elapsed time.Duration) shard.Header {
	lo, hi := s.Spec.Range(s.Games)
	return shard.Header{Command: command, Args: s.Args, Seed: s.Seed, Games: s.Games, Shard: s.Spec.K, Shards: s.Spec.N,
		First: lo, Count: hi - lo, ElapsedNS: int64(elapsed), Workers: workers}
}

// Interrupted is the error of a shard stopped before its last game: it
// has no file (a shard is all its games or nothing).
type Interrupted struct {
	Command     string
	Done, Count int
}

func (e *Interrupted) Error() string {
	return fmt.Sprintf("%s: shard interrupted after %d of %d games; no file written", e.Command, e.Done, e.Count)
}

// Unwrap is context.Canceled: the shard was stopped.
func (e *Interrupted) Unwrap() error { return context.Canceled }

// Match plays the shard's games of m (whose Family and Audit are set; its
// games, seed, workers and log are the shard's) and returns the shard
// file's header and result. progress, when set, is told the games done.
func (s *Shard) Match(ctx context.Context, m arena.Match, progress func(int)) (shard.Header, shard.Match, error) {
	lo, hi := s.Spec.Range(s.Games)
	m.First, m.Games, m.Seed, m.Workers, m.Log = lo, hi-lo, s.Seed, s.Workers, s.Log
	sum, err := m.Run(ctx, progress)
	if err != nil {
		return shard.Header{}, shard.Match{}, err
	}
	return s.header(CommandMatch, sum.Workers, sum.Elapsed), shard.MatchOf(&sum), nil
}

// Tournament plays the shard's games of the tournament tc (its Workers
// and Log as set) and returns the shard file's header and result.
func (s *Shard) Tournament(ctx context.Context, tc tournament.Config, progress func(done, total int)) (shard.Header, shard.Tournament, error) {
	lo, hi := s.Spec.Range(s.Games)
	start := time.Now()
	pairs, err := tournament.Shard(ctx, tc, lo, hi-lo, progress)
	if err != nil {
		return shard.Header{}, shard.Tournament{}, err
	}
	res := shard.Tournament{Players: tc.Players, Games: tc.Games, Bootstrap: tc.Bootstrap, Pairs: pairs}
	return s.header(CommandTournament, s.Workers, time.Since(start)), res, nil
}

// Shots plays the shard's games of the shots run c of player (its games
// are the shard's) and returns the shard file's header and result; a run
// stopped early is an *Interrupted error.
func (s *Shard) Shots(ctx context.Context, c shots.Config, player string) (shard.Header, shard.Shots, error) {
	c.Lo, c.Hi = s.Spec.Range(s.Games)
	res, err := shots.Run(ctx, c)
	if err != nil {
		return shard.Header{}, shard.Shots{}, err
	}
	if n := c.Hi - c.Lo; len(res.Shots) < n {
		return shard.Header{}, shard.Shots{}, &Interrupted{Command: CommandShots, Done: len(res.Shots), Count: n}
	}
	return s.header(CommandShots, s.Workers, res.Elapsed), res.Shard(player, c.Rules), nil
}
