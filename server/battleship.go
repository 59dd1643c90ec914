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
	"log/slog"
	"math/rand/v2"
	"net"
	"strings"

	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/game/abilities"
	"github.com/kaisen-ai/kaisen/game/battleship"
	bsrecord "github.com/kaisen-ai/kaisen/game/battleship/record"
	bswire "github.com/kaisen-ai/kaisen/game/battleship/wire"
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
	return st.house != nil || (st.bs != nil && st.bs.house != nil) || (st.ab != nil && st.ab.house != nil)
}

// fleetChecks checks the settings of a listener of a game on the classic
// Battleship board (battleship, abilities) that every such game shares; bad
// adds one more error to the list.
func (l ListenerConfig) fleetChecks(game string) (errs *[]error, bad func(format string, args ...any)) {
	errs = new([]error)
	bad = func(format string, args ...any) {
		*errs = append(*errs, fmt.Errorf("%w: "+format, append([]any{ErrConfig}, args...)...))
	}
	if _, _, err := net.SplitHostPort(l.Address); err != nil {
		bad("address %q: %v", l.Address, err)
	}
	if l.Dialect != DefaultDialect {
		bad("dialect %q: %s has one wire format; leave dialect unset", l.Dialect, game)
	}
	if l.Width != 5 || l.Height != 5 || l.Rocks != "" || l.Rounded {
		bad("%s plays the classic 10x10 board; leave width, height, rocks and rounded unset", game)
	}
	if l.Games != 1 && game != GameBattleship {
		bad("games is %d: %s plays one game per connection", l.Games, game)
	}
	switch l.First {
	case FirstConnected, FirstAlternate, FirstHalves, FirstRandom:
	default:
		bad("first %q: want %s, %s, %s or %s", l.First, FirstConnected, FirstAlternate, FirstHalves, FirstRandom)
	}
	if game != GameAbilities && (len(l.Abilities.Sides) > 0 || l.Abilities.Options != (abilities.Options{}) || l.Abilities.AlternateFirst) {
		bad("abilities settings on a %s listener; leave abilities unset", game)
	}
	return errs, bad
}

// houseAI builds the house AI of listener l with build (from the AI's
// name and the loader of house_config), or nil for a pair listener; a
// failure (an unknown AI, bad weights, weights without a house AI) goes to
// bad.
func houseAI[F any](l ListenerConfig, bad func(format string, args ...any), build func(name string, load func(any) error) (F, error)) F {
	var f F
	if l.Opponent == OpponentPair {
		if l.HouseConfig != "" {
			bad("house_config is set but opponent is %q", OpponentPair)
		}
		return f
	}
	f, err := build(l.Opponent, config.File(l.HouseConfig))
	if err != nil {
		bad("opponent %q: %v (or %q to pair clients)", l.Opponent, err, OpponentPair)
	}
	return f
}

// compileBattleship validates a battleship listener.
func (l ListenerConfig) compileBattleship() (*setup, error) {
	errs, bad := l.fleetChecks(GameBattleship)
	rules := battleship.DefaultRules()
	bs := &bsSetup{rules: rules}
	bs.house = houseAI(l, bad, func(name string, load func(any) error) (bsplayers.Factory, error) {
		return bsplayers.New(name, rules, load)
	})
	if err := errors.Join(*errs...); err != nil {
		return nil, err
	}
	// The listener log line prints the board from Width and Height.
	l.Width, l.Height = rules.Board.Width(), rules.Board.Height()
	return &setup{cfg: l, dialect: protocol.Classic, bs: bs}, nil
}

// fleetMatch is what the games on a Battleship board (battleship and its
// abilities variant) keep per game beside the match: the rules of the
// board, the placements and the error lines owed to the clients. Their
// handshake, placement and forfeit lines are shared here; each game keeps
// its own turn loop.
type fleetMatch struct {
	*match
	rules   *battleship.Rules
	place   [2]battleship.Placement
	errLine [2]string // the {"error":...} message owed to a client seat
}

// bsMatch is one battleship game between two seats (clients or the house
// AI), played by match.run. One goroutine runs it and owns everything in
// it. Each seat's fault and pipelined serve it as in submarine games.
type bsMatch struct {
	fleetMatch
	ai [2]bsplayers.Player
}

// newBSMatch is the battleship game of the pairing m.
func newBSMatch(m *match) *bsMatch {
	return &bsMatch{fleetMatch: fleetMatch{match: m, rules: m.st.bs.rules}}
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

// play runs the handshake and the shots of game k of the pairing (a
// series greets with "roundK." and keeps a learning house AI from game to
// game) and returns its result and its replay (nil when replays are off;
// partial, with outcome aborted, when the server stopped the game); end
// lines are sent by end.
func (m *bsMatch) play(ctx context.Context, k int) (*Result, []byte) {
	rules := m.st.bs.rules
	res := m.newResult(k, DialectBattleship)
	log := m.log.With("game", res.Game)
	greeting := bswire.Greeting
	if m.st.cfg.Games > 1 {
		greeting = protocol.SeriesRound(k)
	}
	m.ai = [2]bsplayers.Player{}
	m.handshake(ctx, func(int) []byte { return []byte(greeting) }, func(i int) battleship.Placement {
		m.ai[i] = keptHouse(m.seats[i], rand.New(rand.NewPCG(res.Seed, uint64(i))), m.st.cfg.Games > 1, m.st.bs.house)
		return m.ai[i].Place()
	})
	stopped := !m.seated(ctx, res)
	// The replay starts with both placements as received (none for a seat
	// that sent nothing decodable, or whose house AI crashed placing).
	rec := newRecorder(m.match, log, func(w io.Writer, players [2]replay.SeatInfo) *bsrecord.Writer {
		bw := bsrecord.NewWriter(w, rules, bsrecord.Header{Seed: res.Seed, First: res.First, Players: players})
		m.recordPlacements(bw)
		return bw
	})
	replayBytes := func(shots [2]int, forfeits []replay.Forfeit) []byte {
		return rec.finish(bsrecord.Result{Outcome: replayOutcome(res), Winner: res.Winner, Shots: shots, Forfeits: forfeits})
	}
	if stopped { // the placements received so far are in the replay
		return m.abort(res, log, 0), replayBytes([2]int{}, nil)
	}
	if m.seats[0].fault != nil || m.seats[1].fault != nil {
		return res, replayBytes([2]int{}, m.placementFailed(res, log))
	}
	g, err := battleship.NewGame(rules, m.place[0], m.place[1], res.First)
	if err != nil { // placements were validated: a server bug
		log.Error("start game", "err", err)
		return m.abort(res, log, 0), nil
	}
	feed := startFeed[battleship.Step](m.srv, res, battleship.NewPublicView(g))
	// forfeit ends the game lost by seat w (kind: a replay.Forfeit* kind).
	forfeit := func(w int, err error, kind string) (*Result, []byte) {
		reason := m.forfeit(g, w, err, kind == replay.ForfeitIllegal)
		ff := m.forfeited(res, log, g.Shots(0)+g.Shots(1), w, kind, reason, err)
		return res, replayBytes([2]int{g.Shots(0), g.Shots(1)}, ff)
	}
	shots := &moveReader[grid.Cell]{
		what:   "shot",
		late:   fmt.Sprintf(" (no shot within %v)", m.st.cfg.ActionTimeout(m.srv.cfg.Limits)),
		decode: func(line []byte) (grid.Cell, error) { return bswire.DecodeShoot(line, rules) },
	}
	for {
		if i, err := m.houseFault(); err != nil { // a house AI that panicked in Observe
			return forfeit(i, err, replay.ForfeitPanic)
		}
		mv := g.ToAct()
		at, w, fault := takeTurn(m.match, mv, func() grid.Cell { return m.ai[mv].Shoot() }, shots)
		if fault != nil {
			w, kind := m.turnFault(ctx, mv, w)
			if w < 0 { // the replay has every shot played
				return m.abort(res, log, g.Shots(0)+g.Shots(1)), replayBytes([2]int{g.Shots(0), g.Shots(1)}, nil)
			}
			return forfeit(w, fault, kind)
		}
		st, err := g.Apply(at)
		m.srv.metrics.actions.Add(1)
		feed.Step(g.Shots(0)+g.Shots(1), &st, err)
		if rec != nil {
			rec.w.Shot(g.Shots(0)+g.Shots(1), &st, err, explanation(m.ai[st.Seat]))
		}
		if err != nil {
			return forfeit(mv, err, replay.ForfeitIllegal)
		}
		m.tell(mv, st.Shooter, outcomeOf(&st, mv))
		m.tell(1-mv, st.Defender, outcomeOf(&st, 1-mv))
		if st.Status == game.Running {
			continue
		}
		gameOver(res, g.Shots(0)+g.Shots(1), g.Winner())
		return res, replayBytes([2]int{g.Shots(0), g.Shots(1)}, nil)
	}
}

// recordPlacements writes both placements as received to a replay
// writer (none for a seat that sent nothing decodable, or whose house AI
// crashed placing).
func (m *fleetMatch) recordPlacements(w interface {
	Placement(seat int, p battleship.Placement)
	NoPlacement(seat int)
}) {
	for i, p := range m.place {
		if p == nil {
			w.NoPlacement(i)
		} else {
			w.Placement(i, p)
		}
	}
}

// placementFailed ends a game whose handshake failed (handshakeFailed):
// each client that sent a bad placement gets its error line. It returns
// the replay's forfeits.
func (m *fleetMatch) placementFailed(res *Result, log *slog.Logger) []replay.Forfeit {
	ff := m.handshakeFailed(res, log)
	for i, line := range m.errLine {
		if m.seats[i].fault != nil && line != "" {
			m.send(i, protocol.EncodeErrorLine(line))
		}
	}
	return ff
}

// houseFault returns a seat whose house AI failed (panicked in Observe)
// and its fault, or -1 and nil.
func (m *fleetMatch) houseFault() (int, error) {
	for i, s := range m.seats {
		if s.fault != nil {
			return i, s.fault
		}
	}
	return -1, nil
}

// turnFault says who forfeits for a fault takeTurn returned with w for
// mover mv, and the replay's forfeit kind: the mover whose house AI
// panicked, w that sent something while waiting, else the mover (a
// protocol error, a timeout, a disconnect); -1 when the server is
// stopping the game (ctx ended: no forfeit, the game is aborted).
func (m *fleetMatch) turnFault(ctx context.Context, mv, w int) (int, string) {
	switch {
	case w < 0 && m.seats[mv].c == nil:
		return mv, replay.ForfeitPanic
	case ctx.Err() != nil:
		return -1, ""
	case w >= 0:
		return w, replay.ForfeitWaiting
	}
	return mv, replay.ForfeitProtocol
}

// outcomeOf is the wire outcome of step st for seat i.
func outcomeOf(st *battleship.Step, i int) int {
	return wireOutcome(st.Status == game.Won, st.Winner, i)
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
	m.send(i, bswire.EncodeShotResult(m.rules, ev, outcome))
}

// handshake greets the client seats with greet(seat), has each house AI
// place (house(seat) makes it and returns its fleet), and reads the
// clients' placements within one handshake timeout. Failures go to the
// seat's fault (and errLine, for what the client is told).
func (m *fleetMatch) handshake(ctx context.Context, greet func(i int) []byte, house func(i int) battleship.Placement) {
	pending := 0
	var need [2]bool
	m.place, m.errLine = [2]battleship.Placement{}, [2]string{}
	for i, s := range m.seats {
		s.fault, s.pipelined = nil, false
		if s.c != nil {
			m.send(i, greet(i))
			need[i] = true
			pending++
			continue
		}
		if err := protect(func() { m.place[i] = house(i) }); err != nil {
			m.seats[i].fault = err
		} else if err := m.rules.ValidatePlacement(m.place[i]); err != nil {
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
func (m *fleetMatch) placement(i int, msg inMsg) {
	if msg.err != nil {
		m.seats[i].fault = fmt.Errorf("read placement: %w", msg.err)
		return
	}
	defer putLine(msg.line)
	m.seats[i].pipelined = msg.more
	p, err := bswire.DecodeShips(*msg.line, m.rules)
	if err != nil {
		m.seats[i].fault = fmt.Errorf("placement: %w", err)
		var pe *protocol.ProtocolError
		if errors.As(err, &pe) {
			m.errLine[i] = "placement: " + pe.Err.Error()
		}
		return
	}
	m.place[i] = p // kept when invalid too: the replay records it
	if err := m.rules.ValidatePlacement(p); err != nil {
		m.seats[i].fault = fmt.Errorf("placement: %w", newFleetError(err))
		m.errLine[i] = m.seats[i].fault.Error()
	}
}

// forfeit ends a running game lost by seat w (err says why; illegal: an
// off-board or rock shot) and returns the forfeit's reason. Both client
// seats get the result line of the forfeit: {"result":{"shot":false},
// "outcome":..} for an illegal shot, else {"outcome":..} (forfeitLines).
func (m *bsMatch) forfeit(g *battleship.Game, w int, err error, illegal bool) string {
	g.Forfeit(w)
	var line func(i int) []byte
	if illegal {
		line = func(i int) []byte {
			ev := battleship.Event{Illegal: true, Result: battleship.Result{At: grid.None}}
			outcome := protocol.Won
			if i == w {
				outcome = protocol.Lost
			}
			return bswire.EncodeShotResult(m.rules, ev, outcome)
		}
	}
	return m.forfeitLines(w, err, illegal, line)
}

// forfeitLines tells the client seats that seat w lost a running game by
// forfeit (err says why; illegal: the rules refused its move) and returns
// the forfeit's reason. w gets {"error":...} when it is a client still
// connected; each client seat i then gets line(i), or {"outcome":..} when
// line is nil; the end lines follow.
func (m *fleetMatch) forfeitLines(w int, err error, illegal bool, line func(i int) []byte) string {
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
		if line != nil {
			m.send(i, line(i))
		} else {
			m.send(i, protocol.EncodeOutcome(i != w))
		}
	}
	return reason
}
