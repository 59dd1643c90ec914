// Package ladder is the storage of the rated ladder (issue 15): registered
// bots with their hashed tokens and ratings, the games they played, and
// each game's rating changes, in a real database. SQLite (the pure-Go
// modernc.org/sqlite driver, no cgo, in WAL mode) is the embedded default;
// the schema and its migrations are written in the SQL that SQLite and
// PostgreSQL share, so that a PostgreSQL store can run the same ones.
//
// Open opens (creating it if needed) a store and brings its schema to the
// latest version: each migration runs in one transaction with the row that
// records it, so a crash leaves the schema at one version or the next,
// never between, and two processes opening the same file at once apply
// each migration exactly once.
package ladder
