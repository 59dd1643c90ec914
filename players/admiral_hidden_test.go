package players

import (
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
	aware := leak(4, 1)
	assert.Less(t, aware.BestHit, 0.7*sharp.BestHit)
	assert.Greater(t, aware.Entropy, sharp.Entropy)
	assert.Less(t, aware.Corners, sharp.Corners)
}
