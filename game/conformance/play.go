package conformance

import (
	"fmt"
	"math/rand/v2"

	"github.com/kaisen-ai/kaisen/explain"
	"github.com/kaisen-ai/kaisen/game"
)

// watched are the subject's rules with the invariants checked at every
// call the table makes: after each action (Tell is called for the actor,
// then for the other seat) the state must be sane and Tell a pure function
// of the step. Its findings go to t (the table runs in t's goroutine).
type watched[G game.State[A, S], P, A, S, O any] struct {
	game.Rules[G, P, A, S, O]
	t     T
	name  string
	calls int // Tell calls in the game
}

func (w *watched[G, P, A, S, O]) Start(pl [2]P, first int) (G, error) {
	w.calls = 0
	g, err := w.Rules.Start(pl, first)
	if err == nil && (g.Status() != game.Running || g.Winner() != -1 || g.ToAct() != first) {
		w.t.Errorf("%s: a new game is %v, winner %d, seat %d to act; want running, -1, the first seat %d", w.name, g.Status(), g.Winner(), g.ToAct(), first)
	}
	return g, err
}

func (w *watched[G, P, A, S, O]) Tell(g G, st *S, err error, seat int, o *O) bool {
	w.calls++
	actor := w.calls%2 == 1
	before := state(g)
	var o1, o2 O
	ok1 := w.Rules.Tell(g, st, err, seat, &o1)
	j1 := canon(o1)
	ok2 := w.Rules.Tell(g, st, err, seat, &o2)
	if ok1 != ok2 || (ok1 && j1 != canon(o2)) {
		w.t.Errorf("%s: action %d: Tell(seat %d) told %v %s, then %v %s", w.name, (w.calls+1)/2, seat, ok1, j1, ok2, canon(o2))
	}
	ok := w.Rules.Tell(g, st, err, seat, o)
	if ok != ok1 || (ok && canon(*o) != j1) {
		w.t.Errorf("%s: action %d: Tell(seat %d) into the host's buffer differs from a fresh one", w.name, (w.calls+1)/2, seat)
	}
	if after := state(g); after != before {
		w.t.Errorf("%s: action %d: Tell changed the game: %s -> %s", w.name, (w.calls+1)/2, before, after)
	}
	if msg := sane(g); msg != "" {
		w.t.Errorf("%s: after action %d: %s", w.name, (w.calls+1)/2, msg)
	}
	if actor && err != nil && (g.Status() != game.Won || g.Winner() != 1-seat) {
		w.t.Errorf("%s: action %d: seat %d acted illegally (%v), yet the game is %v, winner %d", w.name, (w.calls+1)/2, seat, err, g.Status(), g.Winner())
	}
	return ok
}

// state is how g stands, in words.
func state[G game.State[A, S], A, S any](g G) string {
	return fmt.Sprintf("%v, winner %d, seat %d to act", g.Status(), g.Winner(), g.ToAct())
}

// sane says what is wrong with how g stands ("" = nothing).
func sane[G game.State[A, S], A, S any](g G) string {
	switch st, w := g.Status(), g.Winner(); {
	case st == game.Running && (g.ToAct() < 0 || g.ToAct() > 1):
		return fmt.Sprintf("seat %d to act", g.ToAct())
	case st == game.Won && w != 0 && w != 1:
		return fmt.Sprintf("won, but winner %d", w)
	case (st == game.Running || st == game.Drawn) && w != -1:
		return fmt.Sprintf("%v, but winner %d", st, w)
	case st > game.Drawn:
		return fmt.Sprintf("status %d", st)
	}
	return ""
}

// transcript is one game as a table played it, as bytes: what the
// determinism checks compare.
type transcript[P, A, S any] struct {
	lines     []string
	decisions [][]byte // per action: the actor's Decision (nil: none)
	order     []string // the recorder calls, for the call-order check
}

func (r *transcript[P, A, S]) Placement(seat int, p P, ok bool) {
	r.order = append(r.order, fmt.Sprintf("placement %d", seat))
	r.lines = append(r.lines, fmt.Sprintf("place %d %v %s", seat, ok, canon(p)))
}

func (r *transcript[P, A, S]) Action(n, seat int, a A, st *S, err error, d *explain.Decision) {
	r.order = append(r.order, fmt.Sprintf("action %d", n))
	r.lines = append(r.lines, fmt.Sprintf("act %d seat %d %s -> %s err %v", n, seat, canon(a), canon(*st), err != nil))
	var dj []byte
	if d != nil {
		dj = []byte(canon(*d))
	}
	r.decisions = append(r.decisions, dj)
}

func (r *transcript[P, A, S]) Result(res *game.Result) {
	r.order = append(r.order, "result")
	r.lines = append(r.lines, fmt.Sprintf("result %s", canon(*res)))
}

// Flush implements arena.Recorder.
func (r *transcript[P, A, S]) Flush() error { return nil }

// play plays one game through game.Table under the watched rules and
// returns its result, its final state and its transcript.
func (c *suite[R, G, P, A, S, O]) play(t T, f [2]game.Factory[P, A, O], rngs [2]*rand.Rand, first int, explain bool) (game.Result, G, *transcript[P, A, S]) {
	w := &watched[G, P, A, S, O]{Rules: c.s.Rules, t: t, name: c.s.Name}
	tab := game.NewTable[G](w, nil)
	rec := &transcript[P, A, S]{}
	res := tab.Play(&game.Setup[P, A, S, O]{Factories: f, Rands: rngs, First: first, Record: rec, Explain: explain})
	return res, tab.Game(), rec
}

// randomPlay plays every AI against the opponent, seats alternating:
// invariants and results, and the first game twice for determinism.
func (c *suite[R, G, P, A, S, O]) randomPlay(t T) {
	opp := c.opponent().Factory
	for i, ai := range c.s.AIs {
		for k := range c.games() {
			seat := k % 2
			f := c.seated(ai, seat, opp)
			name := fmt.Sprintf("%s: %s in seat %d, game %d", c.s.Name, ai.Name, seat, k)
			res, g, rec := c.play(t, f, c.rngs(1, i, k), c.first(k), false)
			checkResult(t, name, res, g, len(rec.decisions))
			if k > 0 {
				continue // the first game is played twice
			}
			again, _, rec2 := c.play(t, f, c.rngs(1, i, k), c.first(k), false)
			if canon(res) != canon(again) || !equalLines(rec.lines, rec2.lines) {
				t.Errorf("%s: the same seeds gave another game:\n%s", name, diff(rec.lines, rec2.lines))
			}
			if _, ref := ai.Factory(rand.New(rand.NewPCG(0, 0)), seat).(game.RefObserver[O]); ref {
				f[seat] = byValue(ai.Factory)
				_, _, rec3 := c.play(t, f, c.rngs(1, i, k), c.first(k), false)
				if !equalLines(rec.lines, rec3.lines) {
					t.Errorf("%s: told by value (Observe), not by reference (ObserveRef), it played another game:\n%s", name, diff(rec.lines, rec3.lines))
				}
			}
		}
	}
}

// checkResult checks the result of a game between built-in AIs that
// applied n actions and ended as g.
func checkResult[G game.State[A, S], A, S any](t T, name string, res game.Result, g G, n int) {
	t.Helper()
	if res.Forfeited() {
		t.Errorf("%s: a built-in AI forfeited: %+v", name, res.Forfeits)
	}
	if !res.Started || g.Status() == game.Running {
		t.Errorf("%s: started %v, status %v after the game", name, res.Started, g.Status())
		return
	}
	if res.Winner != g.Winner() || (g.Status() == game.Drawn) != (res.Winner == -1) {
		t.Errorf("%s: result winner %d, game %v winner %d", name, res.Winner, g.Status(), g.Winner())
	}
	if res.Actions < 1 || res.Actions > n || res.Shots[0] < 0 || res.Shots[1] < 0 {
		t.Errorf("%s: count %+v after %d actions", name, res.Count, n)
	}
}

func equalLines(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// diff shows where two transcripts part.
func diff(a, b []string) string {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return fmt.Sprintf("line %d:\n  %s\n  %s", i, a[i], b[i])
		}
	}
	return fmt.Sprintf("%d lines, then %d", len(a), len(b))
}

// valueSeat hides a player's ObserveRef (game.RefObserver): a table tells
// it by value.
type valueSeat[P, A, O any] struct{ game.Player[P, A, O] }

// Unwrap implements game.Wrapper.
func (v valueSeat[P, A, O]) Unwrap() any { return v.Player }

// byValue is f with its players told by value.
func byValue[P, A, O any](f game.Factory[P, A, O]) game.Factory[P, A, O] {
	return func(rng *rand.Rand, seat int) game.Player[P, A, O] { return valueSeat[P, A, O]{f(rng, seat)} }
}
