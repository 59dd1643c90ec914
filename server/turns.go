package server

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"reflect"

	"github.com/kaisen-ai/kaisen/arena"
	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/protocol"
	"github.com/kaisen-ai/kaisen/replay"
)

// The turn loop of the games on the game contract (package game), written
// once: a pairing's match (connections, timers, results, series) plays each
// game with the game's rules, its house AI and the server side of its wire
// codec (game.ServerCodec, implemented in the game's wire package), plus the few
// hooks a game adds (served; game.TurnHooks, when its codec is a
// game.Hooked).

// namer is a game.ServerCodec whose clients may send their name before their
// placement (the submarine-py dialect).
type namer interface {
	// Names reports whether clients send a name in game k.
	Names(k int) bool
	// FieldLine is the line that answers a name, sent at once.
	FieldLine() []byte
}

// served is one game as a listener serves it.
type served[G game.State[A, S], P, A, S, O any] struct {
	dialect string // Result.Dialect
	rules   game.Rules[G, P, A, S, O]
	wire    game.ServerCodec[P, A, O]
	house   game.Factory[P, A, O] // nil for pair listeners
	// record starts a game's replay (header and nothing else) on w, with
	// the game's own recorder (Contract.Record; nil: the game writes none).
	record func(w *bytes.Buffer, h arena.RecordHeader) arena.Recorder[P, A, S]
	// view is the public view of game g, which a spectator's Feed sees
	// (nil: a spectator is told only the game's end, Spectator.Finished).
	view func(g G) game.View[S]
	// invalid, when set, is the action a mover's fault is taken as: it is
	// applied, recorded and told like any other action, then the mover
	// forfeits (the submarine game, as its reference server does). Then
	// forfeits, the wire codec (a game.Forfeits), says what a seat is told
	// of a forfeit while it waited and tells the winner of a game whose
	// handshake its opponent failed that it won. nil: a fault forfeits at
	// once with the wire's forfeit lines. Set per pairing (pairing).
	invalid  *A
	forfeits game.Forfeits[G, P, A, O]
}

// turns plays the games of one pairing of a game on the contract, with
// match.run. One goroutine runs it and owns everything in it.
type turns[G game.State[A, S], P, A, S, O any] struct {
	*match
	def     *served[G, P, A, S, O]
	ai      [2]game.Player[P, A, O] // the house AIs of this game (nil for a client)
	place   [2]P                    // the placements as received
	errLine [2]string               // the error line owed to a client seat
	told    O                       // what a seat is told (Rules.Tell's buffer)
}

// newTurns is the turn loop of def's game for the pairing m.
func newTurns[G game.State[A, S], P, A, S, O any](m *match, def *served[G, P, A, S, O]) *turns[G, P, A, S, O] {
	return &turns[G, P, A, S, O]{match: m, def: def}
}

// gameReplay is a game's replay in memory; the server writes it durably
// (Server.record) before the end lines go out. A nil gameReplay (replays
// off) records nothing.
type gameReplay[P, A, S any] struct {
	buf bytes.Buffer
	w   arena.Recorder[P, A, S]
	log *slog.Logger
}

// startReplay starts the replay of game res after its handshake, with
// both placements as received, or returns nil when the server keeps no
// replays or the game writes none.
func (t *turns[G, P, A, S, O]) startReplay(res *Result, log *slog.Logger) *gameReplay[P, A, S] {
	if t.srv.cfg.ReplayDir == "" || t.def.record == nil {
		return nil
	}
	rec := &gameReplay[P, A, S]{log: log}
	h := arena.RecordHeader{Seed: res.Seed, First: res.First}
	for i, s := range t.seats {
		h.Players[i] = replay.SeatInfo{Seat: i, Name: s.replayName()}
	}
	rec.w = t.def.record(&rec.buf, h)
	for i, p := range t.place {
		rec.w.Placement(i, p, !reflect.ValueOf(&p).Elem().IsZero()) // the zero P: none received
	}
	return rec
}

// finish writes the result line and returns the replay (nil on a write
// error, which is logged).
func (rec *gameReplay[P, A, S]) finish(res *Result, c game.Count, ff []replay.Forfeit) []byte {
	if rec == nil {
		return nil
	}
	recordResult(rec.w, replayOutcome(res), res.Winner, c, ff)
	if err := rec.w.Flush(); err != nil {
		rec.log.Error("replay", "err", err)
		return nil
	}
	return rec.buf.Bytes()
}

// play runs the handshake and the actions of game k of the pairing (a
// series greets with "roundK." and keeps a learning house AI from game to
// game) and returns its result and its replay (nil when replays are off;
// partial, with outcome aborted, when the server stopped the game); end
// lines are sent by end. Each seat acts when the rules say (ToAct) and is
// told what the rules tell it of every action (Tell).
func (t *turns[G, P, A, S, O]) play(ctx context.Context, k int) (*Result, []byte) {
	res := t.newResult(k, t.def.dialect)
	log := t.log.With("game", res.Game)
	t.handshake(ctx, k, res.Seed)
	stopped := !t.seated(ctx, res)
	rec := t.startReplay(res, log)
	if stopped { // the placements received so far are in the replay
		return t.abort(res, log, 0), rec.finish(res, game.Count{}, nil)
	}
	if t.seats[0].fault != nil || t.seats[1].fault != nil {
		return res, rec.finish(res, game.Count{}, t.placementFailed(res, log))
	}
	g, err := t.def.rules.Start(t.place, res.First)
	if err != nil { // placements were validated: a server bug
		log.Error("start game", "err", err)
		return t.abort(res, log, 0), nil
	}
	return t.loop(ctx, g, res, log, rec)
}

// run is one started game of a pairing as its turn loop plays it.
type run[G game.State[A, S], P, A, S, O any] struct {
	*turns[G, P, A, S, O]
	ctx context.Context
	g   G
	res *Result
	log *slog.Logger
	rec *gameReplay[P, A, S]
	n   int // actions applied
	// shown is the game's action count as the result, the logs and the
	// spectators have it (Result.Actions): the actions applied, less those
	// the game hides, plus the confirms (game.TurnHooks).
	shown int
	// endBytes is the replay of a game that a helper of the loop ended
	// (moverFault, confirms).
	endBytes []byte
}

// end writes the replay's result line (ff: its forfeits) and returns the
// game's result and replay.
func (r *run[G, P, A, S, O]) end(ff []replay.Forfeit) (*Result, []byte) {
	return r.res, r.rec.finish(r.res, r.def.rules.Count(r.g, r.n), ff)
}

// abort ends a game the server stopped: the replay has every action played.
func (r *run[G, P, A, S, O]) abort() (*Result, []byte) {
	r.turns.abort(r.res, r.log, r.shown)
	return r.end(nil)
}

// forfeit ends the game lost by seat w (kind: a replay.Forfeit* kind) with
// the wire's forfeit lines.
func (r *run[G, P, A, S, O]) forfeit(w int, err error, kind string) (*Result, []byte) {
	r.g.Forfeit(w)
	reason := r.forfeitLines(w, err, kind == replay.ForfeitIllegal)
	return r.end(r.forfeited(r.res, r.log, r.shown, w, kind, reason, err))
}

// loop plays the started game g to its end (see play).
func (t *turns[G, P, A, S, O]) loop(ctx context.Context, g G, res *Result, log *slog.Logger, rec *gameReplay[P, A, S]) (*Result, []byte) {
	r := &run[G, P, A, S, O]{turns: t, ctx: ctx, g: g, res: res, log: log, rec: rec}
	var feed *Feed[S]
	if t.def.view != nil {
		feed = startFeed[S](t.srv, res, t.def.view(g))
	}
	var h game.TurnHooks[A, S]
	if hk, ok := t.def.wire.(game.Hooked[G, A, S]); ok {
		h = hk.Hooks(g)
	}
	actions := &moveReader[A]{
		what:   t.def.wire.What(),
		late:   t.def.wire.Late(t.st.cfg.ActionTimeout(t.srv.cfg.Limits)),
		decode: t.def.wire.DecodeAction,
	}
	// told[i]: seat i was told the last action (or the game is starting).
	// A seat told nothing (the rules held its view back) gets no "waiting"
	// either, so that the lines it reads are those of a game without the
	// action. moved is the seat that goes on after the last action
	// (game.TurnHooks.Continues; -1: none).
	told := [2]bool{true, true}
	moved := -1
	invalid := t.def.invalid
	for {
		if invalid == nil { // else a dead house AI's fault is its next action's (takeTurn)
			if i, err := t.houseFault(); err != nil { // a house AI that panicked in Observe
				return r.forfeit(i, err, replay.ForfeitPanic)
			}
		}
		mv := g.ToAct()
		feed.ToAct(mv, t.due(mv, t.st.cfg.ActionTimeout(t.srv.cfg.Limits)))
		actions.quiet = !told[1-mv]
		actions.cont = moved == mv
		a, w, fault := takeTurn(t.match, mv, func() A { return t.ai[mv].Act() }, actions)
		actor := any(t.ai[mv])
		if fault != nil {
			if done := r.moverFault(mv, w, fault); done {
				return r.res, r.endBytes
			}
			a, actor = *invalid, nil
		}
		moved = -1
		if h != nil {
			h.Before(a)
			if h.Continues(a) {
				moved = mv
			}
		}
		st, err := g.Apply(a)
		r.n++
		if h != nil {
			r.shown += h.Shown(mv, a, &st, err)
		} else {
			r.shown++
		}
		t.srv.metrics.actions.Add(1)
		if h == nil {
			feed.Step(r.shown, &st, err)
		}
		if rec != nil {
			rec.w.Action(r.n, mv, a, &st, err, explanation(actor))
		}
		if err != nil && invalid == nil {
			return r.forfeit(mv, err, replay.ForfeitIllegal)
		}
		if h != nil {
			if !r.confirms(h, &st) {
				return r.res, r.endBytes
			}
			feed.Step(r.shown, &st, err) // after the confirms: shown counts nothing hidden
		}
		for _, i := range [2]int{mv, 1 - mv} {
			told[i] = t.tell(g, &st, err, i)
		}
		if g.Status() == game.Running {
			continue
		}
		switch {
		case fault != nil: // the mover's action was taken as invalid
			return r.end(t.forfeited(res, log, r.shown, mv, replay.ForfeitIllegal, classify(fault), fault))
		case err != nil:
			return r.end(t.forfeited(res, log, r.shown, mv, replay.ForfeitIllegal, ReasonIllegal, err))
		}
		gameOver(res, r.shown, g.Winner())
		return r.end(nil)
	}
}

// moverFault handles the fault takeTurn returned for mover mv with w (see
// takeTurn) and reports whether it ended the game (its replay is then in
// endBytes). Else, in a dialect that tells a mover's fault as an invalid
// action (served.invalid), the caller plays that action.
func (r *run[G, P, A, S, O]) moverFault(mv, w int, fault error) bool {
	switch {
	case r.def.invalid == nil:
		w, kind := r.turnFault(r.ctx, mv, w)
		if w < 0 {
			_, r.endBytes = r.abort()
		} else {
			_, r.endBytes = r.forfeit(w, fault, kind)
		}
	case r.ctx.Err() != nil:
		_, r.endBytes = r.abort()
	case w >= 0:
		_, r.endBytes = r.end(r.waitingForfeit(r.res, r.g, mv, w, fault, r.shown, r.log))
	default:
		return false
	}
	return true
}

// confirms has the seat the hooks name answer each confirm line they give
// for step st before it is told (game.TurnHooks.Confirms), and reports whether
// the game goes on (false: a forfeit or a shutdown ended it; its replay is
// in endBytes).
func (r *run[G, P, A, S, O]) confirms(h game.TurnHooks[A, S], st *S) bool {
	d, lines := h.Confirms(st)
	for _, line := range lines {
		w, fault := r.confirm(d, line, h)
		if fault != nil {
			if w < 0 {
				w = d
				if r.ctx.Err() != nil {
					_, r.endBytes = r.abort()
					return false
				}
			}
			// The rules have no question pending: to them the seat broke
			// the protocol while waiting.
			_, r.endBytes = r.forfeit(w, fault, replay.ForfeitWaiting)
			return false
		}
		r.shown++
	}
	return true
}

// waitingForfeit ends a running game because seat w broke the protocol
// while it was not its turn (err says how), in a dialect that tells a
// forfeit as an invalid action (served.invalid). The seats have been sent
// "your turn" and "waiting"; each client is now told the forfeit
// (game.Forfeits.ForfeitTold) — the mover mv's line first, the outcome true to
// the winner, false to w — and the end lines follow. n is the game's
// action count; it returns the replay's forfeits.
func (t *turns[G, P, A, S, O]) waitingForfeit(res *Result, g G, mv, w int, err error, n int, log *slog.Logger) []replay.Forfeit {
	g.Forfeit(w)
	for _, i := range [2]int{mv, 1 - mv} {
		s := t.seats[i]
		if s.c == nil || s.c.werr != nil {
			continue
		}
		outcome := protocol.Won
		if i == w {
			outcome = protocol.Lost
		}
		t.def.forfeits.ForfeitTold(g, i, &t.told)
		c := t.to(i)
		c.wbuf = t.def.wire.AppendTold(c.wbuf, i, &t.told, outcome)
		c.wbuf = append(c.wbuf, '\n')
	}
	return t.forfeited(res, log, n, w, replay.ForfeitWaiting, classify(err), err, "phase", "waiting")
}

// confirm has the client seat d answer the confirm line (a confirm line,
// "your turn", an answer that h.CheckConfirm accepts; nothing for the
// house AI). A fault is d's when w is -1, else that of seat w, which sent
// something while it was not its turn (takeTurn).
func (t *turns[G, P, A, S, O]) confirm(d int, line []byte, h game.TurnHooks[A, S]) (w int, fault error) {
	if t.seats[d].c == nil {
		return -1, nil
	}
	t.send(d, line)
	r := &moveReader[A]{
		what:   "confirm answer",
		late:   t.def.wire.Late(t.st.cfg.ActionTimeout(t.srv.cfg.Limits)),
		decode: t.def.wire.DecodeAction,
		quiet:  true,
	}
	a, w, fault := takeTurn(t.match, d, nil, r)
	if fault == nil {
		fault = h.CheckConfirm(a)
	}
	return w, fault
}

// tell gives seat i what the rules tell it of step st of g (err: Apply's
// error), and reports whether it was told anything: a line for a client,
// an Observe call for the house AI (a panic there is the seat's fault);
// nothing for a seat that can no longer play.
func (t *turns[G, P, A, S, O]) tell(g G, st *S, err error, i int) bool {
	s := t.seats[i]
	if s.dead() != nil {
		return true
	}
	if !t.def.rules.Tell(g, st, err, i, &t.told) {
		return false
	}
	if s.c == nil {
		if err := protect(func() { t.ai[i].Observe(t.told) }); err != nil {
			s.fault = err
		}
		return true
	}
	c := t.to(i)
	if c.werr == nil {
		c.wbuf = t.def.wire.AppendTold(c.wbuf, i, &t.told, wireOutcome(g.Status() == game.Won, g.Winner(), i))
		c.wbuf = append(c.wbuf, '\n')
	}
	return true
}

// handshake greets the client seats (the game's hello, or "roundK." in a
// series, followed by the hello for a game.RoundHello codec), has each
// house AI place (a learning one kept from game to game of a series) and
// reads the clients' placements (and, when the wire asks for them, their
// names first: namer). Both clients' handshakes run at
// once, with one deadline, so that a slow or silent client costs the
// other nothing. Failures go to the seat's fault (and errLine, for what
// the client is told).
func (t *turns[G, P, A, S, O]) handshake(ctx context.Context, k int, seed uint64) {
	t.place, t.errLine, t.ai = [2]P{}, [2]string{}, [2]game.Player[P, A, O]{}
	t.def.wire.NewGame()
	nm, names := t.def.wire.(namer)
	names = names && nm.Names(k)
	series := t.st.cfg.Games > 1
	// What each client seat still has to send: its name, its placement.
	var need [2]int
	pending := 0
	for i, s := range t.seats {
		s.fault, s.pipelined = nil, false
		if s.c == nil {
			continue
		}
		if series {
			t.sendString(i, protocol.SeriesRound(k))
		}
		if rh, ok := t.def.wire.(game.RoundHello); !series || ok && rh.HelloEachRound() {
			t.send(i, t.def.wire.Hello(i))
		}
		need[i] = 1
		if names {
			need[i] = 2
		}
		pending++
	}
	t.flush()
	for i, s := range t.seats {
		if s.c == nil {
			t.housePlace(i, seed, series)
		}
	}
	t.timer.Reset(t.st.cfg.HandshakeTimeout(t.srv.cfg.Limits))
	defer t.timer.Stop()
	for pending > 0 {
		who, msg, err := t.handshakeMsg(ctx, [2]bool{need[0] > 0, need[1] > 0})
		if err != nil {
			for i, s := range t.seats {
				if need[i] > 0 {
					s.fault = fmt.Errorf("read %s: %w", handshakeStep(need[i]), err)
					if ctx.Err() == nil {
						t.errLine[i] = "timeout: no placement within " + t.st.cfg.HandshakeTimeout(t.srv.cfg.Limits).String()
					}
					need[i] = 0
				}
			}
			return
		}
		s := t.seats[who]
		switch {
		case need[who] == 1:
			need[who] = 0
			t.placement(who, msg)
		case msg.err != nil:
			s.fault, need[who] = fmt.Errorf("read %s: %w", handshakeStep(need[who]), msg.err), 0
		default: // its name: the field line goes back at once
			s.name = cleanName(*msg.line)
			putLine(msg.line)
			s.c.queue(nm.FieldLine())
			s.c.flush()
			need[who]--
		}
		if need[who] == 0 {
			pending--
		}
	}
}

// housePlace makes the house AI of seat i for the game (drawing from the
// game's seed; a learning one is kept across a series) and has it place.
// A panic or an invalid placement is the seat's fault.
func (t *turns[G, P, A, S, O]) housePlace(i int, seed uint64, series bool) {
	s := t.seats[i]
	err := protect(func() {
		t.ai[i] = keptHouse(s, rand.New(rand.NewPCG(seed, uint64(i))), series, func(rng *rand.Rand) game.Player[P, A, O] {
			return t.def.house(rng, i)
		})
	})
	if err == nil {
		err = protect(func() { t.place[i] = t.ai[i].Place() })
	}
	if err != nil {
		s.fault = err
	} else if err := t.def.rules.ValidatePlacement(t.place[i]); err != nil {
		s.fault = fmt.Errorf("house placement: %w", t.def.wire.PlacementError(err))
	}
}

// placement handles client seat i's placement message.
func (t *turns[G, P, A, S, O]) placement(i int, msg inMsg) {
	s := t.seats[i]
	if msg.err != nil {
		s.fault = fmt.Errorf("read placement: %w", msg.err)
		return
	}
	defer putLine(msg.line)
	s.pipelined = msg.more
	p, err := t.def.wire.DecodePlacement(i, *msg.line)
	if err != nil {
		s.fault = fmt.Errorf("placement: %w", err)
		var pe *protocol.ProtocolError
		if errors.As(err, &pe) {
			t.errLine[i] = "placement: " + pe.Err.Error()
		}
		return
	}
	t.place[i] = p // kept when invalid too: the replay records it
	if err := t.def.rules.ValidatePlacement(p); err != nil {
		s.fault = fmt.Errorf("placement: %w", t.def.wire.PlacementError(err))
		t.errLine[i] = s.fault.Error()
	}
}

// placementFailed ends a game whose handshake failed (handshakeFailed):
// each client that sent a bad placement gets its error line. It returns
// the replay's forfeits.
func (t *turns[G, P, A, S, O]) placementFailed(res *Result, log *slog.Logger) []replay.Forfeit {
	ff := t.handshakeFailed(res, log)
	for i, line := range t.errLine {
		if t.seats[i].fault != nil && line != "" {
			if b := t.def.wire.ErrorLine(line); b != nil {
				t.send(i, b)
			}
		}
	}
	if f := t.def.forfeits; f != nil && res.Outcome == OutcomeWin {
		w := res.Winner // told "waiting", then that it won (game.Forfeits.AppendWalkover)
		t.sendString(w, protocol.Waiting)
		if s := t.seats[w]; s.c != nil && s.c.werr == nil {
			c := t.to(w)
			c.wbuf = append(f.AppendWalkover(c.wbuf, w, t.place[w]), '\n')
		}
	}
	return ff
}

// houseFault returns a seat whose house AI failed (panicked in Observe)
// and its fault, or -1 and nil.
func (t *turns[G, P, A, S, O]) houseFault() (int, error) {
	for i, s := range t.seats {
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
func (t *turns[G, P, A, S, O]) turnFault(ctx context.Context, mv, w int) (int, string) {
	switch {
	case w < 0 && t.seats[mv].c == nil:
		return mv, replay.ForfeitPanic
	case ctx.Err() != nil:
		return -1, ""
	case w >= 0:
		return w, replay.ForfeitWaiting
	}
	return mv, replay.ForfeitProtocol
}

// forfeitLines tells the client seats that seat w lost a running game by
// forfeit (err says why; illegal: the rules refused its move) and returns
// the forfeit's reason. w gets the error line when it is a client still
// connected; each client seat then gets the wire's forfeit line; the end
// lines follow.
func (t *turns[G, P, A, S, O]) forfeitLines(w int, err error, illegal bool) string {
	reason := classify(err)
	if illegal {
		reason = ReasonIllegal
	}
	if t.seats[w].c != nil && reason != ReasonDisconnect { // nobody reads after a disconnect
		t.send(w, t.def.wire.ErrorLine(reason+": "+err.Error()))
	}
	for i, s := range t.seats {
		if s.c != nil {
			if b := t.def.wire.ForfeitLine(illegal, i != w); b != nil {
				t.send(i, b)
			}
		}
	}
	return reason
}
