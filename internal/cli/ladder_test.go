package cli

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/ladder"
)

// TestLadderCommands: register prints the token alone on its last line
// (the one the store authenticates), table and history read the database,
// and mistakes are usage errors.
func TestLadderCommands(t *testing.T) {
	ctx := context.Background()
	db := initLadder(t, filepath.Join(t.TempDir(), "ladder.db"))
	code, out, stderr := matchRun(t, ctx, "ladder", "register", "alice", "--db", db)
	require.Equal(t, ExitOK, code, stderr)
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	token := lines[len(lines)-1]
	require.True(t, strings.HasPrefix(token, ladder.TokenPrefix), out)
	code, out, stderr = matchRun(t, ctx, "ladder", "register", "bob", "--db", db, "--json")
	require.Equal(t, ExitOK, code, stderr)
	var reg map[string]string
	require.NoError(t, json.Unmarshal([]byte(out), &reg))
	require.Equal(t, "bob", reg["name"])

	s, err := ladder.Open(ctx, db)
	require.NoError(t, err)
	require.NoError(t, s.Authenticate(ctx, "alice", token))
	require.ErrorIs(t, s.Authenticate(ctx, "bob", token), ladder.ErrAuth)
	_, err = s.RecordGame(ctx, ladder.Game{ID: "g-1", Bots: [2]string{"bob", "alice"}, Outcome: ladder.OutcomeWin, Winner: 1, Reason: "sunk", Actions: 20})
	require.NoError(t, err)
	require.NoError(t, s.Close())

	code, out, stderr = matchRun(t, ctx, "ladder", "table", "--db", db, "--json")
	require.Equal(t, ExitOK, code, stderr)
	var table []botJSON
	require.NoError(t, json.Unmarshal([]byte(out), &table))
	require.Len(t, table, 2)
	require.Equal(t, "alice", table[0].Name)
	require.Greater(t, table[0].Rating, 1500.0)
	require.Equal(t, 1, table[0].Games)
	require.Equal(t, [3]int{1, 0, 0}, [3]int{table[0].Wins, table[0].Draws, table[0].Losses})
	require.True(t, table[0].Provisional)
	code, out, stderr = matchRun(t, ctx, "ladder", "table", "--db", db)
	require.Equal(t, ExitOK, code, stderr)
	require.Regexp(t, `#\s+bot\s+rating\s+RD\s+games\s+W\s+D\s+L`, out)
	require.Regexp(t, `1\s+alice\s+\d+\s+\d+\s+1\s+1\s+0\s+0\s+provisional`, out)
	require.Contains(t, out, "provisional: met fewer than 5 different bots")

	code, out, stderr = matchRun(t, ctx, "ladder", "history", "alice", "--db", db, "--json")
	require.Equal(t, ExitOK, code, stderr)
	var hist []playedJSON
	require.NoError(t, json.Unmarshal([]byte(out), &hist))
	require.Len(t, hist, 1)
	require.Equal(t, "g-1", hist[0].Game)
	require.Equal(t, "bob", hist[0].Opponent)
	require.Equal(t, "win", hist[0].Result)
	require.Equal(t, 1500.0, hist[0].Before)

	typo := filepath.Join(t.TempDir(), "typo.db")
	for _, tt := range []struct {
		name string
		args []string
		code int
		msg  string
	}{
		{"taken", []string{"ladder", "register", "alice", "--db", db}, ExitFailure, "already registered"},
		{"look-alike", []string{"ladder", "register", "AL1CE", "--db", db}, ExitFailure, "AL1CE looks like alice, registered already"},
		{"bad owner", []string{"ladder", "register", "carol", "--owner", "a b", "--db", db}, ExitUsage, `owner "a b"`},
		{"bad name", []string{"ladder", "register", "a b", "--db", db}, ExitUsage, "bad bot name"},
		{"no db", []string{"ladder", "table"}, ExitUsage, "--db"},
		{"a typo in --db", []string{"ladder", "table", "--db", typo}, ExitFailure, "no ladder database there (a typo?); create one with: kaisen ladder init --db " + typo},
		{"register on a typo", []string{"ladder", "register", "carol", "--db", typo}, ExitFailure, "kaisen ladder init"},
		{"history of nobody", []string{"ladder", "history", "nobody", "--db", db}, ExitFailure, `no bot "nobody" on this ladder (kaisen ladder table lists them)`},
		{"history of a typo", []string{"ladder", "history", "alcie", "--db", db}, ExitFailure, `no bot "alcie" on this ladder (did you mean alice?)`},
		{"postgres down", []string{"ladder", "table", "--db", "postgres://u:pw@127.0.0.1:1/db?connect_timeout=5"}, ExitFailure, "127.0.0.1:1"},
		{"unknown subcommand", []string{"ladder", "rank"}, ExitUsage, "unknown command"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			code, _, stderr := matchRun(t, ctx, tt.args...)
			require.Equal(t, tt.code, code, stderr)
			require.Contains(t, stderr, tt.msg)
		})
	}
	_, err = os.Stat(typo)
	require.ErrorIs(t, err, fs.ErrNotExist, "only kaisen ladder init creates a database")
}

// initLadder runs kaisen ladder init --db db and returns db.
func initLadder(t *testing.T, db string) string {
	t.Helper()
	code, out, stderr := matchRun(t, context.Background(), "ladder", "init", "--db", db)
	require.Equal(t, ExitOK, code, stderr)
	require.Contains(t, out, "ladder database "+db+" created, schema version")
	return db
}

// TestLadderOwnersAndWeights: two bots of one --owner play unrated games
// (history says so), a game against a new bot shows its weight, and the
// export has both seats' weights.
func TestLadderOwnersAndWeights(t *testing.T) {
	ctx := context.Background()
	db := initLadder(t, filepath.Join(t.TempDir(), "ladder.db"))
	for _, r := range [][]string{{"a1", "--owner", "mallory"}, {"a2", "--owner", "mallory"}, {"b"}} {
		code, _, stderr := matchRun(t, ctx, append([]string{"ladder", "register", "--db", db}, r...)...)
		require.Equal(t, ExitOK, code, stderr)
	}
	s, err := ladder.Open(ctx, db)
	require.NoError(t, err)
	for i, p := range [][2]string{{"a1", "a2"}, {"a1", "b"}} {
		_, err = s.RecordGame(ctx, ladder.Game{ID: fmt.Sprint("g-", i), Bots: p, Outcome: ladder.OutcomeWin, Winner: 0, Reason: "sunk"})
		require.NoError(t, err)
	}
	require.NoError(t, s.Close())
	code, out, stderr := matchRun(t, ctx, "ladder", "history", "a1", "--db", db)
	require.Equal(t, ExitOK, code, stderr)
	require.Contains(t, out, "1500 -> 1500 (unrated: same_owner)")
	require.Contains(t, out, "(weight 0.04)")
	code, out, stderr = matchRun(t, ctx, "ladder", "export", "--db", db, "--json")
	require.Equal(t, ExitOK, code, stderr)
	var games []ratedJSON
	require.NoError(t, json.Unmarshal([]byte(out), &games))
	require.Len(t, games, 2)
	require.Equal(t, ladder.UnratedSameOwner, games[0].Unrated)
	require.Equal(t, [2]float64{0, 0}, games[0].Weights)
	require.Equal(t, [2]float64{ladder.MinWeight, ladder.MinWeight}, games[1].Weights)
}

// TestLadderTableWarnsOfOldLookAlikes: a bot left without a name key by
// the migration (it looks like an older bot) is named on stderr.
func TestLadderTableWarnsOfOldLookAlikes(t *testing.T) {
	ctx := context.Background()
	db := initLadder(t, filepath.Join(t.TempDir(), "ladder.db"))
	code, _, stderr := matchRun(t, ctx, "ladder", "register", "alice", "--db", db)
	require.Equal(t, ExitOK, code, stderr)
	raw, err := sql.Open("sqlite", db)
	require.NoError(t, err)
	_, err = raw.ExecContext(ctx, `INSERT INTO bots (name, token_hash, created_at, rating, rd, volatility) VALUES ('ALICE', ?, 1, 1500, 350, 0.06)`,
		strings.Repeat("a", 64))
	require.NoError(t, err)
	require.NoError(t, raw.Close())
	code, out, stderr := matchRun(t, ctx, "ladder", "table", "--db", db)
	require.Equal(t, ExitOK, code, stderr)
	require.Contains(t, out, "ALICE")
	require.Equal(t, "warning: bot ALICE looks like alice (registered first)\n", stderr)
}
