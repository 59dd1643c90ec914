package arena

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"runtime/debug"

	"github.com/kaisen-ai/kaisen/explain"
	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/replay"
)

// One table for every game: gameTable plays a family's deals on the game
// contract (game.Table), seats P1 and P2 for the deal, keeps the Learners of
// a series, records the replay and turns the contract's result into a
// GameResult. A family supplies its rules, factories and replay writer
// (tableSpec); nothing else differs between games.

// recorder and recordHeader are the table's names of Recorder and
// RecordHeader.
type (
	recorder[P, A, S any] = Recorder[P, A, S]
	recordHeader          = RecordHeader
)

// tableSpec is what a family gives the one table.
type tableSpec[G game.State[A, S], P, A, S, O any] struct {
	rules game.Rules[G, P, A, S, O]
	names [2]string                // P1's and P2's
	f     [2]game.Factory[P, A, O] // P1's and P2's
	// first is the seat that acts first in deal d (nil: seat 0).
	first func(d Deal) int
	// record starts the replay of a deal on w: the game's record format
	// (game/<g>/record.NewRecorder).
	record func(w io.Writer, h recordHeader) recorder[P, A, S]
	// after, when set, runs once a deal is played, with its recorder's
	// view of the game (the submarine audit); its error is Play's.
	after func(d Deal, res *GameResult) error
	// tap, when set, returns a recorder that also sees every deal (the
	// submarine audit), nil for a deal it does not want.
	tap func(d Deal) game.Recorder[P, A, S]
	// judge, when set, makes the game's draw adjudication after k quiet
	// actions (Deal.Adjudicate's Draw; the submarine game's, package
	// adjudicate); nil: the game has none.
	judge func(k int) (replay.DrawJudge[G, S], error)
}

// gameTable is the Table of every family.
type gameTable[G game.State[A, S], P, A, S, O any] struct {
	seatRands
	spec tableSpec[G, P, A, S, O]
	t    *game.Table[G, P, A, S, O]
	keep keeper
	res  GameResult // the result of the deal under way (a field: it is handed on)
	// judge is the draw adjudication of the deals that ask for one (made
	// on the first, kept while their Draw stays the same); judgeErr the
	// first error it met in the deal under way.
	judge    replay.DrawJudge[G, S]
	judgeK   int
	judgeErr error
}

func newGameTable[G game.State[A, S], P, A, S, O any](spec tableSpec[G, P, A, S, O], log *slog.Logger) *gameTable[G, P, A, S, O] {
	t := &gameTable[G, P, A, S, O]{spec: spec}
	t.init(log)
	t.t = game.NewTable(spec.rules, t.log)
	return t
}

// Play implements Table.
func (t *gameTable[G, P, A, S, O]) Play(d Deal) (GameResult, error) {
	sp := &t.spec
	f, seats := seatPlayers(d, sp.names[0], sp.names[1], keep(&t.keep, d, 0, sp.f[0]), keep(&t.keep, d, 1, sp.f[1]))
	setup := game.Setup[P, A, S, O]{Factories: f}
	if sp.first != nil {
		setup.First = sp.first(d)
	}
	for s := range 2 {
		t.reseed(d.Seed, s)
		setup.Rands[s] = t.rng[s]
	}
	if d.Adjudicate.On() {
		adj, err := t.adjudicator(d.Adjudicate)
		if err != nil {
			return GameResult{Index: d.Index, Seed: d.Seed, P1Seat: d.P1Seat, Winner: -1}, err
		}
		setup.Adjudicate = adj
	}
	var rec recorder[P, A, S]
	if d.Replay != nil {
		rec = sp.record(d.Replay, recordHeader{Seed: d.Seed, Match: d.matchRef(), Players: seats, First: setup.First,
			Adjudication: d.Adjudicate})
		setup.Explain = d.Explain
	}
	var tap game.Recorder[P, A, S]
	if sp.tap != nil {
		tap = sp.tap(d)
	}
	switch {
	case rec != nil && tap != nil:
		setup.Record = tee[P, A, S]{rec, tap}
	case rec != nil:
		setup.Record = rec
	case tap != nil:
		setup.Record = tap
	}
	r := t.t.Play(&setup)
	res := &t.res
	*res = gameResult(d, &r)
	if t.judgeErr != nil {
		return *res, fmt.Errorf("arena: game %d: %w", d.Index, t.judgeErr)
	}
	t.keep.end(&t.seatRands, d, res)
	if sp.after != nil {
		if err := sp.after(d, res); err != nil {
			return *res, err
		}
	}
	if rec != nil {
		return *res, rec.Flush()
	}
	return *res, nil
}

// adjudicator is the game.Setup.Adjudicate of a deal adjudicated as a
// says: the draw judge (reset for the deal) asked after every action when
// a.Draw is set, then the cap, as replay.Adjudication.Adjudge decides.
func (t *gameTable[G, P, A, S, O]) adjudicator(a *replay.Adjudication) (func(n int, st *S) string, error) {
	t.judgeErr = nil
	var judge replay.DrawJudge[G, S]
	if a.Draw > 0 {
		if t.spec.judge == nil {
			return nil, errors.New("arena: this game has no draw adjudication")
		}
		if t.judge == nil || t.judgeK != a.Draw {
			j, err := t.spec.judge(a.Draw)
			if err != nil {
				return nil, fmt.Errorf("arena: %w", err)
			}
			t.judge, t.judgeK = j, a.Draw
		}
		judge = t.judge
		judge.Reset()
	}
	return func(n int, st *S) string {
		draw := false
		if judge != nil && t.judgeErr == nil {
			var err error
			if draw, err = judge.Step(t.t.Game(), st); err != nil {
				t.judgeErr = err
				draw = false
			}
		}
		return a.Adjudge(n, draw)
	}, nil
}

// gameResult is deal d's GameResult of the contract's result r.
func gameResult(d Deal, r *game.Result) GameResult {
	res := GameResult{Index: d.Index, Seed: d.Seed, P1Seat: d.P1Seat, Winner: r.Winner, Actions: r.Actions, Shots: r.Shots,
		Adjudicated: r.Adjudicated}
	var reason [2]string
	for s := range 2 {
		res.Forfeit[s] = r.Forfeits[s].Kind != ""
		reason[s] = r.Forfeits[s].Reason
	}
	res.Reason = joinReasons(reason)
	return res
}

// tee records to two recorders.
type tee[P, A, S any] [2]game.Recorder[P, A, S]

func (t tee[P, A, S]) Placement(seat int, p P, ok bool) {
	t[0].Placement(seat, p, ok)
	t[1].Placement(seat, p, ok)
}

func (t tee[P, A, S]) Action(n, seat int, a A, st *S, err error, d *explain.Decision) {
	t[0].Action(n, seat, a, st, err, d)
	t[1].Action(n, seat, a, st, err, d)
}

func (t tee[P, A, S]) Result(r *game.Result) {
	t[0].Result(r)
	t[1].Result(r)
}

// seatRands are a table's log (a panicking player's stack goes there) and
// the two players' random streams, reseeded for every game. It must not be
// copied after init.
type seatRands struct {
	log *slog.Logger
	pcg [2]rand.PCG
	rng [2]*rand.Rand
}

// init sets the log (nil: discard) and the streams.
func (t *seatRands) init(log *slog.Logger) {
	t.log = orDiscard(log)
	for s := range 2 {
		t.rng[s] = rand.New(&t.pcg[s])
	}
}

// reseed starts rng[s] as SeatRand(seed, s).
func (t *seatRands) reseed(seed uint64, s int) {
	t.pcg[s].Seed(seed, seatStream(s))
}

// guard runs f for seat, turning a panic into a message (logged with its
// stack at debug level); "" when f returned normally.
func (t *seatRands) guard(seat int, f func()) (panicMsg string) {
	defer func() {
		if v := recover(); v != nil {
			panicMsg = game.PanicText(v)
			t.log.Debug("player panicked", "seat", seat, "panic", panicMsg, "stack", string(debug.Stack()))
		}
	}()
	f()
	return ""
}

// orDiscard is log, or a logger that discards everything when log is nil.
func orDiscard(log *slog.Logger) *slog.Logger {
	if log == nil {
		return slog.New(slog.DiscardHandler)
	}
	return log
}

// validateFamily checks a family of game: its rules, and that both players
// have a factory (factories).
func validateFamily[R interface {
	*T
	Validate() error
}, T any](game string, rules R, factories bool) error {
	var errs []error
	if rules == nil {
		errs = append(errs, errors.New("arena: "+game+": no rules"))
	} else if err := rules.Validate(); err != nil {
		errs = append(errs, fmt.Errorf("arena: %s: %w", game, err))
	}
	if !factories {
		errs = append(errs, errors.New("arena: "+game+": a player has no factory"))
	}
	return errors.Join(errs...)
}

// seatPlayers puts P1 (named n1, made by f1) and P2 (n2, f2) in their seats
// for deal d: the factories by seat and the replay header's players.
func seatPlayers[F any](d Deal, n1, n2 string, f1, f2 F) ([2]F, [2]replay.SeatInfo) {
	f := [2]F{f1, f2}
	seats := [2]replay.SeatInfo{{Seat: 0, Name: n1, Role: "p1"}, {Seat: 1, Name: n2, Role: "p2"}}
	if d.P1Seat == 1 {
		f[0], f[1] = f[1], f[0]
		seats[0], seats[1] = seats[1], seats[0]
		seats[0].Seat, seats[1].Seat = 0, 1
	}
	return f, seats
}

// matchRef is the game's place in its match, for the replay header.
func (d Deal) matchRef() *replay.MatchRef {
	return &replay.MatchRef{Seed: d.MatchSeed, Index: d.Index, Series: d.Series}
}

func joinReasons(reason [2]string) string {
	switch {
	case reason[0] != "" && reason[1] != "":
		return "seat 0: " + reason[0] + "; seat 1: " + reason[1]
	case reason[0] != "":
		return reason[0]
	default:
		return reason[1]
	}
}
