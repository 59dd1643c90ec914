package hygiene

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/game/abilities"
	"github.com/kaisen-ai/kaisen/game/battleship"
	"github.com/kaisen-ai/kaisen/game/submarine"
)

// TestTwins checks what the generators promise: the seat's own placement
// and actions are the same in both games, the opponent's hidden state is
// not, and both games are legal to the end of the script.
func TestTwins(t *testing.T) {
	t.Parallel()
	t.Run("submarine", func(t *testing.T) {
		r := submarine.DefaultRules()
		for _, tw := range twinsOf(t, 100, 4, func(rng *rand.Rand) (*SubmarineTwin, error) { return NewSubmarineTwin(r, rng, 40) }) {
			s, o := tw.Seat, 1-tw.Seat
			require.Equal(t, tw.A.Place[s], tw.B.Place[s])
			require.NotEqual(t, tw.A.Place[o], tw.B.Place[o])
			require.Len(t, tw.B.Actions, len(tw.A.Actions))
			for _, g := range []SubmarineGame{tw.A, tw.B} {
				gm, err := submarine.NewGame(r, g.Place[0], g.Place[1], 0)
				require.NoError(t, err)
				for i, a := range g.Actions {
					if i%2 == s {
						require.Equal(t, tw.A.Actions[i], a, "the seat's own action %d", i)
					}
					st, err := gm.Apply(a)
					require.NoError(t, err)
					require.Equal(t, game.Running, st.Status, "the game must still run at the cut")
				}
			}
		}
	})
	t.Run("battleship", func(t *testing.T) {
		r := battleship.DefaultRules()
		for _, tw := range twinsOf(t, 100, 10, func(rng *rand.Rand) (*BattleshipTwin, error) { return NewBattleshipTwin(r, rng, 80) }) {
			s, o := tw.Seat, 1-tw.Seat
			require.Equal(t, tw.A.Place[s], tw.B.Place[s])
			require.False(t, reflect.DeepEqual(tw.A.Place[o], tw.B.Place[o]))
			require.NoError(t, r.ValidatePlacement(tw.B.Place[o]))
			require.True(t, bsConsistent(r, s, tw.B.Place, replayBS(t, r, tw.A)))
		}
	})
	t.Run("abilities", func(t *testing.T) {
		r, err := abilities.NewRules(battleship.DefaultRules(), abilities.AI, abilities.Humans, abilities.Options{})
		require.NoError(t, err)
		for _, tw := range twinsOf(t, 100, 4, func(rng *rand.Rand) (*AbilitiesTwin, error) { return NewAbilitiesTwin(r, rng, 120) }) {
			s, o := tw.Seat, 1-tw.Seat
			require.Equal(t, tw.A.Place[s], tw.B.Place[s])
			require.True(t, tw.Moved > 0 || tw.OtherMoves > 0)
			require.Equal(t, tw.Moved > 0, !reflect.DeepEqual(tw.A.Place[o], tw.B.Place[o]))
			var mine [2][]abilities.Action
			for k, g := range []AbilitiesGame{tw.A, tw.B} {
				gm, err := abilities.NewGame(r, g.Place[0], g.Place[1], 0)
				require.NoError(t, err)
				for _, sa := range g.Played {
					require.Equal(t, gm.ToAct(), sa.Seat)
					_, err := gm.Apply(sa.Action)
					require.NoError(t, err)
					if sa.Seat == s {
						mine[k] = append(mine[k], sa.Action)
					}
				}
				require.Equal(t, game.Running, gm.Status())
			}
			require.Equal(t, mine[0], mine[1], "the seat's own actions")
		}
	})
}

// replayBS replays g's shots and returns the steps.
func replayBS(t *testing.T, r *battleship.Rules, g BattleshipGame) []battleship.Step {
	t.Helper()
	gm, err := battleship.NewGame(r, g.Place[0], g.Place[1], 0)
	require.NoError(t, err)
	var steps []battleship.Step
	for _, c := range g.Shots {
		st, err := gm.Apply(c)
		require.NoError(t, err)
		steps = append(steps, st)
	}
	require.Equal(t, game.Running, gm.Status())
	return steps
}
