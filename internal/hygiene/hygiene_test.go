package hygiene

import (
	"context"
	"errors"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/game/abilities"
	"github.com/kaisen-ai/kaisen/game/battleship"
	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/game/submarine"
	"github.com/kaisen-ai/kaisen/protocol"
)

// twinsOf draws n twins from seeds seed, seed+1, ... with gen, skipping
// the games that have none.
func twinsOf[T any](t *testing.T, seed uint64, n int, gen func(rng *rand.Rand) (*T, error)) []*T {
	t.Helper()
	var out []*T
	for s := seed; len(out) < n; s++ {
		require.Less(t, s, seed+uint64(50*n), "too few games have a twin")
		tw, err := gen(rand.New(rand.NewPCG(s, 0x6879)))
		if errors.Is(err, ErrNoTwin) {
			continue
		}
		require.NoError(t, err)
		out = append(out, tw)
	}
	return out
}

// serverCaptures runs both games of a twin through the server, at the
// same time (each waits for the spectator's list page about a second),
// with opts (Dir and Seed set here).
func serverCaptures(t *testing.T, a, b ServerGame, opts ...ServerOptions) (Capture, Capture) {
	t.Helper()
	var caps [2]Capture
	var errs [2]error
	var wg sync.WaitGroup
	for i, g := range []ServerGame{a, b} {
		var o ServerOptions
		if len(opts) > 0 {
			o = opts[min(i, len(opts)-1)]
		}
		o.Dir = t.TempDir()
		o.Seed = 77
		wg.Go(func() { caps[i], errs[i] = RunServer(context.Background(), g, o) })
	}
	wg.Wait()
	require.NoError(t, errors.Join(errs[0], errs[1]))
	return caps[0], caps[1]
}

// serverCase is one game and configuration of TestServer: its twins as
// server games.
type serverCase struct {
	name  string
	twins func(t *testing.T) [][2]ServerGame
}

func submarineCase(name string, r *submarine.Rules, d protocol.Dialect, n, maxActions int) serverCase {
	return serverCase{name, func(t *testing.T) [][2]ServerGame {
		var out [][2]ServerGame
		for _, tw := range twinsOf(t, 1, n, func(rng *rand.Rand) (*SubmarineTwin, error) { return NewSubmarineTwin(r, rng, maxActions) }) {
			t.Logf("seat %d, %d actions, %d other placements consistent", tw.Seat, len(tw.A.Actions), tw.Alternatives)
			out = append(out, [2]ServerGame{tw.A.Server(r, d, tw.Seat), tw.B.Server(r, d, tw.Seat)})
		}
		return out
	}}
}

func abilitiesCase(name string, s0, s1 abilities.Side, opt abilities.Options, n int) serverCase {
	return serverCase{name, func(t *testing.T) [][2]ServerGame {
		r, err := abilities.NewRules(battleship.DefaultRules(), s0, s1, opt)
		require.NoError(t, err)
		var out [][2]ServerGame
		for _, tw := range twinsOf(t, 1, n, func(rng *rand.Rand) (*AbilitiesTwin, error) { return NewAbilitiesTwin(r, rng, 120) }) {
			t.Logf("seat %d, %d/%d actions, %d ships moved, %d other moves, lie held %v", tw.Seat, len(tw.A.Played), len(tw.B.Played), tw.Moved, tw.OtherMoves, tw.LieHeld)
			ga, err := tw.A.Server(r, tw.Seat)
			require.NoError(t, err)
			gb, err := tw.B.Server(r, tw.Seat)
			require.NoError(t, err)
			out = append(out, [2]ServerGame{ga, gb})
		}
		return out
	}}
}

// TestServer plays random twins of every game through kaisen serve with
// a web spectator: the seat's wire lines, the info log, the spectator's
// pages and event stream are the same in both games of every twin.
func TestServer(t *testing.T) {
	t.Parallel()
	rounded, err := grid.NewBoard(5, 4, []grid.Cell{0, 4, 15, 19})
	require.NoError(t, err)
	py := &submarine.Rules{Board: rounded, Fleet: submarine.DefaultFleet(), DrawLimit: submarine.DefaultDrawLimit}
	cases := []serverCase{
		submarineCase("submarine classic", submarine.DefaultRules(), protocol.Classic, 3, 30),
		submarineCase("submarine-py rounded 5x4", py, protocol.SubmarinePy, 2, 30),
		{"battleship", func(t *testing.T) [][2]ServerGame {
			r := battleship.DefaultRules()
			var out [][2]ServerGame
			for _, tw := range twinsOf(t, 1, 3, func(rng *rand.Rand) (*BattleshipTwin, error) { return NewBattleshipTwin(r, rng, 80) }) {
				t.Logf("seat %d, %d shots, %d ships moved", tw.Seat, len(tw.A.Shots), tw.Moved)
				ga, err := tw.A.Server(r, tw.Seat)
				require.NoError(t, err)
				gb, err := tw.B.Server(r, tw.Seat)
				require.NoError(t, err)
				out = append(out, [2]ServerGame{ga, gb})
			}
			return out
		}},
		abilitiesCase("abilities ai-humans", abilities.AI, abilities.Humans, abilities.Options{}, 3),
		abilitiesCase("abilities humans-ai hide_moves", abilities.Humans, abilities.AI, abilities.Options{HideMoves: true}, 2),
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			twins := c.twins(t)
			var caps [][2]Capture
			var mu sync.Mutex
			var wg sync.WaitGroup
			for _, g := range twins {
				wg.Go(func() {
					a, b := serverCaptures(t, g[0], g[1])
					mu.Lock()
					defer mu.Unlock()
					caps = append(caps, [2]Capture{a, b})
				})
			}
			wg.Wait()
			require.Len(t, caps, len(twins))
			for _, c := range caps {
				require.NoError(t, Compare(c[0], c[1]))
			}
		})
	}
}

// TestAbilitiesUnspentLie runs the twins of two seeds where the seat (the
// Humans) was told a miss that is a false miss in one game and a real miss
// in the other: the AI still holds its lie in one and not the other.
//
// The server once counted the defender's answers in a game's actions,
// which the info log's game over record and the spectator's list page
// print ("wins after 61 moves"), so the count told whether a false miss
// was spent; abilities games now count confirmed shots and leave hidden
// moves out (docs/abilities.md), and every channel must match.
func TestAbilitiesUnspentLie(t *testing.T) {
	t.Parallel()
	r, err := abilities.NewRules(battleship.DefaultRules(), abilities.AI, abilities.Humans, abilities.Options{})
	require.NoError(t, err)
	for _, seed := range []uint64{92, 105} {
		tw, err := NewAbilitiesTwin(r, rand.New(rand.NewPCG(seed, 0x6879)), 120)
		require.NoError(t, err)
		require.NotEqual(t, tw.LieHeld[0], tw.LieHeld[1], "seed %d: the twins no longer differ in the lie", seed)
		ga, err := tw.A.Server(r, tw.Seat)
		require.NoError(t, err)
		gb, err := tw.B.Server(r, tw.Seat)
		require.NoError(t, err)
		a, b := serverCaptures(t, ga, gb)
		require.NoError(t, Compare(a, b))
	}
}

// submarineTerminal plays 10 random twins at the terminal seat against
// the scripted opponent, shadowed by each AI of shadows ("": none).
func submarineTerminal(t *testing.T, shadows ...string) {
	r := submarine.DefaultRules()
	twins := twinsOf(t, 1, 10, func(rng *rand.Rand) (*SubmarineTwin, error) { return NewSubmarineTwin(r, rng, 30) })
	for _, shadow := range shadows {
		for _, tw := range twins {
			a, err := RunSubmarineTerminal(r, &tw.A, tw.Seat, TerminalOptions{Shadow: shadow})
			require.NoError(t, err)
			b, err := RunSubmarineTerminal(r, &tw.B, tw.Seat, TerminalOptions{Shadow: shadow})
			require.NoError(t, err)
			require.NoError(t, Compare(a, b), "shadow %q", shadow)
		}
	}
}

func TestSubmarineTerminal(t *testing.T) { submarineTerminal(t, "") }

func TestBattleshipTerminal(t *testing.T) {
	r := battleship.DefaultRules()
	twins := twinsOf(t, 1, 6, func(rng *rand.Rand) (*BattleshipTwin, error) { return NewBattleshipTwin(r, rng, 80) })
	for _, shadow := range []string{"", "gridbot"} {
		for _, tw := range twins {
			a, err := RunBattleshipTerminal(r, &tw.A, tw.Seat, TerminalOptions{Shadow: shadow})
			require.NoError(t, err)
			b, err := RunBattleshipTerminal(r, &tw.B, tw.Seat, TerminalOptions{Shadow: shadow})
			require.NoError(t, err)
			require.NoError(t, Compare(a, b), "shadow %q", shadow)
		}
	}
}
