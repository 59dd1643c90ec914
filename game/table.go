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
	// Adjudicated is why Setup.Adjudicate ended the running game as a
	// draw ("" when the game ended by the rules or a forfeit).
	Adjudicated string
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
	// Result records how the game ended; r is only valid during the call
	// (the Table reuses it).
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
	// Adjudicate, when set, is asked after every action n (from 1) that
	// leaves the game running, with its step, once the players were told
	// of it: a non-empty answer ends the game there as a draw, the answer
	// being the reason (Result.Adjudicated). Research runs only (kaisen
	// match --adjudicate, --max-actions): no served game is adjudicated.
	Adjudicate func(n int, st *S) string
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
	step  S // the last step (a field, not a local: pointers to it are handed on)
	game  G
	res   Result // the result of the game under way (a field, as step)
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
		res  = &t.res // a field, not a local: it is handed to the recorder
	)
	*res = Result{Winner: -1}
	t.game = zero
	for seat := range 2 {
		ok := t.guard(seat, res, func() { p[seat] = s.Factories[seat](s.Rands[seat], seat); pl[seat] = p[seat].Place() })
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
		return t.finish(s, res)
	}
	g, err := t.rules.Start(pl, s.First)
	if err != nil { // the placements were validated above
		panic(fmt.Sprintf("game: start: %v", err))
	}
	t.game = g
	n := t.loop(g, s, &p, res)
	res.Started, res.Winner, res.Count = true, g.Winner(), t.rules.Count(g, n)
	return t.finish(s, res)
}

// loop plays g to its end and returns the actions applied. Any panic of
// a player ends the loop (one deferred recover for the whole game, so that
// the action loop allocates nothing): while the game runs it forfeits the
// seat whose code panicked; after the game's end it is logged and the
// result stands.
func (t *Table[G, P, A, S, O]) loop(g G, s *Setup[P, A, S, O], p *[2]Player[P, A, O], res *Result) (n int) {
	var (
		ex  [2]explain.Explainer
		ref [2]RefObserver[O] // the players told by reference
	)
	into, _ := any(g).(StepInto[A, S])
	for seat := range 2 {
		ref[seat], _ = p[seat].(RefObserver[O])
		if s.Explain && s.Record != nil {
			ex[seat], _ = As[explain.Explainer](p[seat])
		}
	}
	cur := -1 // the seat whose code runs
	defer func() {
		v := recover()
		if v == nil {
			return
		}
		msg := PanicText(v)
		t.log.Debug("player panicked", "seat", cur, "panic", msg, "stack", string(debug.Stack()))
		if g.Status() != Running {
			t.log.Warn("player panicked after the game ended; the result stands", "seat", cur, "panic", msg)
			return
		}
		res.Forfeits[cur] = Forfeit{Kind: ForfeitPanic, Reason: "panic: " + msg}
		g.Forfeit(cur)
	}()
	for g.Status() == Running {
		seat := g.ToAct()
		cur = seat
		a := p[seat].Act()
		var d *explain.Decision
		if ex[seat] != nil {
			v := explain.Full(ex[seat])
			d = &v
		}
		var err error
		if into != nil {
			err = into.ApplyInto(a, &t.step)
		} else {
			t.step, err = g.Apply(a)
		}
		st := &t.step
		n++
		if err != nil {
			res.Forfeits[seat] = Forfeit{Kind: ForfeitIllegal, Reason: err.Error()}
			g.Forfeit(seat)
		}
		cur = -1
		if s.Record != nil {
			s.Record.Action(n, seat, a, st, err, d)
		}
		// The actor is told first, then the other seat (written out twice:
		// a loop over the two seats costs more than the telling).
		if t.rules.Tell(g, st, err, seat, &t.told) {
			cur = seat
			if ref[seat] != nil {
				ref[seat].ObserveRef(&t.told)
			} else {
				p[seat].Observe(t.told)
			}
		}
		if other := 1 - seat; t.rules.Tell(g, st, err, other, &t.told) {
			cur = other
			if ref[other] != nil {
				ref[other].ObserveRef(&t.told)
			} else {
				p[other].Observe(t.told)
			}
		}
		if s.Adjudicate != nil && g.Status() == Running {
			if why := s.Adjudicate(n, st); why != "" {
				res.Adjudicated = why
				return n
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
