package conformance

import (
	"fmt"
	"math/rand/v2"

	"github.com/kaisen-ai/kaisen/game"
)

// Where a faulty player fails.
const (
	inPlace   = "Place"
	inAct     = "Act"
	inObserve = "Observe"
	inIllegal = "illegal" // Act returns an illegal action
)

// faulty is a player that fails once, at its first call of where: it
// panics, or (inIllegal) plays illegal instead of its first action.
type faulty[P, A, O any] struct {
	game.Player[P, A, O]
	where   string
	illegal A
	fired   bool
}

func (f *faulty[P, A, O]) fail(where string) bool {
	if f.where != where || f.fired {
		return false
	}
	f.fired = true
	return true
}

func (f *faulty[P, A, O]) Place() P {
	if f.fail(inPlace) {
		panic("conformance: a panic in Place")
	}
	return f.Player.Place()
}

func (f *faulty[P, A, O]) Act() A {
	if f.fail(inAct) {
		panic("conformance: a panic in Act")
	}
	if f.fail(inIllegal) {
		return f.illegal
	}
	return f.Player.Act()
}

func (f *faulty[P, A, O]) Observe(o O) {
	if f.fail(inObserve) {
		panic("conformance: a panic in Observe")
	}
	f.Player.Observe(o)
}

// Unwrap implements game.Wrapper.
func (f *faulty[P, A, O]) Unwrap() any { return f.Player }

// faultyGame plays the opponent against itself, the player of seat failing
// as where says (seat acting first, so that it acts), and checks that seat
// forfeited with kind. It returns the table, to play on.
func (c *suite[R, G, P, A, S, O]) faultyGame(t T, tab *game.Table[G, P, A, S, O], k, seat int, where, kind string, illegal A) {
	t.Helper()
	opp := c.opponent().Factory
	var made *faulty[P, A, O]
	f := [2]game.Factory[P, A, O]{opp, opp}
	f[seat] = func(rng *rand.Rand, s int) game.Player[P, A, O] {
		made = &faulty[P, A, O]{Player: opp(rng, s), where: where, illegal: illegal}
		return made
	}
	res := tab.Play(&game.Setup[P, A, S, O]{Factories: f, Rands: c.rngs(3, seat, k), First: seat})
	name := fmt.Sprintf("%s: seat %d failing in %s", c.s.Name, seat, where)
	if made == nil || !made.fired {
		t.Errorf("%s: the failure was never reached (%+v)", name, res)
		return
	}
	want := game.Forfeit{Kind: kind}
	if res.Forfeits[seat].Kind != want.Kind || res.Forfeits[seat].Reason == "" || res.Forfeits[1-seat].Kind != "" || res.Winner != 1-seat {
		t.Errorf("%s: result %+v; want seat %d to forfeit (%s) and lose", name, res, seat, kind)
	}
	if started := where != inPlace; res.Started != started {
		t.Errorf("%s: started %v, want %v", name, res.Started, started)
	}
	if g := tab.Game(); where != inPlace && (g.Status() != game.Won || g.Winner() != 1-seat) {
		t.Errorf("%s: the game ends %s", name, state(g))
	}
}

// illegalForfeits checks that each illegal action forfeits its actor, in
// either seat.
func (c *suite[R, G, P, A, S, O]) illegalForfeits(t T) {
	w := &watched[G, P, A, S, O]{Rules: c.s.Rules, t: t, name: c.s.Name}
	tab := game.NewTable[G](w, nil)
	for k, a := range c.s.Illegal {
		for seat := range 2 {
			c.faultyGame(t, tab, k, seat, inIllegal, game.ForfeitIllegal, a)
		}
	}
}

// panicForfeits checks that a player panicking in Place, Act or Observe
// forfeits, in either seat, and that the table then plays the next game as
// a fresh one does.
func (c *suite[R, G, P, A, S, O]) panicForfeits(t T) {
	w := &watched[G, P, A, S, O]{Rules: c.s.Rules, t: t, name: c.s.Name}
	tab := game.NewTable[G](w, nil)
	var zero A
	for k, where := range []string{inPlace, inAct, inObserve} {
		for seat := range 2 {
			c.faultyGame(t, tab, k, seat, where, game.ForfeitPanic, zero)
		}
	}
	opp := c.opponent().Factory
	setup := func() *game.Setup[P, A, S, O] {
		return &game.Setup[P, A, S, O]{Factories: [2]game.Factory[P, A, O]{opp, opp}, Rands: c.rngs(4, 0, 0)}
	}
	after := tab.Play(setup())
	fresh := game.NewTable[G](c.s.Rules, nil).Play(setup())
	if canon(after) != canon(fresh) {
		t.Errorf("%s: after the panics the table played %+v, a fresh one %+v", c.s.Name, after, fresh)
	}
}
