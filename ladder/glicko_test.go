package ladder

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestGlickmanExample: the worked example of Glickman's "Example of the
// Glicko-2 system": a 1500/200/0.06 player beats a 1400/30 player and loses
// to 1550/100 and 1700/300, tau 0.5: 1464.06, 151.52, 0.05999.
func TestGlickmanExample(t *testing.T) {
	got := Update(Rating{R: 1500, RD: 200, Vol: 0.06},
		[]Rating{{R: 1400, RD: 30}, {R: 1550, RD: 100}, {R: 1700, RD: 300}},
		[]float64{1, 0, 0}, 0.5)
	require.InDelta(t, 1464.06, got.R, 0.01)
	require.InDelta(t, 151.52, got.RD, 0.01)
	require.InDelta(t, 0.05999, got.Vol, 0.00001)
}

func TestUpdateGame(t *testing.T) {
	a, b := NewRating(), NewRating()
	for _, tt := range []struct {
		name   string
		scoreA float64
		aUp    bool
		same   bool
	}{
		{"a wins", 1, true, false},
		{"a loses", 0, false, false},
		{"draw", 0.5, false, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			na, nb := UpdateGame(a, b, tt.scoreA)
			require.Less(t, na.RD, a.RD, "a game makes the rating surer")
			require.InDelta(t, 3000, na.R+nb.R, 1e-9, "equal players: what one wins the other loses")
			if tt.same {
				require.InDelta(t, a.R, na.R, 1e-9)
				return
			}
			require.Equal(t, tt.aUp, na.R > a.R)
		})
	}
	// An upset moves the ratings more than the expected result.
	strong, weak := Rating{R: 1900, RD: 80, Vol: 0.06}, Rating{R: 1400, RD: 80, Vol: 0.06}
	expWin, _ := UpdateGame(strong, weak, 1)
	upset, _ := UpdateGame(strong, weak, 0)
	require.Less(t, math.Abs(expWin.R-strong.R), math.Abs(upset.R-strong.R))
	// No game: only the deviation grows.
	idle := Update(strong, nil, nil, Tau)
	require.Equal(t, strong.R, idle.R)
	require.Greater(t, idle.RD, strong.RD)
}

func TestPlayedResult(t *testing.T) {
	g := Game{Bots: [2]string{"alice", "bob"}}
	for _, tt := range []struct {
		winner, seat     int
		result, opponent string
	}{
		{0, 0, "win", "bob"},
		{0, 1, "loss", "alice"},
		{1, 1, "win", "alice"},
		{1, 0, "loss", "bob"},
		{-1, 0, "draw", "bob"},
		{-1, 1, "draw", "alice"},
	} {
		g.Winner = tt.winner
		p := Played{Game: g, Seat: tt.seat}
		require.Equal(t, tt.result, p.Result(), "winner %d, seat %d", tt.winner, tt.seat)
		require.Equal(t, tt.opponent, p.Opponent())
	}
}

// TestUpdateWeighted: weight 1 is Glicko-2 to the last bit; weight 0
// changes nothing; a lighter game moves the rating and the deviation less.
func TestUpdateWeighted(t *testing.T) {
	p, o := Rating{R: 1500, RD: 200, Vol: 0.06}, Rating{R: 1400, RD: 30, Vol: 0.06}
	require.Equal(t, Update(p, []Rating{o}, []float64{1}, Tau), UpdateWeighted(p, []Rating{o}, []float64{1}, []float64{1}, Tau))
	a, b := UpdateGame(p, o, 0)
	wa, wb := UpdateGameWeighted(p, o, 0, 1, 1)
	require.Equal(t, [2]Rating{a, b}, [2]Rating{wa, wb})
	require.Equal(t, p, UpdateWeighted(p, []Rating{o}, []float64{0}, []float64{0}, Tau), "unrated")
	prev := p
	for _, w := range []float64{0.01, 0.1, 0.5, 1} {
		got := UpdateWeighted(p, []Rating{o}, []float64{0}, []float64{w}, Tau)
		require.Less(t, got.R, prev.R, "weight %g: a loss lowers the rating, more with more weight", w)
		require.LessOrEqual(t, got.RD, math.Max(prev.RD, p.RD), "weight %g", w)
		prev = got
	}
}
