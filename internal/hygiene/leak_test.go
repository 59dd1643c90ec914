package hygiene

import (
	"context"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/game/abilities"
	"github.com/kaisen-ai/kaisen/game/battleship"
	"github.com/kaisen-ai/kaisen/game/submarine"
	"github.com/kaisen-ai/kaisen/protocol"
)

// leakyHandler adds the opponent's fleet to every record: an info log
// line that prints a hidden placement.
type leakyHandler struct {
	slog.Handler
	fleet string
}

func (h leakyHandler) Handle(ctx context.Context, r slog.Record) error {
	r.AddAttrs(slog.String("enemy_fleet", h.fleet))
	return h.Handler.Handle(ctx, r)
}

func (h leakyHandler) WithAttrs(as []slog.Attr) slog.Handler {
	return leakyHandler{h.Handler.WithAttrs(as), h.fleet}
}

func (h leakyHandler) WithGroup(name string) slog.Handler {
	return leakyHandler{h.Handler.WithGroup(name), h.fleet}
}

// TestPlantedLeaks plants a leak of the opponent's fleet on each channel
// in turn (the spectator's in the submarine and the abilities game) and
// checks that Compare names that channel (and only it).
func TestPlantedLeaks(t *testing.T) {
	t.Parallel()
	r := submarine.DefaultRules()
	// A twin whose placements differ where the seat can see it: the first
	// twin of seed 1 (a cut after a dozen actions, 9 alternatives).
	tw := twinsOf(t, 1, 1, func(rng *rand.Rand) (*SubmarineTwin, error) { return NewSubmarineTwin(r, rng, 30) })[0]
	opp := 1 - tw.Seat
	fleetOf := func(g *SubmarineGame) string { return fmt.Sprint(g.Place[opp]) }
	plants := []struct {
		name, channel string
		opts          func(g *SubmarineGame) ServerOptions
	}{
		{"a wire line names the enemy fleet", ChannelWire, func(g *SubmarineGame) ServerOptions {
			return ServerOptions{Wire: func(line string) string {
				if line == protocol.YourTurn {
					return line + " " + fleetOf(g)
				}
				return line
			}}
		}},
		{"an info log record names the enemy fleet", ChannelLog, func(g *SubmarineGame) ServerOptions {
			return ServerOptions{Log: func(h slog.Handler) slog.Handler { return leakyHandler{h, fleetOf(g)} }}
		}},
		{"the spectator hub reveals the fleets (--web-reveal)", ChannelSSE, func(*SubmarineGame) ServerOptions {
			return ServerOptions{Reveal: true}
		}},
	}
	for _, p := range plants {
		t.Run(p.name, func(t *testing.T) {
			t.Parallel()
			a, b := serverCaptures(t, tw.A.Server(r, protocol.Classic, tw.Seat), tw.B.Server(r, protocol.Classic, tw.Seat), p.opts(&tw.A), p.opts(&tw.B))
			err := Compare(a, b)
			require.Error(t, err)
			t.Log(err)
			for _, ch := range []string{ChannelWire, ChannelLog, ChannelPages, ChannelSSE} {
				require.Equal(t, ch == p.channel, strings.Contains(err.Error(), "channel "+ch+" differs"), "channel %s", ch)
			}
		})
	}
	t.Run("the spectator hub reveals the abilities fleets (--web-reveal)", func(t *testing.T) {
		t.Parallel()
		ab, err := abilities.NewRules(battleship.DefaultRules(), abilities.AI, abilities.Humans, abilities.Options{})
		require.NoError(t, err)
		tw := twinsOf(t, 1, 1, func(rng *rand.Rand) (*AbilitiesTwin, error) { return NewAbilitiesTwin(ab, rng, 120) })[0]
		ga, err := tw.A.Server(ab, tw.Seat)
		require.NoError(t, err)
		gb, err := tw.B.Server(ab, tw.Seat)
		require.NoError(t, err)
		a, b := serverCaptures(t, ga, gb, ServerOptions{Reveal: true})
		err = Compare(a, b)
		require.Error(t, err)
		for _, ch := range []string{ChannelWire, ChannelLog, ChannelPages, ChannelSSE} {
			require.Equal(t, ch == ChannelSSE, strings.Contains(err.Error(), "channel "+ch+" differs"), "channel %s", ch)
		}
	})
	t.Run("the terminal seat prints the AI's reasons during play", func(t *testing.T) {
		caught := 0
		for _, tw := range twinsOf(t, 1, 6, func(rng *rand.Rand) (*SubmarineTwin, error) { return NewSubmarineTwin(r, rng, 30) }) {
			a, err := RunSubmarineTerminal(r, &tw.A, tw.Seat, TerminalOptions{Shadow: "simple", Why: true})
			require.NoError(t, err)
			b, err := RunSubmarineTerminal(r, &tw.B, tw.Seat, TerminalOptions{Shadow: "simple", Why: true})
			require.NoError(t, err)
			if err := Compare(a, b); err != nil {
				require.Contains(t, err.Error(), "channel terminal differs")
				caught++
			}
		}
		t.Logf("the why lines told %d of 6 twins apart", caught)
		require.Positive(t, caught)
	})
}
