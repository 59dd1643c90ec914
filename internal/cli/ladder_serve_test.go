package cli

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/internal/pgtest"
	"github.com/kaisen-ai/kaisen/ladder"
)

// freeAddr returns a loopback address with a port that was free a moment
// ago.
func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer ln.Close()
	return ln.Addr().String()
}

// registerBot runs kaisen ladder register and returns the token.
func registerBot(t *testing.T, db, name string) string {
	t.Helper()
	if _, err := os.Stat(db); err != nil && !ladder.IsPostgres(db) {
		initLadder(t, db)
	}
	code, out, stderr := playRun(t, "ladder", "register", name, "--db", db)
	require.Equal(t, ExitOK, code, stderr)
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	token := lines[len(lines)-1]
	require.True(t, strings.HasPrefix(token, ladder.TokenPrefix), out)
	return token
}

func TestMain(m *testing.M) {
	if os.Getenv(asKaisenEnv) == "1" { // the test binary plays kaisen, for exec: players (match_bot_test.go)
		os.Exit(Run(context.Background(), os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
	}
	code := m.Run()
	pgtest.StopShared()
	os.Exit(code)
}

// TestServeLadderWithPlay: kaisen ladder register, serve --ladder, play
// --token, table and export, on SQLite and on PostgreSQL.
func TestServeLadderWithPlay(t *testing.T) {
	for _, backend := range []struct {
		name string
		dsn  func(t *testing.T) string
	}{
		{"sqlite", func(t *testing.T) string { return filepath.Join(t.TempDir(), "ladder.db") }},
		{"postgres", func(t *testing.T) string { return pgtest.DSN(t) }},
	} {
		t.Run(backend.name, func(t *testing.T) { testServeLadderWithPlay(t, backend.dsn(t)) })
	}
}

func testServeLadderWithPlay(t *testing.T, db string) {
	tokens := map[string]string{"alice": registerBot(t, db, "alice"), "bob": registerBot(t, db, "bob")}
	dir := t.TempDir()
	web := freeAddr(t)
	addr, stop := serveRun(t, "--ladder", "--db", db, "--listen", "127.0.0.1:0", "--seed", "3",
		"--result-log", filepath.Join(dir, "results.jsonl"), "--replay-dir", filepath.Join(dir, "replays"), "--web", web)

	refusals := []struct {
		name, bot, token, want string
		code                   int
	}{
		{"wrong token", "alice", tokens["bob"], "the server refused the connection: auth_failed: wrong bot name or token", ExitFailure},
		{"unknown bot", "carol", tokens["alice"], "auth_failed: wrong bot name or token", ExitFailure},
		{"not a token", "alice", "hunter2", "bad_auth_line", ExitFailure},
	}
	for _, tt := range refusals {
		t.Run(tt.name, func(t *testing.T) {
			code, _, stderr := playRun(t, "play", "--addr", addr, "--name", tt.bot, "--token", tt.token)
			assert.Equal(t, tt.code, code)
			assert.Contains(t, stderr, tt.want)
			assert.NotContains(t, stderr, tt.token, "the token is echoed")
		})
	}

	var wg sync.WaitGroup
	var codes [2]int
	var errs [2]string
	for i, b := range []string{"alice", "bob"} {
		wg.Go(func() {
			codes[i], _, errs[i] = playRun(t, "play", "--addr", addr, "--name", b, "--token", tokens[b], "-c", "2", "--seed", "5", "--timeout", "20s")
		})
	}
	wg.Wait()
	for i := range codes {
		require.Equal(t, ExitOK, codes[i], errs[i])
	}
	// The spectator pages show the ladder (internal/web.TestLadderInBrowser
	// checks them cell by cell).
	for path, want := range map[string]string{"/ladder": `href="/ladder/alice"`, "/ladder/bob": `<table id="history">`} {
		resp, err := http.Get("http://" + web + path)
		require.NoError(t, err)
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		require.NoError(t, err)
		require.Equal(t, http.StatusOK, resp.StatusCode, path)
		require.Contains(t, string(body), want, path)
	}
	code, serveErr := stop()
	require.Equal(t, ExitOK, code, serveErr)
	for _, tok := range tokens {
		assert.NotContains(t, serveErr, tok, "a token reached the server's log")
	}

	code, out, stderr := playRun(t, "ladder", "table", "--db", db, "--json")
	require.Equal(t, ExitOK, code, stderr)
	var table []botJSON
	require.NoError(t, json.Unmarshal([]byte(out), &table))
	require.Len(t, table, 2)
	for _, b := range table {
		assert.Equal(t, 2, b.Games, b.Name)
	}

	code, out, stderr = playRun(t, "ladder", "export", "--db", db, "--json")
	require.Equal(t, ExitOK, code, stderr)
	var games []ratedJSON
	require.NoError(t, json.Unmarshal([]byte(out), &games))
	require.Len(t, games, 2)
	last := map[string]ratingOut{}
	for i, g := range games {
		assert.Equal(t, int64(i+1), g.Seq)
		assert.Equal(t, g.Game+".jsonl", g.Replay)
		for seat, b := range g.Bots {
			if prev, ok := last[b]; ok { // each game starts from the rating the last one left
				assert.Equal(t, prev, g.Before[seat], "game %d, %s", i+1, b)
			}
			last[b] = g.After[seat]
		}
	}
	code, out, stderr = playRun(t, "ladder", "export", "--db", db)
	require.Equal(t, ExitOK, code, stderr)
	rows, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	require.NoError(t, err)
	require.Len(t, rows, 3)
	assert.Equal(t, exportHeader, rows[0])
	assert.Equal(t, games[1].Game, rows[2][1])

	s, err := ladder.Open(context.Background(), db)
	require.NoError(t, err)
	defer s.Close()
	h, err := s.History(context.Background(), "alice")
	require.NoError(t, err)
	for _, p := range h {
		assert.FileExists(t, filepath.Join(dir, "replays", p.Game.ID+".jsonl"))
	}
}

func TestServeLadderFlags(t *testing.T) {
	db := initLadder(t, filepath.Join(t.TempDir(), "ladder.db"))
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"ladder without db", []string{"serve", "--ladder"}, "--db"},
		{"db without ladder", []string{"serve", "--db", db}, "needs --ladder"},
		{"house AI", []string{"serve", "--ladder", "--db", db, "--house", "random"}, "rated listener pairs bots"},
		{"house program", []string{"serve", "--ladder", "--db", db, "--house", "exec:./bot {host} {port}"}, "rated listener pairs bots"},
		{"token without name", []string{"play", "--token", "kt_x"}, "--token needs --name"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("XDG_DATA_HOME", t.TempDir())
			code, _, stderr := playRun(t, tt.args...)
			assert.Equal(t, ExitUsage, code, stderr)
			assert.Contains(t, stderr, tt.want)
		})
	}
}

// TestPlaySaysItWaits: a bot alone on a rated listener says that it is
// waiting, and for what (another registered bot), instead of printing
// nothing until it is paired.
func TestPlaySaysItWaits(t *testing.T) {
	db := filepath.Join(t.TempDir(), "ladder.db")
	token := registerBot(t, db, "alice")
	dir := t.TempDir()
	addr, _ := serveRun(t, "--ladder", "--db", db, "--listen", "127.0.0.1:0", "--seed", "3",
		"--result-log", filepath.Join(dir, "results.jsonl"), "--replay-dir", filepath.Join(dir, "replays"))
	ctx, cancel := context.WithCancel(context.Background())
	var errb safeBuffer
	code := make(chan int, 1)
	go func() {
		code <- Run(ctx, []string{"play", "--addr", addr, "--name", "alice", "--token", token, "--seed", "1"}, strings.NewReader(""), io.Discard, &errb)
	}()
	require.Eventually(t, func() bool { return strings.Contains(errb.String(), "bot alice is waiting at "+addr) }, 20*time.Second, 10*time.Millisecond)
	cancel()
	require.Equal(t, ExitInterrupted, <-code, errb.String())
	require.Contains(t, errb.String(), "another registered bot must connect")
}
