package admiral

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/arena"
	"github.com/kaisen-ai/kaisen/game/submarine"
	"github.com/kaisen-ai/kaisen/internal/race"
	"github.com/kaisen-ai/kaisen/players"
)

// TestGuardShareFullSize replays game 65 of the camper match of
// docs/admiral.md ("Why a camper wins"):
//
//	kaisen match --p1 admiral --p2 joint-greedy --p2-weights camper.yaml -n 100 --seed 91
//
// With opponent.guard_share 1 (the default until issue 29's recall)
// admiral moves its last ship, after a long quiet stretch, next to a camper
// ship its probes had confined to a few cells, and the camper sinks it at
// once; with the default 0.75 that ship guards the cell and admiral does
// not lose the game.
func TestGuardShareFullSize(t *testing.T) {
	race.SkipFullSize(t)
	r := submarine.DefaultRules()
	camper, err := players.New("joint-greedy", r, yamlLoader("camper.yaml", "flee: {rate: 0}\napproach: {ahead: 7}\n"))
	require.NoError(t, err)
	// Game 65 is odd: the camper (p2) is in seat 0 and acts first.
	seed := arena.GameSeed(91, 65)
	play := func(weights string) arena.GameResult {
		adm, err := players.New("admiral", r, yamlLoader("admiral.yaml", weights))
		require.NoError(t, err)
		res, err := arena.PlayGame(r, camper, adm, seed, nil)
		require.NoError(t, err)
		require.Equal(t, [2]bool{}, res.Forfeit, res.Reason)
		return res
	}
	base := play("opponent:\n  guard_share: 1\n")
	require.Equal(t, 0, base.Winner, "guard_share 1 loses game 65 to the camper")
	require.Equal(t, 273, base.Actions, "as docs/admiral.md's replay shows")
	guarded := play("{}\n")
	require.NotEqual(t, 0, guarded.Winner, "the default guard_share 0.75 keeps the last ship out of the confined camper ship's reach (%d actions)", guarded.Actions)
}
