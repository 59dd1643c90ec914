package ladder

import (
	"context"
	"fmt"
	"sort"
)

// migration is one step of the schema: the statements that take it from
// version-1 to version. Statements use only SQL that SQLite and PostgreSQL
// both accept (TEXT, BIGINT, INTEGER, DOUBLE PRECISION, CHECK, REFERENCES).
type migration struct {
	version int
	name    string
	stmts   []string
	// then, when set, runs in the same transaction after stmts (for what
	// SQL alone cannot compute, such as a name's Skeleton).
	then func(ctx context.Context, tx *sqlTx) error
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
	{version: 2, name: "name keys, owners, unrated games and damping weights", stmts: []string{
		// name_key is the name's Skeleton: unique, so that neither backend
		// takes two names that look alike, whatever code writes them. NULL
		// only for a bot registered before version 2 whose name looks like
		// an older bot's (Store.Clashes lists them).
		`ALTER TABLE bots ADD COLUMN name_key TEXT`,
		// owner: who registered the bot ('' unknown); two bots of one
		// owner play unrated games.
		`ALTER TABLE bots ADD COLUMN owner TEXT NOT NULL DEFAULT ''`,
		// opponents: how many different bots it has met in rated games;
		// how established it is as an opponent (Weight).
		`ALTER TABLE bots ADD COLUMN opponents INTEGER NOT NULL DEFAULT 0 CHECK (opponents >= 0)`,
		`UPDATE bots SET opponents = (SELECT COUNT(DISTINCT CASE WHEN g.bot0 = bots.name THEN g.bot1 ELSE g.bot0 END)
			FROM games g WHERE g.bot0 = bots.name OR g.bot1 = bots.name)`,
		// unrated: why a stored game changed no rating ('' when it did).
		`ALTER TABLE games ADD COLUMN unrated TEXT NOT NULL DEFAULT ''`,
		// weight: the weight the game had in this seat's Glicko-2 update
		// (1 a full game, less against a provisional opponent, 0 unrated).
		`ALTER TABLE rating_changes ADD COLUMN weight DOUBLE PRECISION NOT NULL DEFAULT 1 CHECK (weight >= 0 AND weight <= 1)`,
	}, then: fillNameKeys},
}

// fillNameKeys gives every bot its name key, the oldest first, then makes
// the key unique. A bot whose name looks like an older bot's keeps a NULL
// key (it was registered when the ladder allowed it, and its games and
// token stay valid) and is listed by Store.Clashes; nothing new can take
// that look again.
func fillNameKeys(ctx context.Context, tx *sqlTx) error {
	rows, err := tx.QueryContext(ctx, `SELECT name FROM bots ORDER BY created_at, name`)
	if err != nil {
		return fmt.Errorf("name keys: %w", err)
	}
	var names []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			rows.Close()
			return fmt.Errorf("name keys: %w", err)
		}
		names = append(names, n)
	}
	err = rows.Err()
	rows.Close()
	if err != nil {
		return fmt.Errorf("name keys: %w", err)
	}
	taken := map[string]bool{}
	for _, n := range names {
		k := Skeleton(n)
		if taken[k] {
			continue
		}
		taken[k] = true
		if _, err := tx.ExecContext(ctx, `UPDATE bots SET name_key = ? WHERE name = ?`, k, n); err != nil {
			return fmt.Errorf("name keys: %s: %w", n, err)
		}
	}
	if _, err := tx.ExecContext(ctx, `CREATE UNIQUE INDEX bots_by_name_key ON bots (name_key)`); err != nil {
		return fmt.Errorf("name keys: unique index: %w", err)
	}
	return nil
}

// Clash is a bot registered before names were compared by Skeleton whose
// name looks like an older bot's: both keep playing, under their own
// tokens, but a person reading the table can take one for the other.
type Clash struct {
	Name   string // the newer bot, without a name key
	Holder string // the older bot, whose name key it shares
}

func (c Clash) String() string {
	return fmt.Sprintf("%s looks like %s (registered first)", c.Name, c.Holder)
}

// Clashes lists the bots whose names look like an older bot's (see
// fillNameKeys), by name; none on a ladder created at version 2 or later.
func (s *Store) Clashes(ctx context.Context) ([]Clash, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT name, name_key FROM bots`)
	if err != nil {
		return nil, fmt.Errorf("ladder: clashes: %w", err)
	}
	defer rows.Close()
	holders := map[string]string{}
	var keyless []string
	for rows.Next() {
		var n string
		var k *string
		if err := rows.Scan(&n, &k); err != nil {
			return nil, fmt.Errorf("ladder: clashes: %w", err)
		}
		if k == nil {
			keyless = append(keyless, n)
		} else {
			holders[*k] = n
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("ladder: clashes: %w", err)
	}
	sort.Strings(keyless)
	var out []Clash
	for _, n := range keyless {
		out = append(out, Clash{Name: n, Holder: holders[Skeleton(n)]})
	}
	return out, nil
}

// Version is the schema version this code writes: the last migration's.
func Version() int { return migrations[len(migrations)-1].version }
