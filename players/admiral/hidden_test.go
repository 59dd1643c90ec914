package admiral

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	kgame "github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/game/submarine"
	"github.com/kaisen-ai/kaisen/internal/race"
	"github.com/kaisen-ai/kaisen/players"
)

// TestAdmiralPlacementLeak measures what an opponent that knows the
// placement distribution gains from it (docs/admiral.md, "Placement"):
// uniform placement gives it nothing, a sharper distribution more, and the
// prior-aware risk (placement.aware) takes back most of that gain at the
// same temperature.
func TestAdmiralPlacementLeak(t *testing.T) {
	r := submarine.DefaultRules()
	leak := func(temp, aware float64) *placementLeak {
		cfg := DefaultAdmiralConfig()
		cfg.Placement.Temperature, cfg.Placement.Aware = temp, aware
		l := newAdmiralShared(r, cfg).leak(r, &cfg.Placement)
		require.NotNil(t, l)
		return l
	}
	uniform := leak(0, 0)
	assert.InDelta(t, 13.75, uniform.Entropy, 0.01, "log2(13800)")
	assert.InDelta(t, 0, uniform.Bits, 1e-9)
	assert.InDelta(t, 0.12, uniform.BestHit, 1e-9, "3 ships on 25 cells")
	assert.InDelta(t, 0.12, uniform.Uniform, 1e-9)

	sharp, sharper := leak(4, 0), leak(12, 0)
	assert.Greater(t, sharper.BestHit, sharp.BestHit)
	assert.Greater(t, sharp.BestHit, 3*uniform.BestHit, "a corner-heavy distribution: the best opening attack hits far more often")
	assert.Greater(t, sharper.Corners, sharp.Corners)
	if race.Enabled {
		return // fictitious play over 13,800 placements: slow under -race
	}
	for _, w := range []float64{0.5, 1} {
		aware := leak(4, w)
		assert.Less(t, aware.BestHit, 0.7*sharp.BestHit, "aware %g", w)
		assert.Greater(t, aware.Entropy, sharp.Entropy, "aware %g", w)
		assert.Less(t, aware.Corners, sharp.Corners, "aware %g", w)
	}
	// The default placement is still cheaper than a uniform one under the
	// risk maps it was drawn for, and varied.
	cfg := DefaultAdmiralConfig()
	sh := newAdmiralShared(r, cfg)
	all, cumul := sh.distribution(r, &cfg.Placement)
	mixed := sh.aware(r.Board, &cfg.Placement, all)
	var ours, random float64
	seen := map[string]bool{}
	const n = 300
	for k := range n {
		pl := sh.place(r, &cfg.Placement, rand.New(rand.NewPCG(uint64(k), 11)))
		seen[fmt.Sprint(pl)] = true
		ours += mixed.placementScore(r.Board, &cfg.Placement, pl)
		random += mixed.placementScore(r.Board, &cfg.Placement, players.RandomPlacement(r, rand.New(rand.NewPCG(uint64(k), 13))))
	}
	assert.Less(t, ours, random)
	assert.Greater(t, len(seen), n/2)
	assert.Len(t, cumul, len(all))
}

// TestExposureReachBounds: the exact ends of the risk the refuge rule
// reads. After every action of admiral's games, with the whole exposure
// pool kept, reachAll holds exactly the cells within our reach in every
// placement the enemy holds possible and reachAny those within it in at
// least one; our true reach lies between them.
func TestExposureReachBounds(t *testing.T) {
	r := submarine.DefaultRules()
	cfg := smallAdmiral()
	games, actions := 2, 30
	if race.Enabled {
		games, actions = 1, 12
	}
	for g := range games {
		a := NewAdmiral(r, cfg, rand.New(rand.NewPCG(uint64(g), 1)))
		e := players.NewRandom(r, rand.New(rand.NewPCG(uint64(g), 2)))
		game, err := submarine.NewGame(r, a.Place(), e.Place(), g%2)
		require.NoError(t, err)
		ps := [2]players.Player{a, e}
		for n := 0; n < actions && game.Status() == kgame.Running; n++ {
			seat := game.ToAct()
			st, err := game.Apply(ps[seat].Act())
			require.NoError(t, err)
			v := game.View(seat)
			ps[seat].Observe(st.Actor, &v)
			v = game.View(1 - seat)
			ps[1-seat].Observe(st.Other, &v)
			if game.Status() != kgame.Running {
				break
			}
			p := &a.plan
			p.snapshot()
			p.survivors = append(p.survivors[:0], p.poSeq...) // every placement survives
			x := p.expose(true)
			require.Equal(t, len(p.po.tup), x.n)
			var all, any grid.Set
			all = r.Board.Usable()
			for _, tup := range p.po.tup {
				var reach grid.Set
				for _, i := range p.po.ships {
					reach = reach.Union(r.Board.Around(cellOf(tup, i)))
				}
				all, any = all.Intersect(reach), any.Union(reach)
			}
			require.Equal(t, all, x.reachAll, "game %d action %d", g, game.Actions())
			require.Equal(t, any, x.reachAny, "game %d action %d", g, game.Actions())
			if p.po.full == len(p.po.tup) { // the pool is the whole belief: it holds the truth
				me := game.Fleet(0)
				truth := r.Reach(&me)
				require.True(t, truth.AndNot(x.reachAny).Empty())
				require.True(t, x.reachAll.AndNot(truth).Empty())
			}
			for c := range r.Board.Usable().All() {
				switch q := x.risk(c, true); {
				case x.reachAll.Has(c):
					require.Equal(t, 1.0, q)
				case !x.reachAny.Has(c):
					require.Equal(t, 0.0, q)
				default:
					require.True(t, q > 0 && q < 1)
				}
			}
		}
	}
}
