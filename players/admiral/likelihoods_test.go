package admiral

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/endgame"
	"github.com/kaisen-ai/kaisen/game/submarine"
)

// TestLikelihoodsRemembered feeds one model a cycle of views met again and
// again, one with two actions (as a drawn game does) and another the same views with its memory
// wiped before every update: the posteriors agree to the bit, and the first
// model computed each view's distributions once.
func TestLikelihoodsRemembered(t *testing.T) {
	r := submarine.DefaultRules()
	sv, err := endgame.Shared(r, endgame.Options{Nodes: 3000})
	require.NoError(t, err)
	fam := modelFamily(sv)
	rng := rand.New(rand.NewPCG(4, 29))
	type seen struct {
		them, us submarine.Fleet
		a        submarine.Action
	}
	var cycle []seen
	for len(cycle) < 6 {
		them, us := randomKnown(r, rng)
		d := uniformPolicy{}.dist(r, knownView(r, &them, &us), nil)
		cycle = append(cycle, seen{them, us, d[rng.IntN(len(d))].a})
	}
	// The same view with another action: a key without the action would
	// answer it with the first one's values.
	other := cycle[0]
	for c := range r.Reach(&other.them).All() {
		if other.a = submarine.AttackAt(c); other.a != cycle[0].a {
			break
		}
	}
	require.NotEqual(t, cycle[0].a, other.a)
	cycle = append(cycle, other)
	kept, wiped := newOppModel(fam, 0.05), newOppModel(fam, 0.05)
	for round := range 5 {
		for i := range cycle {
			s := &cycle[i]
			kept.update(r, knownView(r, &s.them, &s.us), s.a)
			wiped.seen = likelihoods{}
			wiped.update(r, knownView(r, &s.them, &s.us), s.a)
			require.Equal(t, wiped.logw, kept.logw, "round %d, view %d", round, i)
		}
	}
	require.Len(t, kept.seen.at, len(cycle), "each view and action remembered once")
	require.Len(t, kept.seen.ll, len(cycle)*len(fam))
}

// TestLikelihoodsLargeChart: a view whose chart is larger than
// likelihoodsChart is not remembered.
func TestLikelihoodsLargeChart(t *testing.T) {
	r := submarine.DefaultRules()
	rng := rand.New(rand.NewPCG(5, 29))
	them, us := randomKnown(r, rng)
	v := knownView(r, &them, &us)
	v.chart = make([]uint64, likelihoodsChart+1)
	var l likelihoods
	for range 2 {
		_, ok := l.get(r, v, submarine.AttackAt(3), 6)
		require.False(t, ok)
	}
	require.Empty(t, l.at)
}
