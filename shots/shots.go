package shots

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/kaisen-ai/kaisen/game/battleship"
	"github.com/kaisen-ai/kaisen/game/grid"
	bsplayers "github.com/kaisen-ai/kaisen/players/battleship"
	"github.com/kaisen-ai/kaisen/shard"
)

// ErrNotLearner is the error of a game of a series whose player does not
// learn between games (it is no bsplayers.Learner).
var ErrNotLearner = errors.New("the player does not learn between games (adaptive does)")

// ErrConfig is wrapped by Run's errors for a Config it cannot play.
var ErrConfig = errors.New("shots: bad config")

// Placer draws a fleet layout from a random stream
// (bsbelief.StylePlacer.Place, for instance).
type Placer func(rng *rand.Rand) (battleship.Placement, error)

// Config is a run of games.
type Config struct {
	Rules  *battleship.Rules
	Player bsplayers.Factory // the AI measured
	Placer Placer            // draws each game's fleet
	// Vs, when not nil, also plays every game with this AI on the same
	// fleet and random stream (Result.Vs).
	Vs bsplayers.Factory
	// Series, when positive, plays the games in series of this many
	// consecutive games (the last one may be shorter) by one player that
	// learns each layout after its game; the series run in parallel, the
	// games of one series in order. Game i still has the fleet and random
	// stream of game i. 0: each game on its own.
	Series int
	Seed   uint64
	// Lo and Hi are the games played, [Lo, Hi): all of a run from 0, or a
	// shard's share of it (shard.Spec.Range).
	Lo, Hi int
	// Workers is how many games (or series) are played at once; less than
	// 1 means 1.
	Workers int
	// Progress, when not nil, is told the number of games finished after
	// each one, from the goroutine that called Run.
	Progress func(done int)
}

// Result is what a run measured, over the games finished, in game order.
type Result struct {
	Shots []int           // shots of each game finished
	Vs    []int           // with Config.Vs: its shots in the same games
	Moves []time.Duration // the AI's decision time of every shot (wall clock)
	// Stats counts the moves by method of the counting AIs (density,
	// greedy, adaptive); zero for the others.
	Stats   bsplayers.DensityStats
	Elapsed time.Duration // wall time of the run
}

// GameError is the error of the first game (in game order) that failed:
// its player erred, panicked, or (with Series) does not learn.
type GameError struct {
	Game int
	Vs   bool // the error is the Vs player's
	Err  error
}

func (e *GameError) Error() string {
	who := ""
	if e.Vs {
		who = " (vs)"
	}
	return fmt.Sprintf("shots: game %d%s: %v", e.Game, who, e.Err)
}

func (e *GameError) Unwrap() error { return e.Err }

// game is one game's outcome.
type game struct {
	shots int
	vs    int
	moves []time.Duration
	stats bsplayers.DensityStats
	err   error
	isVs  bool // err is the Vs player's
	done  bool
}

func (c *Config) check() error {
	switch {
	case c.Rules == nil:
		return fmt.Errorf("%w: no rules", ErrConfig)
	case c.Player == nil:
		return fmt.Errorf("%w: no player", ErrConfig)
	case c.Placer == nil:
		return fmt.Errorf("%w: no placer", ErrConfig)
	case c.Series < 0:
		return fmt.Errorf("%w: series %d, want 0 or more", ErrConfig, c.Series)
	case c.Lo < 0 || c.Hi < c.Lo:
		return fmt.Errorf("%w: games [%d, %d)", ErrConfig, c.Lo, c.Hi)
	}
	return nil
}

// Run plays the games of c and returns what they measured. A cancelled
// ctx stops it: the result holds the games finished by then, and the error
// is nil. A game that fails makes it return a *GameError.
func Run(ctx context.Context, c Config) (Result, error) {
	if err := c.check(); err != nil {
		return Result{}, err
	}
	start := time.Now()
	results := c.play(ctx)
	res := Result{Elapsed: time.Since(start)}
	for i, g := range results {
		if !g.done {
			continue
		}
		if g.err != nil {
			return Result{}, &GameError{Game: c.Lo + i, Vs: g.isVs, Err: g.err}
		}
		res.Shots = append(res.Shots, g.shots)
		if c.Vs != nil {
			res.Vs = append(res.Vs, g.vs)
		}
		res.Moves = append(res.Moves, g.moves...)
		res.Stats = res.Stats.Add(g.stats)
	}
	return res, nil
}

// play runs the worker pool: a job is a game, or with Series the first
// game of a series; it returns the outcome of each game of [Lo, Hi).
func (c *Config) play(ctx context.Context) []game {
	count := c.Hi - c.Lo
	results := make([]game, count)
	if count == 0 {
		return results
	}
	step := max(1, c.Series)
	jobs := make(chan int)
	finished := make(chan struct{}, count)
	var wg sync.WaitGroup
	for range min(max(1, c.Workers), (count+step-1)/step) {
		wg.Go(func() {
			for i := range jobs {
				var gs []game
				if c.Series == 0 {
					gs = []game{playGame(ctx, c.Rules, c.Player, c.Placer, c.Seed, i)}
				} else {
					gs = playSeries(ctx, c.Rules, c.Player, c.Placer, c.Seed, i, min(i+step, c.Hi))
				}
				for j, g := range gs {
					if c.Vs != nil && g.done && g.err == nil {
						g = c.withVs(ctx, g, i+j)
					}
					results[i-c.Lo+j] = g
					finished <- struct{}{}
				}
			}
		})
	}
	go func() {
		defer close(jobs)
		for i := c.Lo; i < c.Hi; i += step {
			select {
			case jobs <- i:
			case <-ctx.Done():
				return
			}
		}
	}()
	go func() { wg.Wait(); close(finished) }()
	done := 0
	for range finished {
		done++
		if c.Progress != nil {
			c.Progress(done)
		}
	}
	return results
}

// withVs plays game i with the Vs player and adds its shots to g; an
// interrupted or failed Vs game makes g so.
func (c *Config) withVs(ctx context.Context, g game, i int) game {
	v := playGame(ctx, c.Rules, c.Vs, c.Placer, c.Seed, i)
	if !v.done || v.err != nil {
		return game{err: v.err, isVs: v.err != nil, done: v.done}
	}
	g.vs = v.shots
	return g
}

// streams derives game i's two random streams from the seed: the fleet's
// and the player's.
func streams(seed uint64, i int) (fleet, player *rand.Rand) {
	return rand.New(rand.NewPCG(seed, uint64(2*i))), rand.New(rand.NewPCG(seed, uint64(2*i+1)))
}

// timedPlayer measures the wall time of each Shoot.
type timedPlayer struct {
	bsplayers.Player
	moves []time.Duration
}

func (p *timedPlayer) Shoot() grid.Cell {
	start := time.Now()
	c := p.Player.Shoot()
	p.moves = append(p.moves, time.Since(start))
	return c
}

// statser is a player that counts its moves by method (the counting AIs).
type statser interface{ Stats() bsplayers.DensityStats }

// playSeries plays games lo..hi-1 as one series: one player, made from
// game lo's random stream, starts each game i with game i's stream and
// learns each layout after its game (bsplayers.Learner; a player that does
// not learn is ErrNotLearner).
func playSeries(ctx context.Context, rules *battleship.Rules, factory bsplayers.Factory, placer Placer, seed uint64, lo, hi int) (gs []game) {
	gs = make([]game, hi-lo)
	defer func() {
		if r := recover(); r != nil {
			gs[0] = game{err: fmt.Errorf("player panicked: %v", r), done: true}
		}
	}()
	_, first := streams(seed, lo)
	l, ok := factory(first).(bsplayers.Learner)
	if !ok {
		gs[0] = game{err: ErrNotLearner, done: true}
		return gs
	}
	for i := lo; i < hi; i++ {
		fleetRNG, playerRNG := streams(seed, i)
		layout, err := placer(fleetRNG)
		if err != nil {
			gs[i-lo] = game{err: err, done: true}
			return gs
		}
		l.NewGame(playerRNG)
		p := &timedPlayer{Player: l}
		n, err := bsplayers.Solo(ctx, rules, p, layout)
		if ctx.Err() != nil {
			return gs // interrupted: the rest is not counted
		}
		gs[i-lo] = game{shots: n, moves: p.moves, err: err, done: true}
		if s, ok := l.(statser); ok {
			gs[i-lo].stats = s.Stats()
		}
		if err != nil {
			return gs
		}
		l.Learn(layout)
	}
	return gs
}

// playGame plays game i; a panicking player is reported as an error.
func playGame(ctx context.Context, rules *battleship.Rules, factory bsplayers.Factory, placer Placer, seed uint64, i int) (g game) {
	defer func() {
		if r := recover(); r != nil {
			g = game{err: fmt.Errorf("player panicked: %v", r), done: true}
		}
	}()
	fleetRNG, playerRNG := streams(seed, i)
	layout, err := placer(fleetRNG)
	if err != nil {
		return game{err: err, done: true}
	}
	p := &timedPlayer{Player: factory(playerRNG)}
	n, err := bsplayers.Solo(ctx, rules, p, layout)
	if ctx.Err() != nil {
		return game{} // interrupted: not counted
	}
	g = game{shots: n, moves: p.moves, err: err, done: true}
	if d, ok := p.Player.(statser); ok {
		g.stats = d.Stats()
	}
	return g
}

// Shard is r as the result of a shard file (package shard), whose parts
// kaisen merge adds up exactly: the shot counts as a histogram, the move
// counts, and the decision times' median and 99th percentile.
func (r *Result) Shard(player string, rules *battleship.Rules) shard.Shots {
	return shard.Shots{
		Player: player, Width: rules.Board.Width(), Height: rules.Board.Height(), Fleet: battleship.FormatFleet(rules.Fleet),
		Shots: shard.HistOf(r.Shots), Exact: r.Stats.Exact, Sampled: r.Stats.Sampled, Heuristic: r.Stats.Heuristic,
		Lookahead: r.Stats.Lookahead, Moves: int64(len(r.Moves)),
		P50NS: int64(Percentile(r.Moves, 0.50)), P99NS: int64(Percentile(r.Moves, 0.99)),
	}
}
