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

// TestExploitMemoChangesNothing: a stalled game's searches (a few drawn
// roots asked again and again, within budgets small enough to abort
// some of them) give the same answers, node counts and tables with the
// memo of unchanged searches as without it, and the memo answers some.
func TestExploitMemoChangesNothing(t *testing.T) {
	r := submarine.DefaultRules()
	sv, err := endgame.Shared(r, endgame.Options{Nodes: 3000})
	require.NoError(t, err)
	fam := modelFamily(sv)
	tests := []struct {
		name   string
		policy int
		budget int
	}{
		{"policy-0-aborting", 0, 150},
		{"policy-1", 1, 3000},
		{"policy-2", 2, 20000},
		{"policy-3-aborting", 3, 600},
	}
	hits := 0
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := pointModel(fam, tc.policy)
			rng := rand.New(rand.NewPCG(5, uint64(tc.policy)))
			type root struct {
				st      msState
				allowed map[submarine.Action]bool
			}
			var roots []root
			for len(roots) < 4 {
				st, allowed := drawnRoot(t, r, sv, rng)
				roots = append(roots, root{st, allowed})
			}
			with := modelSearch{r: r, sv: sv, m: &m, support: 0.05}
			without := modelSearch{r: r, sv: sv, m: &m, support: 0.05}
			proofs := 0
			for call := range 60 {
				rt := roots[rng.IntN(len(roots))]
				ok := func(a submarine.Action) bool { return rt.allowed[a] }
				with.reset(tc.budget)
				without.reset(tc.budget)
				without.roots = rootMemo{} // always a real search
				a1, d1, ok1 := with.exploit(rt.st, ok, 6)
				a2, d2, ok2 := without.exploit(rt.st, ok, 6)
				require.Equal(t, []any{a2, d2, ok2, without.nodes, without.gen}, []any{a1, d1, ok1, with.nodes, with.gen}, "call %d", call)
				if ok1 {
					proofs++
				}
				require.Equal(t, without.tt.n, with.tt.n, "call %d", call)
				require.Equal(t, without.replyTT.n, with.replyTT.n, "call %d", call)
			}
			t.Logf("%d of 60 searches answered by the memo, %d proofs", with.roots.hits, proofs)
			hits += with.roots.hits
		})
	}
	require.Positive(t, hits, "the memo never answered")
}
