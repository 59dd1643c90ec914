package server

// Battleship listeners (game: battleship): the same connections, lobby,
// limits, result log and metrics as submarine listeners, with the Kaisen
// battleship protocol (docs/protocol.md, section Battleship) and the
// classic rules (10x10, the Russian fleet 4,3,3,2,2,2,1,1,1,1).

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"strings"

	"github.com/kaisen-ai/kaisen/game/battleship"
	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/game/submarine"
	"github.com/kaisen-ai/kaisen/internal/config"
	bsplayers "github.com/kaisen-ai/kaisen/players/battleship"
	"github.com/kaisen-ai/kaisen/protocol"
	"github.com/kaisen-ai/kaisen/replay"
)

// Games a listener can serve (ListenerConfig.Game).
const (
	GameSubmarine  = submarine.Name
	GameBattleship = battleship.Name
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

// compileBattleship validates a battleship listener.
func (l ListenerConfig) compileBattleship() (*setup, error) {
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
		f, err := bsplayers.New(l.Opponent, rules, config.File(l.HouseConfig))
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

// bsMatch is one battleship game between two seats (clients or the house
// AI), played by match.run. One goroutine runs it and owns everything in
// it. Each seat's fault and pipelined serve it as in submarine games.
type bsMatch struct {
	*match
	ai      [2]bsplayers.Player
	place   [2]battleship.Placement
	errLine [2]string // the {"error":...} message owed to a client seat
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

// play runs the handshake and the shots of the game (k is 1: one game per
// connection) and returns its result and its replay (nil when replays are
// off; partial, with outcome aborted, when the server stopped the game); end
// lines are sent by end.
func (m *bsMatch) play(ctx context.Context, k int) (*Result, []byte) {
	rules := m.st.bs.rules
	res := m.newResult(k, DialectBattleship)
	log := m.log.With("game", res.Game)
	m.handshake(ctx, res.Seed)
	stopped := !m.seated(ctx, res)
	// The replay starts with both placements as received (none for a seat
	// that sent nothing decodable, or whose house AI crashed placing).
	rec := newRecorder(m.match, log, func(w io.Writer, players [2]replay.SeatInfo) *replay.BattleshipWriter {
		bw := replay.NewBattleshipWriter(w, rules, replay.BattleshipHeader{Seed: res.Seed, First: res.First, Players: players})
		for i, p := range m.place {
			if p == nil {
				bw.NoPlacement(i)
			} else {
				bw.Placement(i, p)
			}
		}
		return bw
	})
	replayBytes := func(shots [2]int, forfeits []replay.Forfeit) []byte {
		return rec.finish(replay.BattleshipResult{Outcome: replayOutcome(res), Winner: res.Winner, Shots: shots, Forfeits: forfeits})
	}
	if stopped { // the placements received so far are in the replay
		return m.abort(res, log, 0), replayBytes([2]int{}, nil)
	}
	if m.seats[0].fault != nil || m.seats[1].fault != nil {
		ff := m.handshakeFailed(res, log)
		for i, line := range m.errLine { // a client that sent a bad placement
			if m.seats[i].fault != nil && line != "" {
				m.send(i, protocol.EncodeErrorLine(line))
			}
		}
		return res, replayBytes([2]int{}, ff)
	}
	g, err := battleship.NewGame(rules, m.place[0], m.place[1], res.First)
	if err != nil { // placements were validated: a server bug
		log.Error("start game", "err", err)
		return m.abort(res, log, 0), nil
	}
	sp := m.srv.watcher()
	if sp != nil {
		sp.BattleshipStarted(res.Game, rules, res.Players, res.First)
		if rv, ok := sp.(Revealer); ok {
			rv.BattleshipPlaced(res.Game, m.place)
		}
	}
	// forfeit ends the game lost by seat w (kind: a replay.Forfeit* kind).
	forfeit := func(w int, err error, kind string) (*Result, []byte) {
		reason := m.forfeit(g, w, err, kind == replay.ForfeitIllegal)
		ff := m.forfeited(res, log, g.Shots(0)+g.Shots(1), w, kind, reason, err)
		return res, replayBytes([2]int{g.Shots(0), g.Shots(1)}, ff)
	}
	shots := &moveReader[grid.Cell]{
		what:   "shot",
		late:   fmt.Sprintf(" (no shot within %v)", m.st.cfg.ActionTimeout(m.srv.cfg.Limits)),
		decode: func(line []byte) (grid.Cell, error) { return protocol.DecodeShoot(line, rules) },
	}
	for {
		for i, s := range m.seats { // a house AI that panicked in Observe
			if s.fault != nil {
				return forfeit(i, s.fault, replay.ForfeitPanic)
			}
		}
		mv := g.Turn()
		at, w, fault := takeTurn(m.match, mv, func() grid.Cell { return m.ai[mv].Shoot() }, shots)
		switch {
		case fault == nil:
		case w < 0 && m.seats[mv].c == nil: // the house AI panicked in Shoot
			return forfeit(mv, fault, replay.ForfeitPanic)
		case ctx.Err() != nil: // the replay has every shot played
			return m.abort(res, log, g.Shots(0)+g.Shots(1)), replayBytes([2]int{g.Shots(0), g.Shots(1)}, nil)
		case w >= 0:
			return forfeit(w, fault, replay.ForfeitWaiting)
		default:
			return forfeit(mv, fault, replay.ForfeitProtocol)
		}
		st := g.Apply(at)
		m.srv.metrics.actions.Add(1)
		if sp != nil {
			sp.BattleshipShot(res.Game, g.Shots(0)+g.Shots(1), &st)
		}
		if rec != nil {
			rec.w.Shot(g.Shots(0)+g.Shots(1), &st, explanation(m.ai[st.Seat]))
		}
		if st.Err != nil {
			return forfeit(mv, st.Err, replay.ForfeitIllegal)
		}
		m.tell(mv, st.Shooter, outcomeOf(&st, mv))
		m.tell(1-mv, st.Defender, outcomeOf(&st, 1-mv))
		if st.Status == battleship.Running {
			continue
		}
		gameOver(res, g.Shots(0)+g.Shots(1), g.Winner())
		return res, replayBytes([2]int{g.Shots(0), g.Shots(1)}, nil)
	}
}

// outcomeOf is the wire outcome of step st for seat i.
func outcomeOf(st *battleship.Step, i int) int {
	return wireOutcome(st.Status == battleship.Won, st.Winner, i)
}

// tell gives seat i the answer to the last shot: a result line, or an
// Observe call for the house AI.
func (m *bsMatch) tell(i int, ev battleship.Event, outcome int) {
	s := m.seats[i]
	if s.c == nil {
		if err := protect(func() { m.ai[i].Observe(ev) }); err != nil {
			s.fault = err
		}
		return
	}
	m.send(i, protocol.EncodeShotResult(m.st.bs.rules, ev, outcome))
}

// handshake greets the client seats, has the house AI place, and reads the
// clients' placements within one handshake timeout. Failures go to the
// seat's fault (and errLine, for what the client is told).
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
			m.seats[i].fault = err
		} else if err := rules.ValidatePlacement(m.place[i]); err != nil {
			m.seats[i].fault = fmt.Errorf("house placement: %w", newFleetError(err))
		}
	}
	m.flush()
	m.timer.Reset(m.st.cfg.HandshakeTimeout(m.srv.cfg.Limits))
	defer m.timer.Stop()
	for pending > 0 {
		who, msg, err := m.handshakeMsg(ctx, need)
		if err != nil {
			for i := range m.seats {
				if need[i] {
					m.seats[i].fault = fmt.Errorf("read placement: %w", err)
					if ctx.Err() == nil {
						m.errLine[i] = "timeout: no placement within " + m.st.cfg.HandshakeTimeout(m.srv.cfg.Limits).String()
					}
					need[i] = false
				}
			}
			return
		}
		need[who] = false
		pending--
		m.placement(who, msg)
	}
}

// placement handles client seat i's placement message.
func (m *bsMatch) placement(i int, msg inMsg) {
	if msg.err != nil {
		m.seats[i].fault = fmt.Errorf("read placement: %w", msg.err)
		return
	}
	defer putLine(msg.line)
	m.seats[i].pipelined = msg.more
	p, err := protocol.DecodeShips(*msg.line, m.st.bs.rules)
	if err != nil {
		m.seats[i].fault = fmt.Errorf("placement: %w", err)
		var pe *protocol.ProtocolError
		if errors.As(err, &pe) {
			m.errLine[i] = "placement: " + pe.Err.Error()
		}
		return
	}
	m.place[i] = p // kept when invalid too: the replay records it
	if err := m.st.bs.rules.ValidatePlacement(p); err != nil {
		m.seats[i].fault = fmt.Errorf("placement: %w", newFleetError(err))
		m.errLine[i] = m.seats[i].fault.Error()
	}
}

// forfeit ends a running game lost by seat w (err says why; illegal: an
// off-board or rock shot) and returns the forfeit's reason. w gets
// {"error":...} when it is a client still connected; both client seats
// then get the result line of the forfeit ({"result":{"shot":false},
// "outcome":..} for an illegal shot, else {"outcome":..}); the end lines
// follow.
func (m *bsMatch) forfeit(g *battleship.Game, w int, err error, illegal bool) string {
	g.Forfeit(w)
	reason := classify(err)
	if illegal {
		reason = ReasonIllegal
	}
	if m.seats[w].c != nil && reason != ReasonDisconnect { // nobody reads after a disconnect
		m.send(w, protocol.EncodeErrorLine(reason+": "+err.Error()))
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
			m.send(i, protocol.EncodeShotResult(m.st.bs.rules, ev, outcome))
		} else {
			m.send(i, protocol.EncodeOutcome(i != w))
		}
	}
	return reason
}
