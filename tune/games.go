package tune

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"

	"github.com/kaisen-ai/kaisen/arena"
	"github.com/kaisen-ai/kaisen/game/submarine"
	"github.com/kaisen-ai/kaisen/internal/config"
	"github.com/kaisen-ai/kaisen/players"
)

// GameObjective scores a parameter vector by games: the tuned player, built
// from Base with the vector's values written in, plays Games games against
// the opponents (shared out evenly, seats alternating within each
// opponent's share), and the score is the mean points per game: 1 for a win,
// DrawScore for a draw, 0 for a loss, or with Aggregate.Min the (soft)
// minimum over the opponents of the mean points against each. The games of one evaluation are
// arena matches whose seeds derive from the evaluation seed, so two
// evaluations with one seed play the same deals (common random numbers).
type GameObjective struct {
	Rules     *submarine.Rules
	Player    string // registry name of the tuned player
	Base      string // YAML text of its config (values not tuned are kept)
	Space     Space
	Opponents []arena.SubmarineEntrant
	Games     int       // games per evaluation, at least one per opponent
	Workers   int       // parallel games; 0 = GOMAXPROCS
	DrawScore float64   // points for a draw (0: a draw counts as a non-win)
	Aggregate Aggregate // how the opponents' scores combine (zero value: the mean)
	Dir       string    // where candidate configs are written ("" = os.TempDir())
	Log       *slog.Logger
}

// ErrObjective reports a game objective that cannot run.
var ErrObjective = errors.New("tune: bad game objective")

// Validate checks the objective.
func (g *GameObjective) Validate() error {
	var errs []error
	if g.Rules == nil {
		errs = append(errs, fmt.Errorf("%w: no rules", ErrObjective))
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
	if _, err := players.Lookup(g.Player); err != nil {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// Config returns the YAML text of the tuned player's config at x.
func (g *GameObjective) Config(x []float64) (string, error) {
	return SetValues(g.Base, g.Space.Values(x))
}

// Factory builds the tuned player at x (through a temporary config file, the
// way the registry reads configs).
func (g *GameObjective) Factory(x []float64) (players.Factory, error) {
	text, err := g.Config(x)
	if err != nil {
		return nil, err
	}
	f, err := os.CreateTemp(g.Dir, "kaisen-tune-*.yaml")
	if err != nil {
		return nil, fmt.Errorf("tune: %w", err)
	}
	defer os.Remove(f.Name())
	if _, err := f.WriteString(text); err != nil {
		f.Close()
		return nil, fmt.Errorf("tune: %w", err)
	}
	if err := f.Close(); err != nil {
		return nil, fmt.Errorf("tune: %w", err)
	}
	fac, err := players.New(g.Player, g.Rules, config.File(f.Name()))
	if err != nil {
		return nil, fmt.Errorf("tune: candidate %v: %w", x, err)
	}
	return fac, nil
}

// Evaluate implements Objective.
func (g *GameObjective) Evaluate(ctx context.Context, x []float64, seed uint64) (Sample, error) {
	fac, err := g.Factory(x)
	if err != nil {
		return Sample{}, err
	}
	return g.Play(ctx, fac, seed)
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

// Play scores an already built player with the evaluation seed. The
// sample's Parts are the opponents' shares, in pool order.
func (g *GameObjective) Play(ctx context.Context, fac players.Factory, seed uint64) (Sample, error) {
	s := Sample{Parts: make([]Sample, len(g.Opponents))}
	for _, sh := range g.Shares(seed) {
		opp := g.Opponents[sh.Opponent]
		m := arena.Match{
			Family:  &arena.Submarine{Rules: g.Rules, P1: arena.SubmarineEntrant{Name: g.Player, Factory: fac}, P2: opp},
			Games:   sh.Games,
			Seed:    sh.Seed,
			Workers: g.Workers,
			Log:     g.Log,
		}
		sum, err := m.Run(ctx, nil)
		if err != nil {
			return s, fmt.Errorf("tune: against %s: %w", opp.Name, err)
		}
		g.Add(&s, Share{Opponent: sh.Opponent, Games: sum.Games}, sum.P1Wins, sum.Draws)
	}
	return s, nil
}
