package cli

import (
	"bufio"
	"context"
	"math/rand/v2"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/game/submarine"
	subwire "github.com/kaisen-ai/kaisen/game/submarine/wire"
	"github.com/kaisen-ai/kaisen/players"
	"github.com/kaisen-ai/kaisen/protocol"
)

// lineSink is an io.Writer that hands every complete line to a channel.
type lineSink struct {
	mu    sync.Mutex
	buf   strings.Builder
	lines chan string
}

func (s *lineSink) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.buf.Write(p)
	for {
		str := s.buf.String()
		i := strings.IndexByte(str, '\n')
		if i < 0 {
			break
		}
		s.lines <- str[:i]
		s.buf.Reset()
		s.buf.WriteString(str[i+1:])
	}
	return len(p), nil
}

var listeningRE = regexp.MustCompile(`^listening on (\S+) `)

// serveRun starts kaisen serve with args and returns the first listener's
// address and a stop function returning the exit code and stderr.
func serveRun(t *testing.T, args ...string) (string, func() (int, string)) {
	t.Helper()
	t.Setenv("XDG_DATA_HOME", t.TempDir()) // never the user's data directory
	ctx, cancel := context.WithCancel(context.Background())
	out := &lineSink{lines: make(chan string, 16)}
	var errb safeBuffer
	code := make(chan int, 1)
	go func() { code <- Run(ctx, append([]string{"serve"}, args...), strings.NewReader(""), out, &errb) }()
	var addr string
	select {
	case line := <-out.lines:
		m := listeningRE.FindStringSubmatch(line)
		require.NotNil(t, m, "first line %q", line)
		addr = m[1]
	case c := <-code:
		cancel()
		t.Fatalf("kaisen serve exited with %d: %s", c, errb.String())
	case <-time.After(10 * time.Second):
		t.Fatal("kaisen serve did not start")
	}
	stopped := false
	var result int
	stop := func() (int, string) {
		if !stopped {
			stopped = true
			cancel()
			select {
			case result = <-code:
			case <-time.After(15 * time.Second):
				t.Fatal("kaisen serve did not stop")
			}
		}
		return result, errb.String()
	}
	t.Cleanup(func() { stop() })
	return addr, stop
}

type safeBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (b *safeBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *safeBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// serveClient plays one classic game with the random player and returns its
// end line.
func serveClient(t *testing.T, addr string, seed uint64) string {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	require.NoError(t, err)
	defer c.Close()
	require.NoError(t, c.SetDeadline(time.Now().Add(30*time.Second)))
	rules := submarine.DefaultRules()
	lr := protocol.NewLineReader(c, 1<<16)
	send := func(b []byte) { _, err := c.Write(append(b, '\n')); require.NoError(t, err) }
	line, err := lr.ReadLine()
	require.NoError(t, err)
	require.Equal(t, protocol.Classic.Greeting(), string(line))
	p := players.NewRandom(rules, rand.New(rand.NewPCG(seed, 1)))
	send(subwire.EncodePlacement(protocol.Classic, rules, p.Place()))
	for {
		line, err := lr.ReadLine()
		require.NoError(t, err)
		mine := string(line) == protocol.YourTurn
		if !mine && string(line) != protocol.Waiting {
			return string(line)
		}
		if mine {
			send(subwire.EncodeAction(protocol.Classic, rules, p.Act()))
		}
		line, err = lr.ReadLine()
		require.NoError(t, err)
		res, err := subwire.DecodeResult(protocol.Classic, line, rules, mine)
		require.NoError(t, err)
		p.Observe(res.Event, &res.View)
	}
}

func TestServeHouseAI(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "results.jsonl")
	addr, stop := serveRun(t, "--listen", "127.0.0.1:0", "--house", "random", "--seed", "9",
		"--result-log", log, "--replay-dir", filepath.Join(dir, "replays"), "--log-format", "json")
	for i := range 2 {
		end := serveClient(t, addr, uint64(i))
		require.Contains(t, []string{"you win", "you lose", "even"}, end)
	}
	code, stderr := stop()
	require.Equal(t, 0, code, stderr)
	b, err := os.ReadFile(log)
	require.NoError(t, err)
	require.Equal(t, 2, strings.Count(string(b), "\n"))
	require.Contains(t, string(b), `"name":"random"`)
	require.Contains(t, stderr, `"msg":"game over"`)
	require.Contains(t, stderr, `"seeds":"the configured seed`)
	require.NotContains(t, stderr, `"seed":9,`, "the configured seed is never logged (only each game's own)")
	require.Regexp(t, `"msg":"game over".*"seed":\d+`, stderr)
	replays, err := os.ReadDir(filepath.Join(dir, "replays"))
	require.NoError(t, err)
	require.Len(t, replays, 2)
}

func TestServePairsClientsFromConfigFile(t *testing.T) {
	dir := t.TempDir()
	addr, stop := serveRun(t, "--config", "../../configs/server.yaml", "--listen", "127.0.0.1:0",
		"--result-log", filepath.Join(dir, "r.jsonl"), "--replay-dir", "")
	greeting := make(chan string, 1)
	c1, err := net.Dial("tcp", addr) // the first connection is seat 0
	require.NoError(t, err)
	go func() {
		// Seat 0 only reads the greeting and leaves: seat 1 wins by forfeit.
		defer c1.Close()
		line, _ := bufio.NewReader(c1).ReadString('\n')
		greeting <- line
	}()
	require.Equal(t, "you win", serveClient(t, addr, 3))
	require.Equal(t, protocol.Classic.Greeting()+"\n", <-greeting)
	code, stderr := stop()
	require.Equal(t, 0, code, stderr)
	require.Contains(t, stderr, "msg=forfeit")
}

func TestServeBadFlags(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"--dialect", "ruby"}, `dialect "ruby"`},
		{[]string{"--width", "6"}, "classic dialect plays on the plain 5x5 board"},
		{[]string{"--first", "never"}, `first "never"`},
		{[]string{"--house", "nobody"}, `opponent "nobody"`},
		{[]string{"--series", "0"}, "--series 0: want at least 1"},
		{[]string{"--dialect", "submarine-py", "--series", "2"}, "series (games > 1) needs the classic dialect"},
		{[]string{"--dialect", "submarine-py", "--rocks", "9,9"}, "rock [9,9] is off the 5x5 board"},
		{[]string{"--action-timeout", "0s"}, "limits.action_timeout"},
		{[]string{"--max-games", "0"}, "limits.max_games is 0"},
		{[]string{"--max-line-bytes", "10"}, "limits.max_line_bytes is 10"},
		{[]string{"--config", "no-such-file.yaml"}, "no-such-file.yaml"},
		{[]string{"--listen", "127.0.0.1:0", "extra"}, "unknown command"},
	} {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			var out, errb strings.Builder
			code := Run(context.Background(), append([]string{"serve"}, tt.args...), strings.NewReader(""), &out, &errb)
			require.NotEqual(t, 0, code)
			require.Contains(t, errb.String(), tt.want)
		})
	}
}

func TestServeListenerFlagsNeedOneListener(t *testing.T) {
	cfgPath := filepath.Join(t.TempDir(), "two.yaml")
	require.NoError(t, os.WriteFile(cfgPath, []byte("listeners:\n  - address: 127.0.0.1:0\n  - address: 127.0.0.1:0\n    name: b\n"), 0o644))
	var out, errb strings.Builder
	code := Run(context.Background(), []string{"serve", "--config", cfgPath, "--house", "random"}, strings.NewReader(""), &out, &errb)
	require.Equal(t, 2, code)
	require.Contains(t, errb.String(), "--house describe one listener, but the config has 2")
}

func TestServeHelp(t *testing.T) {
	var out, errb strings.Builder
	require.Equal(t, 0, Run(context.Background(), []string{"serve", "--help"}, strings.NewReader(""), &out, &errb))
	for _, want := range []string{"Examples:", "--house stateplayer2", "--dialect submarine-py", "--shutdown-grace", "--metrics"} {
		require.Contains(t, out.String(), want)
	}
}
