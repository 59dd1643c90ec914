package admiral

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/endgame"
	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/game/submarine"
)

// TestActionsMemo checks that the memo answers exactly what the solver
// answers, on a first call and on a remembered one, and that it starts
// afresh when full.
func TestActionsMemo(t *testing.T) {
	r := submarine.DefaultRules()
	sv, err := endgame.Shared(r, endgame.Options{Nodes: 3000})
	require.NoError(t, err)
	m := actionsMemo{sv: sv}
	rng := rand.New(rand.NewPCG(11, 1))
	var seen []endgame.Position
	for range 40 {
		a, b := randomKnown(r, rng)
		pos, err := endgame.NewPosition(r, a, b)
		require.NoError(t, err)
		seen = append(seen, pos)
	}
	for _, pass := range []string{"first", "remembered"} {
		for k, pos := range seen {
			want, err := sv.Actions(pos)
			require.NoError(t, err)
			got, err := m.actions(pos)
			require.NoError(t, err, "%s %d", pass, k)
			require.Equal(t, want, got, "%s %d: %s", pass, k, pos)
		}
		require.Equal(t, len(seen), len(m.m), pass)
	}
	m.m = make(map[[2]submarine.Fleet][]endgame.ScoredAction, actionsMemoCap)
	for k := range actionsMemoCap {
		m.m[[2]submarine.Fleet{{Pos: [submarine.MaxShips]grid.Cell{grid.Cell(k)}}}] = nil
	}
	_, err = m.actions(seen[0])
	require.NoError(t, err)
	require.Equal(t, 1, len(m.m), "a full memo starts afresh")
}
