package server

import (
	"bufio"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/internal/config"
)

// TestLimitsFromYAML sets every limit of configs/server.yaml in a config
// file and checks that the server enforces each one; and that the default
// address is a loopback address (a non-loopback one logs a warning:
// TestNonLoopbackWarning).
func TestLimitsFromYAML(t *testing.T) {
	checkLeaks(t)
	host, _, err := net.SplitHostPort(DefaultConfig().Listeners[0].Address)
	require.NoError(t, err)
	require.True(t, net.ParseIP(host).IsLoopback(), "binds a loopback address by default")

	dir := t.TempDir()
	// Loads one YAML config and starts a server with it.
	serve := func(name, limits string) (*testServer, Config) {
		yaml := `
listeners:
  - name: pair
    address: 127.0.0.1:0
  - name: house
    address: 127.0.0.1:0
    opponent: random
  - name: pair2
    address: 127.0.0.1:0
limits:
` + limits + `
result_log: ` + filepath.Join(dir, name+".jsonl") + `
replay_dir: ""
seed: 5
shutdown_grace: 1s
`
		path := filepath.Join(dir, name+".yaml")
		require.NoError(t, os.WriteFile(path, []byte(yaml), 0o644))
		cfg := DefaultConfig()
		require.NoError(t, config.Load(path, &cfg))
		return startServer(t, cfg), cfg
	}
	dial := func(addr string) (net.Conn, *bufio.Reader) {
		c, err := net.Dial("tcp", addr)
		require.NoError(t, err)
		t.Cleanup(func() { c.Close() })
		require.NoError(t, c.SetDeadline(time.Now().Add(10*time.Second)))
		return c, bufio.NewReader(c)
	}
	expect := func(r *bufio.Reader, want string) {
		t.Helper()
		got, err := r.ReadString('\n')
		require.NoError(t, err)
		require.Equal(t, want, strings.TrimSuffix(got, "\n"))
	}
	closed := func(r *bufio.Reader) {
		t.Helper()
		b, _ := io.ReadAll(r)
		require.Empty(t, b)
	}

	// The timeouts and the line length.
	ts, cfg := serve("times", `
  handshake_timeout: 300ms
  action_timeout: 300ms
  idle_timeout: 300ms
  max_line_bytes: 300`)
	want := DefaultLimits()
	want.HandshakeTimeout, want.ActionTimeout, want.IdleTimeout, want.MaxLineBytes = 300*time.Millisecond, 300*time.Millisecond, 300*time.Millisecond, 300
	require.Equal(t, want, cfg.Limits)
	pair, house := ts.addr(0), ts.addr(1)

	// idle_timeout: a client alone in the lobby is closed.
	start := time.Now()
	_, r := dial(pair)
	closed(r)
	require.GreaterOrEqual(t, time.Since(start), 300*time.Millisecond)
	require.Contains(t, ts.logs.String(), "no opponent within the idle timeout")

	// handshake_timeout: a silent client loses its game against the house.
	start = time.Now()
	c, r := dial(house)
	expect(r, greet)
	expect(r, "you lose")
	require.GreaterOrEqual(t, time.Since(start), 300*time.Millisecond)
	require.Equal(t, ReasonTimeout, ts.waitResults(t, 1)[0].Reason)
	c.Close()

	// action_timeout: a client that places but never acts loses.
	c, r = dial(house)
	expect(r, greet)
	io.WriteString(c, p1Place+"\n")
	expect(r, "your turn")
	start = time.Now()
	got, err := r.ReadString('\n')
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(got, `{"outcome":false`), got)
	require.GreaterOrEqual(t, time.Since(start), 300*time.Millisecond)
	require.Equal(t, ReasonTimeout, ts.waitResults(t, 2)[1].Reason)
	c.Close()

	// max_line_bytes: a line of 301 bytes loses.
	c, r = dial(house)
	expect(r, greet)
	io.WriteString(c, strings.Repeat("x", 301)+"\n")
	expect(r, "you lose")
	require.Equal(t, ReasonLineTooLong, ts.waitResults(t, 3)[2].Reason)
	c.Close()

	// The connection and game counts.
	ts, cfg = serve("counts", `
  max_connections: 4
  max_connections_per_ip: 3
  max_games: 2`)
	want = DefaultLimits()
	want.MaxConnections, want.MaxConnectionsPerIP, want.MaxGames = 4, 3, 2
	require.Equal(t, want, cfg.Limits)
	pair, house = ts.addr(0), ts.addr(1)

	// max_games: two games in their handshake; a third is refused.
	_, r1 := dial(house)
	_, r2 := dial(house)
	expect(r1, greet)
	expect(r2, greet)
	_, r3 := dial(house)
	closed(r3)
	require.Equal(t, int64(1), ts.metrics.rejected[rejectMaxGames].Load())

	// max_connections_per_ip: a client in the lobby is the third connection
	// from 127.0.0.1; a fourth is refused.
	dial(pair)
	waitConns(t, ts, 3)
	_, r4 := dial(pair)
	closed(r4)
	require.Equal(t, int64(1), ts.metrics.rejected[rejectPerIP].Load())

	// max_connections: from 127.0.0.2 (another address of this machine) a
	// fourth connection is admitted (it waits in another lobby), a fifth
	// is refused.
	other := func() *bufio.Reader {
		d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP("127.0.0.2")}}
		c, err := d.Dial("tcp", ts.addr(2))
		if err != nil {
			t.Skipf("no 127.0.0.2 on this machine: %v", err)
		}
		t.Cleanup(func() { c.Close() })
		require.NoError(t, c.SetDeadline(time.Now().Add(10*time.Second)))
		return bufio.NewReader(c)
	}
	other()
	waitConns(t, ts, 4)
	closed(other())
	require.Equal(t, int64(1), ts.metrics.rejected[rejectMaxConns].Load())
}
