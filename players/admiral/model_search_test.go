package admiral

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/game/submarine"
)

// TestMSTableAgainstMap: the search's hash table keeps what a map keeps,
// through growth and overwrites, with keys that collide in every word but
// one.
func TestMSTableAgainstMap(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	var tab msTable
	tab.reset()
	want := map[msKey][2]int32{}
	key := func() msKey {
		return msKey{rng.Uint64N(4), 7, rng.Uint64N(300), 0, rng.Uint64N(50)}
	}
	for i := range 20000 {
		k := key()
		a, b := int32(i), int32(-i)
		tab.put(&k, a, b)
		want[k] = [2]int32{a, b}
		q := key()
		ga, gb, ok := tab.get(&q)
		w, wok := want[q]
		require.Equal(t, wok, ok, "key %v", q)
		if ok {
			require.Equal(t, w, [2]int32{ga, gb}, "key %v", q)
		}
	}
	require.Equal(t, len(want), tab.n)
	for k, w := range want {
		a, b, ok := tab.get(&k)
		require.True(t, ok)
		require.Equal(t, w, [2]int32{a, b})
	}
	tab.reset()
	for k := range want {
		_, _, ok := tab.get(&k)
		require.False(t, ok)
	}
}

func TestMSActionRoundTrip(t *testing.T) {
	tests := []submarine.Action{
		submarine.AttackAt(0),
		submarine.AttackAt(255),
		submarine.MoveTo(0, 24),
		submarine.MoveTo(submarine.MaxShips-1, 200),
		{Kind: submarine.Invalid, Ship: submarine.NoShip, To: grid.None},
	}
	for _, a := range tests {
		t.Run(fmt.Sprintf("%d-%d-%d", a.Kind, a.Ship, a.To), func(t *testing.T) {
			require.Equal(t, a, packAction(a).action())
		})
	}
}
