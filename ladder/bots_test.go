package ladder

import (
	"context"
	"crypto/subtle"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestRegisterAndAuthenticate(t *testing.T) {
	forEachBackend(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		s := openDSN(t, dsn)
		alice, err := s.Register(ctx, "alice")
		require.NoError(t, err)
		bob, err := s.Register(ctx, "bob-2.0")
		require.NoError(t, err)
		require.True(t, strings.HasPrefix(alice, TokenPrefix))
		require.Len(t, alice, len(TokenPrefix)+43, "256 bits, base64url")
		require.NotEqual(t, alice, bob)

		_, err = s.Register(ctx, "alice")
		require.ErrorIs(t, err, ErrNameTaken)
		for _, bad := range []string{"", "-x", "a b", "evil\x1b[2J", strings.Repeat("x", 33), "ボブ", "a/b"} {
			_, err := s.Register(ctx, bad)
			require.ErrorIs(t, err, ErrBadName, "%q", bad)
		}

		for _, tt := range []struct {
			name, bot, token string
			ok               bool
		}{
			{"right token", "alice", alice, true},
			{"other right token", "bob-2.0", bob, true},
			{"another bot's token", "alice", bob, false},
			{"wrong token", "alice", alice[:len(alice)-1] + "x", false},
			{"empty token", "alice", "", false},
			{"unknown bot", "carol", alice, false},
			{"the stored hash as token", "alice", hashToken(alice), false},
		} {
			t.Run(tt.name, func(t *testing.T) {
				err := s.Authenticate(ctx, tt.bot, tt.token)
				if tt.ok {
					require.NoError(t, err)
					return
				}
				require.ErrorIs(t, err, ErrAuth)
				require.Equal(t, ErrAuth.Error(), err.Error(), "one answer for every failure")
			})
		}

		// Only the hash is stored.
		var stored string
		require.NoError(t, s.db.QueryRowContext(ctx, `SELECT token_hash FROM bots WHERE name = 'alice'`).Scan(&stored))
		require.Equal(t, hashToken(alice), stored)
		require.NotContains(t, stored, alice[len(TokenPrefix):])
	})
}

// TestAuthenticateComparesEveryTime: every attempt, right or wrong, for a
// bot that exists or not, with a token of any length, runs exactly one
// constant-time comparison of two 64-digit hashes: nothing returns early,
// so the time of an attempt tells neither whether the name exists nor how
// much of a token is right.
func TestAuthenticateComparesEveryTime(t *testing.T) {
	ctx := context.Background()
	s := openDSN(t, filepath.Join(t.TempDir(), "l.db"))
	alice, err := s.Register(ctx, "alice")
	require.NoError(t, err)
	var lens [][2]int
	compareHashes = func(x, y []byte) int {
		lens = append(lens, [2]int{len(x), len(y)})
		return subtle.ConstantTimeCompare(x, y)
	}
	defer func() { compareHashes = subtle.ConstantTimeCompare }()
	for _, tt := range []struct{ bot, token string }{
		{"alice", alice}, {"alice", alice[:len(alice)-1] + "x"}, {"alice", ""}, {"alice", strings.Repeat("x", 1000)},
		{"nobody", alice}, {"nobody", ""},
	} {
		lens = nil
		_ = s.Authenticate(ctx, tt.bot, tt.token)
		require.Equal(t, [][2]int{{64, 64}}, lens, "%s with a token of %d bytes", tt.bot, len(tt.token))
	}
}

// TestRecordGame: a game is rated and stored with its changes at once; the
// same game twice counts once; a game with an unknown bot writes nothing.
func TestRecordGame(t *testing.T) {
	forEachBackend(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		s := openDSN(t, dsn)
		for _, n := range []string{"alice", "bob"} {
			_, err := s.Register(ctx, n)
			require.NoError(t, err)
		}
		t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
		g := Game{ID: "run-1", Bots: [2]string{"alice", "bob"}, Seed: 1<<64 - 1, Outcome: OutcomeWin, Winner: 0,
			Reason: "sunk", Actions: 31, Replay: "run-1.jsonl", Start: t0, End: t0.Add(time.Second)}
		ok, err := s.RecordGame(ctx, g)
		require.NoError(t, err)
		require.True(t, ok)
		ok, err = s.RecordGame(ctx, g)
		require.NoError(t, err)
		require.False(t, ok, "a game already stored is not counted again")

		table, err := s.Table(ctx)
		require.NoError(t, err)
		require.Len(t, table, 2)
		require.Equal(t, "alice", table[0].Name)
		require.Equal(t, 1, table[0].Games)
		require.Equal(t, [3]int{1, 0, 0}, [3]int{table[0].Wins, table[0].Draws, table[0].Losses}, "alice won")
		require.Equal(t, [3]int{0, 0, 1}, [3]int{table[1].Wins, table[1].Draws, table[1].Losses}, "bob lost")
		require.Equal(t, 1, table[0].Opponents)
		require.True(t, table[0].Provisional(), "one opponent met")
		// Both are new: the game weighs Weight(0, 0) in each update.
		wantA, wantB := UpdateGameWeighted(NewRating(), NewRating(), 1, Weight(0, 0), Weight(0, 0))
		require.Equal(t, wantA, table[0].Rating)
		require.Equal(t, wantB, table[1].Rating)

		h, err := s.History(ctx, "bob")
		require.NoError(t, err)
		require.Len(t, h, 1)
		require.Equal(t, g, h[0].Game, "stored and read back whole (the uint64 seed included)")
		require.Equal(t, 1, h[0].Seat)
		require.Equal(t, NewRating(), h[0].Before)
		require.Equal(t, wantB, h[0].After)

		for _, bad := range []Game{
			{ID: "run-2", Bots: [2]string{"alice", "zed"}, Outcome: OutcomeWin, Winner: 0},
			{ID: "run-3", Bots: [2]string{"alice", "bob"}, Outcome: OutcomeWin, Winner: -1},
			{ID: "run-4", Bots: [2]string{"alice", "bob"}, Outcome: "lose", Winner: 0},
		} {
			_, err := s.RecordGame(ctx, bad)
			require.Error(t, err, bad.ID)
		}
		var n int
		require.NoError(t, s.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM games`).Scan(&n))
		require.Equal(t, 1, n, "nothing of a refused game is stored")
		require.NoError(t, s.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM rating_changes`).Scan(&n))
		require.Equal(t, 2, n)

		draw := Game{ID: "run-draw", Bots: [2]string{"bob", "alice"}, Outcome: OutcomeDraw, Winner: -1, Reason: "draw limit", Start: t0, End: t0}
		_, err = s.RecordGame(ctx, draw)
		require.NoError(t, err)
		table, err = s.Table(ctx)
		require.NoError(t, err)
		for _, b := range table {
			require.Equal(t, 1, b.Draws, b.Name)
			require.Equal(t, b.Games, b.Wins+b.Draws+b.Losses, b.Name)
		}
	})
}

// TestRatingsEqualRecomputation: after many games, recorded from several
// goroutines at once, every bot's stored rating is what replaying the
// stored games in order gives.
func TestRatingsEqualRecomputation(t *testing.T) {
	forEachBackend(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		s := openDSN(t, dsn)
		bots := []string{"a", "b", "c", "d", "e"}
		for _, n := range bots {
			_, err := s.Register(ctx, n)
			require.NoError(t, err)
		}
		errs := make(chan error, 4)
		for w := range 4 {
			go func() {
				rng := rand.New(rand.NewPCG(uint64(w), 9))
				for k := range 25 {
					i, j := rng.IntN(5), rng.IntN(4)
					if j >= i {
						j++
					}
					g := Game{ID: fmt.Sprintf("w%d-%d", w, k), Bots: [2]string{bots[i], bots[j]}, Outcome: OutcomeWin, Winner: rng.IntN(2)}
					if rng.IntN(5) == 0 {
						g.Outcome, g.Winner = OutcomeDraw, -1
					}
					if _, err := s.RecordGame(ctx, g); err != nil {
						errs <- err
						return
					}
				}
				errs <- nil
			}()
		}
		for range 4 {
			require.NoError(t, <-errs)
		}
		want, err := s.Recompute(ctx)
		require.NoError(t, err)
		table, err := s.Table(ctx)
		require.NoError(t, err)
		games := 0
		for _, b := range table {
			require.Equal(t, want[b.Name], b.Rating, b.Name)
			games += b.Games
		}
		require.Equal(t, 2*100, games)
	})
}
