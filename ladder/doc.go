// Package ladder is the storage of the rated ladder (issue 15, docs/ladder.md):
// registered bots with their hashed tokens and ratings, the games they
// played, and each game's rating changes, in a real database. SQLite (the
// pure-Go modernc.org/sqlite driver, no cgo, in WAL mode) is the embedded
// default, for a plain file path; a postgres:// URL is PostgreSQL (the
// pure-Go pgx driver). Both run the same migrations and statements, written
// in the SQL they share with "?" placeholders (rebound to $n for
// PostgreSQL); writers are serialized (SQLite BEGIN IMMEDIATE, a PostgreSQL
// advisory lock).
//
// Open opens (creating it if needed) a store and brings its schema to the
// latest version: each migration runs in one transaction with the row that
// records it, so a crash leaves the schema at one version or the next,
// never between, and two processes opening the same database at once apply
// each migration exactly once. RecordGame commits a decided game with both
// rating changes in one transaction, idempotent by game id; the rated
// listener (server, kaisen serve --ladder) calls it before telling the
// players the result.
//
// Names are unique by Skeleton (case, look-alike letters and digits
// folded), kept in a unique column. RecordGame applies the farming
// defences: games between bots of one owner or one network are stored
// unrated, and a game against a provisional opponent counts as Weight of
// a game in Glicko-2 (UpdateWeighted).
package ladder
