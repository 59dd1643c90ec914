package server

// Abilities listeners (game: abilities): the battleship listeners'
// connections, handshake, limits, result log and replays with the
// abilities protocol (docs/protocol.md, section "Abilities"): a hello line
// naming the protocol version, the seat, the sides and the options
// instead of the greeting; ability actions and defender's answers; one
// result line per action telling each seat its view of it.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"

	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/game/abilities"
	abrecord "github.com/kaisen-ai/kaisen/game/abilities/record"
	abwire "github.com/kaisen-ai/kaisen/game/abilities/wire"
	"github.com/kaisen-ai/kaisen/game/battleship"
	bsrecord "github.com/kaisen-ai/kaisen/game/battleship/record"
	"github.com/kaisen-ai/kaisen/game/grid"
	abplayers "github.com/kaisen-ai/kaisen/players/abilities"
	"github.com/kaisen-ai/kaisen/protocol"
	"github.com/kaisen-ai/kaisen/replay"
)

// GameAbilities is the abilities variant of Battleship (ListenerConfig.Game).
const GameAbilities = abilities.Name

// DialectAbilities is Result.Dialect for abilities games.
const DialectAbilities = "abilities"

// DefaultAbilitiesHouse is the house AI of an abilities listener whose
// opponent is not set.
const DefaultAbilitiesHouse = "ab-density"

// abSetup is an abilities listener's rules and house AI.
type abSetup struct {
	rules *abilities.Rules
	house abplayers.Factory // nil for pair listeners
}

// compileAbilities validates an abilities listener.
func (l ListenerConfig) compileAbilities() (*setup, error) {
	errs, bad := l.fleetChecks(GameAbilities)
	if l.Abilities.AlternateFirst {
		bad("abilities.alternate_first is for matches; a listener says who acts first with first")
	}
	rules, err := l.Abilities.Build(battleship.DefaultRules())
	if err != nil {
		bad("abilities: %v", err)
		rules = abilities.DefaultRules()
	}
	ab := &abSetup{rules: rules}
	ab.house = houseAI(l, bad, func(name string, load func(any) error) (abplayers.Factory, error) {
		return abplayers.New(name, rules, load)
	})
	if err := errors.Join(*errs...); err != nil {
		return nil, err
	}
	// The listener log line prints the board from Width and Height.
	l.Width, l.Height = rules.Base.Board.Width(), rules.Base.Board.Height()
	return &setup{cfg: l, dialect: protocol.Classic, ab: ab}, nil
}

// abMatch is one abilities game between two seats (clients or the house
// AI), played by match.run; one goroutine runs it and owns everything in it.
type abMatch struct {
	fleetMatch
	ai [2]abplayers.Player
}

// newABMatch is the abilities game of the pairing m.
func newABMatch(m *match) *abMatch {
	return &abMatch{fleetMatch: fleetMatch{match: m, rules: m.st.ab.rules.Base}}
}

// play runs the handshake and the actions of the game (k is 1: one game
// per connection) and returns its result and its replay (nil when replays
// are off; partial, with outcome aborted, when the server stopped the
// game); end lines are sent by end. Each seat acts when the rules say
// (abilities.Game.ToAct): the attacker on its turn, the defender to answer
// a question; each is told its view of every action it may see.
func (m *abMatch) play(ctx context.Context, k int) (*Result, []byte) {
	rules := m.st.ab.rules
	res := m.newResult(k, DialectAbilities)
	log := m.log.With("game", res.Game)
	m.handshake(ctx, func(i int) []byte {
		return abwire.EncodeHello(abwire.Hello{Version: abwire.Version, Seat: i, Sides: rules.Sides, Options: rules.Options})
	}, func(i int) battleship.Placement {
		m.ai[i] = m.st.ab.house(rand.New(rand.NewPCG(res.Seed, uint64(i))), i)
		return m.ai[i].Place()
	})
	stopped := !m.seated(ctx, res)
	rec := newRecorder(m.match, log, func(w io.Writer, players [2]replay.SeatInfo) *abrecord.Writer {
		aw := abrecord.NewWriter(w, rules, abrecord.Header{Seed: res.Seed, First: res.First, Players: players})
		m.recordPlacements(aw)
		return aw
	})
	var g *abilities.Game
	shots := func() [2]int {
		if g == nil {
			return [2]int{}
		}
		return [2]int{g.Shots(0), g.Shots(1)}
	}
	replayBytes := func(forfeits []replay.Forfeit) []byte {
		return rec.finish(bsrecord.Result{Outcome: replayOutcome(res), Winner: res.Winner, Shots: shots(), Forfeits: forfeits})
	}
	if stopped {
		return m.abort(res, log, 0), replayBytes(nil)
	}
	if m.seats[0].fault != nil || m.seats[1].fault != nil {
		return res, replayBytes(m.placementFailed(res, log))
	}
	var err error
	if g, err = abilities.NewGame(rules, m.place[0], m.place[1], res.First); err != nil { // placements were validated: a server bug
		log.Error("start game", "err", err)
		return m.abort(res, log, 0), nil
	}
	feed := startFeed[abilities.Step](m.srv, res, abilities.NewPublicView(g))
	n := 0 // actions applied
	// shown is the game's action count as the result, the logs and the
	// spectators have it (Result.Actions): the actions applied but hidden
	// moves, plus the shots confirmed, so that it tells nothing hidden (a
	// spent false miss is one answer where an unspent one is a confirm).
	shown := 0
	forfeit := func(w int, err error, kind string) (*Result, []byte) {
		reason := m.forfeitLines(w, err, kind == replay.ForfeitIllegal, nil)
		return res, replayBytes(m.forfeited(res, log, shown, w, kind, reason, err))
	}
	actions := &moveReader[abilities.Action]{
		what:   "action",
		late:   fmt.Sprintf(" (no action within %v)", m.st.cfg.ActionTimeout(m.srv.cfg.Limits)),
		decode: func(line []byte) (abilities.Action, error) { return abwire.DecodeAction(line, rules) },
	}
	confirms := &moveReader[abilities.Action]{
		what:   "confirm answer",
		late:   actions.late,
		decode: actions.decode,
		quiet:  true,
	}
	// told[i]: seat i was sent a result line by the last action (or the
	// game is starting). A seat told nothing (the enemy of a hidden move,
	// the shooter while the defender weighs a false miss or air defence:
	// the rules hold its view back) gets no "waiting" either, so that the
	// lines it reads are those of a game without the move or the question.
	told := [2]bool{true, true}
	// The constant shape (docs/abilities.md): sched says which shots the
	// defender confirms, and moved is the seat whose move was the last
	// action (-1: none).
	sched := abwire.NewConfirms(rules)
	moved := -1
	for {
		if i, err := m.houseFault(); err != nil { // a house AI that panicked in Observe
			return forfeit(i, err, replay.ForfeitPanic)
		}
		mv := g.ToAct()
		actions.quiet = !told[1-mv]
		// After its own move a client sends its next action at once,
		// without "your turn" (protocol version 2): a hidden move costs
		// no round trip.
		actions.cont = moved == mv
		a, w, fault := takeTurn(m.match, mv, func() abilities.Action { return m.ai[mv].Act(g.Pending()) }, actions)
		if fault != nil {
			w, kind := m.turnFault(ctx, mv, w)
			if w < 0 { // the replay has every action played
				return m.abort(res, log, shown), replayBytes(nil)
			}
			return forfeit(w, fault, kind)
		}
		sched.Answered(g.Pending(), a)
		moved = -1
		if a.Kind == abilities.Move {
			moved = mv
		}
		st, err := g.Apply(a)
		n++
		if err != nil || a.Kind != abilities.Move || !st.Views[1-mv].Silent {
			shown++
		}
		m.srv.metrics.actions.Add(1)
		if rec != nil {
			rec.w.Action(n, mv, a, err != nil, nil)
		}
		if err != nil {
			return forfeit(mv, err, replay.ForfeitIllegal)
		}
		// A volley about to be told to its shooter: the defender confirms
		// the cells it was not asked about first.
		d, cells := sched.Told(st)
		for _, c := range cells {
			if r, b, ok := m.confirm(ctx, d, c, confirms, res, log, shown, forfeit, replayBytes); !ok {
				return r, b
			}
			shown++
		}
		feed.Step(shown, &st, nil) // after the confirms: shown counts nothing hidden
		for _, i := range [2]int{mv, 1 - mv} {
			m.tell(i, st.Views[i], wireOutcome(st.Status == game.Won, st.Winner, i))
			told[i] = !st.Views[i].Silent
		}
		if st.Status == game.Running {
			continue
		}
		gameOver(res, shown, g.Winner())
		return res, replayBytes(nil)
	}
}

// confirm has the client defender d confirm the shot at c (a confirm
// line, "your turn", ConfirmAnswer; nothing for the house AI) before the
// shooter is told it. ok is false when the game ended (a forfeit or a
// shutdown), with its result and replay.
func (m *abMatch) confirm(ctx context.Context, d int, c grid.Cell, r *moveReader[abilities.Action], res *Result, log *slog.Logger, n int,
	forfeit func(int, error, string) (*Result, []byte), replayBytes func([]replay.Forfeit) []byte) (*Result, []byte, bool) {
	if m.seats[d].c == nil {
		return nil, nil, true
	}
	m.send(d, abwire.EncodeConfirm(m.st.ab.rules, c))
	a, w, fault := takeTurn(m.match, d, func() abilities.Action { return abwire.ConfirmAnswer }, r)
	if fault == nil && (a.Kind != abwire.ConfirmAnswer.Kind || a.Use != abwire.ConfirmAnswer.Use) {
		line := abwire.EncodeAction(m.st.ab.rules, a)
		fault = protocol.NewProtocolError(line, fmt.Errorf("%w: a confirm is answered %s", protocol.ErrUnexpected,
			abwire.EncodeAction(m.st.ab.rules, abwire.ConfirmAnswer)))
	}
	if fault == nil {
		return nil, nil, true
	}
	if w < 0 {
		w = d
		if ctx.Err() != nil {
			res, b := m.abort(res, log, n), replayBytes(nil)
			return res, b, false
		}
	}
	// The rules have no question pending: to them the seat broke the
	// protocol while waiting.
	res, b := forfeit(w, fault, replay.ForfeitWaiting)
	return res, b, false
}

// tell gives seat i its view ev of the last action: a result line, or an
// Observe call for the house AI; nothing for a silent view.
func (m *abMatch) tell(i int, ev abilities.Event, outcome int) {
	if ev.Silent {
		return
	}
	s := m.seats[i]
	if s.c == nil {
		if err := protect(func() { m.ai[i].Observe(ev) }); err != nil {
			s.fault = err
		}
		return
	}
	m.send(i, abwire.EncodeEvent(m.st.ab.rules, ev, outcome))
}
