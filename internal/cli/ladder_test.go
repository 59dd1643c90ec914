package cli

import (
	"context"
	"encoding/json"
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
	db := filepath.Join(t.TempDir(), "ladder.db")
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
	code, out, stderr = matchRun(t, ctx, "ladder", "table", "--db", db)
	require.Equal(t, ExitOK, code, stderr)
	require.Contains(t, out, "1  alice")

	code, out, stderr = matchRun(t, ctx, "ladder", "history", "alice", "--db", db, "--json")
	require.Equal(t, ExitOK, code, stderr)
	var hist []playedJSON
	require.NoError(t, json.Unmarshal([]byte(out), &hist))
	require.Len(t, hist, 1)
	require.Equal(t, "g-1", hist[0].Game)
	require.Equal(t, "bob", hist[0].Opponent)
	require.Equal(t, "win", hist[0].Result)
	require.Equal(t, 1500.0, hist[0].Before)

	for _, tt := range []struct {
		name string
		args []string
		code int
		msg  string
	}{
		{"taken", []string{"ladder", "register", "alice", "--db", db}, ExitFailure, "already registered"},
		{"bad name", []string{"ladder", "register", "a b", "--db", db}, ExitUsage, "bad bot name"},
		{"no db", []string{"ladder", "table"}, ExitUsage, "--db"},
		{"postgres down", []string{"ladder", "table", "--db", "postgres://u:pw@127.0.0.1:1/db?connect_timeout=5"}, ExitFailure, "127.0.0.1:1"},
		{"unknown subcommand", []string{"ladder", "rank"}, ExitUsage, "unknown command"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			code, _, stderr := matchRun(t, ctx, tt.args...)
			require.Equal(t, tt.code, code, stderr)
			require.Contains(t, stderr, tt.msg)
		})
	}
}
