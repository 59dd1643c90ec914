package conformance

import (
	"fmt"
	"math/rand/v2"

	"github.com/kaisen-ai/kaisen/game"
)

// maxActions bounds a random legal game: one that runs longer is reported
// as a game that does not end.
const maxActions = 100_000

// legalMoves plays random legal games from the opponent's placements,
// checking Legal against Apply at every position.
func (c *suite[R, G, P, A, S, O]) legalMoves(t T) {
	l, ok := c.legal(t)
	if !ok {
		return
	}
	for k := range 2 * c.games() {
		rngs := c.rngs(2, 0, k)
		var pl [2]P
		for s := range 2 {
			pl[s] = c.opponent().Factory(rngs[s], s).Place()
		}
		g, err := c.s.Rules.Start(pl, c.first(k))
		if err != nil {
			t.Fatalf("%s: the opponent's placements do not start a game: %v", c.s.Name, err)
		}
		name := fmt.Sprintf("%s: random legal game %d", c.s.Name, k)
		if !c.walk(t, name, l, g, rngs[0]) {
			return
		}
	}
}

// walk plays g to its end by random legal actions drawn from rng and
// reports whether every check held.
func (c *suite[R, G, P, A, S, O]) walk(t T, name string, l game.Legal[G, A], g G, rng *rand.Rand) bool {
	t.Helper()
	var buf S // the last step, which ApplyInto overwrites
	for n := 0; g.Status() == game.Running; n++ {
		if n == maxActions {
			t.Errorf("%s: still running after %d actions", name, n)
			return false
		}
		legal := l.Legal(g)
		if len(legal) == 0 {
			t.Errorf("%s: action %d: a running game with no legal action (%s)", name, n+1, state(g))
			return false
		}
		before := state(g) + canon(legal)
		for _, a := range c.s.Illegal {
			msg, err := apply(l, l.Clone(g), a, &buf)
			if err == nil || msg != "" {
				t.Errorf("%s: action %d: the illegal action %s was accepted, or %s", name, n+1, canon(a), msg)
				return false
			}
		}
		a := legal[rng.IntN(len(legal))]
		if _, err := l.Clone(g).Apply(a); err != nil {
			t.Errorf("%s: action %d: the listed action %s was refused on a clone: %v", name, n+1, canon(a), err)
			return false
		}
		if after := state(g) + canon(l.Legal(g)); after != before {
			t.Errorf("%s: action %d: playing on a clone changed the game", name, n+1)
			return false
		}
		if msg, err := apply(l, g, a, &buf); err != nil || msg != "" {
			t.Errorf("%s: action %d: the listed action %s was refused (%v), or %s", name, n+1, canon(a), err, msg)
			return false
		}
		if msg := sane(g); msg != "" {
			t.Errorf("%s: after action %d: %s", name, n+1, msg)
			return false
		}
	}
	if legal := l.Legal(g); len(legal) != 0 {
		t.Errorf("%s: a finished game lists %d legal actions", name, len(legal))
	}
	for _, a := range c.s.Illegal {
		if msg, err := apply(l, g, a, &buf); err == nil || msg != "" {
			t.Errorf("%s: a finished game accepted %s, or %s", name, canon(a), msg)
		}
	}
	return true
}

// apply plays a on g into *buf and returns Apply's error (err). A state that is
// a game.StepInto plays it with ApplyInto, which must write into *buf (the
// previous step) what Apply returns on a clone: msg says how it did not
// ("" = it did).
func apply[G game.State[A, S], A, S any](l game.Legal[G, A], g G, a A, buf *S) (msg string, err error) {
	into, ok := any(g).(game.StepInto[A, S])
	if !ok {
		*buf, err = g.Apply(a)
		return "", err
	}
	want, wantErr := l.Clone(g).Apply(a)
	err = into.ApplyInto(a, buf)
	if canon(*buf) != canon(want) || (err == nil) != (wantErr == nil) {
		msg = fmt.Sprintf("ApplyInto wrote %s (error %v), Apply returned %s (error %v)", canon(*buf), err, canon(want), wantErr)
	}
	return msg, err
}

// perft checks the pinned perft counts.
func (c *suite[R, G, P, A, S, O]) perft(t T) {
	for _, p := range c.s.Perft {
		l, ok := any(p.Rules).(game.Legal[G, A])
		if !ok {
			t.Errorf("%s: perft %q: the rules %T do not list their moves", c.s.Name, p.Name, p.Rules)
			continue
		}
		g, err := p.Rules.Start(p.Placements, p.First)
		if err != nil {
			t.Errorf("%s: perft %q: %v", c.s.Name, p.Name, err)
			continue
		}
		for i, a := range p.Script {
			if _, err := g.Apply(a); err != nil {
				t.Errorf("%s: perft %q: script action %d %s: %v", c.s.Name, p.Name, i+1, canon(a), err)
			}
		}
		var got []int
		for d := range p.Counts {
			n, err := Count(l, g, d+1)
			if err != nil {
				t.Errorf("%s: perft %q: %v", c.s.Name, p.Name, err)
				break
			}
			got = append(got, n)
		}
		if canon(got) != canon(p.Counts) {
			t.Errorf("%s: perft %q: counts %v, pinned %v", c.s.Name, p.Name, got, p.Counts)
		}
	}
}

// Count is the perft number of g: the sequences of exactly depth legal
// actions from g, listed by l (a game that ends sooner counts none; depth
// 0 counts 1). It fails when a listed action is refused.
func Count[G game.State[A, S], A, S any](l game.Legal[G, A], g G, depth int) (int, error) {
	if depth == 0 {
		return 1, nil
	}
	legal := l.Legal(g)
	if depth == 1 {
		return len(legal), nil
	}
	n := 0
	for _, a := range legal {
		next := l.Clone(g)
		if _, err := next.Apply(a); err != nil {
			return 0, fmt.Errorf("conformance: perft: the listed action %s was refused: %w", canon(a), err)
		}
		m, err := Count(l, next, depth-1)
		if err != nil {
			return 0, err
		}
		n += m
	}
	return n, nil
}
