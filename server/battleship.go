package server

// Battleship listeners (game: battleship): the same connections, lobby,
// limits, result log and metrics as submarine listeners, with the Kaisen
// battleship protocol (docs/protocol.md, section Battleship) and the
// classic rules (10x10, the Russian fleet 4,3,3,2,2,2,1,1,1,1).

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net"
	"os"
	"strings"
	"time"

	"github.com/kaisen-ai/kaisen/game/battleship"
	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/players"
	bsplayers "github.com/kaisen-ai/kaisen/players/battleship"
	"github.com/kaisen-ai/kaisen/protocol"
	"github.com/kaisen-ai/kaisen/replay"
)

// Games a listener can serve (ListenerConfig.Game).
const (
	GameSubmarine  = "submarine"
	GameBattleship = "battleship"
)

// DialectBattleship is Result.Dialect for battleship games.
const DialectBattleship = "battleship"

// DefaultBattleshipHouse is the house AI of a battleship listener whose
// opponent is not set.
const DefaultBattleshipHouse = "gridbot"

// bsSetup is a battleship listener's rules and house AI.
type bsSetup struct {
	rules *battleship.Rules
	house bsplayers.Factory // nil for pair listeners
}

// hasHouse reports whether clients of the listener play a house AI.
func (st *setup) hasHouse() bool {
	return st.house != nil || (st.bs != nil && st.bs.house != nil)
}

// compileGame validates a listener whose game is not submarine.
func (l ListenerConfig) compileGame() (*setup, error) {
	if l.Game != GameBattleship {
		return nil, fmt.Errorf("%w: game %q: want %s or %s", ErrConfig, l.Game, GameSubmarine, GameBattleship)
	}
	var errs []error
	bad := func(format string, args ...any) {
		errs = append(errs, fmt.Errorf("%w: "+format, append([]any{ErrConfig}, args...)...))
	}
	if _, _, err := net.SplitHostPort(l.Address); err != nil {
		bad("address %q: %v", l.Address, err)
	}
	if l.Dialect != DefaultDialect {
		bad("dialect %q: battleship has one wire format; leave dialect unset", l.Dialect)
	}
	if l.Width != 5 || l.Height != 5 || l.Rocks != "" || l.Rounded {
		bad("battleship plays the classic 10x10 board; leave width, height, rocks and rounded unset")
	}
	if l.Games != 1 {
		bad("games is %d: battleship plays one game per connection", l.Games)
	}
	switch l.First {
	case FirstConnected, FirstAlternate, FirstHalves, FirstRandom:
	default:
		bad("first %q: want %s, %s, %s or %s", l.First, FirstConnected, FirstAlternate, FirstHalves, FirstRandom)
	}
	rules := battleship.DefaultRules()
	bs := &bsSetup{rules: rules}
	if l.Opponent != OpponentPair {
		f, err := bsplayers.New(l.Opponent, rules, l.HouseConfig)
		if err != nil {
			bad("opponent %q: %v (or %q to pair clients)", l.Opponent, err, OpponentPair)
		}
		bs.house = f
	} else if l.HouseConfig != "" {
		bad("house_config is set but opponent is %q", OpponentPair)
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	// The listener log line prints the board from Width and Height.
	l.Width, l.Height = rules.Board.Width(), rules.Board.Height()
	return &setup{cfg: l, dialect: protocol.Classic, bs: bs}, nil
}

// runGame runs the pairing with the listener's game.
func (m *match) runGame(ctx context.Context) {
	if m.st.bs != nil {
		(&bsMatch{match: m}).run(ctx)
		return
	}
	m.run(ctx)
}

// bsMatch is one battleship game between two seats (clients or the house
// AI). One goroutine runs it and owns everything in it.
type bsMatch struct {
	*match
	ai      [2]bsplayers.Player
	place   [2]battleship.Placement
	fault   [2]error
	errLine [2]string // the {"error":...} message owed to a client seat
	more    [2]bool   // the seat's last line arrived together with more input
}

// fleetError is an invalid layout, on one line (the engine's reasons joined
// with "; "). It matches protocol.ErrFleet and battleship.ErrPlacement.
type fleetError struct{ msg string }

func (e fleetError) Error() string   { return e.msg }
func (e fleetError) Unwrap() []error { return []error{protocol.ErrFleet, battleship.ErrPlacement} }

// newFleetError flattens a ValidatePlacement error.
func newFleetError(err error) error {
	var parts []string
	var add func(error)
	add = func(e error) {
		if j, ok := e.(interface{ Unwrap() []error }); ok {
			for _, x := range j.Unwrap() {
				add(x)
			}
			return
		}
		parts = append(parts, strings.TrimPrefix(e.Error(), battleship.ErrPlacement.Error()+": "))
	}
	add(err)
	return fleetError{msg: strings.Join(parts, "; ")}
}

// run plays the game, records it, sends the end lines and closes.
func (m *bsMatch) run(ctx context.Context) {
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
	m.first = -1
	res, rp := m.play(ctx)
	m.srv.record(m.log, res, rp) // on disk before anyone is told
	m.end(res, true)
	m.close()
}

// play runs the handshake and the shots and returns the game's result and
// its replay (nil when the game was aborted or replays are off); end lines
// are sent by end.
func (m *bsMatch) play(ctx context.Context) (*Result, []byte) {
	cfg := m.st.cfg
	rules := m.st.bs.rules
	seed := m.rng.Uint64()
	rng := rand.New(rand.NewPCG(seed, 0x6b616973656e))
	res := &Result{
		Game: m.id, Listener: cfg.Name, Dialect: DialectBattleship, Round: 1, Rounds: 1,
		Seed: seed, First: m.firstSeat(1, rng), Winner: -1, Start: time.Now().UTC(),
	}
	log := m.log.With("game", res.Game)
	m.handshake(ctx, seed)
	for i, s := range m.seats {
		res.Players[i] = s.peer()
	}
	if ctx.Err() != nil {
		return m.abort(res, log), nil
	}
	rec := m.newRecorder(res, log)
	if m.fault[0] != nil || m.fault[1] != nil {
		return m.handshakeForfeit(res, log), rec.finish(res, [2]int{}, m.handshakeForfeits())
	}
	g, err := battleship.NewGame(rules, m.place[0], m.place[1], res.First)
	if err != nil { // placements were validated: a server bug
		log.Error("start game", "err", err)
		return m.abort(res, log), nil
	}
	// forfeit ends the game lost by seat w (kind: a replay.Forfeit* kind).
	forfeit := func(w int, err error, kind string) (*Result, []byte) {
		m.forfeit(res, g, w, err, kind == replay.ForfeitIllegal, log)
		ff := []replay.Forfeit{{Seat: w, Kind: kind, Reason: res.Reason + ": " + res.Detail}}
		return res, rec.finish(res, [2]int{g.Shots(0), g.Shots(1)}, ff)
	}
	for {
		for i := range m.seats { // a house AI that panicked in Observe
			if m.fault[i] != nil {
				return forfeit(i, m.fault[i], replay.ForfeitPanic)
			}
		}
		mv := g.Turn()
		ms := m.seats[mv]
		m.sendString(mv, protocol.YourTurn)
		m.sendString(1-mv, protocol.Waiting)
		if w, err := m.offTurn(); w >= 0 {
			if ctx.Err() != nil {
				return m.abort(res, log), nil
			}
			return forfeit(w, err, replay.ForfeitWaiting)
		}
		var at grid.Cell
		var fault error
		if ms.c == nil {
			fault = protect(func() { at = m.ai[mv].Shoot() })
		} else {
			m.flush()
			if w := m.seats[1-mv]; w.c != nil && w.c.werr != nil {
				if ctx.Err() != nil {
					return m.abort(res, log), nil
				}
				return forfeit(1-mv, w.c.werr, replay.ForfeitWaiting)
			}
			who := mv
			if fault = ms.dead(); fault == nil {
				who, at, fault = m.await(mv)
			}
			if fault != nil {
				if ctx.Err() != nil {
					return m.abort(res, log), nil
				}
				kind := replay.ForfeitProtocol
				if who != mv {
					kind = replay.ForfeitWaiting
				}
				return forfeit(who, fault, kind)
			}
		}
		if fault != nil { // the house AI panicked in Shoot
			return forfeit(mv, fault, replay.ForfeitPanic)
		}
		st := g.Apply(at)
		m.srv.metrics.actions.Add(1)
		rec.shot(m, g.Shots(0)+g.Shots(1), &st)
		if st.Err != nil {
			return forfeit(mv, st.Err, replay.ForfeitIllegal)
		}
		m.tell(mv, st.Shooter, outcomeOf(&st, mv))
		m.tell(1-mv, st.Defender, outcomeOf(&st, 1-mv))
		if st.Status == battleship.Running {
			continue
		}
		res.Actions = g.Shots(0) + g.Shots(1)
		res.End = time.Now().UTC()
		if st.Status == battleship.Drawn {
			res.Outcome, res.Reason = OutcomeDraw, ReasonDrawLimit
		} else {
			res.Outcome, res.Winner, res.Reason = OutcomeWin, st.Winner, ReasonSunk
		}
		return res, rec.finish(res, [2]int{g.Shots(0), g.Shots(1)}, nil)
	}
}

// bsRecorder records a battleship game's replay in memory; the server
// writes it durably (Server.record) before the end lines go out. A nil
// recorder (replays off) records nothing.
type bsRecorder struct {
	buf bytes.Buffer
	w   *replay.BattleshipWriter
	log *slog.Logger
}

// newRecorder starts the replay of the game after its handshake: header
// and both placements as received (none for a seat that sent nothing
// decodable, or whose house AI crashed placing).
func (m *bsMatch) newRecorder(res *Result, log *slog.Logger) *bsRecorder {
	if m.srv.cfg.ReplayDir == "" {
		return nil
	}
	rec := &bsRecorder{log: log}
	h := replay.BattleshipHeader{Seed: res.Seed, First: res.First}
	for i, s := range m.seats {
		h.Players[i] = replay.SeatInfo{Seat: i, Name: s.replayName()}
	}
	rec.w = replay.NewBattleshipWriter(&rec.buf, m.st.bs.rules, h)
	for i, p := range m.place {
		if p == nil {
			rec.w.NoPlacement(i)
		} else {
			rec.w.Placement(i, p)
		}
	}
	return rec
}

// shot records shot number n, st, with the house AI's explanation when it
// gives one.
func (rec *bsRecorder) shot(m *bsMatch, n int, st *battleship.Step) {
	if rec == nil {
		return
	}
	var dec *players.Decision
	if ex, ok := m.ai[st.Seat].(players.Explainer); ok && m.seats[st.Seat].c == nil {
		_ = protect(func() { d := ex.Explain(); dec = &d })
	}
	rec.w.Shot(n, st, dec)
}

// finish writes the result line of res (shots: each seat's shots) and
// returns the replay (nil on a write error, which is logged).
func (rec *bsRecorder) finish(res *Result, shots [2]int, forfeits []replay.Forfeit) []byte {
	if rec == nil {
		return nil
	}
	rr := replay.BattleshipResult{Outcome: replay.OutcomeWin, Winner: res.Winner, Shots: shots, Forfeits: forfeits}
	if res.Outcome == OutcomeDraw {
		rr.Outcome = replay.OutcomeDraw
	}
	rec.w.Result(rr)
	if err := rec.w.Flush(); err != nil {
		rec.log.Error("replay", "err", err)
		return nil
	}
	return rec.buf.Bytes()
}

// handshakeForfeits are the replay's forfeits of a game that failed before
// its first shot: a placement forfeit per failed seat (panic for a house AI
// that crashed).
func (m *bsMatch) handshakeForfeits() []replay.Forfeit {
	var out []replay.Forfeit
	for i, err := range m.fault {
		if err == nil {
			continue
		}
		reason := classify(err)
		kind := replay.ForfeitPlacement
		if reason == ReasonPanic {
			kind = replay.ForfeitPanic
		}
		out = append(out, replay.Forfeit{Seat: i, Kind: kind, Reason: reason + ": " + err.Error()})
	}
	return out
}

// outcomeOf is the wire outcome of step st for seat i.
func outcomeOf(st *battleship.Step, i int) int {
	switch {
	case st.Status != battleship.Won:
		return protocol.NoOutcome
	case st.Winner == i:
		return protocol.Won
	default:
		return protocol.Lost
	}
}

// tell gives seat i the answer to the last shot: a result line, or an
// Observe call for the house AI.
func (m *bsMatch) tell(i int, ev battleship.Event, outcome int) {
	s := m.seats[i]
	if s.c == nil {
		if err := protect(func() { m.ai[i].Observe(ev) }); err != nil {
			m.fault[i] = err
		}
		return
	}
	m.queue(i, protocol.EncodeShotResult(m.st.bs.rules, ev, outcome))
}

// queue queues line for client seat i.
func (m *bsMatch) queue(i int, line []byte) {
	if c := m.seats[i].c; c != nil {
		if m.first < 0 {
			m.first = i
		}
		c.queue(line)
	}
}

// handshake greets the client seats, has the house AI place, and reads the
// clients' placements within one handshake timeout. Failures go to fault
// (and errLine, for what the client is told).
func (m *bsMatch) handshake(ctx context.Context, seed uint64) {
	rules := m.st.bs.rules
	pending := 0
	var need [2]bool
	for i, s := range m.seats {
		if s.c != nil {
			m.sendString(i, protocol.BattleshipGreeting)
			need[i] = true
			pending++
			continue
		}
		m.ai[i] = m.st.bs.house(rand.New(rand.NewPCG(seed, uint64(i))))
		if err := protect(func() { m.place[i] = m.ai[i].Place() }); err != nil {
			m.fault[i] = err
		} else if err := rules.ValidatePlacement(m.place[i]); err != nil {
			m.fault[i] = fmt.Errorf("house placement: %w", newFleetError(err))
		}
	}
	m.flush()
	m.timer.Reset(m.srv.cfg.Limits.HandshakeTimeout)
	defer m.timer.Stop()
	for pending > 0 {
		var ch [2]chan inMsg
		who, msg, got := -1, inMsg{}, false
		for i, s := range m.seats {
			if !need[i] {
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
				for i := range m.seats {
					if need[i] {
						m.fault[i] = fmt.Errorf("read placement: %w", err)
						if ctx.Err() == nil {
							m.errLine[i] = "timeout: no placement within " + m.srv.cfg.Limits.HandshakeTimeout.String()
						}
						need[i] = false
					}
				}
				return
			}
		}
		need[who] = false
		pending--
		m.placement(who, msg)
	}
}

// placement handles client seat i's placement message.
func (m *bsMatch) placement(i int, msg inMsg) {
	if msg.err != nil {
		m.fault[i] = fmt.Errorf("read placement: %w", msg.err)
		return
	}
	defer putLine(msg.line)
	m.more[i] = msg.more
	p, err := protocol.DecodeShips(*msg.line, m.st.bs.rules)
	if err != nil {
		m.fault[i] = fmt.Errorf("placement: %w", err)
		var pe *protocol.ProtocolError
		if errors.As(err, &pe) {
			m.errLine[i] = "placement: " + pe.Err.Error()
		}
		return
	}
	m.place[i] = p // kept when invalid too: the replay records it
	if err := m.st.bs.rules.ValidatePlacement(p); err != nil {
		m.fault[i] = fmt.Errorf("placement: %w", newFleetError(err))
		m.errLine[i] = m.fault[i].Error()
	}
}

// handshakeForfeit ends a game that failed before its first shot. A client
// that sent a bad placement gets {"error":...}; the end lines follow ("you
// win" for the other seat; "you lose" for both when both failed, recorded
// as a draw with two forfeits).
func (m *bsMatch) handshakeForfeit(res *Result, log *slog.Logger) *Result {
	res.End = time.Now().UTC()
	for i, s := range m.seats {
		if m.fault[i] == nil {
			continue
		}
		res.Forfeits = append(res.Forfeits, i)
		reason := classify(m.fault[i])
		if res.Reason == "" {
			res.Reason, res.Detail = reason, m.fault[i].Error()
		}
		if m.errLine[i] != "" {
			m.queue(i, protocol.EncodeErrorLine(m.errLine[i]))
		}
		log.Warn("forfeit", "seat", i, "peer", s.peer().Addr, "reason", reason, "detail", m.fault[i].Error(), "phase", "handshake")
	}
	if len(res.Forfeits) == 2 {
		res.Outcome = OutcomeDraw
		return res
	}
	res.Outcome, res.Winner = OutcomeWin, 1-res.Forfeits[0]
	return res
}

// forfeit ends a running game lost by seat w (err says why; illegal: an
// off-board or rock shot). w gets {"error":...} when it is a client still
// connected; both client seats then get the result line of the forfeit
// ({"result":{"shot":false},"outcome":..} for an illegal shot, else
// {"outcome":..}); the end lines follow.
func (m *bsMatch) forfeit(res *Result, g *battleship.Game, w int, err error, illegal bool, log *slog.Logger) *Result {
	g.Forfeit(w)
	reason := classify(err)
	if illegal {
		reason = ReasonIllegal
	}
	if m.seats[w].c != nil && reason != ReasonDisconnect { // nobody reads after a disconnect
		m.queue(w, protocol.EncodeErrorLine(reason+": "+err.Error()))
	}
	for i, s := range m.seats {
		if s.c == nil {
			continue
		}
		if illegal {
			ev := battleship.Event{Illegal: true, Result: battleship.Result{At: grid.None}}
			outcome := protocol.Won
			if i == w {
				outcome = protocol.Lost
			}
			m.queue(i, protocol.EncodeShotResult(m.st.bs.rules, ev, outcome))
		} else {
			m.queue(i, protocol.EncodeOutcome(i != w))
		}
	}
	res.Actions = g.Shots(0) + g.Shots(1)
	res.End = time.Now().UTC()
	res.Outcome, res.Winner = OutcomeWin, 1-w
	res.Reason, res.Detail = reason, err.Error()
	res.Forfeits = []int{w}
	log.Warn("forfeit", "seat", w, "peer", m.seats[w].peer().Addr, "reason", res.Reason, "detail", res.Detail)
	return res
}

// offTurn finds a client seat that sent something (or left) while waiting
// for the server: -1 when none.
func (m *bsMatch) offTurn() (int, error) {
	for i, s := range m.seats {
		if s.c == nil {
			continue
		}
		if m.more[i] {
			m.more[i] = false
			return i, outOfTurn(nil)
		}
		if msg, ok := s.c.poll(); ok {
			return i, waitingFault(msg)
		}
	}
	return -1, nil
}

// await waits for client seat mv's shot within the action timeout, watching
// the other seat too (any message from it is its fault).
func (m *bsMatch) await(mv int) (who int, at grid.Cell, fault error) {
	m.timer.Reset(m.srv.cfg.Limits.ActionTimeout)
	defer m.timer.Stop()
	var msg inMsg
	select {
	case msg = <-m.seats[0].in():
		who = 0
	case msg = <-m.seats[1].in():
		who = 1
	case <-m.timer.C:
		return mv, grid.None, fmt.Errorf("read shot: %w (no shot within %v)", os.ErrDeadlineExceeded, m.srv.cfg.Limits.ActionTimeout)
	}
	if who != mv {
		return who, grid.None, waitingFault(msg)
	}
	if msg.err != nil {
		return mv, grid.None, fmt.Errorf("read shot: %w", msg.err)
	}
	m.more[mv] = msg.more
	at, err := protocol.DecodeShoot(*msg.line, m.st.bs.rules)
	putLine(msg.line)
	if err != nil {
		return mv, grid.None, fmt.Errorf("shot: %w", err)
	}
	return mv, at, nil
}
