package cli

import (
	"bufio"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	subrecord "github.com/kaisen-ai/kaisen/game/submarine/record"
	"github.com/kaisen-ai/kaisen/games"
	"github.com/kaisen-ai/kaisen/server"
)

// TestServeWebPlayRecorded: kaisen serve wires the browser's games to the
// server's records, for the listener's game: a game against the house AI
// started on the page (and lost on time here) is in the result log, with
// its replay file, which verifies.
func TestServeWebPlayRecorded(t *testing.T) {
	for _, tt := range []struct {
		name  string
		args  []string
		house string
	}{
		{"submarine", []string{"--house", "random"}, "random"},
		{"battleship", []string{"--game", "battleship", "--house", "bs-random"}, "bs-random"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			res, replays := webGameRecorded(t, tt.args...)
			require.Equal(t, "web", res.Listener)
			require.Equal(t, server.ReasonTimeout, res.Reason)
			require.Equal(t, 1, res.Winner)
			require.Equal(t, [2]server.Peer{{Addr: "browser", Name: "you (browser)"}, {Addr: "house", Name: tt.house}}, res.Players)
			require.Equal(t, res.Game+".jsonl", res.Replay)
			g, err := games.Lookup(tt.name)
			require.NoError(t, err)
			rp, err := g.OpenReplay(filepath.Join(replays, res.Replay))
			require.NoError(t, err)
			require.NoError(t, rp.Verify(), "the replay of a game lost on time")
			if tt.name == "submarine" {
				sub, err := subrecord.ReadFile(filepath.Join(replays, res.Replay))
				require.NoError(t, err)
				require.Equal(t, "you (browser)", sub.Header.Players[0].Name)
				require.Len(t, sub.Steps, 1, "the late action, taken as an invalid one")
			}
		})
	}
}

// webGameRecorded runs kaisen serve --web with args, starts a game on its
// page that the person loses on time, and returns its result line and the
// replay directory.
func webGameRecorded(t *testing.T, args ...string) (server.Result, string) {
	t.Helper()
	dir := t.TempDir()
	web := freeAddr(t)
	results := filepath.Join(dir, "results.jsonl")
	_, stop := serveRun(t, append([]string{"--listen", "127.0.0.1:0", "--human-timeout", "1s", "--seed", "3",
		"--result-log", results, "--replay-dir", filepath.Join(dir, "replays"), "--web", web}, args...)...)
	var resp *http.Response
	require.Eventually(t, func() bool { // the web port opens after the listeners
		var err error
		resp, err = http.Post("http://"+web+"/play", "application/json", strings.NewReader("{}"))
		return err == nil
	}, 10*time.Second, 20*time.Millisecond)
	var started struct{ ID string }
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&started))
	resp.Body.Close()
	require.NotEmpty(t, started.ID)

	var res server.Result
	require.Eventually(t, func() bool {
		f, err := os.Open(results)
		if err != nil {
			return false
		}
		defer f.Close()
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			var r server.Result
			if json.Unmarshal(sc.Bytes(), &r) == nil && r.Game == started.ID {
				res = r
				return true
			}
		}
		return false
	}, 20*time.Second, 20*time.Millisecond, "the browser's game in the result log")
	code, serveErr := stop()
	require.Equal(t, ExitOK, code, serveErr)
	return res, filepath.Join(dir, "replays")
}
