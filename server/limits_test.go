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
	"github.com/kaisen-ai/kaisen/protocol"
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
	// refused: the one line that says why, then the close.
	refused := func(r *bufio.Reader, reason string) {
		t.Helper()
		b, _ := io.ReadAll(r)
		require.Equal(t, protocol.RefusedPrefix+reason+"\n", string(b))
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
	// (ipv4_prefix 32: per address, so that 127.0.0.2 below is another
	// network; TestPerPrefixLimit checks the /24.)
	ts, cfg = serve("counts", `
  max_connections: 4
  max_connections_per_ip: 3
  ipv4_prefix: 32
  max_games: 2`)
	want = DefaultLimits()
	want.MaxConnections, want.MaxConnectionsPerIP, want.MaxGames, want.IPv4Prefix = 4, 3, 2, 32
	require.Equal(t, want, cfg.Limits)
	pair, house = ts.addr(0), ts.addr(1)

	// max_games: two games in their handshake; a third is refused.
	_, r1 := dial(house)
	_, r2 := dial(house)
	expect(r1, greet)
	expect(r2, greet)
	_, r3 := dial(house)
	refused(r3, rejectMaxGames)
	require.Equal(t, int64(1), ts.metrics.rejected[rejectMaxGames].Load())
	// The refused connection is closed by the server after its line: until
	// then it still counts against the per-IP limit below.
	waitConns(t, ts, 2)

	// max_connections_per_ip: a client in the lobby is the third connection
	// from 127.0.0.1; a fourth is refused.
	dial(pair)
	waitConns(t, ts, 3)
	_, r4 := dial(pair)
	refused(r4, rejectPerIP)
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
	refused(other(), rejectMaxConns)
	require.Equal(t, int64(1), ts.metrics.rejected[rejectMaxConns].Load())
}

// TestNetKey: the per-IP limit counts a client's /24 (IPv4) or /64 (IPv6),
// or what the configuration says.
func TestNetKey(t *testing.T) {
	for _, tt := range []struct {
		ip     string
		v4, v6 int
		want   string
	}{
		{"127.0.0.1", 24, 64, "127.0.0.0/24"},
		{"127.0.0.2", 24, 64, "127.0.0.0/24"},
		{"127.0.1.2", 24, 64, "127.0.1.0/24"},
		{"127.0.0.2", 32, 64, "127.0.0.2/32"},
		{"10.1.2.3", 8, 64, "10.0.0.0/8"},
		{"::ffff:192.0.2.7", 24, 64, "192.0.2.0/24"}, // IPv4 mapped into IPv6 counts as IPv4
		{"2001:db8:1:2:3:4:5:6", 24, 64, "2001:db8:1:2::/64"},
		{"2001:db8:1:2:ffff::1", 24, 64, "2001:db8:1:2::/64"},
		{"2001:db8:1:3::1", 24, 64, "2001:db8:1:3::/64"},
		{"2001:db8:1:2:3:4:5:6", 24, 48, "2001:db8:1::/48"},
		{"fe80::1%eth0", 24, 64, "fe80::/64"},
		{"::1", 24, 128, "::1/128"},
		{"pipe", 24, 64, "pipe"},
	} {
		require.Equal(t, tt.want, netKey(tt.ip, tt.v4, tt.v6), "%s /%d /%d", tt.ip, tt.v4, tt.v6)
	}
}

// TestPerPrefixLimit: another address of the same /24 does not get around
// max_connections_per_ip (it did when the limit counted exact addresses);
// the refused client is told why in one line.
func TestPerPrefixLimit(t *testing.T) {
	checkLeaks(t)
	cfg := testConfig(t)
	cfg.Limits.MaxConnectionsPerIP = 1
	ts := startServer(t, cfg)
	c, err := net.Dial("tcp", ts.addr(0))
	require.NoError(t, err)
	defer c.Close()
	waitConns(t, ts, 1)
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP("127.0.0.2")}}
	o, err := d.Dial("tcp", ts.addr(0))
	if err != nil {
		t.Skipf("no 127.0.0.2 on this machine: %v", err)
	}
	defer o.Close()
	require.NoError(t, o.SetDeadline(time.Now().Add(10*time.Second)))
	b, _ := io.ReadAll(o)
	require.Equal(t, "refused: max_connections_per_ip\n", string(b))
	require.Equal(t, int64(1), ts.metrics.rejected[rejectPerIP].Load())
	require.True(t, hasLog(logRecords(t, ts.logs.String()), func(r map[string]any) bool {
		return r["msg"] == "connection refused" && r["network"] == "127.0.0.0/24" && r["reason"] == rejectPerIP
	}), "the log names the network")
}
