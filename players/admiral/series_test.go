package admiral

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/game/submarine"
	"github.com/kaisen-ai/kaisen/internal/race"
	"github.com/kaisen-ai/kaisen/players"
	kseries "github.com/kaisen-ai/kaisen/series"
)

// placeRecorder remembers the placement of the player it wraps.
type placeRecorder struct {
	players.Player
	placed submarine.Placement
}

func (p *placeRecorder) Place() submarine.Placement {
	p.placed = p.Player.Place()
	return p.placed
}

func TestLearntPriorWeights(t *testing.T) {
	r := submarine.DefaultRules()
	b := r.Board
	lp := &learntPrior{cells: b.Usable().Count()}
	c, _ := b.At(2, 3)
	lp.add(0, c)
	lp.update(b)
	// (seen + k/K) / (n + k) · K with k = 3, K = 25, n = 1.
	require.InDelta(t, (1+3.0/25)/4*25, lp.weight[0][c], 1e-12)
	other, _ := b.At(0, 0)
	require.InDelta(t, (3.0/25)/4*25, lp.weight[0][other], 1e-12)
	require.InDelta(t, 1, lp.weight[1][other], 1e-12, "a ship never located keeps the uniform weight")

	// A placement's factor is the product over its living ships, each
	// moved back by its displacement.
	d, _ := b.At(3, 3) // ship 0 now, after a move of (+1, 0)
	t0 := uint64(uint8(d)) | uint64(uint8(other))<<8
	disp := [submarine.MaxShips][2]int{{1, 0}}
	require.InDelta(t, lp.weight[0][c]*1, lp.at(b, t0, []int{0, 1}, &disp), 1e-12)
}

// TestSeriesAdmiralLearnsFullSize: the first game of admiral-series is admiral's;
// every enemy ship it hit is located at its true initial cell; what it
// located is learnt and weighs the next game's belief.
func TestSeriesAdmiralLearnsFullSize(t *testing.T) {
	race.SkipFullSize(t) // two admiral games: seconds, a minute under -race
	r := submarine.DefaultRules()
	r.DrawLimit = 120 // short games: the test is about what is located
	fs, err := players.New("admiral-series", r, nil)
	require.NoError(t, err)
	fa, err := players.New("admiral", r, nil)
	require.NoError(t, err)
	fh, err := players.New("hirota", r, nil)
	require.NoError(t, err)

	s := fs(rand.New(rand.NewPCG(7, 1))).(*SeriesAdmiral)
	require.Nil(t, s.Admiral.learnt, "nothing learnt yet")
	h := &placeRecorder{Player: fh(rand.New(rand.NewPCG(7, 2)))}
	got := playGame(r, s, h, 0)
	want := playGame(r, fa(rand.New(rand.NewPCG(7, 1))), fh(rand.New(rand.NewPCG(7, 2))), 0)
	require.Equal(t, want, got, "the first game is admiral's")

	located := 0
	for i, c := range s.Located() {
		if c != grid.None {
			require.Equal(t, h.placed[i], c, "ship %d located at its initial cell", i)
			located++
		}
	}
	require.Positive(t, located)
	s.EndGame(kseries.End{Game: 0, Seat: 0, Winner: got.winner})
	n := 0
	for _, k := range s.Learnt() {
		n += k
	}
	require.Equal(t, located, n)

	s.NewGame(rand.New(rand.NewPCG(8, 1)))
	require.Same(t, s.prior, s.Admiral.learnt, "the next game weighs its belief by what was learnt")
	for _, c := range s.Located() {
		require.Equal(t, grid.None, c, "a new game locates afresh")
	}
	res := playGame(r, s, fh(rand.New(rand.NewPCG(8, 2))), 1)
	require.NoError(t, res.err)
}
