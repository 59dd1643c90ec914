package server

import (
	"bufio"
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/require"
)

// pipeListener is an in-memory net.Listener: Dial hands the server one end
// of a net.Pipe. Inside a synctest bubble its deadlines run on the fake clock.
type pipeListener struct {
	conns  chan net.Conn
	closed chan struct{}
	once   sync.Once
}

func newPipeListener() *pipeListener {
	return &pipeListener{conns: make(chan net.Conn), closed: make(chan struct{})}
}

func (l *pipeListener) Accept() (net.Conn, error) {
	select {
	case c := <-l.conns:
		return c, nil
	case <-l.closed:
		return nil, net.ErrClosed
	}
}

func (l *pipeListener) Close() error {
	l.once.Do(func() { close(l.closed) })
	return nil
}

func (l *pipeListener) Addr() net.Addr { return pipeAddr{} }

func (l *pipeListener) dial() *pipeClient {
	srv, cli := net.Pipe()
	l.conns <- srv
	return &pipeClient{c: cli, r: bufio.NewReader(cli)}
}

type testWriter struct{ t *testing.T }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimSpace(string(p)))
	return len(p), nil
}

type pipeAddr struct{}

func (pipeAddr) Network() string { return "pipe" }
func (pipeAddr) String() string  { return "pipe" }

type pipeClient struct {
	c net.Conn
	r *bufio.Reader
}

func (p *pipeClient) send(t *testing.T, line string) {
	t.Helper()
	_, err := io.WriteString(p.c, line+"\n")
	require.NoError(t, err)
}

func (p *pipeClient) expect(t *testing.T, lines ...string) {
	t.Helper()
	for _, want := range lines {
		got, err := p.r.ReadString('\n')
		require.NoError(t, err)
		require.Equal(t, want, strings.TrimSuffix(got, "\n"))
	}
}

func (p *pipeClient) expectEOF(t *testing.T) {
	t.Helper()
	got, err := p.r.ReadString('\n')
	require.True(t, errors.Is(err, io.EOF), "want EOF, got %q, %v", got, err)
}

// startPipeServer runs a server on a pipe listener inside the current bubble.
func startPipeServer(t *testing.T, cfg Config) (*pipeListener, func()) {
	pl := newPipeListener()
	s, err := New(cfg, slog.New(slog.NewTextHandler(testWriter{t}, &slog.HandlerOptions{Level: slog.LevelDebug})))
	require.NoError(t, err)
	s.listen = func(string, string) (net.Listener, error) { return pl, nil }
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Serve(ctx) }()
	return pl, func() {
		cancel()
		require.NoError(t, <-done)
	}
}

const (
	p1Place = `{"w":[0,0],"c":[2,0],"s":[4,0]}`
	p2Place = `{"w":[1,1],"c":[3,1],"s":[0,2]}`
	p1Cond  = `{"me":{"w":{"hp":3,"position":[0,0]},"c":{"hp":2,"position":[2,0]},"s":{"hp":1,"position":[4,0]}},"enemy":{"w":{"hp":3},"c":{"hp":2},"s":{"hp":1}}}`
	p2Cond  = `{"me":{"w":{"hp":3,"position":[1,1]},"c":{"hp":2,"position":[3,1]},"s":{"hp":1,"position":[0,2]}},"enemy":{"w":{"hp":3},"c":{"hp":2},"s":{"hp":1}}}`
	greet   = "you are connected. please send me initial state."
)

// placedPair starts a server with a 10 s action timeout on a pipe
// listener and plays two clients' handshake up to P1's "your turn" (P2's
// "waiting" is left unread).
func placedPair(t *testing.T) (p1, p2 *pipeClient, stop func()) {
	t.Helper()
	cfg := testConfig(t)
	cfg.Limits.ActionTimeout = 10 * time.Second
	pl, stop := startPipeServer(t, cfg)
	p1, p2 = pl.dial(), pl.dial()
	p1.expect(t, greet)
	p2.expect(t, greet)
	p1.send(t, p1Place)
	p2.send(t, p2Place)
	p1.expect(t, "your turn")
	return p1, p2, stop
}

func TestActionTimeout(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p1, p2, stop := placedPair(t)
		defer stop()
		start := time.Now()
		// P1 says nothing; P2 waits. (A pipe has no buffer: each line is
		// read in the order the server writes it.)
		p2.expect(t, "waiting")
		p1.expect(t, `{"outcome":false,"condition":`+p1Cond+`}`)
		require.Equal(t, 10*time.Second, time.Since(start), "the forfeit comes exactly at the action timeout")
		p2.expect(t, `{"outcome":true,"condition":`+p2Cond+`}`, "you win")
		p1.expect(t, "you lose")
		p1.expectEOF(t)
		p2.expectEOF(t)
	})
}

// TestActionTimeoutAfterActions: the action timeout runs from each "your
// turn", also when the timer is left running from the actions before
// (awaitMove arms it lazily): P1 acts after 7 s, P2 after 6 s, then P1 is
// silent and forfeits exactly 10 s after its second "your turn".
func TestActionTimeoutAfterActions(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p1, p2, stop := placedPair(t)
		defer stop()
		p2.expect(t, "waiting")
		prefix := func(p *pipeClient, want string) {
			t.Helper()
			got, err := p.r.ReadString('\n')
			require.NoError(t, err)
			require.True(t, strings.HasPrefix(got, want), "got %q, want %s...", got, want)
		}
		time.Sleep(7 * time.Second)
		p1.send(t, `{"attack":{"to":[1,1]}}`)
		prefix(p1, `{"result":{"attacked"`) // the mover's lines go out first
		p1.expect(t, "waiting")
		prefix(p2, `{"result":{"attacked"`)
		p2.expect(t, "your turn")
		time.Sleep(6 * time.Second)
		p2.send(t, `{"attack":{"to":[0,1]}}`)
		start := time.Now()
		prefix(p2, `{"result":{"attacked"`)
		p2.expect(t, "waiting")
		prefix(p1, `{"result":{"attacked"`)
		p1.expect(t, "your turn")
		prefix(p1, `{"outcome":false,`)
		require.Equal(t, 10*time.Second, time.Since(start), "the forfeit comes exactly at the action timeout")
		prefix(p2, `{"outcome":true,`)
		p2.expect(t, "you win")
		p1.expect(t, "you lose")
		p1.expectEOF(t)
		p2.expectEOF(t)
	})
}

func TestHandshakeTimeout(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := testConfig(t)
		cfg.Limits.HandshakeTimeout = 30 * time.Second
		pl, stop := startPipeServer(t, cfg)
		defer stop()
		start := time.Now()
		p1, p2 := pl.dial(), pl.dial()
		p1.expect(t, greet)
		p2.expect(t, greet)
		p2.send(t, p2Place) // P1 never places
		p2.expect(t, "waiting", `{"outcome":true,"condition":`+p2Cond+`}`)
		require.Equal(t, 30*time.Second, time.Since(start))
		p1.expect(t, "you lose")
		p2.expect(t, "you win")
		p1.expectEOF(t)
		p2.expectEOF(t)
	})
}

func TestIdleTimeout(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := testConfig(t)
		cfg.Limits.IdleTimeout = 5 * time.Minute
		pl, stop := startPipeServer(t, cfg)
		defer stop()
		start := time.Now()
		lonely := pl.dial()
		lonely.expectEOF(t)
		require.Equal(t, 5*time.Minute, time.Since(start))
		// The lobby is empty again: the next two clients play each other.
		p1, p2 := pl.dial(), pl.dial()
		p1.expect(t, greet)
		p2.expect(t, greet)
		p1.c.Close()
		p2.c.Close()
	})
}

// TestWriteTimeout: a client that stops reading cannot block its game
// forever; a write that does not complete within the action timeout loses
// the game at once, even while the client is waiting.
func TestWriteTimeout(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p1, p2, stop := placedPair(t)
		defer stop()
		// P2 never reads "waiting" (a pipe has no buffer): the server gives
		// up on P2 after the timeout, before P1's action is read.
		start := time.Now()
		p1.send(t, `{"attack":{"to":[1,1]}}`)
		p1.expect(t, `{"outcome":true,"condition":`+p1Cond+`}`, "you win")
		require.Equal(t, 10*time.Second, time.Since(start))
		p1.expectEOF(t)
		p2.c.Close()
	})
}

// TestSlowloris: a client that sends its action one byte per second loses
// at the action timeout, however much it has sent by then; so does one that
// sends its placement that way.
func TestSlowloris(t *testing.T) {
	drip := func(t *testing.T, c net.Conn, line string) {
		for i := range len(line) {
			if _, err := c.Write([]byte{line[i]}); err != nil {
				return // the server closed the connection
			}
			time.Sleep(time.Second)
		}
	}
	t.Run("action", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			cfg := testConfig(t)
			cfg.Limits.ActionTimeout = 10 * time.Second
			pl, stop := startPipeServer(t, cfg)
			defer stop()
			p1, p2 := pl.dial(), pl.dial()
			p1.expect(t, greet)
			p2.expect(t, greet)
			p1.send(t, p1Place)
			p2.send(t, p2Place)
			p1.expect(t, "your turn")
			p2.expect(t, "waiting")
			start := time.Now()
			dripped := make(chan struct{})
			go func() { drip(t, p1.c, `{"attack":{"to":[1,1]}}`+"\n"); close(dripped) }()
			p1.expect(t, `{"outcome":false,"condition":`+p1Cond+`}`)
			require.Equal(t, 10*time.Second, time.Since(start))
			p2.expect(t, `{"outcome":true,"condition":`+p2Cond+`}`, "you win")
			p1.expect(t, "you lose")
			p1.expectEOF(t)
			p2.expectEOF(t)
			<-dripped
			p1.c.Close()
		})
	})
	t.Run("placement", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			cfg := testConfig(t)
			cfg.Limits.HandshakeTimeout = 30 * time.Second
			pl, stop := startPipeServer(t, cfg)
			defer stop()
			start := time.Now()
			p1, p2 := pl.dial(), pl.dial()
			p1.expect(t, greet)
			p2.expect(t, greet)
			dripped := make(chan struct{})
			go func() { drip(t, p1.c, p1Place+"\n"); close(dripped) }()
			p2.send(t, p2Place)
			p2.expect(t, "waiting", `{"outcome":true,"condition":`+p2Cond+`}`)
			require.Equal(t, 30*time.Second, time.Since(start))
			p1.expect(t, "you lose")
			p2.expect(t, "you win")
			p1.expectEOF(t)
			p2.expectEOF(t)
			<-dripped
			p1.c.Close()
		})
	})
}

// TestIdleTimeoutAfterEarlyData: a client that sends its placement before
// it is greeted (which the lobby keeps for its game) is still closed at the
// idle timeout when no opponent comes, and one that floods the lobby is
// closed at once.
func TestIdleTimeoutAfterEarlyData(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := testConfig(t)
		cfg.Limits.IdleTimeout = 5 * time.Minute
		pl, stop := startPipeServer(t, cfg)
		defer stop()
		start := time.Now()
		early := pl.dial()
		early.send(t, p1Place)
		early.expectEOF(t)
		require.Equal(t, 5*time.Minute, time.Since(start))

		start = time.Now()
		flood := pl.dial()
		for _, line := range []string{"a", "b", "c"} {
			if _, err := io.WriteString(flood.c, line+"\n"); err != nil {
				break
			}
		}
		flood.expectEOF(t)
		require.Zero(t, time.Since(start))
	})
}

// TestEarlyPlacementIsKept: a placement sent before the greeting is the
// client's placement once an opponent comes.
func TestEarlyPlacementIsKept(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		pl, stop := startPipeServer(t, testConfig(t))
		defer stop()
		p1 := pl.dial()
		p1.send(t, p1Place)
		time.Sleep(time.Minute)
		p2 := pl.dial()
		p1.expect(t, greet)
		p2.expect(t, greet)
		p2.send(t, p2Place)
		p1.expect(t, "your turn")
		p2.expect(t, "waiting")
		p1.send(t, `{"attack":{"to":[1,1]}}`)
		p1.expect(t, `{"result":{"attacked":{"position":[1,1],"hit":"w","near":["s"]}},"condition":{"me":{"w":{"hp":3,"position":[0,0]},"c":{"hp":2,"position":[2,0]},"s":{"hp":1,"position":[4,0]}},"enemy":{"w":{"hp":2},"c":{"hp":2},"s":{"hp":1}}}}`)
		p1.c.Close()
		p2.c.Close()
	})
}

// TestMetricsEndpointLimits: the metrics endpoint keeps at most
// max_metrics_connections open (one more is closed at once), closes a
// kept-alive connection idle for metricsIdleTimeout and one that sends no
// request within metricsHeaderTimeout, and the game listener goes on
// accepting meanwhile. (389 idle keep-alive connections used up the file
// descriptors and shut the game port out.)
func TestMetricsEndpointLimits(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := testConfig(t)
		cfg.Metrics = "127.0.0.1:9100" // not bound: s.listen is a pipe
		cfg.Limits.MaxMetricsConnections = 2
		game, mln := newPipeListener(), newPipeListener()
		s, err := New(cfg, slog.New(slog.NewTextHandler(testWriter{t}, nil)))
		require.NoError(t, err)
		s.listen = func(_, addr string) (net.Listener, error) {
			if addr == cfg.Metrics {
				return mln, nil
			}
			return game, nil
		}
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() { done <- s.Serve(ctx) }()
		defer func() {
			cancel()
			require.NoError(t, <-done)
		}()
		get := func(p *pipeClient) {
			t.Helper()
			_, err := io.WriteString(p.c, "GET /healthz HTTP/1.1\r\nHost: kaisen\r\n\r\n")
			require.NoError(t, err)
			resp, err := http.ReadResponse(p.r, nil)
			require.NoError(t, err)
			b, err := io.ReadAll(resp.Body)
			require.NoError(t, err)
			require.NoError(t, resp.Body.Close())
			require.Equal(t, "ok\n", string(b))
		}

		start := time.Now()
		a := mln.dial()
		get(a) // kept alive
		silent := mln.dial()
		over := mln.dial()
		over.expectEOF(t) // the third is closed at once
		require.Zero(t, time.Since(start))
		require.Equal(t, int64(1), s.metrics.rejected[rejectMetrics].Load())

		// The game listener still accepts and plays.
		p1, p2 := game.dial(), game.dial()
		p1.expect(t, greet)
		p2.expect(t, greet)

		silent.expectEOF(t)
		require.Equal(t, metricsHeaderTimeout, time.Since(start), "no request: closed at the header timeout")
		a.expectEOF(t)
		require.Equal(t, metricsIdleTimeout, time.Since(start), "idle keep-alive: closed at the idle timeout")
		get(mln.dial()) // the slots are free again
		require.Equal(t, int64(1), s.metrics.rejected[rejectMetrics].Load())
		p1.c.Close()
		p2.c.Close()
	})
}
