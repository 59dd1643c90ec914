package extern

import (
	"fmt"
	"io"
	"net"
	"sync"
	"sync/atomic"
)

// gate seats a pair of bots in order: each connects to a loopback port of
// its own, and the gate forwards the connection of seat 0's bot to the
// server's pair listener before it accepts seat 1's, so that the listener
// (which seats clients in arrival order) seats them as the arena does.
// The bytes pass unchanged both ways: the server's code still plays both
// clients.
type gate struct {
	lns       [2]net.Listener
	connected [2]atomic.Bool // bot i's connection reached the server

	mu     sync.Mutex
	closed bool
	conns  []net.Conn
	wg     sync.WaitGroup
}

// openGate opens the two ports and starts forwarding to the server at addr.
func openGate(addr string) (*gate, error) {
	g := &gate{}
	for i := range g.lns {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			g.close()
			return nil, fmt.Errorf("extern: gate: %w", err)
		}
		g.lns[i] = ln
	}
	g.wg.Go(func() { g.run(addr) })
	return g, nil
}

// ports are the ports of seat 0's and seat 1's bots.
func (g *gate) ports() []int {
	return []int{g.lns[0].Addr().(*net.TCPAddr).Port, g.lns[1].Addr().(*net.TCPAddr).Port}
}

// run forwards one connection per port, seat 0's first.
func (g *gate) run(addr string) {
	for i, ln := range g.lns {
		c, err := ln.Accept()
		if err != nil {
			return // closed: the game is over
		}
		_ = ln.Close() // one connection per bot
		s, err := net.Dial("tcp", addr)
		if err != nil {
			_ = c.Close()
			return
		}
		if !g.track(c, s) {
			return
		}
		g.connected[i].Store(true)
		g.wg.Go(func() { forward(s, c) })
		g.wg.Go(func() { forward(c, s) })
	}
}

// track records the connections for close; false when the gate is closed.
func (g *gate) track(cs ...net.Conn) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.closed {
		for _, c := range cs {
			_ = c.Close()
		}
		return false
	}
	g.conns = append(g.conns, cs...)
	return true
}

// forward copies src to dst, then closes both: either side ending ends
// the other.
func forward(dst, src net.Conn) {
	_, _ = io.Copy(dst, src)
	_ = dst.Close()
	_ = src.Close()
}

// close stops the gate and waits for its goroutines.
func (g *gate) close() {
	g.mu.Lock()
	g.closed = true
	for _, ln := range g.lns {
		if ln != nil {
			_ = ln.Close()
		}
	}
	for _, c := range g.conns {
		_ = c.Close()
	}
	g.conns = nil
	g.mu.Unlock()
	g.wg.Wait()
}
