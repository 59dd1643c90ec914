package ladder

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // the "pgx" database/sql driver (PostgreSQL), pure Go
	_ "modernc.org/sqlite"             // the "sqlite" database/sql driver, pure Go
)

// ErrDSN is wrapped by the error for a DSN Open cannot use.
var ErrDSN = errors.New("ladder: bad database address")

// ErrNewerSchema is wrapped by Open's error for a database whose schema is
// newer than this program (written by a later version of Kaisen).
var ErrNewerSchema = errors.New("ladder: database schema newer than this program")

// busyTimeout is how long SQLite waits for another connection's lock
// (another process, or a writer of this one) before failing.
const busyTimeout = 10 * time.Second

// Store is an open ladder database. It is safe for concurrent use.
type Store struct {
	db   sqlDB
	path string // the DSN as it may be shown (no password)
}

// Open opens the ladder database at dsn and migrates its schema to
// Version(). A plain file path (created if missing) is SQLite in WAL mode
// with foreign keys on; a postgres:// or postgresql:// URL is PostgreSQL
// (through pgx; the database must exist), with the same migrations.
func Open(ctx context.Context, dsn string) (*Store, error) {
	if dsn == "" {
		return nil, fmt.Errorf("%w: empty (want a file path or a postgres:// URL)", ErrDSN)
	}
	if IsPostgres(dsn) {
		return openPostgres(ctx, dsn)
	}
	if strings.Contains(dsn, "://") || strings.HasPrefix(dsn, "file:") {
		return nil, fmt.Errorf("%w: %q: want a plain file path (SQLite) or a postgres:// URL", ErrDSN, Redact(dsn))
	}
	q := url.Values{}
	for _, p := range []string{
		"journal_mode(WAL)",
		"foreign_keys(1)",
		fmt.Sprintf("busy_timeout(%d)", busyTimeout.Milliseconds()),
		"synchronous(FULL)", // a committed game survives a power loss
	} {
		q.Add("_pragma", p)
	}
	q.Set("_txlock", "immediate") // writers take the lock at BEGIN: no upgrade deadlocks
	db, err := sql.Open("sqlite", "file:"+(&url.URL{Path: dsn}).EscapedPath()+"?"+q.Encode())
	if err != nil {
		return nil, fmt.Errorf("ladder: open %s: %w", dsn, err)
	}
	return open(ctx, sqlDB{DB: db, d: dialectSQLite}, dsn)
}

// IsPostgres reports whether dsn names a PostgreSQL database (a
// postgres:// or postgresql:// URL); any other DSN Open takes is a SQLite
// file path.
func IsPostgres(dsn string) bool {
	return strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://")
}

// openPostgres opens a PostgreSQL ladder.
func openPostgres(ctx context.Context, dsn string) (*Store, error) {
	shown := Redact(dsn)
	if _, err := url.Parse(dsn); err != nil {
		return nil, fmt.Errorf("%w: %s: not a URL", ErrDSN, shown)
	}
	db, err := sql.Open("pgx", dsn)
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %w", ErrDSN, shown, err)
	}
	return open(ctx, sqlDB{DB: db, d: dialectPostgres}, shown)
}

// open migrates db and returns its store (closing db on failure).
func open(ctx context.Context, db sqlDB, shown string) (*Store, error) {
	s := &Store{db: db, path: shown}
	if err := s.migrate(ctx); err != nil {
		_ = db.Close()
		return nil, fmt.Errorf("ladder: open %s: %w", shown, err)
	}
	return s, nil
}

// Redact returns dsn with the password of a URL masked, for messages.
func Redact(dsn string) string {
	u, err := url.Parse(dsn)
	if err != nil || u.User == nil {
		return dsn
	}
	if _, ok := u.User.Password(); ok {
		u.User = url.UserPassword(u.User.Username(), "xxxxx")
	}
	return u.String()
}

// Close closes the database.
func (s *Store) Close() error {
	if err := s.db.Close(); err != nil {
		return fmt.Errorf("ladder: close %s: %w", s.path, err)
	}
	return nil
}

// SchemaVersion is the version the database's schema is at.
func (s *Store) SchemaVersion(ctx context.Context) (int, error) {
	return schemaVersion(ctx, s.db)
}

// querier is what schemaVersion needs of a *sql.DB or *sql.Tx.
type querier interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

func schemaVersion(ctx context.Context, q querier) (int, error) {
	var v sql.NullInt64
	if err := q.QueryRowContext(ctx, `SELECT MAX(version) FROM schema_migrations`).Scan(&v); err != nil {
		return 0, fmt.Errorf("schema version: %w", err)
	}
	return int(v.Int64), nil
}

// migrate creates the migrations table and applies every migration the
// database lacks, each in its own transaction together with its row.
func (s *Store) migrate(ctx context.Context) error {
	// In a (serialized) transaction: two processes opening a new
	// PostgreSQL database at once would otherwise race to create it.
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("migrations table: %w", err)
	}
	if _, err := tx.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
		version     INTEGER PRIMARY KEY,
		name        TEXT NOT NULL,
		applied_at  BIGINT NOT NULL
	)`); err != nil {
		_ = tx.Rollback()
		return fmt.Errorf("migrations table: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("migrations table: %w", err)
	}
	for _, m := range migrations {
		if err := s.apply(ctx, m); err != nil {
			return err
		}
	}
	return nil
}

// apply runs m unless the database already has it. The version is read
// inside the (immediate, so exclusive for writers) transaction: of two
// processes opening the database at once, the second sees the first's
// migration and skips it.
func (s *Store) apply(ctx context.Context, m migration) (err error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("migration %d: %w", m.version, err)
	}
	defer func() {
		if err != nil {
			_ = tx.Rollback()
		}
	}()
	have, err := schemaVersion(ctx, tx)
	if err != nil {
		return err
	}
	if have > Version() {
		return fmt.Errorf("%w: version %d, this program knows up to %d", ErrNewerSchema, have, Version())
	}
	if have >= m.version {
		return tx.Rollback()
	}
	if have != m.version-1 {
		return fmt.Errorf("migration %d: the database is at version %d", m.version, have)
	}
	for i, stmt := range m.stmts {
		if _, err = tx.ExecContext(ctx, stmt); err != nil {
			return fmt.Errorf("migration %d (%s), statement %d: %w", m.version, m.name, i+1, err)
		}
	}
	if m.then != nil {
		if err = m.then(ctx, tx); err != nil {
			return fmt.Errorf("migration %d (%s): %w", m.version, m.name, err)
		}
	}
	if _, err = tx.ExecContext(ctx, `INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)`,
		m.version, m.name, time.Now().UnixMilli()); err != nil {
		return fmt.Errorf("migration %d: %w", m.version, err)
	}
	if err = tx.Commit(); err != nil {
		return fmt.Errorf("migration %d: commit: %w", m.version, err)
	}
	return nil
}
