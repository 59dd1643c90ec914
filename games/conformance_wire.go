package games

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net"
	"sync"
	"time"

	"github.com/kaisen-ai/kaisen/client"
	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/game/conformance"
	"github.com/kaisen-ai/kaisen/internal/race"
	"github.com/kaisen-ai/kaisen/protocol"
	"github.com/kaisen-ai/kaisen/server"
)

// wireSeed seeds the wire check's games (the players' streams and the
// server's).
const wireSeed = 26

// wireTimeout bounds every read of the wire check's clients and every
// action of its server's: generous, for the race detector.
const wireTimeout = time.Minute

// wireHouse names the second seat of the wire check's listeners, a client
// too (server.ListenerConfig.HouseSeat), in the server's logs.
const wireHouse = "wire-seat-1"

// wireCheck is the conformance check of a game's wire codec (Def.Wire) in
// every dialect it lists (Wire.Dialects; none: the default listener's).
// In each, seeded games between the game's default AIs are played by the
// real server turn loop (a server.Server on loopback, one listener per
// pairing) and by the real client loop (client.Play) on both seats, seat
// 1 being the listener's house program (server.ListenerConfig.HouseSeat),
// with the game's production codecs: one game with seat 0 acting first,
// one with seat 1 acting first, and a series of two games (alternating)
// where the dialect plays series. Each game is then played again
// in-process (game.Table) with the same players, seats and random
// streams, and:
//
//   - server → client: every observation the client codec decoded from
//     the server's lines is what the rules tell the seat in-process
//     (Rules.Tell), and the client's rules and seat (game.Opening) are the
//     listener's;
//   - client → server: every placement and action line the client codec
//     wrote decodes on the dialect's server codec to what the player chose;
//   - the game: both seats placed, acted and were told the same as
//     in-process, in the same order, their end lines and the server's
//     result name the in-process winner, and nobody forfeited.
//
// Values are compared exactly, by dump: every field, unexported ones too,
// through pointers and interfaces (a nil slice or map reads as an empty
// one); a decoded placement or action by its type's Equal method when it
// has one (same: abilities.Action, whose unused fields do not count).
// Under the race detector it plays fewer and plainer games (pairings).
func wireCheck[R game.Rules[G, P, A, S, O], G game.State[A, S], P, A, S, O any](d Def[R, G, P, A, S, O]) conformance.Check {
	return conformance.Check{Name: "wire", Run: func(t conformance.T) {
		t.Helper()
		for i, l := range d.Wire.dialects() {
			w, err := newWireDialect(d, l)
			if err != nil {
				t.Errorf("%s: %v", d.Name, err)
				continue
			}
			if len(d.Wire.Dialects) > 1 {
				w.name += fmt.Sprintf(" (Wire.Dialects[%d])", i)
			}
			w.plain = race.Enabled && i > 0
			n, problems := w.check()
			for _, problem := range problems {
				t.Errorf("%s, %s: %v", d.Name, w.name, problem)
			}
			t.Logf("%s, %s: %d games, %d placement, action and told steps compared", d.Name, w.name, n.games, n.steps)
		}
	}}
}

// dialects are the listener settings the wire check plays.
func (w *Wire[R, P, A, O]) dialects() []server.ListenerConfig {
	if len(w.Dialects) > 0 {
		return w.Dialects
	}
	return []server.ListenerConfig{{}}
}

// wireDialect is one dialect of a game's wire as the wire check plays it.
type wireDialect[R game.Rules[G, P, A, S, O], G game.State[A, S], P, A, S, O any] struct {
	d      Def[R, G, P, A, S, O]
	l      server.ListenerConfig // the dialect's settings of the game
	name   string                // the dialect, in messages
	rules  R                     // the rules its listeners play
	server func() game.ServerCodec[P, A, O]
	plain  bool // the second default AI plays both seats (pairings)
}

// newWireDialect is the dialect of d's wire that a listener with settings
// l plays: its rules and server codec as the server builds them
// (Wire.Listen, else Wire.Settings or the default rules, with Wire.Server).
func newWireDialect[R game.Rules[G, P, A, S, O], G game.State[A, S], P, A, S, O any](d Def[R, G, P, A, S, O], l server.ListenerConfig) (*wireDialect[R, G, P, A, S, O], error) {
	l.Game = d.Name
	full := l.WithDefaults()
	w := &wireDialect[R, G, P, A, S, O]{d: d, l: l, name: "dialect " + d.Name} // as server.Result.Dialect names it
	if d.Wire.Listen != nil {
		w.name = "dialect " + full.Dialect
	}
	if !full.PlainBoard() {
		w.name += fmt.Sprintf(" %dx%d", full.Width, full.Height)
	}
	var err error
	switch {
	case d.Wire.Listen != nil:
		var lis server.Listening[R, P, A, O]
		if lis, err = d.Wire.Listen(full); err == nil {
			w.rules, w.server = lis.Rules(), lis.Server
		}
	case d.Wire.Server == nil:
		err = errors.New("the wire has no server side (Wire.Server or Listen)")
	default:
		if d.Wire.Settings != nil {
			w.rules, err = d.Wire.Settings(full)
		} else {
			w.rules, err = defaultRules(d)
		}
		w.server = func() game.ServerCodec[P, A, O] { return d.Wire.Server(w.rules) }
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", w.name, err)
	}
	return w, nil
}

// wirePairing is one pairing of the wire check: one listener, one
// connection per seat.
type wirePairing struct {
	games int       // per pairing: 2 plays a series
	first string    // the listener's first-player policy
	ai    [2]string // by seat
	seed  uint64    // of the seats' streams
}

// pairings are the pairings the dialect plays, between the game's
// default AIs: one game with seat 0 acting first, one with seat 1 acting
// first (the AIs swapped), and a series of two where the dialect plays
// series. Under the race detector, where the stronger AIs take a second
// a game, the second game is left out, and the dialects after the first
// are played by the second default AI (the game's plainest) in both
// seats (plain); the full-size step (TestConformanceFullSize, without
// -race) plays everything.
func (w *wireDialect[R, G, P, A, S, O]) pairings() []wirePairing {
	a, b := w.d.DefaultPlayers[0], w.d.DefaultPlayers[1]
	if w.plain {
		a = b
	}
	ps := []wirePairing{{games: 1, first: server.FirstConnected, ai: [2]string{a, b}, seed: wireSeed}}
	if !race.Enabled {
		ps = append(ps, wirePairing{games: 1, first: server.FirstSecond, ai: [2]string{b, a}, seed: wireSeed + 1})
	}
	series := wirePairing{games: 2, first: server.FirstAlternate, ai: [2]string{a, b}, seed: wireSeed + 2}
	cfg := server.DefaultConfig()
	cfg.Listeners = []server.ListenerConfig{w.listener(series, func(context.Context, string, uint64) (net.Conn, func(), error) {
		return nil, nil, errors.New("not dialled")
	})}
	if cfg.Validate() == nil { // the dialect plays series
		ps = append(ps, series)
	}
	return ps
}

// listener is the listener of pairing p, its seat 1 dialled by house.
func (w *wireDialect[R, G, P, A, S, O]) listener(p wirePairing, house server.HouseDialer) server.ListenerConfig {
	l := w.l
	l.Address, l.Opponent, l.HouseSeat, l.Games, l.First = "127.0.0.1:0", wireHouse, house, p.games, p.first
	return l
}

// wireRand is the stream of seat's player in game k of a pairing seeded
// seed, on the wire and in-process.
func wireRand(seed uint64, seat, k int) *rand.Rand {
	return rand.New(rand.NewPCG(seed, uint64(2*k+seat)))
}

// wireCount is what the wire check compared: games, and steps of the
// players' courses (placements, actions, observations).
type wireCount struct{ games, steps int }

// check plays the dialect's pairings and returns what it compared and
// what went wrong.
func (w *wireDialect[R, G, P, A, S, O]) check() (wireCount, []error) {
	var n wireCount
	ps := w.pairings()
	seats, results, err := w.play(ps)
	if err != nil {
		return n, []error{err}
	}
	var problems []error
	for j, p := range ps {
		for k := range p.games {
			errs := w.compare(p, k, seats[j], results[fmt.Sprintf("wire-%d/%d", j, k+1)])
			for _, err := range errs {
				problems = append(problems, fmt.Errorf("%s against %s, game %d of %d (%s): %w", p.ai[0], p.ai[1], k+1, p.games, p.first, err))
			}
			if len(errs) == 0 {
				n.games++
				n.steps += len(seats[j][0].log.games[k]) + len(seats[j][1].log.games[k])
			}
		}
	}
	return n, problems
}

// finished keeps the results of a server's games by listener and round
// (a server.Spectator).
type finished struct {
	mu  sync.Mutex
	res map[string]server.Result
}

func (*finished) Started(string, game.Public, [2]server.Peer, int) {}
func (*finished) Step(string, int, *game.Seen)                     {}
func (f *finished) Finished(res server.Result) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.res[fmt.Sprintf("%s/%d", res.Listener, res.Round)] = res
}

// play runs a server with one listener per pairing of ps and plays each
// pairing, both seats on loopback; it returns each pairing's seats (by
// seat) and the server's results by "listener/round".
func (w *wireDialect[R, G, P, A, S, O]) play(ps []wirePairing) ([][2]*wireSeat[R, P, A, O], map[string]server.Result, error) {
	seats := make([][2]*wireSeat[R, P, A, O], len(ps))
	cfg := server.DefaultConfig()
	cfg.Seed = wireSeed
	cfg.Limits.ActionTimeout, cfg.Limits.HandshakeTimeout = wireTimeout, wireTimeout
	cfg.Listeners = nil
	for j, p := range ps {
		l := w.listener(p, func(context.Context, string, uint64) (net.Conn, func(), error) {
			mine, theirs, err := loopbackPair()
			if err != nil {
				return nil, nil, err
			}
			done := make(chan struct{})
			go func() {
				defer close(done)
				seats[j][1] = w.seat(theirs, 1, p)
				_ = theirs.Close()
			}()
			return mine, func() { _ = mine.Close(); <-done }, nil
		})
		l.Name = fmt.Sprintf("wire-%d", j)
		cfg.Listeners = append(cfg.Listeners, l)
	}
	srv, err := server.New(cfg, slog.New(slog.DiscardHandler))
	if err != nil {
		return nil, nil, err
	}
	watch := &finished{res: map[string]server.Result{}}
	srv.Watch(watch)
	if err := srv.Listen(); err != nil {
		return nil, nil, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ctx) }()
	var wg sync.WaitGroup
	for j, addr := range srv.Addrs() {
		wg.Go(func() {
			conn, err := net.Dial("tcp", addr.String())
			if err != nil {
				seats[j][0] = &wireSeat[R, P, A, O]{err: err}
				return
			}
			defer conn.Close()
			seats[j][0] = w.seat(conn, 0, ps[j])
		})
	}
	wg.Wait()
	cancel()
	if err := <-served; err != nil { // every house seat's cleanup has run
		return nil, nil, fmt.Errorf("serve: %w", err)
	}
	for j := range seats {
		if seats[j][1] == nil {
			seats[j][1] = &wireSeat[R, P, A, O]{err: errors.New("the server never dialled seat 1")}
		}
	}
	watch.mu.Lock()
	defer watch.mu.Unlock()
	return seats, watch.res, nil
}

// loopbackPair is both ends of a TCP connection on loopback.
func loopbackPair() (net.Conn, net.Conn, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, nil, err
	}
	defer ln.Close()
	a, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		return nil, nil, err
	}
	b, err := ln.Accept()
	if err != nil {
		_ = a.Close()
		return nil, nil, err
	}
	return a, b, nil
}

// wireSeat is how one seat of a pairing played on the wire: the client
// loop's result, its codec's lines and its players' courses.
type wireSeat[R, P, A, O any] struct {
	res   client.Result
	err   error
	codec *recCodec[R, P, A, O]
	log   *courses[P, A, O]
}

// seat plays seat's side of pairing p on conn with the game's client codec
// (as kaisen play builds it) and the pairing's AI.
func (w *wireDialect[R, G, P, A, S, O]) seat(conn net.Conn, seat int, p wirePairing) *wireSeat[R, P, A, O] {
	rules, err := defaultRules(w.d)
	if err != nil {
		return &wireSeat[R, P, A, O]{err: err}
	}
	s := &wireSeat[R, P, A, O]{codec: &recCodec[R, P, A, O]{ClientCodec: w.d.Wire.codec(rules, "kaisen-"+p.ai[seat])()}, log: &courses[P, A, O]{}}
	build := func(r R) (game.Factory[P, A, O], error) {
		f, err := w.d.AIs.New(p.ai[seat], r, nil)
		if err != nil {
			return nil, err
		}
		return s.log.factory(f, -1), nil
	}
	s.res, s.err = client.Play(context.Background(), conn, w.d.Name, s.codec, build,
		func(k int) *rand.Rand { return wireRand(p.seed, seat, k) }, client.Options{ReadTimeout: wireTimeout})
	return s
}

// compare checks game k of pairing p as seats played it on the wire
// (res: the server's result) against the same game in-process.
func (w *wireDialect[R, G, P, A, S, O]) compare(p wirePairing, k int, seats [2]*wireSeat[R, P, A, O], res server.Result) []error {
	var problems []error
	for i, s := range seats {
		if s.err != nil {
			return []error{fmt.Errorf("seat %d (%s): %w", i, p.ai[i], s.err)}
		}
		if len(s.res.Games) != p.games || len(s.codec.games) != p.games || len(s.log.games) != p.games {
			return []error{fmt.Errorf("seat %d played %d games, want %d", i, len(s.res.Games), p.games)}
		}
	}
	g := [2]client.Game{seats[0].res.Games[k], seats[1].res.Games[k]}
	if g[0].First == g[1].First || !g[0].Started || !g[1].Started {
		return []error{fmt.Errorf("seat 0 acted first: %v, seat 1: %v (started: %v, %v)", g[0].First, g[1].First, g[0].Started, g[1].Started)}
	}
	first := 0
	if g[1].First {
		first = 1
	}
	ref, result, err := w.inProcess(p, k, first, [2]int{seats[0].log.seats[k], seats[1].log.seats[k]})
	if err != nil {
		return []error{err}
	}
	codec := w.server()
	for i, s := range seats {
		op := s.codec.games[k]
		if got, want := dump(op.opening.Rules), dump(w.rules); got != want {
			problems = append(problems, fmt.Errorf("seat %d: the client's rules are not the listener's:\n  wire       %s\n  listener   %s", i, got, want))
		}
		if op.opening.Seat != 0 && op.opening.Seat != i {
			problems = append(problems, fmt.Errorf("seat %d: the client was told seat %d", i, op.opening.Seat))
		}
		problems = append(problems, decodeLines(op, codec, i)...)
		if err := sameCourse(s.log.games[k], ref.games[i]); err != nil {
			problems = append(problems, fmt.Errorf("seat %d (%s): %w", i, p.ai[i], err))
		}
		if want := wireEnd(result.Winner, i); g[i].End != want {
			problems = append(problems, fmt.Errorf("seat %d: end line %q, want %s (the in-process winner: %d)", i, g[i].Line, want, result.Winner))
		}
	}
	switch {
	case res.Game == "":
		problems = append(problems, errors.New("the server recorded no result"))
	case res.Winner != result.Winner || len(res.Forfeits) > 0 || res.First != first:
		problems = append(problems, fmt.Errorf("the server's result: winner %d, first %d, forfeits %v (%s); in-process: winner %d, first %d",
			res.Winner, res.First, res.Forfeits, res.Reason, result.Winner, first))
	}
	return problems
}

// inProcess plays game k of pairing p in-process (game.Table on the
// listener's rules, first acting first): each seat's AI made as the
// client made it (seats: the seat its codec named) with the same stream.
// It returns the players' courses by seat and the result.
func (w *wireDialect[R, G, P, A, S, O]) inProcess(p wirePairing, k, first int, seats [2]int) (*courses[P, A, O], game.Result, error) {
	log := &courses[P, A, O]{}
	var f [2]game.Factory[P, A, O]
	for i := range f {
		ai, err := w.d.AIs.New(p.ai[i], w.rules, nil)
		if err != nil {
			return nil, game.Result{}, fmt.Errorf("AI %s: %w", p.ai[i], err)
		}
		f[i] = log.factory(ai, seats[i])
	}
	tab := game.NewTable[G, P, A, S, O](w.rules, nil)
	res := tab.Play(&game.Setup[P, A, S, O]{Factories: f, First: first,
		Rands: [2]*rand.Rand{wireRand(p.seed, 0, k), wireRand(p.seed, 1, k)}})
	if res.Forfeited() {
		return nil, res, fmt.Errorf("in-process, a built-in AI forfeited: %+v", res.Forfeits)
	}
	return log, res, nil
}

// wireEnd is the end line a seat gets of a game that winner won (-1: a
// draw).
func wireEnd(winner, seat int) protocol.End {
	switch winner {
	case -1:
		return protocol.EndDraw
	case seat:
		return protocol.EndWin
	}
	return protocol.EndLose
}
