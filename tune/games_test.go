package tune

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/arena"
	"github.com/kaisen-ai/kaisen/players"
	abplayers "github.com/kaisen-ai/kaisen/players/abilities"
	bsplayers "github.com/kaisen-ai/kaisen/players/battleship"
)

// simpleObjective tunes simple's move probability against random: cheap
// games, enough to exercise the whole pipeline.
func simpleObjective(t *testing.T, games int) *GameObjective {
	t.Helper()
	base := DefaultYAML(probed(t, "simple"))
	s, err := SpaceFor(probed(t, "simple"), "simple.yaml", base)
	require.NoError(t, err)
	return &GameObjective{Arena: submarineArena(t), Player: "simple", Base: base, Space: s, Games: games, Workers: 2,
		Opponents: []Entrant{opponent("random")}}
}

func TestGameObjectiveCommonRandomNumbers(t *testing.T) {
	o := simpleObjective(t, 12)
	ctx := context.Background()
	a, err := o.Evaluate(ctx, []float64{0.5}, 42)
	require.NoError(t, err)
	b, err := o.Evaluate(ctx, []float64{0.5}, 42)
	require.NoError(t, err)
	require.Equal(t, a, b, "the same point and seed play the same games")
	require.Equal(t, 12, a.N)
	require.Equal(t, float64(a.Wins)+o.DrawScore*float64(a.Draws), a.Sum)

	cfg, err := o.Config([]float64{0.25})
	require.NoError(t, err)
	require.Contains(t, cfg, "move_probability: 0.25")

	_, err = o.Evaluate(ctx, []float64{1.5}, 1)
	require.ErrorContains(t, err, "move_probability", "an invalid value is refused by the player's config")

	bad := *o
	bad.Games = 0
	require.ErrorIs(t, bad.Validate(), ErrObjective)
	bad = *o
	bad.Player = "nobody"
	require.ErrorIs(t, bad.Validate(), players.ErrUnknownPlayer)
	bad = *o
	bad.Arena = nil
	require.ErrorContains(t, bad.Validate(), "no game")
}

func TestTuningRunResumeAndHeader(t *testing.T) {
	dir := t.TempDir()
	now := func() time.Time { return time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC) }
	mk := func(ck string, progress *bytes.Buffer) *Tuning {
		return &Tuning{Objective: simpleObjective(t, 8), Budget: 8*2*3 + 2*10, Batch: 8, EvalGames: 10,
			Seed: 5, Checkpoint: ck, Progress: progress, Against: "random", Now: now}
	}
	var out bytes.Buffer
	full, err := mk(filepath.Join(dir, "a.json"), &out).Run(context.Background())
	require.NoError(t, err)
	require.Equal(t, 3, full.Iterations)
	require.Equal(t, 3*2*8+2*10, full.Games)
	require.Contains(t, out.String(), "iter 3/3")
	require.Contains(t, out.String(), "current ≈")
	require.True(t, strings.HasPrefix(full.YAML, "# Tuned by `kaisen tune --player simple --against random --budget-games 68 --seed 5` (2026-01-02)."), full.YAML)
	require.Contains(t, full.YAML, "# seed 5; 68 games played")
	require.Contains(t, full.YAML, "Measured win rate")
	require.Contains(t, full.YAML, "move_probability: ")

	// Stop after the first iteration, then resume from the checkpoint: the
	// result is the same as the uninterrupted run.
	ck := filepath.Join(dir, "b.json")
	ctx, cancel := context.WithCancel(context.Background())
	first := mk(ck, nil)
	first.Progress = &cancelAfter{n: 1, cancel: cancel}
	_, err = first.Run(ctx)
	require.ErrorIs(t, err, context.Canceled)
	var log bytes.Buffer
	resumed, err := mk(ck, &log).Run(context.Background())
	require.NoError(t, err)
	require.Contains(t, log.String(), "resuming")
	require.Equal(t, 1, resumed.Resumed)
	require.Equal(t, full.Best, resumed.Best)
	require.Equal(t, full.YAML, resumed.YAML)

	// A checkpoint of other settings is refused.
	other := mk(ck, nil)
	other.Seed = 6
	_, err = other.Run(context.Background())
	require.ErrorIs(t, err, ErrCheckpoint)

	small := mk("", nil)
	small.Budget = 10
	_, err = small.Run(context.Background())
	require.ErrorContains(t, err, "no iteration")
}

// cancelAfter cancels a context after n progress lines.
type cancelAfter struct {
	n      int
	cancel func()
}

func (c *cancelAfter) Write(p []byte) (int, error) {
	if strings.HasPrefix(string(p), "iter ") {
		c.n--
		if c.n == 0 {
			c.cancel()
		}
	}
	return len(p), nil
}

// TestGameObjectiveEveryGame: the objective plays the games of any
// registered game through its Arena: the same point and seed give the
// same sample, and a player the game does not know is refused with the
// game's own error.
func TestGameObjectiveEveryGame(t *testing.T) {
	tests := []struct {
		game, player, opponent, base string
		unknown                      error
	}{
		{"submarine", "simple", "random", "move_probability: 0.3\n", players.ErrUnknownPlayer},
		{"battleship", "density", "gridbot", "budget: 0s\nsamples: 10\nlookahead: 2\nlookahead_weight: 1.0\nlookahead_budget: 1ms\n", bsplayers.ErrUnknownPlayer},
		{"abilities", "ab-plain", "ab-random", "samples: 10\nsalvo_ratio: 1.3\n", abplayers.ErrUnknownPlayer},
	}
	for _, tt := range tests {
		t.Run(tt.game, func(t *testing.T) {
			a := gameArena(t, tt.game, arena.DefaultConfig())
			s, err := SpaceFor(Probe(a, tt.player), "base.yaml", tt.base)
			require.NoError(t, err)
			o := &GameObjective{Arena: a, Player: tt.player, Base: tt.base, Space: s, Games: 4, Workers: 2,
				Opponents: []Entrant{opponent(tt.opponent)}}
			require.NoError(t, o.Validate())
			x := s.Defaults()
			first, err := o.Evaluate(context.Background(), x, 9)
			require.NoError(t, err)
			require.Equal(t, 4, first.N)
			again, err := o.Evaluate(context.Background(), x, 9)
			require.NoError(t, err)
			require.Equal(t, first, again)

			bad := *o
			bad.Player = "nobody"
			require.ErrorIs(t, bad.Validate(), tt.unknown)
			bad = *o
			bad.Opponents = []Entrant{opponent("nobody")}
			require.ErrorIs(t, bad.Validate(), tt.unknown)
		})
	}
}
