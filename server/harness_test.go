package server

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
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

// checkLeaks fails the test if goroutines started during it are still
// running at its end (after every other cleanup, which run before it).
func checkLeaks(t *testing.T) {
	t.Helper()
	before := runtime.NumGoroutine()
	t.Cleanup(func() {
		deadline := time.Now().Add(5 * time.Second)
		for {
			n := runtime.NumGoroutine()
			if n <= before {
				return
			}
			if time.Now().After(deadline) {
				buf := make([]byte, 1<<20)
				buf = buf[:runtime.Stack(buf, true)]
				t.Errorf("goroutine leak: %d before, %d after\n%s", before, n, buf)
				return
			}
			time.Sleep(10 * time.Millisecond)
		}
	})
}

// logBuf collects JSON log records for assertions.
type logBuf struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *logBuf) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *logBuf) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

// testServer is a running server on 127.0.0.1 port 0.
type testServer struct {
	*Server
	cfg    Config
	logs   *logBuf
	cancel context.CancelFunc
	done   chan error
}

// testConfig is the default config on port 0 with files in a temp dir.
func testConfig(t *testing.T) Config {
	cfg := DefaultConfig()
	cfg.Listeners[0].Address = "127.0.0.1:0"
	dir := t.TempDir()
	cfg.ResultLog = filepath.Join(dir, "results.jsonl")
	cfg.ReplayDir = filepath.Join(dir, "replays")
	cfg.Seed = 1
	cfg.ShutdownGrace = 5 * time.Second
	return cfg
}

// startServer starts a server with cfg and stops it (gracefully) at cleanup.
func startServer(t *testing.T, cfg Config) *testServer {
	t.Helper()
	logs := &logBuf{}
	s, err := New(cfg, slog.New(slog.NewJSONHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug})))
	require.NoError(t, err)
	require.NoError(t, s.Listen())
	ctx, cancel := context.WithCancel(context.Background())
	ts := &testServer{Server: s, cfg: cfg, logs: logs, cancel: cancel, done: make(chan error, 1)}
	go func() { ts.done <- s.Serve(ctx) }()
	t.Cleanup(func() { ts.stop(t) })
	return ts
}

// stop cancels Serve and waits for it (idempotent).
func (ts *testServer) stop(t *testing.T) {
	t.Helper()
	ts.cancel()
	select {
	case err, ok := <-ts.done:
		if ok {
			require.NoError(t, err)
			close(ts.done)
		}
	case <-time.After(15 * time.Second):
		t.Fatal("Serve did not return")
	}
}

func (ts *testServer) addr(i int) string { return ts.Addrs()[i].String() }

// results reads the result log.
func (ts *testServer) results(t *testing.T) []Result {
	t.Helper()
	b, err := os.ReadFile(ts.cfg.ResultLog)
	require.NoError(t, err)
	var out []Result
	for _, line := range bytes.Split(bytes.TrimSpace(b), []byte("\n")) {
		if len(line) == 0 {
			continue
		}
		var r Result
		require.NoError(t, jsonUnmarshalStrict(line, &r), "result line %s", line)
		out = append(out, r)
	}
	return out
}

// waitResults waits until the result log has n lines.
func (ts *testServer) waitResults(t *testing.T, n int) []Result {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		rs := ts.results(t)
		if len(rs) >= n {
			return rs
		}
		if time.Now().After(deadline) {
			t.Fatalf("result log has %d lines, want %d", len(rs), n)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// ---- transcripts ----

// tevent is one line of a transcript as seen by one connection.
type tevent struct {
	fromServer bool
	eof        bool
	line       string
}

// section is one titled part of a transcript file.
type section struct {
	name   string // the title up to ":" (or the whole title)
	title  string
	events [2][]tevent
	elided bool   // contains "..." (lines left out)
	cut    [2]int // with elided: each connection's number of events before "..."
}

var eventRE = regexp.MustCompile(`^(P[12])  (S>C|C>S|--)  (.*)$`)

// loadTranscript parses a transcript file in the format of the reference
// capture.
func loadTranscript(t testing.TB, path string) []*section {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	var out []*section
	var cur *section
	lines := strings.Split(string(b), "\n")
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		if strings.HasPrefix(line, "=====") {
			if i+2 < len(lines) && strings.HasPrefix(lines[i+2], "=====") {
				title := lines[i+1]
				name, _, _ := strings.Cut(title, ":")
				cur = &section{name: strings.TrimSpace(name), title: title}
				out = append(out, cur)
				i += 2
			}
			continue
		}
		if cur == nil {
			continue
		}
		if line == "..." {
			cur.elided = true
			cur.cut = [2]int{len(cur.events[0]), len(cur.events[1])}
			continue
		}
		m := eventRE.FindStringSubmatch(line)
		if m == nil || m[2] == "--" {
			continue
		}
		p := 0
		if m[1] == "P2" {
			p = 1
		}
		ev := tevent{fromServer: m[2] == "S>C"}
		switch {
		case m[3] == "<EOF>":
			ev.eof = true
		case strings.HasSuffix(m[3], `\n`):
			ev.line = strings.TrimSuffix(m[3], `\n`)
		default:
			t.Fatalf("%s: line %d: no \\n at the end: %q", path, i+1, line)
		}
		cur.events[p] = append(cur.events[p], ev)
	}
	return out
}

func findSection(t testing.TB, secs []*section, name string) *section {
	t.Helper()
	for _, s := range secs {
		if s.name == name || strings.HasPrefix(s.title, name) {
			return s
		}
	}
	t.Fatalf("no transcript section %q", name)
	return nil
}

var longRE = regexp.MustCompile(`^<LONG (\d+)>$`)

// script plays one connection's side of a transcript: it sends the C>S lines
// and checks that every S>C line arrives byte for byte, then EOF. gate, when
// not nil, is waited on before the first line is sent.
func script(c net.Conn, evs []tevent, gate <-chan struct{}) error {
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(20 * time.Second))
	r := bufio.NewReader(c)
	for i, ev := range evs {
		switch {
		case ev.fromServer && ev.eof:
			got, err := r.ReadString('\n')
			if err == nil || got != "" {
				return fmt.Errorf("event %d: want EOF, got %q (err %v)", i, got, err)
			}
			if !errors.Is(err, io.EOF) {
				return fmt.Errorf("event %d: want EOF, got %v", i, err)
			}
		case ev.fromServer:
			got, err := r.ReadString('\n')
			if err != nil {
				return fmt.Errorf("event %d: want %q, got %q and %v", i, ev.line, got, err)
			}
			if want := ev.line + "\n"; got != want {
				return fmt.Errorf("event %d:\n got %q\nwant %q", i, got, want)
			}
		case ev.eof:
			return nil // the client closes (deferred)
		default:
			if gate != nil {
				<-gate
				gate = nil
			}
			line := ev.line
			if m := longRE.FindStringSubmatch(line); m != nil {
				n, _ := strconv.Atoi(m[1])
				line = strings.Repeat("x", n)
			}
			if _, err := io.WriteString(c, line+"\n"); err != nil {
				return fmt.Errorf("event %d: send %q: %w", i, ev.line, err)
			}
		}
	}
	return nil
}

// runSection connects P1 then P2 to addr and plays both sides of sec; it
// returns once both are done. gate1 delays P1's first line.
func runSection(addr string, sec *section, gate1 <-chan struct{}) error {
	var conns [2]net.Conn
	for p := range 2 {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			return err
		}
		// Dial returns once the TCP handshake is done, so P1 is in the
		// server's (FIFO) accept queue before P2 dials.
		conns[p] = c
	}
	errs := make(chan error, 2)
	for p := range 2 {
		var g <-chan struct{}
		if p == 0 {
			g = gate1
		}
		go func() {
			if err := script(conns[p], sec.events[p], g); err != nil {
				errs <- fmt.Errorf("P%d: %w", p+1, err)
				return
			}
			errs <- nil
		}()
	}
	return errors.Join(<-errs, <-errs)
}

// ---- random client ----

// randomClient plays every game the server offers on one connection with the
// random player and returns the end line of each game (without the series dot).
func randomClient(addr string, d protocol.Dialect, rules *submarine.Rules, seed uint64, name string) ([]protocol.End, error) {
	return playRandom(addr, d, rules, seed, name, clientOpts{})
}

// clientOpts vary randomClient's behaviour.
type clientOpts struct {
	think     time.Duration   // pause after "your turn" before acting
	quitAfter int             // close the connection at this own turn (from 1; 0 = never)
	atQuit    func()          // called at that turn before closing (it may block)
	conn      func(net.Conn)  // sees the connection once it is open
	last      *subwire.Result // gets the last result line
}

// errQuit is returned by playRandom when it closed the connection on purpose.
var errQuit = errors.New("client quit on purpose")

func playRandom(addr string, d protocol.Dialect, rules *submarine.Rules, seed uint64, name string, o clientOpts) ([]protocol.End, error) {
	c, err := net.Dial("tcp", addr)
	if err != nil {
		return nil, err
	}
	defer c.Close()
	if o.conn != nil {
		o.conn(c)
	}
	_ = c.SetDeadline(time.Now().Add(60 * time.Second))
	return playRandomConn(c, d, rules, seed, name, o)
}

// playRandomConn is playRandom on an open connection (left open).
func playRandomConn(c net.Conn, d protocol.Dialect, rules *submarine.Rules, seed uint64, name string, o clientOpts) ([]protocol.End, error) {
	turns := 0
	lr := protocol.NewLineReader(c, 1<<16)
	w := bufio.NewWriter(c)
	send := func(b []byte) error {
		w.Write(b)
		w.WriteByte('\n')
		return w.Flush()
	}
	rng := rand.New(rand.NewPCG(seed, 7))
	var ends []protocol.End
	for game := 0; ; game++ {
		line, err := lr.ReadLine()
		if errors.Is(err, io.EOF) && game > 0 {
			return ends, nil
		}
		if err != nil {
			return ends, fmt.Errorf("greeting: %w", err)
		}
		if _, _, err := protocol.ParseGreeting(line); err != nil {
			return ends, err
		}
		if d == protocol.SubmarinePy {
			if err := send([]byte(name)); err != nil {
				return ends, err
			}
			if _, err := lr.ReadLine(); err != nil {
				return ends, fmt.Errorf("field: %w", err)
			}
		}
		p := players.NewRandom(rules, rng)
		if err := send(subwire.EncodePlacement(d, rules, p.Place())); err != nil {
			return ends, err
		}
		for {
			line, err := lr.ReadLine()
			if err != nil {
				return ends, fmt.Errorf("game %d: %w", game+1, err)
			}
			s := string(line)
			mine := false
			switch s {
			case protocol.YourTurn:
				mine = true
				if turns++; turns == o.quitAfter {
					if o.atQuit != nil {
						o.atQuit()
					}
					return ends, errQuit
				}
				time.Sleep(o.think)
				// A server that has already decided the game (the other
				// side forfeited) may have closed: its answer is still
				// to be read.
				_ = send(subwire.EncodeAction(d, rules, p.Act()))
			case protocol.Waiting:
			default:
				e, last := protocol.ParseEnd(line)
				if e == protocol.NotEnd {
					return ends, fmt.Errorf("game %d: unexpected line %q", game+1, s)
				}
				ends = append(ends, e)
				if last {
					trailer := make([][]byte, 5)
					for i := range trailer {
						if trailer[i], err = lr.ReadLine(); err != nil {
							return ends, fmt.Errorf("trailer: %w", err)
						}
					}
					if _, err := protocol.ParseTrailer(trailer); err != nil {
						return ends, err
					}
				}
			}
			if s != protocol.YourTurn && s != protocol.Waiting {
				break
			}
			line, err = lr.ReadLine()
			if err != nil {
				return ends, fmt.Errorf("game %d: result: %w", game+1, err)
			}
			res, err := subwire.DecodeResult(d, line, rules, mine)
			if err != nil {
				return ends, err
			}
			if o.last != nil {
				*o.last = res
			}
			p.Observe(res.Event, &res.View)
		}
	}
}

// jsonUnmarshalStrict decodes one JSON value, rejecting unknown fields.
func jsonUnmarshalStrict(b []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	return dec.Decode(v)
}
