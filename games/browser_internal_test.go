package games

import (
	"io"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/internal/human"
	"github.com/kaisen-ai/kaisen/server"
)

// TestBrowsePieces: for each built-in game, along a seeded random game,
// every legal action of the seat to act has a label of its own (the
// terminal seat's Line: browser play names the person's action by it) and
// an Aim on the board: an attacked cell that is usable, or a move from a
// cell of the actor's own fleet (its public view's Fleets) to a usable
// cell, or no cell at all.
func TestBrowsePieces(t *testing.T) {
	for _, tt := range []struct {
		name string
		run  func(t *testing.T) (actions, aimed, moves int)
	}{
		{"submarine", func(t *testing.T) (int, int, int) { return checkAims(t, submarineDef()) }},
		{"battleship", func(t *testing.T) (int, int, int) { return checkAims(t, battleshipDef()) }},
		{"abilities", func(t *testing.T) (int, int, int) { return checkAims(t, abilitiesDef()) }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			actions, aimed, moves := tt.run(t)
			require.Positive(t, aimed, "actions that point at a cell")
			t.Logf("%d legal actions seen, %d aimed at a cell, %d moves", actions, aimed, moves)
		})
	}
}

func checkAims[R game.Rules[G, P, A, S, O], G game.State[A, S], P, A, S, O any](t *testing.T, d Def[R, G, P, A, S, O]) (actions, aimed, moves int) {
	t.Helper()
	require.Empty(t, browsable(d), "the game has browser play")
	rules := defRules(d)
	legal := any(rules).(game.Legal[G, A])
	aimer, ok := any(rules).(game.Aimer[G, A])
	require.True(t, ok, "the rules say where an action points")
	rng := rand.New(rand.NewPCG(26, 0))
	house, err := d.AIs.New(d.DefaultPlayers[1], rules, nil)
	require.NoError(t, err)
	g, err := rules.Start([2]P{house(rng, 0).Place(), house(rng, 1).Place()}, 0)
	require.NoError(t, err)
	view := d.View(g)
	board := view.Public().Board
	usable := func(c grid.Cell) bool { return c >= 0 && int(c) < board.Size() && board.IsUsable(c) }
	text := [2]human.Typed[P, A]{d.Text(rules, 0, io.Discard, rng), d.Text(rules, 1, io.Discard, rng)}
	var seen game.Seen
	for n := 0; g.Status() == game.Running && n < 300; n++ {
		acts := legal.Legal(g)
		require.NotEmpty(t, acts)
		fleet := view.Fleets()[g.ToAct()]
		labels := map[string]bool{}
		for _, a := range acts {
			l := text[g.ToAct()].Line(a)
			require.False(t, labels[l], "action %d: label %q twice", n, l)
			labels[l] = true
			aim := aimer.Aim(g, a)
			actions++
			switch {
			case aim.At != grid.None:
				require.True(t, usable(aim.At), "%q attacks %d, off the board", l, aim.At)
				require.Equal(t, grid.None, aim.From)
				aimed++
			case aim.From != grid.None:
				require.Contains(t, fleet, aim.From, "%q moves a ship of the actor's", l)
				require.True(t, usable(aim.To), "%q moves to %d, off the board", l, aim.To)
				aimed++
				moves++
			default:
				require.Equal(t, game.NoAim, aim)
			}
		}
		st, err := g.Apply(acts[rng.IntN(len(acts))])
		require.NoError(t, err)
		view.See(&st, nil, &seen)
	}
	return actions, aimed, moves
}

// nobody is a Person that is never asked anything (the games below do not
// start).
type nobody struct{}

func (nobody) Start(game.Public, []grid.Cell) {}
func (nobody) Seen(int, *game.Seen)           {}
func (nobody) Told(string, []grid.Cell)       {}
func (nobody) Act(Turn) (int, string)         { return -1, "nobody" }

// TestBrowseRefuses: Browse says why a game cannot be made, wrapping
// ErrBrowser (and the game's error for an unknown house AI).
func TestBrowseRefuses(t *testing.T) {
	rands := [2]*rand.Rand{rand.New(rand.NewPCG(1, 0)), rand.New(rand.NewPCG(1, 1))}
	for _, tt := range []struct {
		name string
		b    Browser
		want error
		msg  string
	}{
		{"unknown house AI", Browser{House: "nemo", Rands: rands, Person: nobody{}}, battleshipDef().ErrUnknownPlayer, "house AI"},
		{"house weights unreadable", Browser{House: "gridbot", Rands: rands, Person: nobody{},
			Listener: &server.ListenerConfig{Game: "battleship", Opponent: "gridbot", HouseConfig: filepath.Join(t.TempDir(), "none.yaml")}}, ErrBrowser, "none.yaml"},
		{"no person", Browser{Rands: rands}, ErrBrowser, "a person and both random streams are required"},
		{"no streams", Browser{Person: nobody{}}, ErrBrowser, "a person and both random streams are required"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			run, err := battleshipGame.Browse(tt.b)
			require.Nil(t, run)
			require.ErrorIs(t, err, ErrBrowser)
			require.ErrorIs(t, err, tt.want)
			require.ErrorContains(t, err, tt.msg)
		})
	}
}
