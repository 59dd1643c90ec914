package players

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/game/submarine"
	"github.com/kaisen-ai/kaisen/internal/race"
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
		random += mixed.placementScore(r.Board, &cfg.Placement, RandomPlacement(r, rand.New(rand.NewPCG(uint64(k), 13))))
	}
	assert.Less(t, ours, random)
	assert.Greater(t, len(seen), n/2)
	assert.Len(t, cumul, len(all))
}
