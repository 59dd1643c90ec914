package players

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/game/submarine"
)

// TestAdaptReused: AdaptReused's factory returns its one adapter, pointed
// at the player it just made; Adapt's makes a new one each time.
func TestAdaptReused(t *testing.T) {
	r := submarine.DefaultRules()
	f := func(rng *rand.Rand) Player { return NewRandom(r, rng) }
	for _, tc := range []struct {
		name  string
		adapt func(Factory) game.Factory[submarine.Placement, submarine.Action, submarine.Told]
		same  bool
	}{{"Adapt", Adapt, false}, {"AdaptReused", AdaptReused, true}} {
		t.Run(tc.name, func(t *testing.T) {
			g := tc.adapt(f)
			a := g(rand.New(rand.NewPCG(1, 1)), 0)
			first := a.(game.Wrapper).Unwrap()
			b := g(rand.New(rand.NewPCG(2, 1)), 1)
			require.Equal(t, tc.same, a == b, "the same adapter")
			require.NotSame(t, first, b.(game.Wrapper).Unwrap(), "the new player")
			_, ref := b.(game.RefObserver[submarine.Told])
			require.True(t, ref, "told by reference")
		})
	}
}
