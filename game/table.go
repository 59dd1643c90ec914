package game

import (
	"fmt"
	"log/slog"
	"math/rand/v2"
	"runtime/debug"

	"github.com/kaisen-ai/kaisen/explain"
)

// Forfeit kinds: why a seat lost outside the run of play (a replay's
// forfeit "kind").
const (
	ForfeitIllegal   = "illegal"   // an illegal action
	ForfeitPanic     = "panic"     // the player's code panicked
	ForfeitPlacement = "placement" // an invalid placement
)

// Forfeit says how one seat forfeited: Kind is "" for a seat that did not.
type Forfeit struct {
	Kind   string // ForfeitIllegal, ForfeitPanic or ForfeitPlacement
	Reason string // why, in words
}

// Result is one game as a Table played it.
type Result struct {
	Winner   int // the winning seat, -1 on a draw
	Count        // actions and shots (Rules.Count; zero when the game never started)
	Forfeits [2]Forfeit
	// Started: both placements were valid and the game was played (false:
	// a walkover, decided by the forfeits of the placement phase).
	Started bool
}

// Forfeited reports whether a seat forfeited.
func (r *Result) Forfeited() bool { return r.Forfeits[0].Kind != "" || r.Forfeits[1].Kind != "" }

// Recorder takes down one game as a Table plays it (a replay writer, an
// auditor). Its methods are called in this order: Placement for seat 0 and
// seat 1, Action for every action applied, Result once.
type Recorder[P, A, S any] interface {
	// Placement records seat's placement; ok is false when the seat's
	// player panicked before placing (p is then zero). An invalid p is
	// recorded too (ok true), and the game then never starts.
	Placement(seat int, p P, ok bool)
	// Action records the n-th action applied (from 1): a by seat, the step
	// Apply returned and its error (an illegal action), and the actor's
	// decision (nil unless explanations were asked and the actor is an
	// explain.Explainer).
	Action(n, seat int, a A, st *S, err error, d *explain.Decision)
	// Result records how the game ended.
	Result(r *Result)
}

// Setup is one game for Table.Play.
type Setup[P, A, S, O any] struct {
	// Factories make seat 0's and seat 1's players; each is called once,
	// with the seat's stream Rands[s].
	Factories [2]Factory[P, A, O]
	Rands     [2]*rand.Rand
	First     int               // the seat that acts first
	Record    Recorder[P, A, S] // nil: none
	Explain   bool              // ask the actor's Decision before each action (explain.Explainer)
}

// Table plays games of one game, one after another, with panic guards: a
// player whose code panics, places invalidly or acts illegally forfeits,
// and the game's Result says so. It reuses its buffers from one game to the
// next, and its action loop allocates nothing of its own. It is not safe
// for concurrent use.
type Table[G State[A, S], P, A, S, O any] struct {
	rules Rules[G, P, A, S, O]
	log   *slog.Logger
	told  O
	game  G
}

// NewTable returns a Table for rules; a panicking player's stack is logged
// to log at debug level (nil: discarded).
func NewTable[G State[A, S], P, A, S, O any](rules Rules[G, P, A, S, O], log *slog.Logger) *Table[G, P, A, S, O] {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Table[G, P, A, S, O]{rules: rules, log: log}
}

// Game is the state of the last game played (the zero G when it never
// started); it is valid until the next Play.
func (t *Table[G, P, A, S, O]) Game() G { return t.game }

// Play plays one game and returns its result; the players are made anew
// by the setup's factories (a host that keeps Learners across a series
// passes factories that return the kept ones). Seats that could not place
// (a panic or an invalid placement) lose without a game: one of them, the
// other wins; both, a draw.
func (t *Table[G, P, A, S, O]) Play(s *Setup[P, A, S, O]) Result {
	var (
		zero G
		p    [2]Player[P, A, O]
		pl   [2]P
		res  = Result{Winner: -1}
	)
	t.game = zero
	for seat := range 2 {
		ok := t.guard(seat, &res, func() { p[seat] = s.Factories[seat](s.Rands[seat], seat); pl[seat] = p[seat].Place() })
		if !ok {
			var none P
			pl[seat] = none
		} else if err := t.rules.ValidatePlacement(pl[seat]); err != nil {
			res.Forfeits[seat] = Forfeit{Kind: ForfeitPlacement, Reason: err.Error()}
		}
		if s.Record != nil {
			s.Record.Placement(seat, pl[seat], ok)
		}
	}
	if res.Forfeited() {
		switch {
		case res.Forfeits[0].Kind != "" && res.Forfeits[1].Kind != "":
			res.Winner = -1
		case res.Forfeits[0].Kind != "":
			res.Winner = 1
		default:
			res.Winner = 0
		}
		return t.finish(s, &res)
	}
	g, err := t.rules.Start(pl, s.First)
	if err != nil { // the placements were validated above
		panic(fmt.Sprintf("game: start: %v", err))
	}
	t.game = g
	n := t.loop(g, s, &p, &res)
	res.Started, res.Winner, res.Count = true, g.Winner(), t.rules.Count(g, n)
	return t.finish(s, &res)
}

// loop plays g to its end and returns the actions applied.
func (t *Table[G, P, A, S, O]) loop(g G, s *Setup[P, A, S, O], p *[2]Player[P, A, O], res *Result) int {
	var ex [2]explain.Explainer
	if s.Explain && s.Record != nil {
		for seat := range 2 {
			ex[seat], _ = As[explain.Explainer](p[seat])
		}
	}
	n := 0
	for g.Status() == Running {
		seat := g.ToAct()
		var a A
		if !t.guard(seat, res, func() { a = p[seat].Act() }) {
			g.Forfeit(seat)
			break
		}
		var d *explain.Decision
		if ex[seat] != nil {
			if !t.guard(seat, res, func() { v := explain.Full(ex[seat]); d = &v }) {
				g.Forfeit(seat)
				break
			}
		}
		st, err := g.Apply(a)
		n++
		if err != nil {
			res.Forfeits[seat] = Forfeit{Kind: ForfeitIllegal, Reason: err.Error()}
			g.Forfeit(seat)
		}
		if s.Record != nil {
			s.Record.Action(n, seat, a, &st, err, d)
		}
		for _, v := range [2]int{seat, 1 - seat} {
			if !t.rules.Tell(g, &st, err, v, &t.told) {
				continue
			}
			var kept Result
			if !t.guard(v, &kept, func() { p[v].Observe(t.told) }) {
				if g.Status() == Running {
					res.Forfeits[v] = kept.Forfeits[v]
					g.Forfeit(v)
				} else {
					t.log.Warn("player panicked after the game ended; the result stands", "seat", v, "panic", kept.Forfeits[v].Reason)
				}
				break
			}
		}
	}
	return n
}

// finish records the result.
func (t *Table[G, P, A, S, O]) finish(s *Setup[P, A, S, O], res *Result) Result {
	if s.Record != nil {
		s.Record.Result(res)
	}
	return *res
}

// guard runs f for seat and reports whether it returned normally; a panic
// is logged with its stack (debug level) and recorded as seat's forfeit in
// res.
func (t *Table[G, P, A, S, O]) guard(seat int, res *Result, f func()) (ok bool) {
	defer func() {
		if v := recover(); v != nil {
			msg := PanicText(v)
			t.log.Debug("player panicked", "seat", seat, "panic", msg, "stack", string(debug.Stack()))
			res.Forfeits[seat] = Forfeit{Kind: ForfeitPanic, Reason: "panic: " + msg}
			ok = false
		}
	}()
	f()
	return true
}

// PanicText is the message of a recovered panic value v, never empty (an
// empty message would read as no panic at all).
func PanicText(v any) string {
	if msg := fmt.Sprint(v); msg != "" {
		return msg
	}
	return "(empty panic value)"
}
