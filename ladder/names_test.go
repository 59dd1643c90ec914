package ladder

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestSkeleton pins the name key: the stored name_key column depends on
// it, so a change here needs a migration that recomputes the keys.
func TestSkeleton(t *testing.T) {
	for _, tt := range []struct {
		name, want string
	}{
		{"alpha", "alpha"},
		{"ALPHA", "alpha"},
		{"AlPhA", "alpha"},
		{"a1pha", "alpha"},   // digit one for l
		{"aIpha", "alpha"},   // capital I for l
		{"alpha0", "alphao"}, // digit zero for o
		{"alphaO", "alphao"},
		{"bob-2.0", "bob_2_o"}, // the separators are one
		{"bob_2_0", "bob_2_o"},
		{"modern", "modem"},                         // rn for m
		{"vvolf", "wolf"},                           // vv for w
		{"ａｌｐｈａ", "alpha"},                          // fullwidth (NFKC)
		{"ﬁsh", "flsh"},                             // the ligature is f, i; i folds to l
		{"\u0430lpha", "alpha"},                     // Cyrillic а
		{"\u0410LPHA", "alpha"},                     // Cyrillic А
		{"\u03b1lpha", "alpha"},                     // Greek α
		{"\u0391\u039b\u03a1HA", "a" + "λ" + "pha"}, // Greek Α, Λ (not a Latin look-alike), Ρ
		{"\u0441\u043e\u0440\u0435", "cope"},        // Cyrillic с, о, р, е: "cope"
		{"héllo", "hello"},                          // a combining mark dropped (NFD)
		{"STRASSE", "strasse"},
		{"straße", "strasse"}, // full case folding
		{"beta", "beta"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			require.Equal(t, tt.want, Skeleton(tt.name))
		})
	}
}

// TestRegisterLookAlikes: a name that looks like a registered one is
// refused with an error that names the registered bot, and the database
// itself refuses a second bot with the same name key.
func TestRegisterLookAlikes(t *testing.T) {
	forEachBackend(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		s := openDSN(t, dsn)
		_, err := s.Register(ctx, "alpha")
		require.NoError(t, err)
		_, err = s.Register(ctx, "bob-2.0")
		require.NoError(t, err)
		for _, tt := range []struct{ name, holder string }{
			{"ALPHA", "alpha"}, {"Alpha", "alpha"}, {"a1pha", "alpha"}, {"aIpha", "alpha"}, {"ALPH4", ""},
			{"bob_2_0", "bob-2.0"}, {"BOB-2.O", "bob-2.0"},
		} {
			t.Run(tt.name, func(t *testing.T) {
				_, err := s.Register(ctx, tt.name)
				if tt.holder == "" {
					require.NoError(t, err, "not a look-alike")
					return
				}
				require.ErrorIs(t, err, ErrNameTaken)
				require.ErrorContains(t, err, tt.name+" looks like "+tt.holder+", registered already")
			})
		}
		_, err = s.Register(ctx, "alpha")
		require.ErrorIs(t, err, ErrNameTaken)
		require.Equal(t, "ladder: bot name already registered: alpha", err.Error())
		// Names outside ASCII do not get that far: Cyrillic а is not a
		// name at all.
		_, err = s.Register(ctx, "\u0430lpha")
		require.ErrorIs(t, err, ErrBadName)
		// The unique column refuses what the code would have let through.
		_, err = s.db.ExecContext(ctx, `INSERT INTO bots (name, name_key, token_hash, created_at, rating, rd, volatility)
			VALUES ('ALPHA', 'alpha', ?, 0, 1500, 350, 0.06)`, hashToken("x"))
		require.Error(t, err)
		table, err := s.Table(ctx)
		require.NoError(t, err)
		require.Len(t, table, 3, "alpha, bob-2.0, ALPH4")
		clashes, err := s.Clashes(ctx)
		require.NoError(t, err)
		require.Empty(t, clashes)
	})
}

// TestMigrationKeepsOldClashes: a version-1 ladder in which alpha and
// ALPHA were both registered (and played) migrates: the older keeps the
// name key, the newer is listed by Clashes and keeps its token and games,
// and no third look-alike can be registered. The other columns are filled
// from the stored games.
func TestMigrationKeepsOldClashes(t *testing.T) {
	forEachBackend(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		all := migrations
		migrations = all[:1]
		old, err := Open(ctx, dsn)
		migrations = all
		require.NoError(t, err)
		for i, n := range []string{"alpha", "ALPHA", "beta"} {
			_, err := old.db.ExecContext(ctx, `INSERT INTO bots (name, token_hash, created_at, rating, rd, volatility) VALUES (?, ?, ?, 1500, 350, 0.06)`,
				n, hashToken(n), i)
			require.NoError(t, err)
		}
		for i, p := range [][2]string{{"alpha", "ALPHA"}, {"ALPHA", "alpha"}, {"beta", "ALPHA"}} {
			_, err := old.db.ExecContext(ctx, `INSERT INTO games (id, seq, bot0, bot1, first_seat, seed, outcome, winner, reason, actions, started_at, ended_at)
				VALUES (?, ?, ?, ?, 0, '1', 'win', 0, 'sunk', 10, 0, 1)`, fmt.Sprint("g-", i), i+1, p[0], p[1])
			require.NoError(t, err)
			for seat, b := range p {
				_, err := old.db.ExecContext(ctx, `INSERT INTO rating_changes VALUES (?, ?, ?, 1500, 350, 0.06, 1500, 300, 0.06)`, fmt.Sprint("g-", i), seat, b)
				require.NoError(t, err)
			}
		}
		require.NoError(t, old.Close())

		s := openDSN(t, dsn)
		v, err := s.SchemaVersion(ctx)
		require.NoError(t, err)
		require.Equal(t, Version(), v)
		clashes, err := s.Clashes(ctx)
		require.NoError(t, err)
		require.Equal(t, []Clash{{Name: "ALPHA", Holder: "alpha"}}, clashes)
		require.Equal(t, "ALPHA looks like alpha (registered first)", clashes[0].String())
		require.NoError(t, s.Authenticate(ctx, "ALPHA", "ALPHA"), "the newer keeps its token (here its name)")
		_, err = s.Register(ctx, "A1pha")
		require.ErrorIs(t, err, ErrNameTaken)
		require.ErrorContains(t, err, "looks like alpha")
		for n, want := range map[string]int{"alpha": 1, "ALPHA": 2, "beta": 1} {
			var got int
			require.NoError(t, s.db.QueryRowContext(ctx, `SELECT opponents FROM bots WHERE name = ?`, n).Scan(&got))
			require.Equal(t, want, got, "%s's opponents", n)
		}
		h, err := s.History(ctx, "alpha")
		require.NoError(t, err)
		require.Len(t, h, 2)
		require.Equal(t, 1.0, h[0].Weight, "games rated before version 2 weighed 1")
	})
}
