package ladder

import (
	"context"
	"database/sql"
	"strconv"
	"strings"
)

// dialect is what differs between the two databases the ladder runs on.
// The SQL itself is shared: statements are written once with "?"
// placeholders, which PostgreSQL gets rebound to $1, $2, ...
type dialect int

const (
	dialectSQLite dialect = iota
	dialectPostgres
)

func (d dialect) String() string {
	if d == dialectPostgres {
		return "postgres"
	}
	return "sqlite"
}

// rebind rewrites the "?" placeholders of q for d. The ladder's statements
// have no "?" inside string literals.
func (d dialect) rebind(q string) string {
	if d != dialectPostgres || !strings.Contains(q, "?") {
		return q
	}
	var b strings.Builder
	n := 0
	for _, r := range q {
		if r == '?' {
			n++
			b.WriteByte('$')
			b.WriteString(strconv.Itoa(n))
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// serialize makes tx the only writer of the ladder until it ends. SQLite
// transactions are already exclusive for writers (BEGIN IMMEDIATE);
// PostgreSQL ones take a transaction-scoped advisory lock, so that
// concurrent RecordGame calls number their games (seq) one after the
// other and two processes migrating a new database apply each migration
// once.
func (d dialect) serialize(ctx context.Context, tx *sqlTx) error {
	if d != dialectPostgres {
		return nil
	}
	_, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock(?)`, advisoryLock)
	return err
}

// advisoryLock is the PostgreSQL advisory lock key of the ladder ("kaisen").
const advisoryLock int64 = 0x6b616973656e

// sqlDB is a *sql.DB whose statements are rebound for its dialect.
type sqlDB struct {
	*sql.DB
	d dialect
}

func (db sqlDB) ExecContext(ctx context.Context, q string, args ...any) (sql.Result, error) {
	return db.DB.ExecContext(ctx, db.d.rebind(q), args...)
}

func (db sqlDB) QueryContext(ctx context.Context, q string, args ...any) (*sql.Rows, error) {
	return db.DB.QueryContext(ctx, db.d.rebind(q), args...)
}

func (db sqlDB) QueryRowContext(ctx context.Context, q string, args ...any) *sql.Row {
	return db.DB.QueryRowContext(ctx, db.d.rebind(q), args...)
}

// BeginTx starts a transaction that holds the ladder's write lock (serialize).
func (db sqlDB) BeginTx(ctx context.Context, opts *sql.TxOptions) (*sqlTx, error) {
	tx, err := db.DB.BeginTx(ctx, opts)
	if err != nil {
		return nil, err
	}
	t := &sqlTx{Tx: tx, d: db.d}
	if err := db.d.serialize(ctx, t); err != nil {
		_ = tx.Rollback()
		return nil, err
	}
	return t, nil
}

// sqlTx is a *sql.Tx whose statements are rebound for its dialect.
type sqlTx struct {
	*sql.Tx
	d dialect
}

func (tx *sqlTx) ExecContext(ctx context.Context, q string, args ...any) (sql.Result, error) {
	return tx.Tx.ExecContext(ctx, tx.d.rebind(q), args...)
}

func (tx *sqlTx) QueryContext(ctx context.Context, q string, args ...any) (*sql.Rows, error) {
	return tx.Tx.QueryContext(ctx, tx.d.rebind(q), args...)
}

func (tx *sqlTx) QueryRowContext(ctx context.Context, q string, args ...any) *sql.Row {
	return tx.Tx.QueryRowContext(ctx, tx.d.rebind(q), args...)
}
