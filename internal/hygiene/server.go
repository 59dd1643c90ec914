package hygiene

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/kaisen-ai/kaisen/internal/web"
	"github.com/kaisen-ai/kaisen/server"
)

// ServerGame is one game for the TCP server: the listener that serves it
// (its opponent must be "pair", first-connected: seat 0 is the first
// connection and acts first) and the lines of each scripted client.
type ServerGame struct {
	Listener server.ListenerConfig
	// Seat is the seat whose wire lines are captured.
	Seat int
	// Hello[s] are the lines seat s sends in its handshake, one after each
	// of the first len(Hello[s]) lines it receives (a name, a placement).
	Hello [2][][]byte
	// Turns[s] are the lines seat s sends, one at each "your turn".
	Turns [2][][]byte
	// Resign is the seat whose last line of Turns ends the game (an
	// illegal action): the spectator's pages are fetched just before it
	// is sent, while the game is still running.
	Resign int
	// Abilities makes the clients speak the abilities protocol's
	// constant shape where the server's hello says version 2 or later: a
	// confirm line is answered ConfirmLine at the next "your turn",
	// outside the script, and after its own move a client sends its next
	// line without waiting for "your turn".
	Abilities bool
}

// ConfirmLine is the answer to an abilities confirm line
// (abwire.ConfirmAnswer as the wire has it).
const ConfirmLine = `{"defend":{"use":false}}`

// ServerOptions configures RunServer.
type ServerOptions struct {
	// Dir holds the run's result log and replays (a test's TempDir).
	Dir string
	// Seed is the server seed (the same for both games of a twin).
	Seed uint64
	// Log, when set, wraps the log handler of the run (a test plants a
	// leak with it).
	Log func(slog.Handler) slog.Handler
	// Reveal makes the spectator hub show both fleets during the game
	// (web.Reveal, kaisen serve --web-reveal: a leak by design, which a
	// test plants with it).
	Reveal bool
	// Wire, when set, rewrites each line the seat receives before it is
	// captured (a test plants a leak with it).
	Wire func(line string) string
}

// gameLink finds a game's live page on the list page.
var gameLink = regexp.MustCompile(`href="/games/([^"/]+)"`)

// RunServer plays g on a server started for it (on 127.0.0.1, port 0)
// with a web spectator hub watching it, and returns the capture of seat
// g.Seat's wire lines, the log records at INFO and above, the spectator's
// list and live pages fetched before g.Resign's last line, the list page
// after the end, and the game's whole event stream.
func RunServer(ctx context.Context, g ServerGame, opts ServerOptions) (Capture, error) {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	cfg := server.DefaultConfig()
	l := g.Listener
	l.Address = "127.0.0.1:0"
	cfg.Listeners = []server.ListenerConfig{l.WithDefaults()}
	cfg.ResultLog = filepath.Join(opts.Dir, "results.jsonl")
	cfg.ReplayDir = filepath.Join(opts.Dir, "replays")
	cfg.Seed = opts.Seed
	cfg.ShutdownGrace = 5 * time.Second
	cfg.Metrics = "127.0.0.1:0" // to see when the game is over (gamesOver)
	var logBuf syncBuffer
	s, err := server.New(cfg, captureLog(&logBuf, opts))
	if err != nil {
		return nil, fmt.Errorf("hygiene: server: %w", err)
	}
	var hubOpts []web.Option
	if opts.Reveal {
		hubOpts = append(hubOpts, web.Reveal())
	}
	hub := web.NewHub(cfg.ReplayDir, hubOpts...)
	s.Watch(hub)
	site := httptest.NewServer(hub.Handler())
	defer site.Close()
	if err := s.Listen(); err != nil {
		return nil, fmt.Errorf("hygiene: listen: %w", err)
	}
	sctx, stop := context.WithCancel(ctx)
	served := make(chan error, 1)
	go func() { served <- s.Serve(sctx) }()

	capt := Capture{}
	spec := &spectator{base: site.URL, ctx: ctx}
	var lines [2][]string
	var errs [2]error
	var wg sync.WaitGroup
	addr := s.Addrs()[0].String()
	for seat := range 2 {
		conn, err := (&net.Dialer{}).DialContext(ctx, "tcp", addr)
		if err != nil {
			stop()
			<-served
			return nil, fmt.Errorf("hygiene: dial seat %d: %w", seat, err)
		}
		// Seat 0 is the first connection: the kernel queues connections in
		// the order they were made and the server accepts and pairs them
		// in that order, in one goroutine.
		var pause func()
		if seat == g.Resign {
			pause = spec.during
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer conn.Close()
			lines[seat], errs[seat] = scripted(ctx, conn, g.Hello[seat], g.Turns[seat], g.Abilities, pause)
		}()
	}
	wg.Wait()
	if errs[0] != nil || errs[1] != nil {
		stop() // the game may not end: end the event stream with the server
	}
	spec.wait()
	var over error
	if errs[0] == nil && errs[1] == nil {
		over = gamesOver(ctx, "http://"+s.MetricsAddr().String()+"/metrics")
	}
	stop()
	serveErr := <-served
	if err := errors.Join(errs[0], errs[1], spec.err, over, serveErr); err != nil {
		return nil, fmt.Errorf("hygiene: run: %w", err)
	}
	after, err := spec.finished()
	if err != nil {
		return nil, err
	}
	dirs := []string{opts.Dir}
	for _, line := range lines[g.Seat] {
		if opts.Wire != nil {
			line = opts.Wire(line)
		}
		capt[ChannelWire] = append(capt[ChannelWire], Normalize(line, dirs...))
	}
	capt.Add(ChannelLog, Normalize(logBuf.String(), dirs...))
	capt.Add(ChannelPages, Normalize("GET / during the game\n"+spec.list+"\nGET /games/ID\n"+spec.live+"\nGET / after the end\n"+after, dirs...))
	capt.Add(ChannelSSE, Normalize(spec.events, dirs...))
	return capt, nil
}

// captureLog is the server's logger of a run: JSON records at INFO and
// above on buf, without their times, through opts.Log when set.
func captureLog(buf *syncBuffer, opts ServerOptions) *slog.Logger {
	var h slog.Handler = slog.NewJSONHandler(buf, &slog.HandlerOptions{
		Level: slog.LevelInfo,
		ReplaceAttr: func(groups []string, a slog.Attr) slog.Attr {
			if len(groups) == 0 && a.Key == slog.TimeKey {
				return slog.Attr{} // the clock says nothing about the game
			}
			return a
		},
	})
	if opts.Log != nil {
		h = opts.Log(h)
	}
	return slog.New(h)
}

// gamesOver waits until the metrics at url say no game is running: the
// clients have read their last line, but the server may still be closing
// the game (a shutdown now would log that it lets one game finish, in one
// run and not the other).
func gamesOver(ctx context.Context, url string) error {
	for {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if err != nil {
			return fmt.Errorf("hygiene: metrics: %w", err)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return fmt.Errorf("hygiene: metrics: %w", err)
		}
		b, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			return fmt.Errorf("hygiene: metrics: %w", err)
		}
		if strings.Contains(string(b), "\nkaisen_games_running 0\n") {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("hygiene: the game did not end: %w", ctx.Err())
		case <-time.After(2 * time.Millisecond):
		}
	}
}

// scripted is one client: it answers the first lines with hello, each
// "your turn" with the next of turns (calling pause, when set, before the
// last), and reads to the end of the connection. It returns every line
// received. With ab, it speaks the abilities protocol's constant shape
// (ServerGame.Abilities) when the hello says version 2 or later.
func scripted(ctx context.Context, conn net.Conn, hello, turns [][]byte, ab bool, pause func()) ([]string, error) {
	if dl, ok := ctx.Deadline(); ok {
		_ = conn.SetDeadline(dl)
	}
	rd := bufio.NewReaderSize(conn, 1<<16)
	var got []string
	send := func(b []byte) error {
		_, err := conn.Write(append(bytes.Clone(b), '\n'))
		return err
	}
	turn := 0
	next := func() error {
		if turn >= len(turns) {
			return fmt.Errorf("turn %d, the script has %d lines", turn+1, len(turns))
		}
		if turn == len(turns)-1 && pause != nil {
			pause()
		}
		if err := send(turns[turn]); err != nil {
			return fmt.Errorf("send turn %d: %w", turn+1, err)
		}
		turn++
		return nil
	}
	v2, confirm, moved := false, false, false
	for {
		line, err := rd.ReadString('\n')
		if errors.Is(err, io.EOF) && line == "" {
			return got, nil
		}
		if err != nil {
			return got, fmt.Errorf("read after %d lines: %w", len(got), err)
		}
		line = strings.TrimSuffix(line, "\n")
		got = append(got, line)
		switch {
		case len(got) == 1 && ab:
			v2 = !strings.Contains(line, `"version":1,`)
			fallthrough
		case len(got) <= len(hello):
			if err := send(hello[len(got)-1]); err != nil {
				return got, fmt.Errorf("send hello: %w", err)
			}
		case ab && strings.HasPrefix(line, `{"confirm":`):
			confirm = true
		case line == "your turn" && confirm:
			confirm = false
			if err := send([]byte(ConfirmLine)); err != nil {
				return got, fmt.Errorf("send confirm: %w", err)
			}
		case line == "your turn":
			if err := next(); err != nil {
				return got, err
			}
			moved = ab && bytes.HasPrefix(turns[turn-1], []byte(`{"move":`))
		case moved && v2 && strings.HasPrefix(line, `{"result":`): // the result of its own move
			if err := next(); err != nil {
				return got, err
			}
			moved = bytes.HasPrefix(turns[turn-1], []byte(`{"move":`))
		}
	}
}

// spectator is the web spectator of one game.
type spectator struct {
	base string
	ctx  context.Context

	list, live string // pages fetched during the game
	events     string // the game's event stream, read to its end
	done       chan struct{}
	err        error
}

// during fetches the pages and starts reading the event stream (from its
// first event) while the game waits for an action.
func (sp *spectator) during() {
	var err error
	if sp.list, err = sp.get("/"); err != nil {
		sp.err = err
		return
	}
	m := gameLink.FindStringSubmatch(sp.list)
	if m == nil { // every game has a live view
		sp.err = fmt.Errorf("hygiene: the list page does not link the running game:\n%s", sp.list)
		return
	}
	if sp.live, err = sp.get("/games/" + m[1]); err != nil {
		sp.err = err
		return
	}
	sp.done = make(chan struct{})
	go func() {
		defer close(sp.done)
		sp.events, sp.err = sp.get("/games/" + m[1] + "/events")
	}()
}

// wait waits for the event stream to end.
func (sp *spectator) wait() {
	if sp.done != nil {
		<-sp.done
	}
}

// finished is the list page once it lists the game as finished: the hub
// makes the page again at most once per web.Limits.ListMaxAge (1 s), and
// the last one was made during the game.
func (sp *spectator) finished() (string, error) {
	for {
		page, err := sp.get("/")
		if err != nil || strings.Contains(page, "<h2>Finished (1)</h2>") {
			return page, err
		}
		select {
		case <-sp.ctx.Done():
			return "", fmt.Errorf("hygiene: the list page does not show the game finished: %w", sp.ctx.Err())
		case <-time.After(50 * time.Millisecond):
		}
	}
}

func (sp *spectator) get(path string) (string, error) {
	req, err := http.NewRequestWithContext(sp.ctx, http.MethodGet, sp.base+path, nil)
	if err != nil {
		return "", fmt.Errorf("hygiene: GET %s: %w", path, err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return "", fmt.Errorf("hygiene: GET %s: %w", path, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return "", fmt.Errorf("hygiene: GET %s: %w", path, err)
	}
	return fmt.Sprintf("%d %s\n%s", resp.StatusCode, resp.Header.Get("Content-Type"), b), nil
}

// syncBuffer is a bytes.Buffer safe for concurrent writes.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
