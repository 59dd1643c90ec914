package submarine_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/game/submarine"
)

func TestNames(t *testing.T) {
	r := submarine.DefaultRules()
	require.Equal(t, []string{"w", "s"}, r.Names(submarine.ShipMask(0).With(2).With(0)))
	require.Empty(t, r.Names(0))
	require.Equal(t, []string{"c"}, r.Names(submarine.ShipMask(0).With(1).With(5)), "ships outside the fleet are left out")
}
