package server

import (
	"io"
	"log"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/prometheus/common/expfmt"
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

// metrics are the server's counters, served to Prometheus (collector).
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

// desc describes one of the server's metrics.
type desc struct {
	d   *prometheus.Desc
	typ prometheus.ValueType
}

func newDesc(name string, typ prometheus.ValueType, help string, label ...string) desc {
	return desc{prometheus.NewDesc(name, help, label, nil), typ}
}

// The server's metrics (docs/server.md, Metrics).
var (
	descUp          = newDesc("kaisen_up_seconds", prometheus.GaugeValue, "Seconds since the server started.")
	descConnsOpen   = newDesc("kaisen_connections_open", prometheus.GaugeValue, "Client connections open now.")
	descConnsTotal  = newDesc("kaisen_connections_accepted_total", prometheus.CounterValue, "Client connections accepted.")
	descRejected    = newDesc("kaisen_connections_rejected_total", prometheus.CounterValue, "Client connections closed at once because a limit was reached, by limit.", "reason")
	descRunning     = newDesc("kaisen_games_running", prometheus.GaugeValue, "Pairings (games or series) being played now.")
	descFinished    = newDesc("kaisen_games_finished_total", prometheus.CounterValue, "Games finished, by outcome.", "outcome")
	descForfeits    = newDesc("kaisen_forfeits_total", prometheus.CounterValue, "Games lost by forfeit, by reason.", "reason")
	descActions     = newDesc("kaisen_actions_total", prometheus.CounterValue, "Actions played in all games.")
	descActionsRate = newDesc("kaisen_actions_per_second", prometheus.GaugeValue, "Actions per second since the previous scrape.")
	allDescs        = []desc{descUp, descConnsOpen, descConnsTotal, descRejected, descRunning, descFinished, descForfeits, descActions, descActionsRate}
)

// collector is the server's metrics as a prometheus.Collector, read at
// every scrape (now is the scrape's clock).
type collector struct {
	m   *metrics
	now func() time.Time
}

func (c collector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range allDescs {
		ch <- d.d
	}
}

func (c collector) Collect(ch chan<- prometheus.Metric) {
	m, now := c.m, c.now()
	put := func(d desc, v float64, label ...string) {
		ch <- prometheus.MustNewConstMetric(d.d, d.typ, v, label...)
	}
	put(descUp, now.Sub(m.start).Seconds())
	put(descConnsOpen, float64(m.connsOpen.Load()))
	put(descConnsTotal, float64(m.connsAccepted.Load()))
	for _, r := range rejectReasons {
		put(descRejected, float64(m.rejected[r].Load()), r)
	}
	put(descRunning, float64(m.gamesRunning.Load()))
	for _, o := range outcomes {
		put(descFinished, float64(m.finished[o].Load()), o)
	}
	for _, r := range forfeitReasons {
		put(descForfeits, float64(m.forfeits[r].Load()), r)
	}
	put(descActions, float64(m.actions.Load()))
	put(descActionsRate, m.actionsPerSecond(now))
}

// registry holds the server's metrics read on the clock now, and, with
// process set, the Go runtime's and the process's (go_*, process_*).
func (m *metrics) registry(now func() time.Time, process bool) *prometheus.Registry {
	reg := prometheus.NewRegistry()
	reg.MustRegister(collector{m, now})
	if process {
		reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	}
	return reg
}

// write prints the server's own metrics, read at now, in the Prometheus
// text exposition format.
func (m *metrics) write(w io.Writer, now time.Time) error {
	mfs, err := m.registry(func() time.Time { return now }, false).Gather()
	if err != nil {
		return err
	}
	enc := expfmt.NewEncoder(w, expfmt.NewFormat(expfmt.TypeTextPlain))
	for _, mf := range mfs {
		if err := enc.Encode(mf); err != nil {
			return err
		}
	}
	return nil
}

// handler serves /healthz ("ok") and /metrics: the server's metrics and
// the Go runtime's and the process's, by the Prometheus client library.
func (m *metrics) handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		_, _ = io.WriteString(w, "ok\n")
	})
	mux.Handle("GET /metrics", promhttp.HandlerFor(m.registry(time.Now, true), promhttp.HandlerOpts{}))
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
