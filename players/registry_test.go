package players_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/players"
	_ "github.com/kaisen-ai/kaisen/players/admiral"
)

// TestRegistryOrder: with players/admiral linked, its two players sit in
// the places the registry keeps for them.
func TestRegistryOrder(t *testing.T) {
	require.Equal(t, []string{"random", "simple", "state", "stateplayer2", "admiral", "admiral-series", "hirota", "joint-greedy"}, players.Names())
	for _, e := range players.Entries() {
		require.NotEmpty(t, e.Summary, e.Name)
	}
}
