package ladder

// migration is one step of the schema: the statements that take it from
// version-1 to version. Statements use only SQL that SQLite and PostgreSQL
// both accept (TEXT, BIGINT, INTEGER, DOUBLE PRECISION, CHECK, REFERENCES).
type migration struct {
	version int
	name    string
	stmts   []string
}

// migrations is the schema's history, in order; a released migration is
// never edited, a change is a new one. Times are Unix milliseconds (UTC),
// seeds decimal text (a uint64 does not fit a signed BIGINT).
var migrations = []migration{
	{version: 1, name: "bots, games and rating changes", stmts: []string{
		// A registered bot. token_hash is the hex SHA-256 of its token
		// (the token itself is never stored); rating, rd and volatility
		// are its current Glicko-2 state.
		`CREATE TABLE bots (
			name        TEXT PRIMARY KEY CHECK (length(name) BETWEEN 1 AND 64),
			token_hash  TEXT NOT NULL CHECK (length(token_hash) = 64),
			created_at  BIGINT NOT NULL,
			rating      DOUBLE PRECISION NOT NULL,
			rd          DOUBLE PRECISION NOT NULL,
			volatility  DOUBLE PRECISION NOT NULL,
			games       INTEGER NOT NULL DEFAULT 0 CHECK (games >= 0)
		)`,
		// A decided rated game, keyed by the server's game id (the result
		// log's and the replay's); committed before the players are told.
		// seq numbers the games in the order they were rated (1, 2, ...):
		// replaying them in that order recomputes every rating.
		`CREATE TABLE games (
			id          TEXT PRIMARY KEY,
			seq         BIGINT NOT NULL UNIQUE CHECK (seq >= 1),
			bot0        TEXT NOT NULL REFERENCES bots (name),
			bot1        TEXT NOT NULL REFERENCES bots (name),
			first_seat  INTEGER NOT NULL CHECK (first_seat IN (0, 1)),
			seed        TEXT NOT NULL,
			outcome     TEXT NOT NULL CHECK (outcome IN ('win', 'draw')),
			winner      INTEGER NOT NULL CHECK (winner IN (-1, 0, 1)),
			reason      TEXT NOT NULL,
			actions     INTEGER NOT NULL CHECK (actions >= 0),
			replay      TEXT NOT NULL DEFAULT '',
			started_at  BIGINT NOT NULL,
			ended_at    BIGINT NOT NULL,
			CHECK (bot0 <> bot1),
			CHECK ((outcome = 'win') = (winner >= 0))
		)`,
		`CREATE INDEX games_by_bot0 ON games (bot0, ended_at)`,
		`CREATE INDEX games_by_bot1 ON games (bot1, ended_at)`,
		// What a game did to each seat's rating: the history, and what a
		// recomputation from the stored games is checked against.
		`CREATE TABLE rating_changes (
			game_id            TEXT NOT NULL REFERENCES games (id),
			seat               INTEGER NOT NULL CHECK (seat IN (0, 1)),
			bot                TEXT NOT NULL REFERENCES bots (name),
			rating_before      DOUBLE PRECISION NOT NULL,
			rd_before          DOUBLE PRECISION NOT NULL,
			volatility_before  DOUBLE PRECISION NOT NULL,
			rating_after       DOUBLE PRECISION NOT NULL,
			rd_after           DOUBLE PRECISION NOT NULL,
			volatility_after   DOUBLE PRECISION NOT NULL,
			PRIMARY KEY (game_id, seat)
		)`,
		`CREATE INDEX rating_changes_by_bot ON rating_changes (bot)`,
	}},
}

// Version is the schema version this code writes: the last migration's.
func Version() int { return migrations[len(migrations)-1].version }
