package admiral

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/game/submarine"
	"github.com/kaisen-ai/kaisen/internal/config"
	"github.com/kaisen-ai/kaisen/internal/race"
	"github.com/kaisen-ai/kaisen/players"
	kseries "github.com/kaisen-ai/kaisen/series"
)

// enemyPriorYAML is admiral weights holding belief.enemy_prior = counts.
func enemyPriorYAML(counts [][]int) string {
	var b strings.Builder
	b.WriteString("belief:\n  enemy_prior:\n")
	for _, row := range counts {
		fmt.Fprintf(&b, "    - %s\n", strings.Join(strings.Fields(fmt.Sprint(row)), ", "))
	}
	return b.String()
}

// actRecorder records the actions of the player it wraps.
type actRecorder struct {
	players.Player
	acts []submarine.Action
}

func (p *actRecorder) Act() submarine.Action {
	a := p.Player.Act()
	p.acts = append(p.acts, a)
	return a
}

// tracedGame plays p against hirota (its stream rng) from seat 0 and
// returns p's actions.
func tracedGame(t *testing.T, r *submarine.Rules, p players.Player, hirota players.Factory, rng *rand.Rand) []submarine.Action {
	t.Helper()
	rec := &actRecorder{Player: p}
	require.NoError(t, playGame(r, rec, hirota(rng), 1).err)
	return rec.acts
}

func yamlLoader(name, text string) players.Loader {
	return func(into any) error { return config.LoadString(name, text, into) }
}

// TestEnemyPriorRefusals: a prior that does not fit the rules is refused
// with the key's name and what is wrong.
func TestEnemyPriorRefusals(t *testing.T) {
	r := submarine.DefaultRules()
	rocky := *r
	rocky.Board = grid.MustBoard(5, 5, []grid.Cell{12})
	row := func(c, n int) []int {
		out := make([]int, 25)
		out[c] = n
		return out
	}
	for _, tc := range []struct {
		name   string
		rules  *submarine.Rules
		counts [][]int
		want   string
	}{
		{"two ships for three", r, [][]int{row(0, 1), row(1, 1)}, "belief.enemy_prior: 2 ships, the fleet has 3"},
		{"short row", r, [][]int{row(0, 1), row(1, 1), {1, 2}}, "ship 2 has 2 cells, the board 25"},
		{"negative", r, [][]int{row(0, -1), row(1, 1), row(2, 1)}, "ship 0, cell 0: count -1"},
		{"on a rock", &rocky, [][]int{row(12, 1), row(1, 1), row(2, 1)}, "ship 0, cell 12: count 1 on a rock"},
		{"nine ships", r, make([][]int, 9), "belief.enemy_prior: 9 ships, at most 8"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := players.New("admiral", tc.rules, yamlLoader("w.yaml", enemyPriorYAML(tc.counts)))
			require.ErrorContains(t, err, tc.want)
		})
	}
	_, err := players.New("admiral", r, yamlLoader("w.yaml", "belief:\n  enemy_prior: [[0, 0], [1]]\n  colour: 3\n"))
	require.ErrorContains(t, err, "colour", "unknown keys are still refused")
}

// TestCorpusPriorIsTheSeriesPriorFullSize: admiral given, as
// belief.enemy_prior, the initial cells admiral-series located in a game
// plays the next game exactly as admiral-series does with what it learnt;
// an all-zero prior is no prior.
func TestCorpusPriorIsTheSeriesPriorFullSize(t *testing.T) {
	race.SkipFullSize(t) // three admiral games: seconds, a minute under -race
	r := submarine.DefaultRules()
	r.DrawLimit = 120
	fs, err := players.New("admiral-series", r, nil)
	require.NoError(t, err)
	fh, err := players.New("hirota", r, nil)
	require.NoError(t, err)
	s := fs(rand.New(rand.NewPCG(7, 1))).(*SeriesAdmiral)
	got := playGame(r, s, fh(rand.New(rand.NewPCG(7, 2))), 0)
	require.NoError(t, got.err)
	s.EndGame(kseries.End{Game: 0, Seat: 0, Winner: got.winner})
	require.True(t, s.prior.any, "the game located a ship")

	counts := make([][]int, len(r.Fleet))
	for i := range counts {
		counts[i] = make([]int, r.Board.Size())
		for c := range counts[i] {
			counts[i][c] = int(s.prior.seen[i][c])
		}
	}
	fa, err := players.New("admiral", r, yamlLoader("corpus.yaml", enemyPriorYAML(counts)))
	require.NoError(t, err)
	a := fa(rand.New(rand.NewPCG(8, 1))).(*Admiral)
	require.Equal(t, *s.prior, *a.learnt, "the same counts make the same prior")

	s.NewGame(rand.New(rand.NewPCG(8, 1)))
	want := tracedGame(t, r, s, fh, rand.New(rand.NewPCG(8, 2)))
	require.Equal(t, want, tracedGame(t, r, a, fh, rand.New(rand.NewPCG(8, 2))), "the same game as admiral-series")
	plain, err := players.New("admiral", r, nil)
	require.NoError(t, err)
	require.NotEqual(t, want, tracedGame(t, r, plain(rand.New(rand.NewPCG(8, 1))), fh, rand.New(rand.NewPCG(8, 2))),
		"the prior changes the game (else the test would show nothing)")

	for i := range counts {
		clear(counts[i])
	}
	fz, err := players.New("admiral", r, yamlLoader("zero.yaml", enemyPriorYAML(counts)))
	require.NoError(t, err)
	require.Nil(t, fz(rand.New(rand.NewPCG(8, 1))).(*Admiral).learnt)
}
