package server

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"os"
	"strconv"
	"time"

	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/game/submarine"
	"github.com/kaisen-ai/kaisen/players"
	"github.com/kaisen-ai/kaisen/protocol"
	"github.com/kaisen-ai/kaisen/replay"
)

// maxNameBytes is the most of a submarine-py client's name that is kept.
const maxNameBytes = 64

// seat is one side of a match: a client connection or the house AI.
type seat struct {
	c       *conn           // nil for the house AI
	factory players.Factory // the house AI (c == nil)
	house   string          // the house AI's name
	name    string          // the name a submarine-py client sent

	// Per game.
	ai        players.Player
	place     submarine.Placement
	order     protocol.Order
	fault     error // why this seat forfeits the current game
	pipelined bool  // its last line arrived together with more input
}

func (s *seat) peer() Peer {
	if s.c == nil {
		return Peer{Addr: "house", Name: s.house}
	}
	return Peer{Addr: s.c.addr, Name: s.name}
}

// dead reports why the seat can no longer play, or nil.
func (s *seat) dead() error {
	if s.fault != nil {
		return s.fault
	}
	if s.c != nil && s.c.werr != nil {
		return s.c.werr
	}
	return nil
}

// in is the channel of the seat's reader goroutine, or nil (house AI).
func (s *seat) in() chan inMsg {
	if s.c == nil {
		return nil
	}
	return s.c.in
}

// match is one pairing: two seats playing the listener's number of games on
// the same connections. One goroutine runs it and owns everything in it.
type match struct {
	srv   *Server
	st    *setup
	id    string
	seats [2]*seat
	rng   *rand.Rand // the pairing's stream: one seed per game
	log   *slog.Logger
	tally [2]protocol.Tally
	timer *time.Timer // the running timeout (handshake or action)
	first int         // the seat whose connection got the first line queued since the last flush, or -1
}

// run plays the pairing's games, records each, then closes the connections.
// ctx ends when the server stops the game (after the shutdown grace).
func (m *match) run(ctx context.Context) {
	stop := context.AfterFunc(ctx, func() {
		for _, s := range m.seats {
			if s.c != nil {
				_ = s.c.nc.Close() // unblocks writes; the readers report the error
			}
		}
	})
	defer stop()
	m.timer = time.NewTimer(time.Hour)
	m.timer.Stop()
	defer m.timer.Stop()
	n := m.st.cfg.Games
	for k := 1; k <= n; k++ {
		res, rp := m.play(ctx, k)
		// An illegal action only loses the game; any other forfeit (the
		// client is broken or gone) or a shutdown ends the series.
		last := k == n || res.Outcome == OutcomeAborted || (len(res.Forfeits) > 0 && res.Reason != ReasonIllegal)
		// The result is on disk before anyone is told how the game ended.
		m.srv.record(m.log, res, rp)
		m.end(res, last)
		if last {
			break
		}
	}
	m.close()
}

// sendString queues line for seat i (nothing for the house AI). Lines
// queued for one connection leave in one write at the next flush, in the
// order they were queued; the flush writes first to the connection whose
// line was queued first, so the first line of each write leaves in the
// reference server's order (the order between the two connections is not
// observable on TCP anyway).
func (m *match) sendString(i int, line string) {
	if c := m.seats[i].c; c != nil {
		if m.first < 0 {
			m.first = i
		}
		c.queueString(line)
	}
}

// sendResult queues for client seat i the result line that tells it ev,
// the outcome and its view v (the enemy's ships in the order enemy).
func (m *match) sendResult(i int, ev submarine.Event, outcome int, v *submarine.View, enemy protocol.Order) {
	s := m.seats[i]
	if s.c == nil || s.c.werr != nil {
		return
	}
	if m.first < 0 {
		m.first = i
	}
	c := s.c
	c.wbuf = m.st.enc.appendResult(c.wbuf, ev, outcome, v, s.order, enemy)
	c.wbuf = append(c.wbuf, '\n')
}

// flush sends what is queued: one write per connection.
func (m *match) flush() {
	if m.first < 0 {
		return
	}
	for _, i := range [2]int{m.first, 1 - m.first} {
		if c := m.seats[i].c; c != nil {
			c.flush()
		}
	}
	m.first = -1
}

// firstSeat applies the listener's first-player policy to game k.
func (m *match) firstSeat(k int, rng *rand.Rand) int {
	switch m.st.cfg.First {
	case FirstAlternate:
		return (k - 1) % 2
	case FirstHalves:
		if k <= (m.st.cfg.Games+1)/2 {
			return 0
		}
		return 1
	case FirstRandom:
		return rng.IntN(2)
	default:
		return 0
	}
}

// protect runs f, turning a panic (of a house AI) into an error.
func protect(f func()) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%w: %v", errPanic, r)
		}
	}()
	f()
	return nil
}

// replayName names the seat in replay headers: "remote ADDR [NAME]" or
// the house AI's name.
func (s *seat) replayName() string {
	if s.c == nil {
		return s.house
	}
	name := "remote " + s.peer().Addr
	if s.name != "" {
		name += " " + s.name
	}
	return name
}

// errOutOfTurn wraps a line a client sent while it was not its turn.
var errOutOfTurn = errors.New("a line while not its turn")

// outOfTurn is the fault of a seat that sent line (nil: more input right
// after its last line) while it was not its turn.
func outOfTurn(line []byte) error {
	if line == nil {
		return fmt.Errorf("%w: more input right after its last line", errOutOfTurn)
	}
	return fmt.Errorf("%w: %q", errOutOfTurn, protocol.NewProtocolError(line, errOutOfTurn).Line)
}

// play runs game k: handshake, then turns until the game ends. It returns
// the game's result and its replay (nil when the game was aborted or replays
// are off). End lines are sent by end.
func (m *match) play(ctx context.Context, k int) (*Result, []byte) {
	cfg := m.st.cfg
	seed := m.rng.Uint64()
	rng := rand.New(rand.NewPCG(seed, 0x6b616973656e)) // first-player coin
	res := &Result{
		Game:     m.id,
		Listener: cfg.Name,
		Dialect:  m.st.dialect.String(),
		Round:    k,
		Rounds:   cfg.Games,
		Seed:     seed,
		First:    m.firstSeat(k, rng),
		Winner:   -1,
		Start:    time.Now().UTC(),
	}
	if cfg.Games > 1 {
		res.Game = m.id + "." + strconv.Itoa(k)
	}
	log := m.log.With("game", res.Game)

	m.handshake(ctx, k, seed)
	for i, s := range m.seats {
		res.Players[i] = s.peer()
	}
	if ctx.Err() != nil {
		return m.abort(res, log), nil
	}

	var rp *bytes.Buffer
	var rw *replay.Writer
	if m.srv.cfg.ReplayDir != "" {
		rp = new(bytes.Buffer)
		h := replay.Header{Seed: seed, First: res.First}
		for i, s := range m.seats {
			h.Players[i] = replay.SeatInfo{Seat: i, Name: s.replayName()}
		}
		rw = replay.NewWriter(rp, m.st.rules, h)
		for i, s := range m.seats {
			rw.Placement(i, s.place)
		}
	}
	replayBytes := func(rr replay.Result) []byte {
		if rw == nil {
			return nil
		}
		rw.Result(rr)
		if err := rw.Flush(); err != nil {
			log.Error("replay", "err", err)
			return nil
		}
		return rp.Bytes()
	}

	if m.seats[0].fault != nil || m.seats[1].fault != nil {
		rr := m.handshakeForfeit(res, log)
		return res, replayBytes(rr)
	}

	rules := m.st.rules
	g, err := submarine.NewGame(rules, m.seats[0].place, m.seats[1].place, res.First)
	if err != nil { // placements were validated: a server bug
		log.Error("start game", "err", err)
		return m.abort(res, log), nil
	}
	invalid := submarine.Action{Kind: submarine.Invalid, Ship: submarine.NoShip, To: grid.None}
	for {
		mv := g.Turn()
		ms := m.seats[mv]
		m.sendString(mv, protocol.YourTurn)
		m.sendString(1-mv, protocol.Waiting)
		// Whatever a client sent before this turn was sent while it waited
		// for the server: out of turn.
		if w, err := m.offTurn(); err != nil {
			if ctx.Err() != nil {
				return m.abort(res, log), nil
			}
			return res, replayBytes(m.waitingForfeit(res, g, w, err, log))
		}
		var a submarine.Action
		var fault error
		if ms.c == nil {
			// The house AI answers at once: its lines and the client's
			// go out together before the client's next action is awaited.
			if fault = ms.dead(); fault == nil {
				fault = protect(func() { a = ms.ai.Act() })
			}
		} else {
			m.flush()
			if w := m.seats[1-mv]; w.c != nil && w.c.werr != nil {
				if ctx.Err() != nil {
					return m.abort(res, log), nil
				}
				return res, replayBytes(m.waitingForfeit(res, g, 1-mv, w.c.werr, log))
			}
			if fault = ms.dead(); fault == nil {
				var who int
				who, a, fault = m.await(mv)
				if who != mv {
					if ctx.Err() != nil {
						return m.abort(res, log), nil
					}
					return res, replayBytes(m.waitingForfeit(res, g, who, fault, log))
				}
			}
		}
		if fault != nil {
			if ctx.Err() != nil {
				return m.abort(res, log), nil
			}
			a = invalid
		}
		st := g.Apply(a)
		m.srv.metrics.actions.Add(1)
		if rw != nil {
			var dec *players.Decision
			if ex, ok := ms.ai.(players.Explainer); ok && fault == nil {
				_ = protect(func() { d := ex.Explain(); dec = &d })
			}
			rw.Step(g.Actions(), &st, dec)
		}
		m.tell(g, mv, st.Actor, outcomeFor(&st, mv))
		m.tell(g, 1-mv, st.Other, outcomeFor(&st, 1-mv))
		if st.Outcome == submarine.Running {
			continue
		}
		return res, replayBytes(m.finish(res, g, &st, fault, log))
	}
}

// offTurn looks for a client seat that sent something (or left) while it
// was waiting for the server: a message already delivered by its reader, or
// input that arrived together with its last line. It returns the seat and
// its fault, or -1 and nil.
func (m *match) offTurn() (int, error) {
	for i, s := range m.seats {
		if s.c == nil {
			continue
		}
		if s.pipelined {
			s.pipelined = false
			return i, outOfTurn(nil)
		}
		if msg, ok := s.c.poll(); ok {
			return i, waitingFault(msg)
		}
	}
	return -1, nil
}

// waitingFault is the fault of a seat whose message msg arrived while it
// was not its turn.
func waitingFault(msg inMsg) error {
	if msg.err != nil {
		return fmt.Errorf("while waiting: %w", msg.err)
	}
	err := outOfTurn(*msg.line)
	putLine(msg.line)
	return err
}

// await waits for the action of client seat mv within the action timeout,
// watching the other seat too. It returns the seat the first message came
// from with the decoded action, or with that seat's fault: a read error,
// an undecodable line or a timeout for mv; any message at all for the
// other seat (who != mv). A shutdown closes the connections (run's
// AfterFunc): the readers' errors end the wait and play sees ctx.
func (m *match) await(mv int) (who int, a submarine.Action, fault error) {
	m.timer.Reset(m.srv.cfg.Limits.ActionTimeout)
	defer m.timer.Stop()
	var msg inMsg
	select {
	case msg = <-m.seats[0].in():
		who = 0
	case msg = <-m.seats[1].in():
		who = 1
	case <-m.timer.C:
		return mv, a, fmt.Errorf("read action: %w", os.ErrDeadlineExceeded)
	}
	if who != mv {
		return who, a, waitingFault(msg)
	}
	if msg.err != nil {
		return mv, a, fmt.Errorf("read action: %w", msg.err)
	}
	m.seats[mv].pipelined = msg.more
	a, err := decodeAction(*msg.line, m.st.rules)
	putLine(msg.line)
	if err != nil {
		return mv, a, fmt.Errorf("action: %w", err)
	}
	return mv, a, nil
}

// waitingForfeit ends a running game because seat w broke the protocol while
// it was not its turn (err says how). The seats have been sent "your turn"
// and "waiting"; each is now told the outcome as if the mover's action had
// been invalid — the mover's line first: {"outcome":true,...} to the
// winner, {"outcome":false,...} to w — and the end lines follow.
func (m *match) waitingForfeit(res *Result, g *submarine.Game, w int, err error, log *slog.Logger) replay.Result {
	mv := g.Turn()
	g.Forfeit(w)
	ev := submarine.Event{Kind: submarine.Invalid, Illegal: true, At: grid.None, Hit: submarine.NoShip, Ship: submarine.NoShip, To: grid.None}
	for _, i := range [2]int{mv, 1 - mv} {
		if s := m.seats[i]; s.c != nil {
			outcome := protocol.Won
			if i == w {
				outcome = protocol.Lost
			}
			v := g.View(i)
			m.sendResult(i, ev, outcome, &v, m.seats[1-i].order)
		}
	}
	res.Actions = g.Actions()
	res.End = time.Now().UTC()
	res.Outcome, res.Winner = OutcomeWin, 1-w
	res.Reason, res.Detail = classify(err), err.Error()
	res.Forfeits = []int{w}
	log.Warn("forfeit", "seat", w, "peer", m.seats[w].peer().Addr, "reason", res.Reason, "detail", res.Detail, "phase", "waiting")
	return replay.Result{
		Outcome:  replay.OutcomeWin,
		Winner:   1 - w,
		Actions:  g.Actions(),
		Forfeits: []replay.Forfeit{{Seat: w, Kind: replay.ForfeitWaiting, Reason: res.Reason + ": " + res.Detail}},
	}
}

// finish fills in the result of a game that ended on step st (fault: why
// the mover could not act, if so) and returns the replay's result line.
func (m *match) finish(res *Result, g *submarine.Game, st *submarine.Step, fault error, log *slog.Logger) replay.Result {
	mv := st.Seat
	res.Actions = g.Actions()
	res.End = time.Now().UTC()
	rr := replay.Result{Actions: g.Actions(), Winner: g.Winner(), Outcome: replay.OutcomeWin}
	switch {
	case fault != nil:
		res.Reason, res.Detail = classify(fault), fault.Error()
	case st.Err != nil:
		res.Reason, res.Detail = ReasonIllegal, st.Err.Error()
	case st.Outcome == submarine.Draw:
		res.Reason = ReasonDrawLimit
	default:
		res.Reason = ReasonSunk
	}
	if st.Outcome == submarine.Draw {
		res.Outcome, rr.Outcome = OutcomeDraw, replay.OutcomeDraw
	} else {
		res.Outcome, res.Winner = OutcomeWin, g.Winner()
	}
	if st.Err != nil {
		res.Forfeits = []int{mv}
		rr.Forfeits = []replay.Forfeit{{Seat: mv, Kind: replay.ForfeitIllegal, Reason: res.Reason + ": " + res.Detail}}
		log.Warn("forfeit", "seat", mv, "peer", m.seats[mv].peer().Addr, "reason", res.Reason, "detail", res.Detail)
	}
	return rr
}

// handshake greets both seats and reads their placements (and, in the
// submarine-py dialect, their names first). Both clients' handshakes run at
// once, with one deadline, so that a slow or silent client costs the other
// nothing. Every failure is stored in the seat's fault.
func (m *match) handshake(ctx context.Context, k int, seed uint64) {
	rules := m.st.rules
	greeting := m.st.dialect.Greeting()
	if m.st.cfg.Games > 1 {
		greeting = protocol.SeriesRound(k)
	}
	// What each client seat still has to send: its name, its placement.
	var need [2]int
	pending := 0
	for i, s := range m.seats {
		s.fault, s.ai, s.place, s.order, s.pipelined = nil, nil, nil, nil, false
		if s.c != nil {
			m.sendString(i, greeting)
			need[i] = 1
			if m.st.dialect == protocol.SubmarinePy && k == 1 {
				need[i] = 2
			}
			pending++
		}
	}
	m.flush()
	for i, s := range m.seats {
		if s.c != nil {
			continue
		}
		s.ai = s.factory(rand.New(rand.NewPCG(seed, uint64(i))))
		if err := protect(func() { s.place = s.ai.Place() }); err != nil {
			s.fault = err
		} else if err := rules.ValidatePlacement(s.place); err != nil {
			s.fault = fmt.Errorf("house placement: %w", err)
		}
		s.order = protocol.DefaultOrder(rules)
	}
	m.timer.Reset(m.srv.cfg.Limits.HandshakeTimeout)
	defer m.timer.Stop()
	for pending > 0 {
		var ch [2]chan inMsg
		who, msg, got := -1, inMsg{}, false
		for i, s := range m.seats {
			if need[i] == 0 {
				continue
			}
			if msg, got = s.c.poll(); got {
				who = i
				break
			}
			ch[i] = s.c.in
		}
		if !got {
			var err error
			select {
			case msg = <-ch[0]:
				who = 0
			case msg = <-ch[1]:
				who = 1
			case <-m.timer.C:
				err = os.ErrDeadlineExceeded
			case <-ctx.Done():
				err = ctx.Err()
			}
			if err != nil {
				for i, s := range m.seats {
					if need[i] > 0 {
						s.fault = fmt.Errorf("read %s: %w", handshakeStep(need[i]), err)
						need[i] = 0
					}
				}
				return
			}
		}
		s := m.seats[who]
		if err := m.greetClient(s, need[who], msg); err != nil {
			s.fault, need[who] = err, 0
		} else {
			need[who]--
		}
		if need[who] == 0 {
			pending--
		}
	}
}

// handshakeStep names what a client with need lines left has to send.
func handshakeStep(need int) string {
	if need == 2 {
		return "name"
	}
	return "placement"
}

// greetClient handles one handshake line of client seat s: its name (need
// 2: the field is sent back at once) or its placement (need 1).
func (m *match) greetClient(s *seat, need int, msg inMsg) error {
	if msg.err != nil {
		return fmt.Errorf("read %s: %w", handshakeStep(need), msg.err)
	}
	line := *msg.line
	defer putLine(msg.line)
	if need == 2 {
		s.name = cleanName(line)
		s.c.queue(protocol.EncodeField(m.st.rules.Board))
		s.c.flush()
		return nil
	}
	var err error
	if s.place, s.order, err = protocol.DecodePlacement(line, m.st.rules); err != nil {
		return fmt.Errorf("placement: %w", err)
	}
	s.pipelined = msg.more
	return nil
}

// cleanName keeps at most maxNameBytes of a client's name, valid UTF-8 only.
func cleanName(line []byte) string {
	line = bytes.TrimSpace(line)
	if len(line) > maxNameBytes {
		line = line[:maxNameBytes]
	}
	return string(bytes.ToValidUTF8(line, []byte("?")))
}

// handshakeForfeit ends a game that failed before its first action: the seat
// that completed its handshake is told, as if its opponent had sent an
// invalid action on the first turn, "waiting", then a result line with
// "outcome": true; the end lines follow. When both failed, the game has no
// winner (recorded as a draw with both seats forfeiting) and no result line;
// both are told "you lose".
func (m *match) handshakeForfeit(res *Result, log *slog.Logger) replay.Result {
	rules := m.st.rules
	res.End = time.Now().UTC()
	rr := replay.Result{Outcome: replay.OutcomeWin, Winner: -1}
	var bad []int
	for i, s := range m.seats {
		if s.fault == nil {
			continue
		}
		bad = append(bad, i)
		reason := classify(s.fault)
		if res.Reason == "" {
			res.Reason, res.Detail = reason, s.fault.Error()
		}
		kind := replay.ForfeitPlacement
		if reason == ReasonPanic {
			kind = replay.ForfeitPanic
		}
		rr.Forfeits = append(rr.Forfeits, replay.Forfeit{Seat: i, Kind: kind, Reason: reason + ": " + s.fault.Error()})
		log.Warn("forfeit", "seat", i, "peer", s.peer().Addr, "reason", reason, "detail", s.fault.Error(), "phase", "handshake")
	}
	res.Forfeits = bad
	if len(bad) == 2 {
		res.Outcome, rr.Outcome = OutcomeDraw, replay.OutcomeDraw
		return rr
	}
	w := 1 - bad[0]
	res.Outcome, res.Winner, rr.Winner = OutcomeWin, w, w
	ws := m.seats[w]
	v := submarine.View{Me: submarine.NewFleet(rules, ws.place)}
	for i, sp := range rules.Fleet {
		v.EnemyHP[i] = int8(sp.HP)
	}
	ev := submarine.Event{Kind: submarine.Invalid, Illegal: true, At: grid.None, Hit: submarine.NoShip, Ship: submarine.NoShip, To: grid.None}
	m.sendString(w, protocol.Waiting)
	m.sendResult(w, ev, protocol.Won, &v, nil)
	return rr
}

// abort ends a game the server stopped: no end lines, no replay.
func (m *match) abort(res *Result, log *slog.Logger) *Result {
	res.Outcome, res.Winner, res.Reason = OutcomeAborted, -1, ReasonShutdown
	res.End = time.Now().UTC()
	log.Warn("game aborted", "reason", res.Reason)
	return res
}

// tell gives seat i what it is told about the last action: a result line,
// or an Observe call for the house AI.
func (m *match) tell(g *submarine.Game, i int, ev submarine.Event, outcome int) {
	s := m.seats[i]
	if s.dead() != nil {
		return
	}
	v := g.View(i)
	if s.c == nil {
		if err := protect(func() { s.ai.Observe(ev, &v) }); err != nil {
			s.fault = err
		}
		return
	}
	m.sendResult(i, ev, outcome, &v, m.seats[1-i].order)
}

// outcomeFor is the wire outcome of step st for seat i.
func outcomeFor(st *submarine.Step, i int) int {
	switch {
	case st.Outcome != submarine.Win:
		return protocol.NoOutcome
	case st.Winner == i:
		return protocol.Won
	default:
		return protocol.Lost
	}
}

// end sends the end lines of a finished game: the winner's then the loser's
// (a draw: seat 0's then seat 1's). The last game of a series ends with a
// "." and the series trailer.
func (m *match) end(res *Result, last bool) {
	d := m.st.dialect
	dot := last && m.st.cfg.Games > 1
	switch res.Outcome {
	case OutcomeWin:
		w := res.Winner
		m.tally[w].Win++
		m.tally[1-w].Lose++
		m.sendString(w, d.EndLine(protocol.EndWin, dot))
		m.sendString(1-w, d.EndLine(protocol.EndLose, dot))
	case OutcomeDraw:
		for i := range m.seats {
			if len(res.Forfeits) == 2 { // both failed the handshake: both lost
				m.tally[i].Lose++
				m.sendString(i, d.EndLine(protocol.EndLose, dot))
			} else {
				m.tally[i].Even++
				m.sendString(i, d.EndLine(protocol.EndDraw, dot))
			}
		}
	default:
		return
	}
	if dot {
		for i := range m.seats {
			for _, line := range protocol.SeriesTrailer(m.tally[i]) {
				m.sendString(i, line)
			}
		}
	}
	m.flush()
}

// close ends both connections with a lingering close (both at once) and
// gives their slots back.
func (m *match) close() {
	var cs []*conn
	for _, s := range m.seats {
		if s.c != nil {
			cs = append(cs, s.c)
		}
	}
	closeConns(cs)
	for _, c := range cs {
		m.srv.release(c)
	}
}
