package ladder

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Bounds of TestThrownGames (docs/ladder.md, Farming): how far a sock
// puppet registered just before can lift a new bot by throwing its games.
const (
	thrownBound3  = 25.0 // rating points over 3 thrown games
	thrownBound30 = 60.0 // over 30
)

// throw has puppet lose n games in a row to target (seat 0), from the
// networks nets, and returns target's rating after them.
func throw(t *testing.T, s *Store, target, puppet string, n int, nets [2]string) Rating {
	t.Helper()
	ctx := context.Background()
	for k := range n {
		_, err := s.RecordGame(ctx, Game{ID: fmt.Sprintf("%s-%s-%d", target, puppet, k), Bots: [2]string{target, puppet},
			Outcome: OutcomeWin, Winner: 0, Reason: "forfeit", Networks: nets})
		require.NoError(t, err)
	}
	r, err := s.Rating(ctx, target)
	require.NoError(t, err)
	return r
}

// v1 rates games as schema version 1 did, every game weighing 1: the
// "before" column of docs/ladder.md. games are (winner, loser) pairs, or
// draws when draw is set; it returns the ratings after them.
func v1(games [][2]string, draw bool) map[string]Rating {
	r := map[string]Rating{}
	get := func(n string) Rating {
		if x, ok := r[n]; ok {
			return x
		}
		return NewRating()
	}
	score := 1.0
	if draw {
		score = 0.5
	}
	for _, g := range games {
		r[g[0]], r[g[1]] = UpdateGame(get(g[0]), get(g[1]), score)
	}
	return r
}

// thrown is n games won by target against puppet.
func thrown(target, puppet string, n int) [][2]string {
	var out [][2]string
	for range n {
		out = append(out, [2]string{target, puppet})
	}
	return out
}

// TestThrownGamesBefore: the "before" column of docs/ladder.md, as
// version 1 rated (every game weighing 1).
func TestThrownGamesBefore(t *testing.T) {
	six := []string{"q0", "q1", "q2", "q3", "q4", "q5"}
	var rr [][2]string
	for i := range six {
		for j := i + 1; j < len(six); j++ {
			rr = append(rr, [2]string{six[i], six[j]})
		}
	}
	c := v1(rr, true)
	tr := NewRating()
	for range 3 {
		tr, c["q0"] = UpdateGame(tr, c["q0"], 1)
	}
	for _, tt := range []struct {
		name string
		gain float64
		want float64
	}{
		{"one puppet, 3 games", v1(thrown("t", "p", 3), false)["t"].R - 1500, 252.97},
		{"one puppet, 30 games", v1(thrown("t", "p", 30), false)["t"].R - 1500, 416.52},
		{"three puppets, one game each", v1([][2]string{{"t", "p0"}, {"t", "p1"}, {"t", "p2"}}, false)["t"].R - 1500, 309.07},
		{"a puppet of a 6-clique, 3 games", tr.R - 1500, 271.99},
	} {
		t.Logf("%s: %.2f", tt.name, tt.gain)
		assert.InDelta(t, tt.want, tt.gain, 0.005, tt.name)
	}
}

// TestThrownGames: a puppet registered just before, throwing its games to
// a new bot, lifted it from 1500 to 1753 in three games (Glicko-2 with
// every game weighing 1, as version 1 rated); now by at most
// thrownBound3, by nothing from the same network or owner, while a game
// against an established opponent still counts in full.
func TestThrownGames(t *testing.T) {
	// Before: every game in full.
	before := NewRating()
	p := NewRating()
	for range 3 {
		before, p = UpdateGame(before, p, 1)
	}
	require.InDelta(t, 1752.97, before.R, 0.01, "the issue's figure")

	forEachBackend(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		s := openDSN(t, dsn)
		reg := func(name, owner string) {
			_, err := s.RegisterOwned(ctx, name, owner)
			require.NoError(t, err)
		}
		for _, n := range []string{"t3", "p3", "t30", "p30", "tnet", "pnet", "est", "tc", "solo"} {
			reg(n, "")
		}
		reg("town", "mallory")
		reg("pown", "Mallory")
		a, b := [2]string{"192.0.2.0/24", "198.51.100.0/24"}, [2]string{"192.0.2.0/24", "192.0.2.0/24"}

		got3 := throw(t, s, "t3", "p3", 3, a).R - 1500
		got30 := throw(t, s, "t30", "p30", 30, a).R - 1500
		gotNet := throw(t, s, "tnet", "pnet", 3, b).R - 1500
		gotOwn := throw(t, s, "town", "pown", 3, a).R - 1500
		t.Logf("target's gain: 3 thrown games %.1f (was %.1f), 30 games %.1f, same network %.1f, same owner %.1f",
			got3, before.R-1500, got30, gotNet, gotOwn)
		require.InDelta(t, 23.4, got3, 0.05, "docs/ladder.md")
		require.InDelta(t, 55.3, got30, 0.05, "docs/ladder.md")
		require.Less(t, got3, thrownBound3)
		require.Greater(t, got3, 0.0, "still rated: a win is a win")
		require.Less(t, got30, thrownBound30)
		require.Zero(t, gotNet)
		require.Zero(t, gotOwn)
		h, err := s.History(ctx, "tnet")
		require.NoError(t, err)
		require.Equal(t, UnratedSameNetwork, h[0].Game.Unrated)
		require.Zero(t, h[0].Weight)
		h, err = s.History(ctx, "town")
		require.NoError(t, err)
		require.Equal(t, UnratedSameOwner, h[0].Game.Unrated, "owners compared by skeleton")

		// Control: est meets ProvisionalOpponents bots, then loses to tc,
		// which moves as Glicko-2 moves it.
		for _, o := range []string{"t3", "p3", "t30", "p30", "tnet"} {
			_, err := s.RecordGame(ctx, Game{ID: "est-" + o, Bots: [2]string{"est", o}, Outcome: OutcomeDraw, Winner: -1, Networks: a})
			require.NoError(t, err)
		}
		e, err := s.Rating(ctx, "est")
		require.NoError(t, err)
		want, _ := UpdateGame(NewRating(), e, 1)
		require.Equal(t, want, throw(t, s, "tc", "est", 1, a), "an established opponent's game weighs 1")

		// Three fresh puppets, one thrown game each, lift solo about as
		// much as one puppet's three games (docs/ladder.md).
		for i := range 3 {
			reg(fmt.Sprint("f", i), "")
			throw(t, s, "solo", fmt.Sprint("f", i), 1, a)
		}
		r, err := s.Rating(ctx, "solo")
		require.NoError(t, err)
		t.Logf("three fresh puppets, one game each: %.1f", r.R-1500)
		require.InDelta(t, 26.8, r.R-1500, 0.05)

		all, err := s.Recompute(ctx)
		require.NoError(t, err)
		table, err := s.Table(ctx)
		require.NoError(t, err)
		for _, b := range table {
			require.Equal(t, all[b.Name], b.Rating, b.Name)
		}
	})
}

// roundRobin has every two of bots draw one game, each from its own
// network.
func roundRobin(t *testing.T, s *Store, bots ...string) {
	t.Helper()
	for i := range bots {
		for j := i + 1; j < len(bots); j++ {
			_, err := s.RecordGame(context.Background(), Game{ID: bots[i] + "-" + bots[j], Bots: [2]string{bots[i], bots[j]},
				Outcome: OutcomeDraw, Winner: -1, Networks: [2]string{bots[i], bots[j]}})
			require.NoError(t, err)
		}
	}
}

// TestThrownGamesByClique: six puppets on six networks meet one another
// (15 draws), then one throws three games to a new bot. On a new ladder
// they are its first bots and count as established: the target gains as
// from real ones (305 points). On a ladder with established bots they
// stay provisional, because a bot counts only established opponents
// there: 17.0 points, less than from a lone new puppet. A newcomer that meets five
// established bots is established.
func TestThrownGamesByClique(t *testing.T) {
	forEachBackend(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		s := openDSN(t, dsn)
		reg := func(names ...string) {
			for _, n := range names {
				_, err := s.Register(ctx, n)
				require.NoError(t, err)
			}
		}
		gain := func(target, puppet string) float64 {
			return throw(t, s, target, puppet, 3, [2]string{"t", puppet}).R - 1500
		}
		// A new ladder: the clique is its first six bots.
		reg("q0", "q1", "q2", "q3", "q4", "q5", "t0")
		roundRobin(t, s, "q0", "q1", "q2", "q3", "q4", "q5")
		first := gain("t0", "q0")
		// Six more bots meet one another: they were not established
		// when they met (only the first clique was), so they count
		// nothing, and are a clique on an established ladder.
		reg("p0", "p1", "p2", "p3", "p4", "p5", "t1", "newcomer")
		roundRobin(t, s, "p0", "p1", "p2", "p3", "p4", "p5")
		later := gain("t1", "p0")
		t.Logf("3 games thrown by a puppet of a 6-clique: %.1f on a new ladder, %.1f on an established one", first, later)
		require.InDelta(t, 305.0, first, 0.05, "docs/ladder.md")
		require.InDelta(t, 17.0, later, 0.05, "docs/ladder.md")
		for _, q := range []string{"q1", "q2", "q3", "q4", "q5"} {
			_, err := s.RecordGame(ctx, Game{ID: "newcomer-" + q, Bots: [2]string{"newcomer", q}, Outcome: OutcomeDraw, Winner: -1})
			require.NoError(t, err)
		}
		var n int
		require.NoError(t, s.db.QueryRowContext(ctx, `SELECT opponents FROM bots WHERE name = 'newcomer'`).Scan(&n))
		require.Equal(t, ProvisionalOpponents, n, "five established opponents")
		require.NoError(t, s.db.QueryRowContext(ctx, `SELECT opponents FROM bots WHERE name = 'p1'`).Scan(&n))
		require.Zero(t, n, "a clique of provisional bots on an established ladder")
	})
}

func TestWeight(t *testing.T) {
	for _, tt := range []struct {
		opponents, meetings int
		want                float64
	}{
		{0, 0, MinWeight},
		{0, 1, MinWeight / 2},
		{0, 9, MinWeight / 10},
		{1, 0, MinWeight + (1-MinWeight)/25},
		{4, 0, MinWeight + (1-MinWeight)*16/25},
		{ProvisionalOpponents, 0, 1},
		{ProvisionalOpponents, 100, 1},
		{-1, -1, MinWeight}, // impossible counts read as none
	} {
		require.InDelta(t, tt.want, Weight(tt.opponents, tt.meetings), 1e-15, "%d opponents, %d meetings", tt.opponents, tt.meetings)
	}
}

// TestWeightsAsStored: after random games between bots of five networks,
// every stored weight is Weight of its opponent's count of different
// opponents and the pair's earlier rated meetings, both counted from the
// games stored before it; and the table equals Recompute.
func TestWeightsAsStored(t *testing.T) {
	ctx := context.Background()
	s := openDSN(t, t.TempDir()+"/l.db")
	bots := []string{"a", "b", "c", "d", "e", "f", "g", "h"}
	for _, n := range bots {
		_, err := s.Register(ctx, n)
		require.NoError(t, err)
	}
	rng := rand.New(rand.NewPCG(25, 7))
	for k := range 200 {
		i, j := rng.IntN(len(bots)), rng.IntN(len(bots)-1)
		if j >= i {
			j++
		}
		g := Game{ID: fmt.Sprint("g", k), Bots: [2]string{bots[i], bots[j]}, Outcome: OutcomeWin, Winner: rng.IntN(2),
			Networks: [2]string{fmt.Sprint("n", rng.IntN(5)), fmt.Sprint("n", rng.IntN(5))}}
		_, err := s.RecordGame(ctx, g)
		require.NoError(t, err)
	}
	games, err := s.Export(ctx)
	require.NoError(t, err)
	met := map[[2]string]int{}
	opponents := map[string]int{}
	unrated, uncounted := 0, 0
	for _, r := range games {
		b := r.Game.Bots
		if r.Game.Unrated != "" {
			unrated++
			require.Equal(t, [2]float64{0, 0}, r.Weights)
			require.Equal(t, r.Before, r.After)
			continue
		}
		pair := [2]string{min(b[0], b[1]), max(b[0], b[1])}
		require.Equal(t, Weight(opponents[b[1]], met[pair]), r.Weights[0], r.Game.ID)
		require.Equal(t, Weight(opponents[b[0]], met[pair]), r.Weights[1], r.Game.ID)
		if met[pair] == 0 {
			established := 0
			for _, n := range opponents {
				if n >= ProvisionalOpponents {
					established++
				}
			}
			// Once the ladder has enough established bots, a bot counts
			// only established opponents.
			before := [2]int{opponents[b[0]], opponents[b[1]]}
			for i := range 2 {
				if established <= ProvisionalOpponents || before[1-i] >= ProvisionalOpponents {
					opponents[b[i]]++
				} else {
					uncounted++
				}
			}
		}
		met[pair]++
	}
	require.Greater(t, unrated, 20, "about a fifth share a network")
	require.Positive(t, uncounted, "some first meetings with a provisional bot came after the ladder had established bots")
	full := 0
	for _, r := range games {
		if r.Weights[0] == 1 {
			full++
		}
	}
	require.Greater(t, full, 50, "once established, games weigh 1")
	want, err := s.Recompute(ctx)
	require.NoError(t, err)
	table, err := s.Table(ctx)
	require.NoError(t, err)
	for _, b := range table {
		require.Equal(t, want[b.Name], b.Rating, b.Name)
		require.False(t, math.IsNaN(b.Rating.R))
	}
}
