package server

import (
	"context"
	"net"

	"github.com/kaisen-ai/kaisen/internal/config"
)

// HouseDialer starts the house seat of one pairing of a listener whose
// house is a program (ListenerConfig.HouseSeat): it returns the connection
// the program plays on, played as a client's, and a cleanup that ends the
// program, called once the pairing is over (its connection closed). ctx
// ends when the server stops its games; pairing names the pairing (logs,
// file names); seed is its first game's seed. An error forfeits the
// house's game: the seat is then a connection already closed.
type HouseDialer func(ctx context.Context, pairing string, seed uint64) (net.Conn, func(), error)

// HouseIsAI reports whether the clients of l play a house AI in-process
// (not each other, not a program: HouseSeat).
func (l ListenerConfig) HouseIsAI() bool { return l.Opponent != OpponentPair && l.HouseSeat == nil }

// houseLoader is the loader of the house AI's settings: HouseLoad, else
// the file HouseConfig (none: the AI's defaults).
func (l ListenerConfig) houseLoader() func(any) error {
	if l.HouseLoad != nil {
		return l.HouseLoad
	}
	return config.File(l.HouseConfig)
}

// houseSeatProblem says what is wrong with a listener whose house is a
// program, "" when nothing is.
func (l ListenerConfig) houseSeatProblem() string {
	switch {
	case l.HouseSeat == nil:
		return ""
	case l.HouseConfig != "" || l.HouseLoad != nil:
		return "house weights are set but the house is a program"
	}
	return ""
}

// dialHouse seats the house program of the pairing as seat 1
// (ListenerConfig.HouseSeat) and returns its cleanup. A program that does
// not start or connect is logged, and its seat is a connection closed at
// once: the house forfeits as a client that left, and the client wins.
func (m *match) dialHouse(ctx context.Context) func() {
	lim := m.srv.cfg.Limits
	nc, cleanup, err := m.st.cfg.HouseSeat(ctx, m.id, gameSeed(m.srv.key, m.idx, m.seq, 1))
	if err != nil {
		m.log.Warn("house program did not connect: the house forfeits", "pairing", m.id, "err", err)
		var other net.Conn
		nc, other = net.Pipe()
		_ = other.Close()
		cleanup = func() {}
	}
	c := newConn(nc, lim.MaxLineBytes, lim.ActionTimeout)
	c.house = true
	c.start(&m.srv.wg)
	m.seats[1].c = c
	return cleanup
}
