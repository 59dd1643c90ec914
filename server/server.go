package server

import (
	"context"
	crand "crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/kaisen-ai/kaisen/internal/keystream"
	"github.com/kaisen-ai/kaisen/internal/version"
	"github.com/kaisen-ai/kaisen/ladder"
	"github.com/kaisen-ai/kaisen/protocol"
)

// ErrServerClosed is returned by Serve after Close.
var ErrServerClosed = errors.New("server: closed")

// Server is the turn server: one accept loop per listener,
// one goroutine per game. Create it with New, bind with Listen (optional:
// Serve binds too), run it with Serve and stop it by cancelling Serve's
// context (graceful) or with Close (at once).
type Server struct {
	cfg     Config
	log     *slog.Logger
	setups  []*setup
	key     keystream.Key // every game's seed derives from it (gameSeed); never printed
	runID   string
	metrics *metrics

	mu        sync.Mutex
	listening bool
	served    bool
	stopping  bool
	lns       []*listener
	httpLn    net.Listener
	httpSrv   *http.Server
	results   *resultLog
	conns     int
	perIP     map[string]int // open connections by remote network (netKey)
	games     int

	gameCtx   context.Context // cancelled when running games must stop
	stopGames context.CancelFunc
	quit      chan struct{} // closed by Close
	stopCh    chan struct{} // closed when shutdown starts
	closeOnce sync.Once
	downOnce  sync.Once
	listen    func(network, address string) (net.Listener, error) // net.Listen; tests swap it
	connHook  func(net.Conn)                                      // tests: sees every accepted connection
	acceptWG  sync.WaitGroup                                      // accept loops
	gamesWG   sync.WaitGroup                                      // match goroutines
	wg        sync.WaitGroup                                      // lobby watchers and the metrics server
	pairSeq   atomic.Uint64
	spectator Spectator // Watch; guarded by mu

	limiter *ladder.Limiter  // rated: failed authentications per network
	online  map[string]*conn // rated: the connection of each authenticated bot; guarded by mu
}

// listener is one bound address with its game settings.
type listener struct {
	idx   int
	st    *setup
	ln    net.Listener
	lobby lobby
	seq   uint64 // pairings started; only the accept loop touches it
}

// New checks cfg and prepares a server; it opens nothing yet. A nil logger
// discards logs.
func New(cfg Config, logger *slog.Logger) (*Server, error) {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	s := &Server{cfg: cfg, log: logger, perIP: map[string]int{}, quit: make(chan struct{}), stopCh: make(chan struct{}), listen: net.Listen}
	for _, l := range cfg.Listeners {
		st, err := l.compile()
		if err != nil {
			return nil, err
		}
		s.setups = append(s.setups, st)
	}
	s.key = serverKey(cfg.Seed)
	now := time.Now().UTC()
	s.runID = newRunID(now)
	s.metrics = newMetrics(now)
	s.gameCtx, s.stopGames = context.WithCancel(context.Background())
	s.limiter = ladder.NewLimiter(cfg.Rated.AuthMaxFailures, cfg.Rated.AuthWindow)
	s.limiter.MaxKeys = cfg.Rated.AuthMaxKeys
	s.online = map[string]*conn{}
	return s, nil
}

// newRunID names a run of the server: its start time (UTC second) and 64
// bits from crypto/rand, so that two processes started in the same second,
// even with the same seed and sharing a replay directory, never share an id.
// The id names files only: it takes nothing from the seeded streams, so
// games still replay bit for bit from their seeds.
func newRunID(now time.Time) string {
	var b [8]byte
	_, _ = crand.Read(b[:]) // never fails (crypto/rand panics rather)
	return now.Format("20060102T150405Z") + "-" + hex.EncodeToString(b[:])
}

// serverKey is the key of a server configured with seed: derived from it
// (reproducible: whoever knows the seed can compute every game), else drawn
// from crypto/rand at full width when seed is 0.
func serverKey(seed uint64) keystream.Key {
	if seed != 0 {
		return keystream.FromSeed(seed)
	}
	return keystream.New()
}

// gameLabel names the seeds of the server's games in its key.
const gameLabel = "server game"

// gameSeed is the seed of game k (1-based) of the seq-th pairing (1-based)
// of listener idx: HMAC-SHA256 of the key over those numbers. It is
// published (result log, replay header) and reproduces its own game (the
// first-player coin, the house AIs' streams), but tells nothing about the
// key or any other game's seed.
func gameSeed(key keystream.Key, idx int, seq uint64, k int) uint64 {
	return key.Uint64(gameLabel, uint64(idx), seq, uint64(k))
}

// Listen binds every listener (and the metrics endpoint), opens the result
// log and creates the replay directory. Serve calls it when needed.
func (s *Server) Listen() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.listening {
		return nil
	}
	select {
	case <-s.quit:
		return ErrServerClosed
	default:
	}
	var opened []net.Listener
	fail := func(err error) error {
		for _, ln := range opened {
			_ = ln.Close()
		}
		return err
	}
	var lns []*listener
	for i, st := range s.setups {
		ln, err := s.listen("tcp", st.cfg.Address)
		if err != nil {
			return fail(fmt.Errorf("server: listener %s: %w", st.cfg.Name, err))
		}
		opened = append(opened, ln)
		lns = append(lns, &listener{idx: i, st: st, ln: ln, lobby: lobby{kick: make(chan struct{}, 1)}})
	}
	var httpLn net.Listener
	if s.cfg.Metrics != "" {
		ln, err := s.listen("tcp", s.cfg.Metrics)
		if err != nil {
			return fail(fmt.Errorf("server: metrics: %w", err))
		}
		opened = append(opened, ln)
		httpLn = &capListener{Listener: ln, max: int64(s.cfg.Limits.MaxMetricsConnections), rejected: s.metrics.rejected[rejectMetrics]}
	}
	if s.cfg.ReplayDir != "" {
		if err := os.MkdirAll(s.cfg.ReplayDir, 0o755); err != nil {
			return fail(fmt.Errorf("server: replay dir: %w", err))
		}
		removed, kept, err := cleanTemp(s.cfg.ReplayDir, time.Now())
		for _, n := range removed {
			s.log.Warn("removed a temporary replay file left by a crash", "dir", s.cfg.ReplayDir, "file", n)
		}
		for _, n := range kept {
			s.log.Info("kept a recent temporary replay file (another server may be writing it; removed at a later start if left)",
				"dir", s.cfg.ReplayDir, "file", n)
		}
		if err != nil {
			return fail(err)
		}
	}
	if s.cfg.ResultLog != "" {
		rl, torn, err := openResultLog(s.cfg.ResultLog)
		if err != nil {
			return fail(err)
		}
		if torn != nil {
			s.logTorn(torn)
		}
		s.results = rl
	}
	s.lns, s.httpLn, s.listening = lns, httpLn, true
	for _, l := range lns {
		c := l.st.cfg
		s.log.Info("listening", "listener", c.Name, "addr", l.ln.Addr().String(), "dialect", l.st.dialect.String(),
			"opponent", c.Opponent, "games", c.Games, "first", c.First, "board", fmt.Sprintf("%dx%d", c.Width, c.Height))
		warnIfExposed(s.log, "listener "+c.Name, l.ln.Addr())
	}
	if httpLn != nil {
		s.log.Info("metrics", "addr", httpLn.Addr().String())
		warnIfExposed(s.log, "metrics", httpLn.Addr())
	}
	s.log.Info("server ready", "version", version.String(), "seeds", seedSource(s.cfg.Seed), "result_log", s.cfg.ResultLog, "replay_dir", s.cfg.ReplayDir)
	return nil
}

// seedSource says where the games' seeds come from, for the log: never the
// seed or the key.
func seedSource(seed uint64) string {
	if seed != 0 {
		return "the configured seed (reproducible; keep it secret)"
	}
	return "a secret key drawn at start"
}

// logTorn logs the repair of the result log's torn last line (its first
// maxTornShown bytes).
func (s *Server) logTorn(torn []byte) {
	s.log.Warn("result log: cut off a torn last line (a write cut short by a crash; its game was never announced)",
		"file", s.cfg.ResultLog, "line", string(torn))
}

// warnIfExposed logs a warning when addr is not a loopback address.
func warnIfExposed(log *slog.Logger, what string, addr net.Addr) {
	if ta, ok := addr.(*net.TCPAddr); ok && !ta.IP.IsLoopback() {
		log.Warn("binding a non-loopback address: clients from other machines can connect", "what", what, "addr", addr.String())
	}
}

// Addrs returns the bound addresses of the listeners, in configuration order
// (nil before Listen). With port 0 this is where to find the real port.
func (s *Server) Addrs() []net.Addr {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]net.Addr, 0, len(s.lns))
	for _, l := range s.lns {
		out = append(out, l.ln.Addr())
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// MetricsAddr returns the bound address of the metrics endpoint, or nil.
func (s *Server) MetricsAddr() net.Addr {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.httpLn == nil {
		return nil
	}
	return s.httpLn.Addr()
}

// Serve accepts clients and runs games until ctx ends or Close is called.
// When ctx ends it stops accepting, closes connections still waiting for an
// opponent, lets running games finish for up to Config.ShutdownGrace, then
// closes what remains; every game is recorded. It returns nil after a
// context shutdown and ErrServerClosed after Close.
func (s *Server) Serve(ctx context.Context) error {
	select {
	case <-s.quit:
		return ErrServerClosed
	default:
	}
	if err := s.Listen(); err != nil {
		return err
	}
	s.mu.Lock()
	if s.served {
		s.mu.Unlock()
		return errors.New("server: Serve called twice")
	}
	s.served = true
	lns, httpLn := s.lns, s.httpLn
	s.mu.Unlock()
	for _, l := range lns {
		s.acceptWG.Add(1)
		go s.acceptLoop(l)
		if s.rated() {
			s.acceptWG.Add(1)
			go s.pairLoop(l)
		}
	}
	if httpLn != nil {
		s.httpSrv = newMetricsServer(s.metrics.handler())
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			if err := s.httpSrv.Serve(httpLn); err != nil && !errors.Is(err, http.ErrServerClosed) {
				s.log.Error("metrics", "err", err)
			}
		}()
	}
	select {
	case <-ctx.Done():
		s.shutdown(s.cfg.ShutdownGrace)
		return nil
	case <-s.quit:
		s.shutdown(0)
		return ErrServerClosed
	}
}

// Close stops the server at once: listeners and every connection are
// closed, running games are recorded as aborted. Serve returns
// ErrServerClosed. Close does not wait for Serve to return.
func (s *Server) Close() error {
	s.closeOnce.Do(func() { close(s.quit) })
	s.mu.Lock()
	served := s.served
	s.mu.Unlock()
	if !served {
		s.shutdown(0)
	}
	return nil
}

// shutdown stops accepting, empties the lobbies, waits up to grace for the
// running games, stops the rest and releases everything. It runs once.
func (s *Server) shutdown(grace time.Duration) {
	s.downOnce.Do(func() {
		s.mu.Lock()
		s.stopping = true
		lns := s.lns
		s.mu.Unlock()
		close(s.stopCh)
		for _, l := range lns {
			_ = l.ln.Close()
		}
		s.acceptWG.Wait()
		for _, l := range lns {
			s.closeLobby(&l.lobby)
		}
		if grace > 0 {
			if n := s.metrics.gamesRunning.Load(); n > 0 {
				s.log.Info("shutting down: letting running games finish", "games", n, "grace", grace)
			}
			done := make(chan struct{})
			go func() { s.gamesWG.Wait(); close(done) }()
			t := time.NewTimer(grace)
			select {
			case <-done:
			case <-t.C:
				s.log.Warn("shutdown grace over: closing running games", "games", s.metrics.gamesRunning.Load())
			case <-s.quit:
			}
			t.Stop()
		}
		s.stopGames()
		s.gamesWG.Wait()
		if s.httpSrv != nil {
			ctx, cancel := context.WithTimeout(context.Background(), time.Second)
			if err := s.httpSrv.Shutdown(ctx); err != nil {
				_ = s.httpSrv.Close()
			}
			cancel()
		} else if s.httpLn != nil {
			_ = s.httpLn.Close()
		}
		s.wg.Wait()
		if s.results != nil {
			if err := s.results.close(); err != nil {
				s.log.Error("result log", "err", err)
			}
		}
		s.log.Info("server stopped")
	})
}

// acceptLoop accepts clients on l until the listener is closed; temporary
// errors (out of file descriptors, ...) are retried with a growing delay.
func (s *Server) acceptLoop(l *listener) {
	defer s.acceptWG.Done()
	var delay time.Duration
	for {
		nc, err := l.ln.Accept()
		if err != nil {
			select {
			case <-s.stopCh:
				return
			default:
			}
			if errors.Is(err, net.ErrClosed) {
				return
			}
			delay = min(max(2*delay, 5*time.Millisecond), time.Second)
			s.log.Warn("accept failed", "listener", l.st.cfg.Name, "err", err, "retry_in", delay)
			t := time.NewTimer(delay)
			select {
			case <-t.C:
			case <-s.stopCh:
				t.Stop()
				return
			}
			continue
		}
		delay = 0
		s.handle(l, nc)
	}
}

// handle admits a new connection and starts or queues its game.
func (s *Server) handle(l *listener, nc net.Conn) {
	lim := s.cfg.Limits
	c := newConn(nc, lim.MaxLineBytes, lim.ActionTimeout)
	if s.connHook != nil {
		s.connHook(nc)
	}
	if reason := s.admit(c); reason != "" {
		s.metrics.rejected[reason].Add(1)
		s.log.Warn("connection refused", "listener", l.st.cfg.Name, "peer", c.addr, "reason", reason, "network", c.net)
		// One line says why (a new connection's send buffer is empty: the
		// write does not wait for the client), then the connection closes.
		_ = nc.SetWriteDeadline(time.Now().Add(refuseWriteTimeout))
		_, _ = io.WriteString(nc, refusalLine(reason)+"\n")
		_ = nc.Close()
		return
	}
	s.log.Debug("connected", "listener", l.st.cfg.Name, "peer", c.addr)
	c.start(&s.wg)
	if s.rated() {
		s.wg.Go(func() { s.authenticate(l, c) })
		return
	}
	if l.st.hasHouse || l.st.cfg.HouseSeat != nil {
		if !s.reserveGame() {
			s.refuse(l, c, rejectMaxGames)
			return
		}
		s.startMatch(l, [2]*seat{{c: c}, {house: l.st.cfg.Opponent}})
		return
	}
	if l.lobby.hasWaiting() {
		if !s.reserveGame() {
			s.refuse(l, c, rejectMaxGames)
			return
		}
		if p := s.take(&l.lobby); p != nil {
			s.startMatch(l, [2]*seat{{c: p}, {c: c}})
			return
		}
		s.releaseGame()
	}
	s.wait(&l.lobby, c, time.Now())
}

// refuseWriteTimeout bounds the write of the refusal line.
const refuseWriteTimeout = time.Second

// refusalLine is the line that tells a refused client why: protocol's
// RefusedPrefix and the limit (the rejected-connections metric's reason:
// max_connections, max_connections_per_ip, max_games).
func refusalLine(reason string) string { return protocol.RefusedPrefix + reason }

// netKey is the remote network that the per-IP limit counts ip in: its
// IPv4 /v4 or IPv6 /v6 prefix ("127.0.0.0/24", "2001:db8::/64"); an IPv4
// address mapped into IPv6 counts as IPv4. What is not an IP address (a
// pipe in the tests) counts as itself.
func netKey(ip string, v4, v6 int) string {
	a, err := netip.ParseAddr(ip)
	if err != nil {
		return ip
	}
	a = a.Unmap().WithZone("")
	bits := v6
	if a.Is4() {
		bits = v4
	}
	p, err := a.Prefix(bits)
	if err != nil {
		return ip
	}
	return p.String()
}

// admit counts c against the connection limits, or names the limit it breaks.
func (s *Server) admit(c *conn) string {
	lim := s.cfg.Limits
	c.net = netKey(c.ip, lim.IPv4Prefix, lim.IPv6Prefix)
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.conns >= lim.MaxConnections:
		return rejectMaxConns
	case s.perIP[c.net] >= lim.MaxConnectionsPerIP:
		return rejectPerIP
	}
	s.conns++
	s.perIP[c.net]++
	s.metrics.connsOpen.Add(1)
	s.metrics.connsAccepted.Add(1)
	return ""
}

// release gives back an admitted connection's slots.
func (s *Server) release(c *conn) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.releaseLocked(c)
}

// releaseLocked is release with mu held.
func (s *Server) releaseLocked(c *conn) {
	if c.house {
		return // never admitted
	}
	s.conns--
	if c.bot != "" && s.online[c.bot] == c {
		delete(s.online, c.bot)
	}
	if s.perIP[c.net]--; s.perIP[c.net] <= 0 {
		delete(s.perIP, c.net)
	}
	s.metrics.connsOpen.Add(-1)
}

// refuse closes an admitted connection that cannot get a game, after the
// line that says why.
func (s *Server) refuse(l *listener, c *conn, reason string) {
	s.metrics.rejected[reason].Add(1)
	s.log.Warn("connection refused", "listener", l.st.cfg.Name, "peer", c.addr, "reason", reason)
	c.queueString(refusalLine(reason))
	c.flush()
	c.abandon()
	s.release(c)
}

func (s *Server) reserveGame() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.games >= s.cfg.Limits.MaxGames {
		return false
	}
	s.games++
	return true
}

func (s *Server) releaseGame() {
	s.mu.Lock()
	s.games--
	s.mu.Unlock()
}

// startMatch runs a pairing in its own goroutine (a game slot is reserved).
func (s *Server) startMatch(l *listener, seats [2]*seat) {
	l.seq++
	m := &match{
		srv:   s,
		st:    l.st,
		id:    s.runID + "-" + strconv.FormatUint(s.pairSeq.Add(1), 10),
		seats: seats,
		idx:   l.idx,
		seq:   l.seq,
		log:   s.log.With("listener", l.st.cfg.Name),
	}
	s.gamesWG.Add(1)
	s.metrics.gamesRunning.Add(1)
	go func() {
		defer func() {
			if r := recover(); r != nil { // a server bug: keep the other games going
				m.log.Error("match panicked", "pairing", m.id, "panic", r)
				m.close()
			}
			s.metrics.gamesRunning.Add(-1)
			s.releaseGame()
			s.gamesWG.Done()
		}()
		if m.st.cfg.HouseSeat != nil {
			defer m.dialHouse(s.gameCtx)() // ended before the game slot is given back
		}
		m.runGame(s.gameCtx)
	}()
}

// record stores a finished game: replay file, rated game in the ladder,
// result log line, metrics, log. An error means the ladder did not take a
// rated game: its players must not be told the result.
func (s *Server) record(log *slog.Logger, res *Result, rp []byte) error {
	rateErr := s.store(log, res, rp)
	if sp := s.watcher(); sp != nil {
		sp.Finished(*res)
	}
	logOver(log, res)
	return rateErr
}

// logOver logs the end of a stored game.
func logOver(log *slog.Logger, res *Result) {
	log.Info("game over", "game", res.Game, "outcome", res.Outcome, "winner", res.Winner, "reason", res.Reason,
		"actions", res.Actions, "p0", res.Players[0].Addr, "p1", res.Players[1].Addr, "seed", res.Seed)
}

// store writes a finished game's replay file (rp, nil: none; res.Replay
// names it), its rated game in the ladder, its result log line and its
// metrics (see record).
func (s *Server) store(log *slog.Logger, res *Result, rp []byte) error {
	if rp != nil {
		name := res.Game + ".jsonl"
		if err := writeFileDurable(s.cfg.ReplayDir, name, rp); err != nil { // never over an existing file
			log.Error("replay not written", "game", res.Game, "err", err)
		} else {
			res.Replay = name
		}
	}
	rateErr := s.rate(log, res)
	if rateErr != nil {
		log.Error("game not rated: its players are not told the result", "game", res.Game, "err", rateErr)
		res.Detail = "not rated: " + rateErr.Error()
	}
	if s.results != nil {
		torn, err := s.results.append(res)
		if torn != nil {
			s.logTorn(torn)
		}
		if err != nil {
			log.Error("result not logged", "game", res.Game, "err", err)
		}
	}
	s.metrics.finish(res)
	return rateErr
}
