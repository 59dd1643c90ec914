package server

import (
	"errors"
	"fmt"
	"sync"
	"time"
)

// maxEarlyLines is how many lines a client may send before its game starts
// (a submarine-py client that does not wait for the greeting sends its name
// and its placement). More is out of turn: the client is dropped.
const maxEarlyLines = 2

// errIdle and errEarly are why a client waiting for an opponent is dropped.
var (
	errIdle  = errors.New("no opponent within the idle timeout")
	errEarly = fmt.Errorf("more than %d lines before the game started", maxEarlyLines)
)

// lobby holds the connections of a pair listener that wait for an
// opponent: at most one on a classic listener (the next client takes it),
// any number on a rated one (the pairing loop takes them two by two, see
// rated.go). Only the listener's accept loop (classic) or pairing loop
// (rated) adds and takes; a watcher goroutine per waiting connection
// consumes what the client sends meanwhile, and notices when it leaves,
// floods or exceeds the idle timeout.
type lobby struct {
	mu      sync.Mutex
	waiting []*waiter     // oldest first
	kick    chan struct{} // rated: wakes the pairing loop (buffered, 1)
}

// waiter is a connection in the lobby.
type waiter struct {
	c      *conn
	since  time.Time     // when it started waiting (rated pairing widens with it)
	taken  bool          // removed from the lobby; guarded by lobby.mu
	take   chan struct{} // closed by the taker
	result chan error    // the watcher's answer to take: nil = alive
}

func (lb *lobby) hasWaiting() bool {
	lb.mu.Lock()
	defer lb.mu.Unlock()
	return len(lb.waiting) > 0
}

// remove takes w out of the waiting list and reports whether it was still
// there. The caller holds mu.
func (lb *lobby) remove(w *waiter) bool {
	if w.taken {
		return false
	}
	w.taken = true
	for i, x := range lb.waiting {
		if x == w {
			lb.waiting = append(lb.waiting[:i], lb.waiting[i+1:]...)
			break
		}
	}
	return true
}

// wait puts c in the lobby, waiting since since, and starts its watcher.
func (s *Server) wait(lb *lobby, c *conn, since time.Time) {
	w := &waiter{c: c, since: since, take: make(chan struct{}), result: make(chan error, 1)}
	lb.mu.Lock()
	lb.waiting = append(lb.waiting, w)
	lb.mu.Unlock()
	if lb.kick != nil {
		select {
		case lb.kick <- struct{}{}:
		default:
		}
	}
	s.wg.Go(func() { s.watch(lb, w) })
}

// watch owns the waiting connection until it is taken: it keeps the lines
// the client sends early (at most maxEarlyLines, for its handshake) and
// drops the client when it leaves, sends more, or waits longer than the
// idle timeout — which keeps running whatever the client sends.
func (s *Server) watch(lb *lobby, w *waiter) {
	idle := time.NewTimer(s.cfg.Limits.IdleTimeout)
	defer idle.Stop()
	c := w.c
	var fail error
	for fail == nil {
		select {
		case <-w.take:
			w.result <- nil
			return
		case m := <-c.in:
			switch {
			case m.err != nil:
				fail = m.err
			case len(c.early) >= maxEarlyLines:
				putLine(m.line)
				fail = errEarly
			default:
				c.early = append(c.early, m)
			}
		case <-idle.C:
			fail = errIdle
		}
	}
	lb.mu.Lock()
	mine := lb.remove(w)
	lb.mu.Unlock()
	if !mine { // taken meanwhile: the taker drops it
		<-w.take
		w.result <- fail
		return
	}
	s.drop(c, fail)
}

// drop closes a client that left or misbehaved before its game started.
func (s *Server) drop(c *conn, why error) {
	switch {
	case errors.Is(why, errIdle):
		s.log.Info("no opponent within the idle timeout: closing", "peer", c.addr, "idle_timeout", s.cfg.Limits.IdleTimeout)
	case errors.Is(why, errEarly):
		s.log.Warn("client dropped before its game", "peer", c.addr, "reason", ReasonOutOfTurn, "detail", why.Error())
	default:
		if r := classify(why); r != ReasonDisconnect {
			s.log.Warn("client dropped before its game", "peer", c.addr, "reason", r, "detail", why.Error())
		} else {
			s.log.Info("client left while waiting for an opponent", "peer", c.addr, "err", why)
		}
	}
	c.abandon()
	s.release(c)
}

// take removes the oldest waiting connection and returns it, or nil when
// there is none or it turns out to have left (it is then closed).
func (s *Server) take(lb *lobby) *conn {
	lb.mu.Lock()
	var w *waiter
	if len(lb.waiting) > 0 {
		w = lb.waiting[0]
	}
	lb.mu.Unlock()
	if w == nil {
		return nil
	}
	return s.takeWaiter(lb, w)
}

// takeWaiter removes w from the lobby and returns its connection, or nil
// when it was taken already or turns out to have left (it is then closed).
func (s *Server) takeWaiter(lb *lobby, w *waiter) *conn {
	lb.mu.Lock()
	mine := lb.remove(w)
	lb.mu.Unlock()
	if !mine {
		return nil
	}
	close(w.take)
	if err := <-w.result; err != nil {
		s.drop(w.c, err)
		return nil
	}
	return w.c
}

// closeLobby closes the waiting connections (at shutdown).
func (s *Server) closeLobby(lb *lobby) {
	for lb.hasWaiting() {
		if c := s.take(lb); c != nil {
			c.abandon()
			s.release(c)
		}
	}
}
