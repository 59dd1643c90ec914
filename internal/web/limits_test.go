package web_test

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/game/battleship"
	"github.com/kaisen-ai/kaisen/internal/web"
	"github.com/kaisen-ai/kaisen/server"
)

// serveLimited serves hub as kaisen serve --web does (Server on Listener)
// and returns its address.
func serveLimited(t *testing.T, hub *web.Hub) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	srv := hub.Server()
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = srv.Serve(hub.Listener(ln))
	}()
	t.Cleanup(func() {
		_ = srv.Close()
		<-done
	})
	return ln.Addr().String()
}

// closedWithin reads c until it is closed and returns how long that took
// (at most limit, else the test fails) and what was read.
func closedWithin(t *testing.T, c net.Conn, limit time.Duration) (time.Duration, string) {
	t.Helper()
	start := time.Now()
	require.NoError(t, c.SetReadDeadline(start.Add(limit)))
	b, err := io.ReadAll(c)
	if !errors.Is(err, syscall.ECONNRESET) { // closed while the client still sends: reset
		require.NoError(t, err, "the server closes the connection within %v", limit)
	}
	return time.Since(start), string(b)
}

// TestWebSlowRequests: a trickled body and a chunked POST /play that never
// ends are cut at ReadTimeout; a header never finished at
// ReadHeaderTimeout.
func TestWebSlowRequests(t *testing.T) {
	const timeout = 300 * time.Millisecond
	hub := web.NewHub("", web.Play(web.PlayOptions{House: "random", Timeout: time.Minute}),
		web.WithLimits(web.Limits{ReadTimeout: timeout, ReadHeaderTimeout: timeout, Rate: -1}))
	addr := serveLimited(t, hub)
	for _, tt := range []struct {
		name, head string
		trickle    string // sent a byte every 50 ms, for 5 s
	}{
		{"trickled body", "POST /play HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n", strings.Repeat(" ", 100)},
		{"chunked body never ended", "POST /play HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n", strings.Repeat("1\r\n \r\n", 20)},
		{"trickled action", "POST /play/web-X/act HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n", strings.Repeat(" ", 100)},
		{"trickled header", "GET / HTTP/1.1\r\n", strings.Repeat("X-A: b\r\n", 20)},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c, err := net.Dial("tcp", addr)
			require.NoError(t, err)
			defer c.Close()
			_, err = io.WriteString(c, tt.head)
			require.NoError(t, err)
			stop := make(chan struct{})
			defer close(stop)
			go func() {
				for i := range len(tt.trickle) {
					select {
					case <-stop:
						return
					case <-time.After(50 * time.Millisecond):
					}
					if _, err := c.Write([]byte{tt.trickle[i]}); err != nil {
						return
					}
				}
			}()
			took, _ := closedWithin(t, c, 3*time.Second)
			require.Less(t, took, timeout+time.Second)
		})
	}
}

// TestWebConnectionCap: past MaxConns open connections the next is
// answered 503 and closed; past MaxConnsPerAddr likewise; a connection
// closed frees its slot.
func TestWebConnectionCap(t *testing.T) {
	for _, tt := range []struct {
		name   string
		limits web.Limits
		open   int
	}{
		{"in all", web.Limits{MaxConns: 3, MaxConnsPerAddr: 100}, 3},
		{"per address", web.Limits{MaxConns: 100, MaxConnsPerAddr: 2}, 2},
	} {
		t.Run(tt.name, func(t *testing.T) {
			hub := web.NewHub("", web.WithLimits(tt.limits))
			addr := serveLimited(t, hub)
			get := func(c net.Conn) string {
				_, err := io.WriteString(c, "GET / HTTP/1.1\r\nHost: x\r\n\r\n")
				require.NoError(t, err)
				require.NoError(t, c.SetReadDeadline(time.Now().Add(5*time.Second)))
				line, err := bufio.NewReader(c).ReadString('\n')
				require.NoError(t, err)
				return line
			}
			var open []net.Conn
			for range tt.open {
				c, err := net.Dial("tcp", addr)
				require.NoError(t, err)
				defer c.Close()
				require.Equal(t, "HTTP/1.1 200 OK\r\n", get(c))
				open = append(open, c)
			}
			c, err := net.Dial("tcp", addr)
			require.NoError(t, err)
			defer c.Close()
			_, got := closedWithin(t, c, 3*time.Second)
			require.True(t, strings.HasPrefix(got, "HTTP/1.1 503 Service Unavailable\r\n"), got)
			require.Contains(t, got, "too many connections")

			require.NoError(t, open[0].Close())
			require.Eventually(t, func() bool {
				c, err := net.Dial("tcp", addr)
				if err != nil {
					return false
				}
				defer c.Close()
				return get(c) == "HTTP/1.1 200 OK\r\n"
			}, 5*time.Second, 20*time.Millisecond, "a slot freed")
		})
	}
}

// TestWebRateLimit: one address past its burst waits for its turn, and
// past MaxWait is refused (429, Retry-After); another address is served.
func TestWebRateLimit(t *testing.T) {
	hub := web.NewHub("", web.WithLimits(web.Limits{Rate: 10, Burst: 3, MaxWait: 150 * time.Millisecond}))
	h := hub.Server().Handler
	get := func(addr string) (int, time.Duration) {
		req := httptest.NewRequest(http.MethodGet, "/", nil)
		req.RemoteAddr = addr + ":1234"
		rec := httptest.NewRecorder()
		start := time.Now()
		h.ServeHTTP(rec, req)
		if rec.Code == http.StatusTooManyRequests {
			require.Equal(t, "1", rec.Header().Get("Retry-After"))
		}
		return rec.Code, time.Since(start)
	}
	// 8 at once: 3 served at once, 1 after waiting 100 ms for a token, the
	// others would wait 200 ms or more: refused after 150 ms.
	type answer struct {
		code int
		took time.Duration
	}
	answers := make(chan answer)
	for range 8 {
		go func() {
			code, took := get("10.1.1.1")
			answers <- answer{code, took}
		}()
	}
	codes := map[int]int{}
	for range 8 {
		a := <-answers
		codes[a.code]++
		if a.code == http.StatusTooManyRequests {
			require.GreaterOrEqual(t, a.took, 150*time.Millisecond, "a refusal waits MaxWait")
		}
	}
	require.GreaterOrEqual(t, codes[http.StatusOK], 4)
	require.LessOrEqual(t, codes[http.StatusOK], 5)
	require.Equal(t, 8-codes[http.StatusOK], codes[http.StatusTooManyRequests])
	code, took := get("10.1.1.2")
	require.Equal(t, http.StatusOK, code)
	require.Less(t, took, 100*time.Millisecond)

	// Negative Rate: no limit.
	h = web.NewHub("", web.WithLimits(web.Limits{Rate: -1, Burst: 1})).Server().Handler
	for range 20 {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/", nil))
		require.Equal(t, http.StatusOK, rec.Code)
	}
}

// shoot publishes n misses of a Battleship game.
func shoot(feed *server.Feed[battleship.Step], from, n int) {
	for i := range n {
		st := battleship.Step{Seat: (from + i) % 2, At: 5, Defender: battleship.Event{Result: battleship.Result{At: 5, Outcome: battleship.Miss}}}
		feed.Step(from+i+1, &st, nil)
	}
}

// TestWebListCached: GET / is made once per change of the games, at most
// once per ListMaxAge, and answers 304 to its ETag.
func TestWebListCached(t *testing.T) {
	// ListMaxAge is long beside the 22 requests made within it, so that a
	// loaded machine does not let it pass before the stale page is asked for.
	hub := web.NewHub("", web.WithLimits(web.Limits{ListMaxAge: time.Second, Rate: -1}))
	feed := bsFeed(t, hub, "b1", [2]server.Peer{{Addr: "house", Name: "gridbot"}, {Addr: "1.2.3.4:5"}})
	site := httptest.NewServer(hub.Server().Handler)
	defer site.Close()
	get := func(etag string) (int, string, string) {
		req, err := http.NewRequest(http.MethodGet, site.URL+"/", nil)
		require.NoError(t, err)
		if etag != "" {
			req.Header.Set("If-None-Match", etag)
		}
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, resp.Header.Get("ETag"), string(b)
	}
	code, etag, page := get("")
	require.Equal(t, http.StatusOK, code)
	require.Contains(t, page, "running, 0 moves")
	for range 20 {
		code, again, _ := get("")
		require.Equal(t, http.StatusOK, code)
		require.Equal(t, etag, again)
	}
	code, _, _ = get(etag)
	require.Equal(t, http.StatusNotModified, code)
	require.Equal(t, 1, hub.ListRenders(), "nothing changed: made once")

	// A change within ListMaxAge of the last page waits for it; 50 changes
	// make one page.
	shoot(feed, 0, 50)
	_, _, page = get("")
	require.Contains(t, page, "running, 0 moves", "at most ListMaxAge stale")
	require.Eventually(t, func() bool {
		_, _, page = get("")
		return strings.Contains(page, "running, 50 moves")
	}, 10*time.Second, 10*time.Millisecond)
	require.Equal(t, 2, hub.ListRenders())
	code, etag2, _ := get(etag)
	require.Equal(t, http.StatusOK, code, "the old ETag is stale")
	require.NotEqual(t, etag, etag2)
	time.Sleep(1200 * time.Millisecond) // past ListMaxAge, nothing changed
	get("")
	require.Equal(t, 2, hub.ListRenders())
}

// TestWebStuckSubscriber: a client that opens a game's stream and never
// reads it holds up neither the game nor the other watchers; it is
// dropped after StreamWriteTimeout. Streams outlive ReadTimeout, and past
// MaxStreams a stream is 503.
func TestWebStuckSubscriber(t *testing.T) {
	hub := web.NewHub("", web.WithLimits(web.Limits{StreamWriteTimeout: 300 * time.Millisecond, StreamInterval: time.Millisecond,
		StreamBytesPerSec: 1 << 30, ReadTimeout: 200 * time.Millisecond, MaxStreams: 2, Rate: -1}))
	feed := bsFeed(t, hub, "b1", [2]server.Peer{{Addr: "house", Name: "gridbot"}, {Addr: "1.2.3.4:5"}})
	addr := serveLimited(t, hub)

	stuck, err := net.DialTCP("tcp", nil, mustResolve(t, addr))
	require.NoError(t, err)
	defer stuck.Close()
	require.NoError(t, stuck.SetReadBuffer(4096))
	_, err = io.WriteString(stuck, "GET /games/b1/events HTTP/1.1\r\nHost: x\r\n\r\n")
	require.NoError(t, err)

	resp, err := http.Get("http://" + addr + "/games/b1/events") // a watcher that reads
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	require.Eventually(t, func() bool { return hub.Streams() == 2 }, 5*time.Second, 5*time.Millisecond)
	third, err := http.Get("http://" + addr + "/games/b1/events")
	require.NoError(t, err)
	body, _ := io.ReadAll(third.Body)
	third.Body.Close()
	require.Equal(t, http.StatusServiceUnavailable, third.StatusCode)
	require.Contains(t, string(body), "too many event streams")

	time.Sleep(300 * time.Millisecond) // past ReadTimeout: the streams live on
	// Publish far more than the socket buffers hold: every call returns at
	// once, and the reader gets every move.
	const n = 60000
	start := time.Now()
	var slowest time.Duration
	for i := range n / 1000 {
		t0 := time.Now()
		shoot(feed, i*1000, 1000)
		slowest = max(slowest, time.Since(t0))
	}
	took := time.Since(start)
	t.Logf("%d moves published in %v (slowest 1000: %v)", n, took, slowest)
	require.Less(t, slowest, time.Second, "publishing never waits for a stream")
	sc := bufio.NewScanner(resp.Body)
	moves := 0
	for moves < n && sc.Scan() {
		if sc.Text() == "event: move" {
			moves++
		}
	}
	require.Equal(t, n, moves, "the reading watcher gets every move")
	require.Eventually(t, func() bool { return hub.Streams() == 1 }, 10*time.Second, 10*time.Millisecond, "the stuck stream is dropped")
}

func mustResolve(t *testing.T, addr string) *net.TCPAddr {
	a, err := net.ResolveTCPAddr("tcp", addr)
	require.NoError(t, err)
	return a
}

// TestWebStreamBudget: the spectators' streams together write no faster
// than StreamBytesPerSec (after a burst of 256 KiB), in batches of at most
// 256 moves, and still send every move of the game.
func TestWebStreamBudget(t *testing.T) {
	const perSec = 400 << 10
	hub := web.NewHub("", web.WithLimits(web.Limits{StreamBytesPerSec: perSec, StreamInterval: time.Millisecond, Rate: -1}))
	feed := bsFeed(t, hub, "b1", [2]server.Peer{{Addr: "house", Name: "gridbot"}, {Addr: "1.2.3.4:5"}})
	const n = 5000
	shoot(feed, 0, n)
	hub.Finished(server.Result{Game: "b1", Outcome: server.OutcomeWin, Winner: 0, Actions: n, Reason: "sunk"})
	site := httptest.NewServer(hub.Server().Handler)
	defer site.Close()
	start := time.Now()
	var total atomic.Int64
	errs := make(chan error, 2)
	for range 2 {
		go func() {
			resp, err := http.Get(site.URL + "/games/b1/events")
			if err != nil {
				errs <- err
				return
			}
			defer resp.Body.Close()
			sc := bufio.NewScanner(resp.Body)
			moves := 0
			for sc.Scan() {
				total.Add(int64(len(sc.Bytes()) + 1))
				if sc.Text() == "event: move" {
					moves++
				}
			}
			if moves != n {
				err = fmt.Errorf("%d moves, want %d", moves, n)
			}
			errs <- err
		}()
	}
	time.Sleep(200 * time.Millisecond) // the budget is spent for seconds: a new stream is still answered at once
	t0 := time.Now()
	third, err := http.Get(site.URL + "/games/b1/events")
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, third.StatusCode)
	require.Less(t, time.Since(t0), 500*time.Millisecond, "the header does not wait for the budget")
	third.Body.Close()
	require.NoError(t, <-errs)
	require.NoError(t, <-errs)
	took := time.Since(start)
	least := time.Duration(float64(total.Load()-256<<10) / perSec * float64(time.Second))
	t.Logf("%d bytes in %v (at least %v)", total.Load(), took, least)
	require.Greater(t, least, 500*time.Millisecond, "the test sends more than a burst")
	require.GreaterOrEqual(t, took, least*9/10)
}

// TestWebStreamBudgetNotHeld: streams that wait for the budget and go away
// hold no share of it: the next stream is served as soon as there is some.
func TestWebStreamBudgetNotHeld(t *testing.T) {
	hub := web.NewHub("", web.WithLimits(web.Limits{StreamBytesPerSec: 64 << 10, StreamInterval: time.Millisecond, Rate: -1}))
	feed := bsFeed(t, hub, "b1", [2]server.Peer{{Addr: "house", Name: "gridbot"}, {Addr: "1.2.3.4:5"}})
	shoot(feed, 0, 5000)
	hub.Finished(server.Result{Game: "b1", Outcome: server.OutcomeWin, Winner: 0, Actions: 5000, Reason: "sunk"})
	site := httptest.NewServer(hub.Server().Handler)
	defer site.Close()
	for range 6 { // the burst and more: most of them wait for the budget, then go away
		resp, err := http.Get(site.URL + "/games/b1/events")
		require.NoError(t, err)
		defer resp.Body.Close()
	}
	time.Sleep(300 * time.Millisecond)
	site.CloseClientConnections()
	require.Eventually(t, func() bool { return hub.Streams() == 0 }, 5*time.Second, 10*time.Millisecond)
	start := time.Now()
	resp, err := http.Get(site.URL + "/games/b1/events")
	require.NoError(t, err)
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() && sc.Text() != "event: move" {
	}
	took := time.Since(start)
	t.Logf("first move after %v", took)
	require.Less(t, took, 2*time.Second, "the streams gone hold none of the budget (reserved ahead, they would for 5 s)")
}
