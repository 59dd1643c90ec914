package sonar_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/arena"
	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/game/sonar"
)

func TestRules(t *testing.T) {
	r := sonar.DefaultRules()
	require.NoError(t, r.Validate())
	for _, bad := range []sonar.Rules{{Width: 9, Height: 4, Boats: 2, DrawLimit: 9}, {Width: 2, Height: 2, Boats: 4, DrawLimit: 9}, {Width: 4, Height: 4, Boats: 2}} {
		require.Error(t, bad.Validate(), "%+v", bad)
	}
	for _, p := range []sonar.Placement{{0}, {0, 0}, {0, 16}, {-1, 3}} {
		require.Error(t, r.ValidatePlacement(p), "%v", p)
	}
	g, err := r.Start([2]sonar.Placement{{0, 5}, {10, 15}}, 0)
	require.NoError(t, err)

	// seat 0 pings 9, next to the boat on 10: near; seat 1 is told where.
	st, err := g.Apply(sonar.Action{Kind: sonar.Ping, At: 9})
	require.NoError(t, err)
	require.Equal(t, sonar.Near, st.Echo)
	var o sonar.Told
	require.True(t, r.Tell(g, &st, nil, 1, &o))
	require.Equal(t, sonar.Told{Kind: sonar.Ping, At: 9, Boat: 0, Echo: sonar.Near, Afloat: [2]int{2, 2}}, o)

	// seat 1 moves its boat 1 from 15 to 11: seat 0 is told a boat moved, not which nor where.
	st, err = g.Apply(sonar.Action{Kind: sonar.Move, Boat: 1, At: 11})
	require.NoError(t, err)
	require.True(t, r.Tell(g, &st, nil, 0, &o))
	require.Equal(t, sonar.Told{Kind: sonar.Move, At: sonar.None, Boat: -1, Afloat: [2]int{2, 2}}, o)
	require.True(t, r.Tell(g, &st, nil, 1, &o))
	require.Equal(t, sonar.Told{Mine: true, Kind: sonar.Move, At: 11, Boat: 1, Afloat: [2]int{2, 2}}, o)

	// a hit sinks; moving the sunk boat is illegal and loses.
	st, err = g.Apply(sonar.Action{Kind: sonar.Ping, At: 11})
	require.NoError(t, err)
	require.Equal(t, sonar.Hit, st.Echo)
	require.Equal(t, 1, g.Afloat(1))
	_, err = g.Apply(sonar.Action{Kind: sonar.Move, Boat: 1, At: 15})
	require.ErrorIs(t, err, sonar.ErrIllegal)
	require.Equal(t, game.Won, g.Status())
	require.Equal(t, 0, g.Winner())
	_, err = g.Apply(sonar.Action{Kind: sonar.Ping, At: 0})
	require.ErrorIs(t, err, sonar.ErrOver)
}

// TestHunterBeatsRandom: the smarter AI is smarter.
func TestHunterBeatsRandom(t *testing.T) {
	r := sonar.DefaultRules()
	hunter, err := sonar.AIs.New("sonar-hunter", r, nil)
	require.NoError(t, err)
	random, err := sonar.AIs.New("sonar-random", r, nil)
	require.NoError(t, err)
	m := arena.Match{Family: &arena.Game[*sonar.Game, sonar.Placement, sonar.Action, sonar.Step, sonar.Told]{Name: sonar.Name, Rules: r,
		P1: arena.Entrant[sonar.Placement, sonar.Action, sonar.Told]{Name: "sonar-hunter", Factory: hunter},
		P2: arena.Entrant[sonar.Placement, sonar.Action, sonar.Told]{Name: "sonar-random", Factory: random}},
		Games: 200, Seed: 1, Workers: 1}
	sum, err := m.Run(context.Background(), nil)
	require.NoError(t, err)
	t.Logf("hunter %d, random %d, drawn %d", sum.P1Wins, sum.P2Wins, sum.Draws)
	require.Greater(t, sum.P1Wins, 2*sum.P2Wins, "%+v", sum)
}
