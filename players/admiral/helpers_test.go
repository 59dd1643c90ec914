package admiral

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/game/submarine"
	"github.com/kaisen-ai/kaisen/internal/config"
	"github.com/kaisen-ai/kaisen/players"
)

// gameResult is the outcome of one in-process game.
type gameResult struct {
	outcome game.Status
	winner  int
	actions int
	err     error // an illegal action (Apply's error) or a bad placement
}

// playGame plays one game between p0 and p1 directly on submarine.Game:
// Place, then Act / Apply / Observe (both sides, with their own Event and
// View) until the game ends.
func playGame(r *submarine.Rules, p0, p1 players.Player, first int) gameResult {
	ps := [2]players.Player{p0, p1}
	g, err := submarine.NewGame(r, p0.Place(), p1.Place(), first)
	if err != nil {
		return gameResult{err: err}
	}
	var v submarine.View // one View reused: Observe may not keep it
	for g.Status() == game.Running {
		seat := g.ToAct()
		st, err := g.Apply(ps[seat].Act())
		if err != nil {
			return gameResult{outcome: st.Status, winner: st.Winner, actions: g.Actions(), err: err}
		}
		v = g.View(seat)
		ps[seat].Observe(st.Actor, &v)
		v = g.View(1 - seat)
		ps[1-seat].Observe(st.Other, &v)
	}
	return gameResult{outcome: g.Status(), winner: g.Winner(), actions: g.Actions()}
}

// mustFactory builds the registered player name for r with the settings
// file cfg.
func mustFactory(t *testing.T, name string, r *submarine.Rules, cfg string) players.Factory {
	t.Helper()
	f, err := players.New(name, r, config.File(cfg))
	require.NoError(t, err)
	return f
}
