package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestLoadtestAgainstServe(t *testing.T) {
	dir := t.TempDir()
	addr, stop := serveRun(t, "--listen", "127.0.0.1:0", "--house", "random", "--seed", "3",
		"--result-log", filepath.Join(dir, "r.jsonl"), "--replay-dir", "", "--max-connections-per-ip", "8")
	var out, errb strings.Builder
	code := Run(context.Background(), []string{"loadtest", "--addr", addr, "--games", "6", "--concurrency", "3", "--json"},
		strings.NewReader(""), &out, &errb)
	require.Equal(t, 0, code, errb.String())
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	require.Contains(t, lines[0], "actions/s")
	require.Contains(t, lines[0], "rtt p99 ms")
	var got map[string]float64
	require.NoError(t, json.Unmarshal([]byte(lines[len(lines)-1]), &got))
	require.Len(t, got, 6, lines[len(lines)-1])
	require.Equal(t, 6.0, got["games"])
	require.Equal(t, 0.0, got["errors"])
	require.Positive(t, got["actions_per_sec"])
	require.Positive(t, got["rtt_p50_ms"])
	require.GreaterOrEqual(t, got["rtt_p99_ms"], got["rtt_p50_ms"])

	// --server-pid: the server here is this process.
	out.Reset()
	code = Run(context.Background(), []string{"loadtest", "--addr", addr, "--games", "4", "--concurrency", "2", "--json",
		"--server-pid", strconv.Itoa(os.Getpid())}, strings.NewReader(""), &out, &errb)
	require.Equal(t, 0, code, errb.String())
	require.Contains(t, out.String(), "µs per action")
	lines = strings.Split(strings.TrimSpace(out.String()), "\n")
	got = nil
	require.NoError(t, json.Unmarshal([]byte(lines[len(lines)-1]), &got))
	require.Len(t, got, 8, lines[len(lines)-1])
	require.Contains(t, got, "server_cpu_s")
	require.GreaterOrEqual(t, got["server_cpu_us_per_action"], 0.0)
	code, stderr := stop()
	require.Equal(t, 0, code, stderr)
}

// TestServeConnectionLimitFlag: --max-connections-per-ip refuses the
// connection over the limit at once, with one line saying why.
func TestServeConnectionLimitFlag(t *testing.T) {
	addr, _ := serveRun(t, "--listen", "127.0.0.1:0", "--house", "random", "--result-log", "", "--replay-dir", "",
		"--max-connections-per-ip", "1")
	a, err := net.Dial("tcp", addr)
	require.NoError(t, err)
	defer a.Close()
	line, err := bufio.NewReader(a).ReadString('\n')
	require.NoError(t, err)
	require.Equal(t, "you are connected. please send me initial state.\n", line)
	b, err := net.Dial("tcp", addr)
	require.NoError(t, err)
	defer b.Close()
	require.NoError(t, b.SetDeadline(time.Now().Add(10*time.Second)))
	br := bufio.NewReader(b)
	line, err = br.ReadString('\n')
	require.NoError(t, err)
	require.Equal(t, "refused: max_connections_per_ip\n", line)
	_, err = br.ReadString('\n')
	require.Error(t, err, "the second connection from the same IP is closed")
}

func TestLoadtestErrors(t *testing.T) {
	for _, args := range [][]string{
		{"loadtest", "--games", "0"},
		{"loadtest", "--player", "nobody"},
	} {
		var out, errb strings.Builder
		require.NotEqual(t, 0, Run(context.Background(), args, strings.NewReader(""), &out, &errb), args)
		require.Contains(t, errb.String(), "kaisen:")
	}
	var out, errb strings.Builder
	require.Equal(t, 0, Run(context.Background(), []string{"loadtest", "--help"}, strings.NewReader(""), &out, &errb))
	require.Contains(t, out.String(), "Little's law")
	require.Contains(t, out.String(), "--concurrency")
}

// TestLoadtestEveryGame load-tests a Battleship and an abilities server
// with --game: every game finishes, none fails, and the actions are
// counted; an unknown game is a usage error.
func TestLoadtestEveryGame(t *testing.T) {
	for _, tc := range []struct{ game, house string }{{"battleship", "bs-random"}, {"abilities", "ab-random"}} {
		t.Run(tc.game, func(t *testing.T) {
			addr, _ := serveRun(t, "--listen", "127.0.0.1:0", "--game", tc.game, "--house", tc.house, "--seed", "3",
				"--result-log", "", "--replay-dir", "", "--max-connections-per-ip", "8")
			var out, errb strings.Builder
			code := Run(context.Background(), []string{"loadtest", "--game", tc.game, "--addr", addr, "--games", "4", "--concurrency", "2", "--json"},
				strings.NewReader(""), &out, &errb)
			require.Equal(t, 0, code, errb.String())
			lines := strings.Split(strings.TrimSpace(out.String()), "\n")
			var got map[string]float64
			require.NoError(t, json.Unmarshal([]byte(lines[len(lines)-1]), &got))
			require.Equal(t, 4.0, got["games"])
			require.Equal(t, 0.0, got["errors"])
			require.Positive(t, got["actions_per_sec"])
		})
	}
	var out, errb strings.Builder
	require.Equal(t, 2, Run(context.Background(), []string{"loadtest", "--game", "chess"}, strings.NewReader(""), &out, &errb))
	require.Contains(t, errb.String(), "--game")
}
