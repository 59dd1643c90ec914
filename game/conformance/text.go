package conformance

import (
	"fmt"
	"math/rand/v2"

	"github.com/kaisen-ai/kaisen/game"
)

// Typed is a seat's typed text of a game: what the text check needs of a
// terminal seat's Text (internal/human.Text has these methods). Place reads
// a typed placement, Tell is told what the seat is told, PlaceLine and
// Line say a placement and an action as a person types them, and Parse
// reads an action line back without checking it or changing the text.
type Typed[P, A, O any] interface {
	Place(line string, eof bool) (P, bool)
	Tell(o O) string
	PlaceLine(p P) string
	Line(a A) string
	Parse(line string) (A, error)
}

// text plays random legal games with a typed text in each seat, told what
// the seat is told: every placement read back from its typed form is the
// placement, and so is every legal action of the seat to act.
func (c *suite[R, G, P, A, S, O]) text(t T) {
	if c.s.Text == nil {
		t.Logf("%s: no typed text (Subject.Text): nothing to check", c.s.Name)
		return
	}
	l, ok := c.legal(t)
	if !ok {
		return
	}
	for k := range c.games() {
		rngs := c.rngs(3, 0, k)
		var (
			pl [2]P
			tx [2]Typed[P, A, O]
		)
		for s := range 2 {
			pl[s] = c.opponent().Factory(rngs[s], s).Place()
			tx[s] = c.s.Text(s, rngs[s])
			line := tx[s].PlaceLine(pl[s])
			if got, ok := tx[s].Place(line, false); !ok || canon(got) != canon(pl[s]) {
				t.Errorf("%s: seat %d's placement %s typed %q reads back as %s (taken: %v)", c.s.Name, s, canon(pl[s]), line, canon(got), ok)
				return
			}
		}
		g, err := c.s.Rules.Start(pl, c.first(k))
		if err != nil {
			t.Fatalf("%s: the opponent's placements do not start a game: %v", c.s.Name, err)
		}
		if !c.typeGame(t, fmt.Sprintf("%s: typed game %d", c.s.Name, k), l, g, tx, rngs[0]) {
			return
		}
	}
}

// typeGame plays g to its end by random legal actions drawn from rng,
// checking at every position that each legal action reads back from its
// typed form, and telling both texts every step. It reports whether every
// check held.
func (c *suite[R, G, P, A, S, O]) typeGame(t T, name string, l game.Legal[G, A], g G, tx [2]Typed[P, A, O], rng *rand.Rand) bool {
	t.Helper()
	for n := 0; g.Status() == game.Running; n++ {
		if n == maxActions {
			t.Errorf("%s: still running after %d actions", name, n)
			return false
		}
		seat, legal := g.ToAct(), l.Legal(g)
		for _, a := range legal {
			line := tx[seat].Line(a)
			if back, err := tx[seat].Parse(line); err != nil || canon(back) != canon(a) {
				t.Errorf("%s: action %d: the legal action %s typed %q reads back as %s (%v)", name, n+1, canon(a), line, canon(back), err)
				return false
			}
		}
		if len(legal) == 0 {
			t.Errorf("%s: action %d: a running game with no legal action", name, n+1)
			return false
		}
		st, err := g.Apply(legal[rng.IntN(len(legal))])
		for s := range 2 {
			var o O
			if c.s.Rules.Tell(g, &st, err, s, &o) {
				tx[s].Tell(o)
			}
		}
	}
	return true
}
