package tune

import (
	"os"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestSpaceForJointGreedy: every float weight of the joint-greedy family is
// searched within its tune tag, from the family's defaults or from hirota's
// weights (configs/hirota.yaml, a point of the family).
func TestSpaceForJointGreedy(t *testing.T) {
	text := DefaultYAML(probed(t, "joint-greedy"))
	s, err := SpaceFor(probed(t, "joint-greedy"), "joint-greedy.yaml", text)
	require.NoError(t, err)
	require.Len(t, s, 17)
	for _, p := range s {
		require.True(t, p.Explicit, "%s has a tune tag", p.Key)
	}
	hirota, err := os.ReadFile("../configs/hirota.yaml")
	require.NoError(t, err)
	h, err := SpaceFor(probed(t, "hirota"), "hirota.yaml", string(hirota))
	require.NoError(t, err)
	require.Equal(t, s.Keys(), h.Keys())
	got := map[string]float64{}
	for _, p := range h {
		got[p.Key] = p.Default
	}
	require.Equal(t, -10.0, got["approach.hp_edge"])
	require.Equal(t, 3.0, got["placement.min_distance"])
}
