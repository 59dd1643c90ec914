package web

import (
	"bytes"
	"hash/fnv"
	"net"
	"net/http"
	"strconv"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// Limits bound what the web port may cost the games that share the
// process: connections, requests per client address, event streams, time
// and size of requests, and how often pages and streams are made. A zero
// field takes its default (DefaultLimits); a negative Rate means no rate
// limit.
type Limits struct {
	// MaxConns is the number of connections open at once; the next one is
	// answered 503 and closed at once.
	MaxConns int
	// MaxConnsPerAddr is the same for one client address.
	MaxConnsPerAddr int
	// Rate is the requests per second of one client address (a token
	// bucket of Burst); a request over it waits for its turn up to
	// MaxWait, past that it is refused (429) after MaxWait, so that a
	// client looping on the port is slowed down, not served faster.
	Rate    float64
	Burst   int
	MaxWait time.Duration
	// MaxStreams is the number of server-sent event streams open at once
	// (spectators and players); the next one is 503.
	MaxStreams int
	// StreamInterval is the shortest time between two writes of a stream:
	// the moves of a fast game reach its watchers in batches.
	StreamInterval time.Duration
	// StreamBytesPerSec is what the spectators' streams may write per
	// second, all together (bursts of 256 KiB): past it each waits for its
	// share, and their moves wait in the games' records.
	StreamBytesPerSec int
	// StreamWriteTimeout drops a stream whose client does not take a write
	// in this time.
	StreamWriteTimeout time.Duration
	// ListMaxAge is how stale GET / may be: the page is made once per
	// change of the games, at most once per ListMaxAge, and served from
	// memory (with an ETag) in between.
	ListMaxAge time.Duration
	// The http.Server's: the time to read a request's header, to read all
	// of a request (header and body: a trickled body ends there; not for
	// event streams), to write an answer (not for event streams) and to
	// keep an idle connection, and the size of a header.
	ReadHeaderTimeout, ReadTimeout, WriteTimeout, IdleTimeout time.Duration
	MaxHeaderBytes                                            int
	// MaxBody is the size of a request body (POST /play, an action).
	MaxBody int64
}

// DefaultLimits are the limits of a Hub made without WithLimits.
var DefaultLimits = Limits{
	MaxConns: 1024, MaxConnsPerAddr: 64,
	Rate: 10, Burst: 40, MaxWait: 2 * time.Second,
	MaxStreams: 768, StreamInterval: 250 * time.Millisecond, StreamBytesPerSec: 1 << 20, StreamWriteTimeout: 10 * time.Second,
	ListMaxAge:        time.Second,
	ReadHeaderTimeout: 5 * time.Second, ReadTimeout: 10 * time.Second, WriteTimeout: 30 * time.Second, IdleTimeout: time.Minute,
	MaxHeaderBytes: 8 << 10, MaxBody: 4 << 10,
}

func (l Limits) withDefaults() Limits {
	d := DefaultLimits
	set := setPositive[int]
	setD := setPositive[time.Duration]
	set(&l.MaxConns, d.MaxConns)
	set(&l.MaxConnsPerAddr, d.MaxConnsPerAddr)
	if l.Rate == 0 {
		l.Rate = d.Rate
	}
	set(&l.Burst, d.Burst)
	setD(&l.MaxWait, d.MaxWait)
	set(&l.MaxStreams, d.MaxStreams)
	setD(&l.StreamInterval, d.StreamInterval)
	set(&l.StreamBytesPerSec, d.StreamBytesPerSec)
	setD(&l.StreamWriteTimeout, d.StreamWriteTimeout)
	setD(&l.ListMaxAge, d.ListMaxAge)
	setD(&l.ReadHeaderTimeout, d.ReadHeaderTimeout)
	setD(&l.ReadTimeout, d.ReadTimeout)
	setD(&l.WriteTimeout, d.WriteTimeout)
	setD(&l.IdleTimeout, d.IdleTimeout)
	set(&l.MaxHeaderBytes, d.MaxHeaderBytes)
	setPositive(&l.MaxBody, d.MaxBody)
	return l
}

// setPositive sets *v to def unless it is positive.
func setPositive[T int | int64 | time.Duration](v *T, def T) {
	if *v <= 0 {
		*v = def
	}
}

// WithLimits sets the limits of the hub's server (Server, Listener).
func WithLimits(l Limits) Option { return func(h *Hub) { h.limits = l } }

// Server is the http.Server of the hub's pages, with its limits: timeouts,
// header size, body size and the rate limit per client address. Serve it
// on Listener(ln) for the connection caps.
func (h *Hub) Server() *http.Server {
	l := h.limits
	return &http.Server{
		Handler:           h.limit(h.Handler()),
		ReadHeaderTimeout: l.ReadHeaderTimeout,
		ReadTimeout:       l.ReadTimeout,
		WriteTimeout:      l.WriteTimeout,
		IdleTimeout:       l.IdleTimeout,
		MaxHeaderBytes:    l.MaxHeaderBytes,
	}
}

// clientAddr is the address of the request's client, without its port.
// Headers such as X-Forwarded-For are not trusted.
func clientAddr(r *http.Request) string {
	if host, _, err := net.SplitHostPort(r.RemoteAddr); err == nil {
		return host
	}
	return r.RemoteAddr
}

// limit wraps next with the rate limit per client address and the body
// size limit.
func (h *Hub) limit(next http.Handler) http.Handler {
	l := h.limits
	rl := newRateLimits(l.Rate, l.Burst)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if rl != nil {
			res := rl.reserve(clientAddr(r), time.Now())
			d, refused := res.Delay(), false
			if d > l.MaxWait {
				res.Cancel()
				d, refused = l.MaxWait, true
			}
			if d > 0 {
				t := time.NewTimer(d)
				select {
				case <-t.C:
				case <-r.Context().Done():
					t.Stop()
					return
				}
			}
			if refused {
				w.Header().Set("Retry-After", strconv.Itoa(int(max(l.MaxWait/time.Second, 1))))
				http.Error(w, "429 too many requests from this address: slow down", http.StatusTooManyRequests)
				return
			}
		}
		r.Body = http.MaxBytesReader(w, r.Body, l.MaxBody)
		next.ServeHTTP(w, r)
	})
}

// rateLimits is a token bucket per client address; buckets full again
// are forgotten.
type rateLimits struct {
	every rate.Limit
	burst int

	mu    sync.Mutex
	addrs map[string]*rate.Limiter
	sweep time.Time
}

func newRateLimits(perSec float64, burst int) *rateLimits {
	if perSec < 0 {
		return nil
	}
	return &rateLimits{every: rate.Limit(perSec), burst: burst, addrs: map[string]*rate.Limiter{}}
}

func (rl *rateLimits) reserve(addr string, now time.Time) *rate.Reservation {
	rl.mu.Lock()
	defer rl.mu.Unlock()
	if now.Sub(rl.sweep) > time.Minute {
		for a, lim := range rl.addrs {
			if lim.TokensAt(now) >= float64(rl.burst) {
				delete(rl.addrs, a)
			}
		}
		rl.sweep = now
	}
	lim := rl.addrs[addr]
	if lim == nil {
		lim = rate.NewLimiter(rl.every, rl.burst)
		rl.addrs[addr] = lim
	}
	return lim.ReserveN(now, 1)
}

// Listener wraps ln with the hub's connection caps: past MaxConns open
// connections, or MaxConnsPerAddr from one address, a new connection is
// answered 503 and closed at once (it never waits for a slot).
func (h *Hub) Listener(ln net.Listener) net.Listener {
	return &capListener{Listener: ln, max: h.limits.MaxConns, perAddr: h.limits.MaxConnsPerAddr, addrs: map[string]int{}}
}

type capListener struct {
	net.Listener
	max, perAddr int

	mu    sync.Mutex
	open  int
	addrs map[string]int
}

// refusal is what a connection over the cap is told.
var refusal = []byte("HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain\r\nConnection: close\r\nContent-Length: 21\r\n\r\ntoo many connections\n")

func (l *capListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		addr := c.RemoteAddr().String()
		if host, _, err := net.SplitHostPort(addr); err == nil {
			addr = host
		}
		l.mu.Lock()
		ok := l.open < l.max && l.addrs[addr] < l.perAddr
		if ok {
			l.open++
			l.addrs[addr]++
		}
		l.mu.Unlock()
		if ok {
			return &capConn{Conn: c, l: l, addr: addr}, nil
		}
		_ = c.SetWriteDeadline(time.Now().Add(100 * time.Millisecond))
		_, _ = c.Write(refusal)
		_ = c.Close()
	}
}

type capConn struct {
	net.Conn
	l    *capListener
	addr string
	once sync.Once
}

func (c *capConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(func() {
		c.l.mu.Lock()
		defer c.l.mu.Unlock()
		c.l.open--
		if c.l.addrs[c.addr]--; c.l.addrs[c.addr] <= 0 {
			delete(c.l.addrs, c.addr)
		}
	})
	return err
}

// listCache is GET / as last made.
type listCache struct {
	mu      sync.Mutex
	body    []byte
	etag    string
	ver     uint64
	at      time.Time
	renders int // pages made, for the tests
}

// listPageBytes is GET /, made again only when the games changed and the
// last page is older than ListMaxAge.
func (h *Hub) listPageBytes() ([]byte, string, error) {
	c := &h.listc
	c.mu.Lock()
	defer c.mu.Unlock()
	h.mu.Lock()
	ver := h.ver
	h.mu.Unlock()
	if c.body != nil && (c.ver == ver || time.Since(c.at) < h.limits.ListMaxAge) {
		return c.body, c.etag, nil
	}
	running, finished := h.rows()
	h.mu.Lock()
	kept := h.finished
	h.mu.Unlock()
	var offers []PlayGame
	if h.play != nil {
		offers = h.play.Games
	}
	var b bytes.Buffer
	if err := listPage.Execute(&b, map[string]any{"Running": running, "Finished": finished, "Kept": kept, "Offers": offers, "Several": len(offers) > 1, "Ladder": h.ladder != nil}); err != nil {
		return nil, "", err
	}
	sum := fnv.New64a()
	_, _ = sum.Write(b.Bytes())
	c.body, c.etag, c.ver, c.at = b.Bytes(), `"`+strconv.FormatUint(sum.Sum64(), 36)+`"`, ver, time.Now()
	c.renders++
	return c.body, c.etag, nil
}
