package server

import (
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"
)

// Reasons a connection is refused (the rejected-connections metric's label).
const (
	rejectMaxConns = "max_connections"
	rejectPerIP    = "max_connections_per_ip"
	rejectMaxGames = "max_games"
	rejectMetrics  = "max_metrics_connections" // the metrics endpoint's own cap
)

var rejectReasons = []string{rejectMaxConns, rejectPerIP, rejectMaxGames, rejectMetrics,
	rejectAuthLine, rejectAuth, rejectAuthLimited, rejectConnected, rejectLadderDown}

var outcomes = []string{OutcomeWin, OutcomeDraw, OutcomeAborted}

// metrics are the server's counters, served as Prometheus text.
type metrics struct {
	start         time.Time
	connsOpen     atomic.Int64
	connsAccepted atomic.Int64
	rejected      map[string]*atomic.Int64
	gamesRunning  atomic.Int64
	finished      map[string]*atomic.Int64 // by outcome
	forfeits      map[string]*atomic.Int64 // by reason
	actions       atomic.Int64

	mu        sync.Mutex // guards the previous scrape
	lastTime  time.Time
	lastCount int64
}

func newMetrics(now time.Time) *metrics {
	m := &metrics{
		start:    now,
		rejected: map[string]*atomic.Int64{},
		finished: map[string]*atomic.Int64{},
		forfeits: map[string]*atomic.Int64{},
		lastTime: now,
	}
	for _, r := range rejectReasons {
		m.rejected[r] = new(atomic.Int64)
	}
	for _, o := range outcomes {
		m.finished[o] = new(atomic.Int64)
	}
	for _, r := range forfeitReasons {
		m.forfeits[r] = new(atomic.Int64)
	}
	return m
}

// finish counts a recorded game.
func (m *metrics) finish(r *Result) {
	if c, ok := m.finished[r.Outcome]; ok {
		c.Add(1)
	}
	if len(r.Forfeits) > 0 {
		if c, ok := m.forfeits[r.Reason]; ok {
			c.Add(1)
		}
	}
}

// actionsPerSecond is the action rate since the previous call (the previous
// scrape), or since the start for the first one.
func (m *metrics) actionsPerSecond(now time.Time) float64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	n := m.actions.Load()
	dt := now.Sub(m.lastTime).Seconds()
	rate := 0.0
	if dt > 0 {
		rate = float64(n-m.lastCount) / dt
	}
	m.lastTime, m.lastCount = now, n
	return rate
}

// write prints every metric in the Prometheus text exposition format.
func (m *metrics) write(w io.Writer, now time.Time) {
	p := func(format string, args ...any) { fmt.Fprintf(w, format, args...) }
	head := func(name, typ, help string) {
		p("# HELP %s %s\n# TYPE %s %s\n", name, help, name, typ)
	}
	head("kaisen_up_seconds", "gauge", "Seconds since the server started.")
	p("kaisen_up_seconds %.3f\n", now.Sub(m.start).Seconds())
	head("kaisen_connections_open", "gauge", "Client connections open now.")
	p("kaisen_connections_open %d\n", m.connsOpen.Load())
	head("kaisen_connections_accepted_total", "counter", "Client connections accepted.")
	p("kaisen_connections_accepted_total %d\n", m.connsAccepted.Load())
	head("kaisen_connections_rejected_total", "counter", "Client connections closed at once because a limit was reached, by limit.")
	for _, r := range rejectReasons {
		p("kaisen_connections_rejected_total{reason=%q} %d\n", r, m.rejected[r].Load())
	}
	head("kaisen_games_running", "gauge", "Pairings (games or series) being played now.")
	p("kaisen_games_running %d\n", m.gamesRunning.Load())
	head("kaisen_games_finished_total", "counter", "Games finished, by outcome.")
	for _, o := range outcomes {
		p("kaisen_games_finished_total{outcome=%q} %d\n", o, m.finished[o].Load())
	}
	head("kaisen_forfeits_total", "counter", "Games lost by forfeit, by reason.")
	for _, r := range forfeitReasons {
		p("kaisen_forfeits_total{reason=%q} %d\n", r, m.forfeits[r].Load())
	}
	head("kaisen_actions_total", "counter", "Actions played in all games.")
	p("kaisen_actions_total %d\n", m.actions.Load())
	head("kaisen_actions_per_second", "gauge", "Actions per second since the previous scrape.")
	p("kaisen_actions_per_second %.3f\n", m.actionsPerSecond(now))
}

// handler serves /healthz ("ok") and /metrics.
func (m *metrics) handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		_, _ = io.WriteString(w, "ok\n")
	})
	mux.HandleFunc("GET /metrics", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
		m.write(w, time.Now())
	})
	return mux
}

// Timeouts of the metrics endpoint: a scraper sends one small request and
// reads one small answer; a connection that does less is closed.
const (
	metricsHeaderTimeout = 5 * time.Second  // the request's headers
	metricsReadTimeout   = 10 * time.Second // the whole request
	metricsWriteTimeout  = 10 * time.Second // the answer
	metricsIdleTimeout   = 30 * time.Second // a kept-alive connection between requests
	metricsMaxHeader     = 8 << 10
)

// newMetricsServer is the HTTP server of the metrics endpoint, with every
// timeout set: keep-alive connections that say nothing are closed after
// metricsIdleTimeout, and capListener bounds how many are open.
func newMetricsServer(h http.Handler) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: metricsHeaderTimeout,
		ReadTimeout:       metricsReadTimeout,
		WriteTimeout:      metricsWriteTimeout,
		IdleTimeout:       metricsIdleTimeout,
		MaxHeaderBytes:    metricsMaxHeader,
		ErrorLog:          log.New(io.Discard, "", 0), // a client's broken request is not the server's error
	}
}

// capListener accepts at most max open connections: one more is closed at
// once (and counted in rejected), so that a flood of connections to the
// metrics endpoint cannot use up the process's file descriptors, which the
// game listeners need.
type capListener struct {
	net.Listener
	max      int64
	open     atomic.Int64
	rejected *atomic.Int64
}

func (l *capListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		if l.open.Add(1) > l.max {
			l.open.Add(-1)
			l.rejected.Add(1)
			_ = c.Close()
			continue
		}
		return &capConn{Conn: c, l: l}, nil
	}
}

// capConn gives its slot back when it is closed (once).
type capConn struct {
	net.Conn
	l    *capListener
	once sync.Once
}

func (c *capConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(func() { c.l.open.Add(-1) })
	return err
}
