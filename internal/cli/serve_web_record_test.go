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
	"github.com/kaisen-ai/kaisen/server"
)

// TestServeWebPlayRecorded: kaisen serve wires the browser's games to the
// server's records: a game against the house AI started on the page (and
// lost on time here) is in the result log, with its replay file.
func TestServeWebPlayRecorded(t *testing.T) {
	dir := t.TempDir()
	web := freeAddr(t)
	results := filepath.Join(dir, "results.jsonl")
	_, stop := serveRun(t, "--listen", "127.0.0.1:0", "--house", "random", "--human-timeout", "1s", "--seed", "3",
		"--result-log", results, "--replay-dir", filepath.Join(dir, "replays"), "--web", web)
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
	require.Equal(t, "web", res.Listener)
	require.Equal(t, server.ReasonTimeout, res.Reason)
	require.Equal(t, 1, res.Winner)
	require.Equal(t, started.ID+".jsonl", res.Replay)
	rp, err := subrecord.ReadFile(filepath.Join(dir, "replays", res.Replay))
	require.NoError(t, err)
	require.NoError(t, subrecord.Verify(rp), "the replay of a game lost on time")
	require.Equal(t, "you (browser)", rp.Header.Players[0].Name)
}
