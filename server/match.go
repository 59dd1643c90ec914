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
	"unicode"
	"unicode/utf8"

	"github.com/kaisen-ai/kaisen/explain"
	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/protocol"
	"github.com/kaisen-ai/kaisen/replay"
	"github.com/kaisen-ai/kaisen/series"
)

// maxNameBytes is the most of a submarine-py client's name that is kept.
const maxNameBytes = 64

// seat is one side of a match: a client connection or the house AI.
type seat struct {
	c     *conn  // nil for the house AI
	house string // the house AI's name
	name  string // the name a submarine-py client sent
	bot   string // the authenticated bot (rated listener)

	// kept is the house AI kept across the games of a series (a pairing
	// of more than one game) because it learns across them
	// (game.Learner): a players.Player or a game contract's player; nil
	// otherwise.
	kept any

	// Per game (the game's own state is the turn loop's: turns).
	fault     error // why this seat forfeits the current game
	pipelined bool  // its last line arrived together with more input
}

func (s *seat) peer() Peer {
	if s.c == nil {
		return Peer{Addr: "house", Name: s.house}
	}
	name := s.name
	if name == "" { // a rated bot that sent no name is named by its ladder name
		name = s.bot
	}
	if name == "" { // a house program that sent none, by the listener's opponent
		name = s.house
	}
	return Peer{Addr: s.c.addr, Name: name, Bot: s.bot}
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
	idx   int    // the listener's index: with seq and the game, names the game's seed (gameSeed)
	seq   uint64 // the pairing's number on its listener (1-based)
	log   *slog.Logger
	tally [2]protocol.Tally
	timer *time.Timer // the running handshake timeout
	act   actionTimer // the action timeout (awaitMove)
	first int         // the seat whose connection got the first line queued since the last flush, or -1
}

// runGame runs the pairing with the listener's game.
func (m *match) runGame(ctx context.Context) {
	m.run(ctx, m.st.play(m))
}

// run plays the pairing's games with play, records each, then closes the
// connections. ctx ends when the server stops the game (after the shutdown
// grace).
func (m *match) run(ctx context.Context, play func(ctx context.Context, k int) (*Result, []byte)) {
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
	defer m.act.stop()
	m.first = -1
	n := m.st.cfg.Games
	for k := 1; k <= n; k++ {
		res, rp := play(ctx, k)
		m.learn(res, k)
		// An illegal action only loses the game; any other forfeit (the
		// client is broken or gone) or a shutdown ends the series.
		last := k == n || res.Outcome == OutcomeAborted || (len(res.Forfeits) > 0 && res.Reason != ReasonIllegal)
		// The result is on disk (and, rated, in the ladder) before anyone
		// is told how the game ended. A game the ladder could not take is
		// not told: its players are disconnected.
		if err := m.srv.record(m.log, res, rp); err != nil {
			for _, s := range m.seats {
				if s.c != nil {
					s.c.wbuf = s.c.wbuf[:0]
				}
			}
			break
		}
		if last { // a bot may connect again as soon as it reads its end line
			m.offline()
		}
		m.end(res, last)
		if last {
			break
		}
	}
	m.close()
}

// keptHouse returns seat s's house AI for the next game of its pairing,
// drawing from rng: the kept Learner (game.Learner, found through an
// adapter with game.As) started anew with NewGame when there is one, else a
// fresh player from factory, kept when it is a Learner and the pairing
// plays a series. It serves every game (P is the game's player type). A panic in NewGame propagates, with the
// learner dropped first: the next game gets a fresh house AI.
func keptHouse[P any](s *seat, rng *rand.Rand, series bool, factory func(*rand.Rand) P) P {
	if p, ok := s.kept.(P); ok {
		s.kept = nil
		l, _ := game.As[game.Learner](p)
		l.NewGame(rng)
		s.kept = p
		return p
	}
	p := factory(rng)
	if _, ok := game.As[game.Learner](p); ok && series {
		s.kept = p
	}
	return p
}

// learn tells the kept house AIs how game k of the series ended (not an
// aborted one: the series ends there). A learner that panics is logged and
// dropped: the next game has a fresh house AI.
func (m *match) learn(res *Result, k int) {
	if res.Outcome == OutcomeAborted {
		return
	}
	for i, s := range m.seats {
		if s.kept == nil {
			continue
		}
		e := series.End{Game: k - 1, Seat: i, First: res.First, Winner: res.Winner}
		l, _ := game.As[game.Learner](s.kept)
		if err := protect(func() { l.EndGame(e) }); err != nil {
			m.log.Warn("house AI panicked at the end of a game of its series; a fresh one plays the next game", "round", k, "err", err)
			s.kept = nil
		}
	}
}

// sendString queues line for seat i (nothing for the house AI). Lines
// queued for one connection leave in one write at the next flush, in the
// order they were queued; the flush writes first to the connection whose
// line was queued first, so the first line of each write leaves in the
// reference server's order (the order between the two connections is not
// observable on TCP anyway).
func (m *match) sendString(i int, line string) {
	if c := m.to(i); c != nil {
		c.queueString(line)
	}
}

// send is sendString for an encoded line.
func (m *match) send(i int, line []byte) {
	if c := m.to(i); c != nil {
		c.queue(line)
	}
}

// to is the connection of client seat i, which the next flush writes to,
// or nil for the house AI.
func (m *match) to(i int) *conn {
	c := m.seats[i].c
	if c != nil && m.first < 0 {
		m.first = i
	}
	return c
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
	case FirstSecond:
		return 1
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

// replayName names the seat in replay headers: "remote ADDR [NAME]" (NAME:
// the client's name, else a rated bot's ladder name) or the house AI's
// name.
func (s *seat) replayName() string {
	if s.c == nil {
		return s.house
	}
	p := s.peer()
	name := "remote " + p.Addr
	if p.Name != "" {
		name += " " + p.Name
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

// newResult starts the result of game k of the pairing in dialect: its
// seed and first seat.
func (m *match) newResult(k int, dialect string) *Result {
	cfg := m.st.cfg
	seed := gameSeed(m.srv.key, m.idx, m.seq, k)
	rng := rand.New(rand.NewPCG(seed, 0x6b616973656e)) // first-player coin
	res := &Result{
		Game:     m.id,
		Listener: cfg.Name,
		Dialect:  dialect,
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
	return res
}

// seated fills in the players of res after the handshake and reports
// whether the game goes on (false: the server is stopping it).
func (m *match) seated(ctx context.Context, res *Result) bool {
	for i, s := range m.seats {
		res.Players[i] = s.peer()
	}
	return ctx.Err() == nil
}

// offTurn looks for a client seat that sent something (or left) while it
// was waiting for the server: a message already delivered by its reader, or
// input that arrived together with its last line. It returns the seat and
// its fault, or -1 and nil. Seat skip (-1: none) is not looked at.
func (m *match) offTurn(skip int) (int, error) {
	for i, s := range m.seats {
		if s.c == nil || i == skip {
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

// moveReader is how a game's turn loop reads a client's move (A: the
// game's action).
type moveReader[A any] struct {
	what   string                       // the move's name in faults: "action", "shot"
	late   string                       // added to the fault of a client that sent no move in time
	decode func(line []byte) (A, error) // one move line
	// quiet: the other seat is not told "waiting" (it was told nothing by
	// the last action: see turns.loop).
	quiet bool
	// cont: the mover goes on after its own last action without "your
	// turn" (an abilities move), so its input may already be there.
	cont bool
}

// takeTurn tells seat mv that it is its turn (and the other seat to wait)
// and gets its move: from the house AI by act, at once (its lines and the
// client's go out together before the client's next move is awaited), or
// from the client by r within the action timeout. A fault is the mover's
// (it cannot move) when w is -1, else that of seat w, which sent something
// (or left) while it was not its turn — the mover itself when its input
// came before "your turn".
func takeTurn[A any](m *match, mv int, act func() A, r *moveReader[A]) (a A, w int, fault error) {
	ms := m.seats[mv]
	// ahead: a mover that goes on whose next line came with its last one
	// is not waiting for the lines queued since (written with the next
	// flush, one write the fewer before its action).
	ahead := r.cont && ms.pipelined
	if r.cont {
		ms.pipelined = false
	} else {
		m.sendString(mv, protocol.YourTurn)
	}
	if !r.quiet && !r.cont {
		m.sendString(1-mv, protocol.Waiting)
	}
	// Whatever a client sent before this turn was sent while it waited
	// for the server: out of turn (but for a mover that goes on).
	skip := -1
	if r.cont {
		skip = mv
	}
	if w, err := m.offTurn(skip); err != nil {
		return a, w, err
	}
	if ms.c == nil {
		if fault = ms.dead(); fault == nil {
			fault = protect(func() { a = act() })
		}
		return a, -1, fault
	}
	if !ahead {
		m.flush()
	}
	if o := m.seats[1-mv]; o.c != nil && o.c.werr != nil {
		return a, 1 - mv, o.c.werr
	}
	if fault = ms.dead(); fault != nil {
		return a, -1, fault
	}
	who, a, fault := awaitMove(m, mv, r)
	if who != mv {
		return a, who, fault
	}
	return a, -1, fault
}

// awaitMove waits for the move of client seat mv within the action timeout,
// watching the other seat too. It returns the seat the first message came
// from with the decoded move, or with that seat's fault: a read error, an
// undecodable line or a timeout for mv; any message at all for the other
// seat (who != mv). A shutdown closes the connections (run's AfterFunc):
// the readers' errors end the wait and the game sees ctx.
func awaitMove[A any](m *match, mv int, r *moveReader[A]) (who int, a A, fault error) {
	deadline := time.Now().Add(m.st.cfg.ActionTimeout(m.srv.cfg.Limits))
	m.act.arm(deadline)
	var msg inMsg
wait:
	for {
		select {
		case msg = <-m.seats[0].in():
			who = 0
			break wait
		case msg = <-m.seats[1].in():
			who = 1
			break wait
		case <-m.act.t.C:
			if m.act.expired(deadline) {
				return mv, a, fmt.Errorf("read %s: %w%s", r.what, os.ErrDeadlineExceeded, r.late)
			}
		}
	}
	if who != mv {
		return who, a, waitingFault(msg)
	}
	if msg.err != nil {
		return mv, a, fmt.Errorf("read %s: %w", r.what, msg.err)
	}
	m.seats[mv].pipelined = msg.more
	a, err := r.decode(*msg.line)
	putLine(msg.line)
	if err != nil {
		return mv, a, fmt.Errorf("%s: %w", r.what, err)
	}
	return mv, a, nil
}

// actionTimer is awaitMove's action timeout, armed lazily: a Reset and a
// Stop on every action are two operations on the runtime's timer heap, so
// the timer is left running from one action to the next and, when it fires
// before the current action's deadline, it is armed again for the rest
// (one extra wake-up per timeout, not two timer operations per action).
type actionTimer struct {
	t  *time.Timer
	at time.Time // when t fires (or fired, unread); zero: stopped
}

// arm makes sure the timer fires at deadline or before.
func (a *actionTimer) arm(deadline time.Time) {
	switch {
	case a.t == nil:
		a.t = time.NewTimer(time.Until(deadline))
	case a.at.IsZero() || a.at.After(deadline):
		a.t.Reset(time.Until(deadline))
	default:
		return // it fires earlier: expired arms it again then
	}
	a.at = deadline
}

// expired is called when the timer has fired: it reports whether deadline
// has passed, else arms the timer for the rest.
func (a *actionTimer) expired(deadline time.Time) bool {
	a.at = time.Time{}
	if rest := time.Until(deadline); rest > 0 {
		a.t.Reset(rest)
		a.at = deadline
		return false
	}
	return true
}

// stop stops the timer (the end of a pairing).
func (a *actionTimer) stop() {
	if a.t != nil {
		a.t.Stop()
		a.at = time.Time{}
	}
}

// explanation is the Decision of the house AI p (nil when p gives none, or
// panics giving it).
func explanation(p any) *explain.Decision {
	ex, ok := game.As[explain.Explainer](p)
	if !ok {
		return nil
	}
	var dec *explain.Decision
	_ = protect(func() { d := ex.Explain(); dec = &d })
	return dec
}

// gameOver fills in the result of a game that ended by the rules after
// actions moves: won by winner, or drawn at the draw limit (winner -1).
func gameOver(res *Result, actions, winner int) {
	res.Actions = actions
	res.End = time.Now().UTC()
	if winner < 0 {
		res.Outcome, res.Reason = OutcomeDraw, ReasonDrawLimit
		return
	}
	res.Outcome, res.Winner, res.Reason = OutcomeWin, winner, ReasonSunk
}

// forfeited fills in the result of a running game that seat w lost by
// forfeit after actions moves (reason and err: why; kind: the replay's
// replay.Forfeit* kind), logs the forfeit with attrs and returns the
// replay's forfeits.
func (m *match) forfeited(res *Result, log *slog.Logger, actions, w int, kind, reason string, err error, attrs ...any) []replay.Forfeit {
	res.Actions = actions
	res.End = time.Now().UTC()
	res.Outcome, res.Winner = OutcomeWin, 1-w
	res.Reason, res.Detail = reason, err.Error()
	res.Forfeits = []int{w}
	m.logForfeit(log, w, res.Reason, res.Detail, attrs...)
	return []replay.Forfeit{{Seat: w, Kind: kind, Reason: res.Reason + ": " + res.Detail}}
}

// logForfeit logs the forfeit of seat i (attrs: more, such as the phase).
func (m *match) logForfeit(log *slog.Logger, i int, reason, detail string, attrs ...any) {
	log.Warn("forfeit", append([]any{"seat", i, "peer", m.seats[i].peer().Addr, "reason", reason, "detail", detail}, attrs...)...)
}

// replayOutcome is the replay's outcome of the finished game res.
func replayOutcome(res *Result) string {
	switch res.Outcome {
	case OutcomeDraw:
		return replay.OutcomeDraw
	case OutcomeAborted:
		return replay.OutcomeAborted
	}
	return replay.OutcomeWin
}

// handshakeMsg returns the next handshake message of a client seat that
// still owes one (waiting[i]): one already delivered (seat 0's first), else
// the first to arrive before the handshake timer fires. err says why none
// came: the timer fired or ctx ended.
func (m *match) handshakeMsg(ctx context.Context, waiting [2]bool) (who int, msg inMsg, err error) {
	var ch [2]chan inMsg
	for i, s := range m.seats {
		if !waiting[i] {
			continue
		}
		if msg, ok := s.c.poll(); ok {
			return i, msg, nil
		}
		ch[i] = s.c.in
	}
	select {
	case msg = <-ch[0]:
		return 0, msg, nil
	case msg = <-ch[1]:
		return 1, msg, nil
	case <-m.timer.C:
		return -1, msg, os.ErrDeadlineExceeded
	case <-ctx.Done():
		return -1, msg, ctx.Err()
	}
}

// handshakeStep names what a client with need lines left has to send.
func handshakeStep(need int) string {
	if need == 2 {
		return "name"
	}
	return "placement"
}

// cleanName makes a client's name safe to store, log and print: every
// rune that is not printable (control characters such as a terminal's
// ESC, format characters such as a bidi override, invalid UTF-8) becomes
// "?", spaces around it are trimmed, and at most maxNameBytes bytes are
// kept, cut on a rune boundary.
func cleanName(line []byte) string {
	var b []byte
	for _, r := range string(bytes.TrimSpace(line)) {
		if r == utf8.RuneError || !unicode.IsPrint(r) {
			r = '?'
		}
		if len(b)+utf8.RuneLen(r) > maxNameBytes {
			break
		}
		b = utf8.AppendRune(b, r)
	}
	return string(b)
}

// handshakeFailed fills in the result of a game that failed before its
// first move: the seats whose handshake failed (seat.fault) forfeit, the
// first one's reason is the game's; the other seat wins or, when both
// failed, the game has no winner (recorded as a draw with both seats
// forfeiting; end tells both they lost). It logs each forfeit and returns
// the replay's forfeits: a placement forfeit per failed seat (panic for a
// house AI that crashed).
func (m *match) handshakeFailed(res *Result, log *slog.Logger) []replay.Forfeit {
	res.End = time.Now().UTC()
	var ff []replay.Forfeit
	for i, s := range m.seats {
		if s.fault == nil {
			continue
		}
		res.Forfeits = append(res.Forfeits, i)
		reason := classify(s.fault)
		if res.Reason == "" {
			res.Reason, res.Detail = reason, s.fault.Error()
		}
		kind := replay.ForfeitPlacement
		if reason == ReasonPanic {
			kind = replay.ForfeitPanic
		}
		ff = append(ff, replay.Forfeit{Seat: i, Kind: kind, Reason: reason + ": " + s.fault.Error()})
		m.logForfeit(log, i, reason, s.fault.Error(), "phase", "handshake")
	}
	if len(res.Forfeits) == 2 {
		res.Outcome = OutcomeDraw
	} else {
		res.Outcome, res.Winner = OutcomeWin, 1-res.Forfeits[0]
	}
	return ff
}

// abort ends a game the server stopped after actions moves: no end lines;
// the caller records the partial replay (outcome aborted).
func (m *match) abort(res *Result, log *slog.Logger, actions int) *Result {
	res.Outcome, res.Winner, res.Reason = OutcomeAborted, -1, ReasonShutdown
	res.Actions = actions
	res.End = time.Now().UTC()
	log.Warn("game aborted", "reason", res.Reason, "actions", actions)
	return res
}

// wireOutcome is the wire outcome for seat i of a move that ended the game
// won by winner (won), or of one that did not.
func wireOutcome(won bool, winner, i int) int {
	switch {
	case !won:
		return protocol.NoOutcome
	case winner == i:
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
	m.offline()
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
