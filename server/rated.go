package server

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"net"
	"net/netip"
	"slices"
	"time"

	"github.com/kaisen-ai/kaisen/ladder"
)

// Ladder is what a rated listener needs of the ladder database
// (*ladder.Store): checking a bot's token, reading its rating, and
// committing a decided game with its rating changes (idempotent by game
// id: a game id already stored is not counted again).
type Ladder interface {
	Authenticate(ctx context.Context, name, token string) error
	Rating(ctx context.Context, name string) (ladder.Rating, error)
	RecordGame(ctx context.Context, g ladder.Game) (recorded bool, err error)
}

// Reasons a rated listener refuses a connection (the rejected-connections
// metric's label, and the word after "refused: " on the line the client
// gets, followed by ": " and an explanation).
const (
	rejectAuthLine    = "bad_auth_line"      // the first line is not "auth NAME TOKEN"
	rejectAuth        = "auth_failed"        // wrong bot name or token
	rejectAuthLimited = "auth_rate_limited"  // too many failures from the client's network
	rejectConnected   = "already_connected"  // the bot is connected already (impersonation)
	rejectLadderDown  = "ladder_unavailable" // the database did not answer
)

// Rated-listener settings that are not in the config (RatedConfig has
// the others).
const (
	// ladderTimeout bounds one database call of the rated listener.
	ladderTimeout = 10 * time.Second
	// rateAttempts is how many times a decided game's commit is tried
	// before its players are disconnected without being told the result.
	rateAttempts = 4
)

// rated reports whether the server runs rated listeners.
func (s *Server) rated() bool { return s.cfg.Ladder != nil }

// authenticate reads a rated client's first line, the auth line, within
// the handshake timeout, and admits the bot to the lobby or refuses it with
// one line that says why. The token is never logged: only the name and
// ParseAuth's errors (which never quote it) are.
func (s *Server) authenticate(l *listener, c *conn) {
	t := time.NewTimer(s.cfg.Limits.HandshakeTimeout)
	defer t.Stop()
	var m inMsg
	select {
	case m = <-c.in:
	case <-t.C:
		s.drop(c, errors.New("no auth line within the handshake timeout"))
		return
	case <-s.stopCh:
		c.abandon()
		s.release(c)
		return
	}
	if m.err != nil {
		s.drop(c, m.err)
		return
	}
	line := string(*m.line)
	putLine(m.line)
	now := time.Now()
	if !s.limiter.Allow(c.net, now) {
		s.refuseRated(l, c, rejectAuthLimited, fmt.Sprintf("too many failed authentications from your network; retry in %v", s.cfg.Rated.AuthWindow))
		return
	}
	name, token, err := ladder.ParseAuth(line)
	if err != nil {
		s.limiter.Fail(c.net, now)
		s.refuseRated(l, c, rejectAuthLine, fmt.Sprintf("the first line must be %q (%v)", ladder.AuthWord+" NAME TOKEN", err))
		return
	}
	ctx, cancel := context.WithTimeout(s.gameCtx, ladderTimeout)
	defer cancel()
	switch err := s.cfg.Ladder.Authenticate(ctx, name, token); {
	case errors.Is(err, ladder.ErrAuth):
		s.limiter.Fail(c.net, now)
		s.refuseRated(l, c, rejectAuth, "wrong bot name or token")
		return
	case err != nil:
		s.log.Error("ladder: authenticate", "bot", name, "err", err)
		s.refuseRated(l, c, rejectLadderDown, "the ladder database is unavailable; retry later")
		return
	}
	s.limiter.Succeed(c.net)
	r, err := s.cfg.Ladder.Rating(ctx, name)
	if err != nil {
		s.log.Error("ladder: rating", "bot", name, "err", err)
		s.refuseRated(l, c, rejectLadderDown, "the ladder database is unavailable; retry later")
		return
	}
	s.mu.Lock()
	taken := s.online[name] != nil
	if !taken {
		s.online[name] = c
		c.bot, c.rating = name, r.R
	}
	s.mu.Unlock()
	if taken {
		s.refuseRated(l, c, rejectConnected, fmt.Sprintf("bot %s is connected already", name))
		return
	}
	s.log.Info("bot authenticated", "listener", l.st.cfg.Name, "peer", c.addr, "bot", name, "rating", r.R)
	// Into the lobby unless the server is stopping: under mu, so that a
	// shutdown either sees the bot in the lobby (and closes it) or is seen
	// here; a bot left waiting after closeLobby would hold Serve up to the
	// idle timeout.
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stopping {
		c.abandon()
		s.releaseLocked(c)
		return
	}
	s.wait(&l.lobby, c, now)
}

// offline ends the rated sessions of the match's bots: they may connect
// again (idempotent).
func (m *match) offline() {
	s := m.srv
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, st := range m.seats {
		if c := st.c; c != nil && c.bot != "" && s.online[c.bot] == c {
			delete(s.online, c.bot)
		}
	}
}

// refuseRated closes an admitted connection of a rated listener after the
// line "refused: CODE: WHY" (a lingering close, so that the line is read
// even when the client sent more).
func (s *Server) refuseRated(l *listener, c *conn, code, why string) {
	s.metrics.rejected[code].Add(1)
	s.log.Warn("connection refused", "listener", l.st.cfg.Name, "peer", c.addr, "reason", code, "detail", why)
	c.queueString(refusalLine(code) + ": " + why)
	closeConns([]*conn{c})
	s.release(c)
}

// pairLoop pairs the bots waiting on rated listener l, at every arrival
// and every rated.pair_interval (windows widen as they wait), until
// shutdown.
func (s *Server) pairLoop(l *listener) {
	defer s.acceptWG.Done()
	t := time.NewTicker(s.cfg.Rated.PairInterval)
	defer t.Stop()
	for {
		select {
		case <-s.stopCh:
			return
		case <-t.C:
		case <-l.lobby.kick:
		}
		s.pairRated(l, time.Now())
	}
}

// candidate is a waiting bot as pairByRating sees it.
type candidate struct {
	rating float64
	waited time.Duration
}

// window is the rating difference within which a bot that has waited
// waited accepts an opponent: rated.pair_window, widened by
// rated.pair_widen per second waited.
func (r RatedConfig) window(waited time.Duration) float64 {
	return r.PairWindow + r.PairWiden*waited.Seconds()
}

// pairByRating pairs waiting bots, given oldest first: each bot in turn,
// the longest waiting first, is paired with the unpaired bot of the
// closest rating (the older one on a tie) when their difference is within
// its window (r.window), or when neither of the two has a closer
// opponent online (nearest[i]: the smallest rating difference between
// bot i and any other bot connected, waiting or playing; nil = unknown):
// waiting could not find either a better match, so two bots alone on a
// ladder play at once however far apart. Otherwise it keeps waiting. It
// returns index pairs, the older bot first.
func (r RatedConfig) pairByRating(cs []candidate, nearest []float64) [][2]int {
	paired := make([]bool, len(cs))
	var out [][2]int
	for i := range cs {
		if paired[i] {
			continue
		}
		best, diff := -1, 0.0
		for j := i + 1; j < len(cs); j++ {
			if paired[j] {
				continue
			}
			if d := math.Abs(cs[i].rating - cs[j].rating); best < 0 || d < diff {
				best, diff = j, d
			}
		}
		noBetter := nearest != nil && best >= 0 && diff <= nearest[i] && diff <= nearest[best]
		if best >= 0 && (diff <= r.window(cs[i].waited) || noBetter) {
			paired[i], paired[best] = true, true
			out = append(out, [2]int{i, best})
		}
	}
	return out
}

// pairRated starts a game for every pair of waiting bots pairByRating
// picks. A bot whose opponent left meanwhile goes back to the lobby with
// its waiting time.
func (s *Server) pairRated(l *listener, now time.Time) {
	lb := &l.lobby
	lb.mu.Lock()
	ws := slices.Clone(lb.waiting)
	lb.mu.Unlock()
	if len(ws) < 2 {
		return
	}
	cs := make([]candidate, len(ws))
	for i, w := range ws {
		cs[i] = candidate{rating: w.c.rating, waited: now.Sub(w.since)}
	}
	for _, p := range s.cfg.Rated.pairByRating(cs, s.nearestOnline(ws)) {
		if !s.reserveGame() {
			return // they keep waiting for a free game slot
		}
		a, b := s.takeWaiter(lb, ws[p[0]]), s.takeWaiter(lb, ws[p[1]])
		if a == nil || b == nil {
			s.releaseGame()
			if a != nil {
				s.wait(lb, a, ws[p[0]].since)
			}
			if b != nil {
				s.wait(lb, b, ws[p[1]].since)
			}
			continue
		}
		s.log.Info("paired", "listener", l.st.cfg.Name, "bots", []string{a.bot, b.bot}, "ratings", []float64{a.rating, b.rating})
		s.startMatch(l, [2]*seat{{c: a, bot: a.bot}, {c: b, bot: b.bot}})
	}
}

// nearestOnline is, for each waiting bot of ws, the smallest rating
// difference between it and any other bot connected to the server
// (waiting or playing; +Inf when it is alone), for pairByRating.
func (s *Server) nearestOnline(ws []*waiter) []float64 {
	s.mu.Lock()
	ratings := make([]float64, 0, len(s.online))
	for _, c := range s.online {
		ratings = append(ratings, c.rating)
	}
	s.mu.Unlock()
	slices.Sort(ratings)
	out := make([]float64, len(ws))
	for i, w := range ws {
		out[i] = nearestOther(ratings, w.c.rating)
	}
	return out
}

// nearestOther is the smallest difference between r and the ratings of
// sorted other than one entry equal to r (the bot itself), +Inf when
// there is none.
func nearestOther(sorted []float64, r float64) float64 {
	k, found := slices.BinarySearch(sorted, r)
	best := math.Inf(1)
	lo, hi := k-1, k
	if found {
		hi = k + 1 // skip the bot itself
	}
	if lo >= 0 {
		best = r - sorted[lo]
	}
	if hi < len(sorted) {
		best = min(best, sorted[hi]-r)
	}
	return best
}

// Prefixes of the same-network rule: two bots connected from one /24
// (IPv4) or /48 (IPv6, a site) play unrated games. Wider than the per-IP
// limit's /64: one site hands out many /64s.
const (
	ratedIPv4Prefix = 24
	ratedIPv6Prefix = 48
)

// ratedNetwork is the network a bot connected from addr ("IP:port") is
// compared by for the same-network rule: its /24 or /48, or "" (never
// the same as another) for 127.0.0.1 and ::1, where a local TLS tunnel or
// proxy connects from (docs/ladder.md: the server cannot see who is
// behind it), and for what is not an IP address.
func ratedNetwork(addr string) string {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		host = addr
	}
	a, err := netip.ParseAddr(host)
	if err != nil {
		return ""
	}
	a = a.Unmap().WithZone("")
	if a == netip.IPv6Loopback() || a == netip.AddrFrom4([4]byte{127, 0, 0, 1}) {
		return ""
	}
	return netKey(a.String(), ratedIPv4Prefix, ratedIPv6Prefix)
}

// rate commits a decided game between two bots to the ladder, retrying a
// failed commit; nil when the game is not rated (not between two bots, or
// aborted). The commit is idempotent by game id, so a retry after a commit
// whose answer was lost does not count the game twice.
func (s *Server) rate(log *slog.Logger, res *Result) error {
	if !s.rated() || res.Players[0].Bot == "" || res.Players[1].Bot == "" {
		return nil
	}
	if res.Outcome != OutcomeWin && res.Outcome != OutcomeDraw {
		return nil
	}
	g := ladder.Game{
		ID: res.Game, Bots: [2]string{res.Players[0].Bot, res.Players[1].Bot}, First: res.First, Seed: res.Seed,
		Outcome: res.Outcome, Winner: res.Winner, Reason: res.Reason, Actions: res.Actions, Replay: res.Replay,
		Start: res.Start, End: res.End,
		// Bots of one network play unrated games (ladder.RecordGame).
		Networks: [2]string{ratedNetwork(res.Players[0].Addr), ratedNetwork(res.Players[1].Addr)},
	}
	var err error
	for attempt := range rateAttempts {
		if attempt > 0 {
			time.Sleep(100 * time.Millisecond << attempt)
		}
		ctx, cancel := context.WithTimeout(context.Background(), ladderTimeout)
		var recorded bool
		recorded, err = s.cfg.Ladder.RecordGame(ctx, g)
		cancel()
		if err == nil {
			log.Info("game rated", "game", g.ID, "bots", g.Bots[:], "recorded", recorded)
			return nil
		}
		log.Warn("ladder: commit failed", "game", g.ID, "attempt", attempt+1, "err", err)
	}
	return fmt.Errorf("server: rate game %s: %w", g.ID, err)
}
