package ladder

import (
	"context"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
)

func openTemp(t *testing.T) (*Store, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "ladder.db")
	s, err := Open(context.Background(), path)
	require.NoError(t, err)
	t.Cleanup(func() { _ = s.Close() })
	return s, path
}

// TestOpenMigrates: a new database gets the whole schema, in WAL mode with
// foreign keys enforced, and one row per migration.
func TestOpenMigrates(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	v, err := s.SchemaVersion(ctx)
	require.NoError(t, err)
	require.Equal(t, Version(), v)

	var mode string
	require.NoError(t, s.db.QueryRowContext(ctx, `PRAGMA journal_mode`).Scan(&mode))
	require.Equal(t, "wal", mode)
	var fk int
	require.NoError(t, s.db.QueryRowContext(ctx, `PRAGMA foreign_keys`).Scan(&fk))
	require.Equal(t, 1, fk)

	var tables []string
	rows, err := s.db.QueryContext(ctx, `SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`)
	require.NoError(t, err)
	for rows.Next() {
		var n string
		require.NoError(t, rows.Scan(&n))
		tables = append(tables, n)
	}
	require.NoError(t, rows.Err())
	require.Equal(t, []string{"bots", "games", "rating_changes", "schema_migrations"}, tables)
	var n int
	require.NoError(t, s.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM schema_migrations`).Scan(&n))
	require.Equal(t, len(migrations), n)
}

// TestReopenAndConcurrentOpen: opening an up-to-date database changes
// nothing, and processes (here: stores) opening a new one at once apply
// each migration exactly once.
func TestReopenAndConcurrentOpen(t *testing.T) {
	forEachBackend(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		path := dsn
		var wg sync.WaitGroup
		errs := make([]error, 6)
		for i := range errs {
			wg.Go(func() {
				s, err := Open(ctx, path)
				if err == nil {
					err = s.Close()
				}
				errs[i] = err
			})
		}
		wg.Wait()
		for _, err := range errs {
			require.NoError(t, err)
		}
		s, err := Open(ctx, path)
		require.NoError(t, err)
		defer s.Close()
		var n int
		require.NoError(t, s.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM schema_migrations`).Scan(&n))
		require.Equal(t, len(migrations), n)
	})
}

// TestNewerSchemaRefused: a database written by a later Kaisen is not
// touched.
func TestNewerSchemaRefused(t *testing.T) {
	forEachBackend(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		s, path := openDSN(t, dsn), dsn
		_, err := s.db.ExecContext(ctx, `INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, 'future', 0)`, Version()+1)
		require.NoError(t, err)
		require.NoError(t, s.Close())
		_, err = Open(ctx, path)
		require.ErrorIs(t, err, ErrNewerSchema)
		require.ErrorContains(t, err, path)
	})
}

func TestOpenBadDSN(t *testing.T) {
	for _, dsn := range []string{"", "mysql://h/db", "file:x.db?mode=ro", "postgres://u:pw@h:notaport/db"} {
		_, err := Open(context.Background(), dsn)
		require.ErrorIs(t, err, ErrDSN, dsn)
	}
	// A PostgreSQL server that is not there: an error that names the
	// address but never the password.
	_, err := Open(context.Background(), "postgres://u:s3cret@127.0.0.1:1/db?connect_timeout=5")
	require.Error(t, err)
	require.NotContains(t, err.Error(), "s3cret")
	require.Contains(t, err.Error(), "127.0.0.1:1")
	_, err = Open(context.Background(), filepath.Join(t.TempDir(), "missing", "ladder.db"))
	require.Error(t, err, "a directory that does not exist")
}

// TestSchemaConstraints: the schema itself refuses rows that cannot be
// right, whatever code writes them.
func TestSchemaConstraints(t *testing.T) {
	forEachBackend(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		s := openDSN(t, dsn)
		hash := strings.Repeat("a", 64)
		bot := `INSERT INTO bots (name, token_hash, created_at, rating, rd, volatility) VALUES (?, ?, 0, 1500, 350, 0.06)`
		for _, name := range []string{"alice", "bob"} {
			_, err := s.db.ExecContext(ctx, bot, name, hash)
			require.NoError(t, err)
		}
		_, err := s.db.ExecContext(ctx, `UPDATE bots SET name_key = 'alice' WHERE name = 'alice'`)
		require.NoError(t, err)
		game := `INSERT INTO games (id, seq, bot0, bot1, first_seat, seed, outcome, winner, reason, actions, started_at, ended_at)
		VALUES (?, (SELECT COALESCE(MAX(seq), 0) + 1 FROM games), ?, ?, ?, '1', ?, ?, 'sunk', 10, 0, 1)`
		_, err = s.db.ExecContext(ctx, game, "g-1", "alice", "bob", 0, "win", 1)
		require.NoError(t, err)
		_, err = s.db.ExecContext(ctx, game, "g-2", "alice", "bob", 1, "draw", -1)
		require.NoError(t, err)

		for _, tt := range []struct {
			name  string
			query string
			args  []any
		}{
			{"empty bot name", bot, []any{"", hash}},
			{"bot name over 64", bot, []any{strings.Repeat("x", 65), hash}},
			{"short token hash", bot, []any{"carol", "abc"}},
			{"bot twice", bot, []any{"alice", hash}},
			{"unknown bot", game, []any{"g-3", "alice", "zed", 0, "win", 0}},
			{"a bot against itself", game, []any{"g-3", "alice", "alice", 0, "win", 0}},
			{"bad outcome", game, []any{"g-3", "alice", "bob", 0, "lose", 0}},
			{"win without a winner", game, []any{"g-3", "alice", "bob", 0, "win", -1}},
			{"draw with a winner", game, []any{"g-3", "alice", "bob", 0, "draw", 1}},
			{"bad first seat", game, []any{"g-3", "alice", "bob", 2, "win", 0}},
			{"game id twice", game, []any{"g-1", "alice", "bob", 0, "win", 0}},
			{"change of an unknown game", `INSERT INTO rating_changes (game_id, seat, bot, rating_before, rd_before, volatility_before, rating_after, rd_after, volatility_after) VALUES ('g-9', 0, 'alice', 1500, 350, 0.06, 1510, 340, 0.06)`, nil},
			{"a name key twice", `INSERT INTO bots (name, name_key, token_hash, created_at, rating, rd, volatility) VALUES ('ALICE', 'alice', ?, 0, 1500, 350, 0.06)`, []any{hash}},
			{"a weight above 1", `INSERT INTO rating_changes (game_id, seat, bot, rating_before, rd_before, volatility_before, rating_after, rd_after, volatility_after, weight) VALUES ('g-1', 0, 'alice', 1500, 350, 0.06, 1510, 340, 0.06, 1.5)`, nil},
			{"change of an unknown bot", `INSERT INTO rating_changes (game_id, seat, bot, rating_before, rd_before, volatility_before, rating_after, rd_after, volatility_after) VALUES ('g-1', 0, 'zed', 1500, 350, 0.06, 1510, 340, 0.06)`, nil},
		} {
			t.Run(tt.name, func(t *testing.T) {
				_, err := s.db.ExecContext(ctx, tt.query, tt.args...)
				require.Error(t, err)
			})
		}
		_, err = s.db.ExecContext(ctx, `INSERT INTO rating_changes (game_id, seat, bot, rating_before, rd_before, volatility_before, rating_after, rd_after, volatility_after) VALUES ('g-1', 1, 'bob', 1500, 350, 0.06, 1510, 340, 0.06)`)
		require.NoError(t, err)
	})
}
