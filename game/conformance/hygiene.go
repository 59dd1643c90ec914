package conformance

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/kaisen-ai/kaisen/explain"
	"github.com/kaisen-ai/kaisen/game"
)

// spy logs what its seat is told and what it plays, as lines of a log the
// seat's recorder shares. Given the log of a game played before (ref), it
// ends the game (panics: its seat forfeits) once it is told something
// else than in that game: the rest cannot be compared.
type spy[P, A, O any] struct {
	game.Player[P, A, O]
	log *[]string
	ref []string
}

func (s *spy[P, A, O]) Act() A {
	a := s.Player.Act()
	*s.log = append(*s.log, "act "+canon(a))
	return a
}

func (s *spy[P, A, O]) Observe(o O) {
	line := "told " + canon(o)
	*s.log = append(*s.log, line)
	if n := len(*s.log); s.ref != nil && (n > len(s.ref) || s.ref[n-1] != line) {
		panic("conformance: told otherwise; the rest of the game is not compared")
	}
	s.Player.Observe(o)
}

// Unwrap implements game.Wrapper.
func (s *spy[P, A, O]) Unwrap() any { return s.Player }

// why logs the decisions of one seat into the spy's log.
type why[P, A, S any] struct {
	seat int
	log  *[]string
}

func (w why[P, A, S]) Placement(int, P, bool) {}
func (w why[P, A, S]) Result(*game.Result)    {}

func (w why[P, A, S]) Action(_, seat int, _ A, _ *S, _ error, d *explain.Decision) {
	if seat == w.seat && d != nil {
		*w.log = append(*w.log, "why "+canon(*d))
	}
}

// moved is a player whose placement is another's.
type moved[P, A, O any] struct {
	game.Player[P, A, O]
	at P
}

// Place draws the player's own placement (so that its stream goes on as
// it would) and returns the other one.
func (m moved[P, A, O]) Place() P {
	m.Player.Place()
	return m.at
}

// Unwrap implements game.Wrapper.
func (m moved[P, A, O]) Unwrap() any { return m.Player }

// hygiene plays, for every AI in either seat, two games that differ only
// in the other seat's placement (hidden from the AI): the AI must play the
// same actions and give the same explanations until what it is told
// differs.
func (c *suite[R, G, P, A, S, O]) hygiene(t T) {
	opp := c.opponent().Factory
	for i, ai := range c.s.AIs {
		for k := range c.games() {
			seat := k % 2
			seeds := c.rngs(6, i, k)
			stream := [2][2]uint64{{seeds[0].Uint64(), seeds[0].Uint64()}, {seeds[1].Uint64(), seeds[1].Uint64()}}
			elsewhere := opp(rand.New(rand.NewPCG(c.s.Seed, uint64(7000+i*100+k))), 1-seat).Place()
			var logs [2][]string
			for v := range 2 {
				var f [2]game.Factory[P, A, O]
				f[seat] = func(rng *rand.Rand, s int) game.Player[P, A, O] {
					return &spy[P, A, O]{Player: ai.Factory(rng, s), log: &logs[v], ref: logs[0]}
				}
				f[1-seat] = opp
				if v == 1 {
					f[1-seat] = func(rng *rand.Rand, s int) game.Player[P, A, O] {
						return moved[P, A, O]{Player: opp(rng, s), at: elsewhere}
					}
				}
				rr := [2]*rand.Rand{rand.New(rand.NewPCG(stream[0][0], stream[0][1])), rand.New(rand.NewPCG(stream[1][0], stream[1][1]))}
				game.NewTable[G](c.s.Rules, nil).Play(&game.Setup[P, A, S, O]{Factories: f, Rands: rr, First: c.first(k),
					Record: why[P, A, S]{seat: seat, log: &logs[v]}, Explain: true})
			}
			if msg := leak(logs[0], logs[1]); msg != "" {
				t.Errorf("%s: %s in seat %d, game %d, the other seat's fleet moved: %s", c.s.Name, ai.Name, seat, k, msg)
			}
		}
	}
}

// leak compares a seat's logs of two games up to the first thing it was
// told differently and says where an action or explanation differs first
// ("" = nowhere).
func leak(a, b []string) string {
	for i := range min(len(a), len(b)) {
		if a[i] == b[i] {
			continue
		}
		if strings.HasPrefix(a[i], "told ") && strings.HasPrefix(b[i], "told ") {
			return ""
		}
		return fmt.Sprintf("entry %d, after the same %d entries:\n  %s\n  %s", i, i, a[i], b[i])
	}
	return ""
}
