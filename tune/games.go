package tune

import (
	"context"
	"errors"
	"fmt"
	"log/slog"

	"github.com/kaisen-ai/kaisen/arena"
	"github.com/kaisen-ai/kaisen/internal/config"
)

// Entrant is one player of a tuning run, the tuned player or an opponent
// of the pool.
type Entrant struct {
	// Name labels it in progress lines, headers and tables, e.g.
	// "stateplayer2@sp2.yaml".
	Name string
	// Player is its name in its game's registry of AIs.
	Player string
	// Load overlays its settings onto its config struct (a roster.Loader;
	// nil = the built-in defaults).
	Load func(into any) error
}

// Arena is the game a tuning run plays: it builds the arena family of a
// match of p1 against p2 (p1 takes seat 0 in even games, seat 1 in odd
// ones), under rules fixed when the Arena was made. kaisen tune makes one
// from the games registry (games.Game.Family on the match config), so the
// objective plays any registered game.
type Arena func(p1, p2 Entrant) (arena.Family, error)

// GameObjective scores a parameter vector by games: the tuned player, built
// from Base with the vector's values written in, plays Games games against
// the opponents (shared out evenly, seats alternating within each
// opponent's share), and the score is the mean points per game: 1 for a win,
// DrawScore for a draw, 0 for a loss, or with Aggregate.Min the (soft)
// minimum over the opponents of the mean points against each. The games of one evaluation are
// arena matches whose seeds derive from the evaluation seed, so two
// evaluations with one seed play the same deals (common random numbers).
type GameObjective struct {
	Arena     Arena  // the game and its rules
	Player    string // registry name of the tuned player
	Base      string // YAML text of its config (values not tuned are kept)
	Space     Space
	Opponents []Entrant
	Games     int       // games per evaluation, at least one per opponent
	Workers   int       // parallel games; 0 = GOMAXPROCS
	DrawScore float64   // points for a draw (0: a draw counts as a non-win)
	Aggregate Aggregate // how the opponents' scores combine (zero value: the mean)
	Log       *slog.Logger
}

// ErrObjective reports a game objective that cannot run.
var ErrObjective = errors.New("tune: bad game objective")

// Validate checks the objective: its settings, and that the tuned player
// with its base config can be built to play the first opponent (an unknown
// player's error is the game's, e.g. players.ErrUnknownPlayer).
func (g *GameObjective) Validate() error {
	var errs []error
	if g.Arena == nil {
		errs = append(errs, fmt.Errorf("%w: no game", ErrObjective))
	}
	if len(g.Opponents) == 0 {
		errs = append(errs, fmt.Errorf("%w: no opponents", ErrObjective))
	}
	if g.Games < len(g.Opponents) {
		errs = append(errs, fmt.Errorf("%w: %d games per evaluation for %d opponents", ErrObjective, g.Games, len(g.Opponents)))
	}
	if err := checkTemperature(g.Aggregate.Temperature); err != nil {
		errs = append(errs, err)
	}
	if g.DrawScore < 0 || g.DrawScore > 1 {
		errs = append(errs, fmt.Errorf("%w: draw score %g, want 0 to 1", ErrObjective, g.DrawScore))
	}
	if len(errs) == 0 {
		if _, err := g.Arena(g.entrant(g.Base), g.Opponents[0]); err != nil {
			errs = append(errs, fmt.Errorf("tune: %s: %w", g.Player, err))
		}
	}
	return errors.Join(errs...)
}

// Config returns the YAML text of the tuned player's config at x.
func (g *GameObjective) Config(x []float64) (string, error) {
	return SetValues(g.Base, g.Space.Values(x))
}

// Tuned is the tuned player at x: its config is Config(x), read the way
// the registry reads a settings file.
func (g *GameObjective) Tuned(x []float64) (Entrant, error) {
	text, err := g.Config(x)
	if err != nil {
		return Entrant{}, err
	}
	return g.entrant(text), nil
}

// entrant is the tuned player with the YAML config text.
func (g *GameObjective) entrant(text string) Entrant {
	return Entrant{Name: g.Player, Player: g.Player, Load: func(into any) error {
		return config.LoadString(g.Player+" candidate", text, into)
	}}
}

// Evaluate implements Objective.
func (g *GameObjective) Evaluate(ctx context.Context, x []float64, seed uint64) (Sample, error) {
	e, err := g.Tuned(x)
	if err != nil {
		return Sample{}, err
	}
	s, err := g.Play(ctx, e, seed)
	if err != nil {
		return s, fmt.Errorf("tune: candidate %v: %w", x, err)
	}
	return s, nil
}

// Share is the games of one opponent in an evaluation: an arena match of
// Games games with Seed, the tuned player as P1.
type Share struct {
	Opponent int // index in Opponents
	Games    int
	Seed     uint64
}

// Shares splits an evaluation with seed among the opponents (those with no
// game left out), as Play plays it.
func (g *GameObjective) Shares(seed uint64) []Share {
	var out []Share
	n := len(g.Opponents)
	for k := range g.Opponents {
		games := g.Games / n
		if k < g.Games%n {
			games++
		}
		if games > 0 {
			out = append(out, Share{Opponent: k, Games: games, Seed: derive(seed, uint64(k)+1000)})
		}
	}
	return out
}

// Add counts the games of a share, won wins and drew draws of them, into s
// (whose Parts have one entry per opponent).
func (g *GameObjective) Add(s *Sample, sh Share, wins, draws int) {
	if s.Parts == nil {
		s.Parts = make([]Sample, len(g.Opponents))
	}
	part := Sample{N: sh.Games, Wins: wins, Draws: draws, Sum: float64(wins) + g.DrawScore*float64(draws)}
	s.Parts[sh.Opponent] = part
	s.N += part.N
	s.Wins += part.Wins
	s.Draws += part.Draws
	s.Sum += part.Sum
}

// Play scores the player e with the evaluation seed. The sample's Parts
// are the opponents' shares, in pool order.
func (g *GameObjective) Play(ctx context.Context, e Entrant, seed uint64) (Sample, error) {
	s := Sample{Parts: make([]Sample, len(g.Opponents))}
	for _, sh := range g.Shares(seed) {
		opp := g.Opponents[sh.Opponent]
		fam, err := g.Arena(e, opp)
		if err != nil {
			return s, fmt.Errorf("against %s: %w", opp.Name, err)
		}
		m := arena.Match{Family: fam, Games: sh.Games, Seed: sh.Seed, Workers: g.Workers, Log: g.Log}
		sum, err := m.Run(ctx, nil)
		if err != nil {
			return s, fmt.Errorf("against %s: %w", opp.Name, err)
		}
		g.Add(&s, Share{Opponent: sh.Opponent, Games: sum.Games}, sum.P1Wins, sum.Draws)
	}
	return s, nil
}
