package conformance

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"

	"github.com/kaisen-ai/kaisen/arena"
	"github.com/kaisen-ai/kaisen/game"
)

// T is the part of testing.TB the checks use: pass the test's *testing.T
// (any testing.TB). The checks call it from the goroutine that runs them.
type T interface {
	Helper()
	Errorf(format string, args ...any)
	Fatalf(format string, args ...any)
	Logf(format string, args ...any)
}

// Check is one named check of a subject: a test runs it as a subtest.
type Check struct {
	Name string
	Run  func(t T)
}

// Subject is what the suite checks of one game: its rules, its AIs and the
// data a check needs that the contract cannot give (actions the rules
// always refuse, pinned perft counts). R is the game's rules type: it
// implements game.Rules, and game.Legal for the checks that list moves.
type Subject[R game.Rules[G, P, A, S, O], G game.State[A, S], P, A, S, O any] struct {
	Name  string // the game's name
	Rules R      // the game's rules (its default settings)
	// AIs are the game's AIs; every one is played. At least one.
	AIs []arena.Entrant[P, A, O]
	// Opponent is the index in AIs of the AI every other one meets (the
	// game's plainest AI, e.g. its random one), and the one the forfeit
	// checks wrap.
	Opponent int
	// First is the seat that acts first in game index of a match (nil:
	// seat 0), as in the game's arena family.
	First func(index int) int
	// Illegal are actions the rules refuse in every position; at least
	// one.
	Illegal []A
	// Perft are pinned perft counts; at least one.
	Perft []Perft[R, P, A]
	// Seed seeds every game the checks play; Games is the number of games
	// each check plays per AI (0: 2).
	Seed  uint64
	Games int
	// Text, when set, makes the typed text of a seat (a terminal seat's
	// Text writing nowhere) whose random placements rng draws: the text
	// check reads typed placements and actions back.
	Text func(seat int, rng *rand.Rand) Typed[P, A, O]
	// Extra are further checks of the game, run after the suite's: those
	// that need more than the contract (the registry's replay round trip
	// and verification, and its wire round trips in every dialect).
	Extra []Check
}

// Perft is one pinned perft count: from the position that Rules start with
// Placements (seat First acting first) and Script played, the number of
// sequences of exactly d legal actions is Counts[d-1] (a game that ends
// sooner counts no sequence).
type Perft[R, P, A any] struct {
	Name       string
	Rules      R
	Placements [2]P
	First      int
	Script     []A
	Counts     []int
}

// Checks returns the suite's checks of s, in the order the package doc
// lists them, then s.Extra.
func Checks[R game.Rules[G, P, A, S, O], G game.State[A, S], P, A, S, O any](s Subject[R, G, P, A, S, O]) []Check {
	c := &suite[R, G, P, A, S, O]{s: s}
	out := []Check{
		{"rules", c.rules},
		{"random-play", c.randomPlay},
		{"legal-moves", c.legalMoves},
		{"illegal-forfeits", c.illegalForfeits},
		{"panic-forfeits", c.panicForfeits},
		{"perft", c.perft},
		{"series", c.series},
		{"explanations", c.explanations},
		{"hygiene", c.hygiene},
		{"text", c.text},
	}
	return append(out, s.Extra...)
}

// suite runs the checks of one subject.
type suite[R game.Rules[G, P, A, S, O], G game.State[A, S], P, A, S, O any] struct {
	s Subject[R, G, P, A, S, O]
}

// games is the number of games a check plays per AI.
func (c *suite[R, G, P, A, S, O]) games() int {
	if c.s.Games > 0 {
		return c.s.Games
	}
	return 2
}

// first is the seat acting first in game k.
func (c *suite[R, G, P, A, S, O]) first(k int) int {
	if c.s.First == nil {
		return 0
	}
	return c.s.First(k)
}

// opponent is the AI the others meet.
func (c *suite[R, G, P, A, S, O]) opponent() arena.Entrant[P, A, O] { return c.s.AIs[c.s.Opponent] }

// legal is the subject's rules as game.Legal, reported when they are not.
func (c *suite[R, G, P, A, S, O]) legal(t T) (game.Legal[G, A], bool) {
	t.Helper()
	l, ok := any(c.s.Rules).(game.Legal[G, A])
	if !ok {
		t.Errorf("%s: the rules %T do not list their moves (game.Legal)", c.s.Name, c.s.Rules)
	}
	return l, ok
}

// rules checks the subject itself.
func (c *suite[R, G, P, A, S, O]) rules(t T) {
	if err := c.s.Rules.Validate(); err != nil {
		t.Errorf("%s: the default rules do not validate: %v", c.s.Name, err)
	}
	c.legal(t)
	if len(c.s.AIs) == 0 || c.s.Opponent < 0 || c.s.Opponent >= len(c.s.AIs) {
		t.Fatalf("%s: %d AIs, opponent %d: want at least one AI and the opponent among them", c.s.Name, len(c.s.AIs), c.s.Opponent)
	}
	for _, ai := range c.s.AIs {
		if ai.Name == "" || ai.Factory == nil {
			t.Errorf("%s: an AI without a name or a factory: %q", c.s.Name, ai.Name)
		}
	}
	if len(c.s.Illegal) == 0 {
		t.Errorf("%s: no action the rules always refuse (Subject.Illegal)", c.s.Name)
	}
	if len(c.s.Perft) == 0 {
		t.Errorf("%s: no pinned perft count (Subject.Perft)", c.s.Name)
	}
}

// rngs are the seat streams of game k of a check played by AI ai (salt
// tells the checks apart).
func (c *suite[R, G, P, A, S, O]) rngs(salt uint64, ai, k int) [2]*rand.Rand {
	seed := arena.GameSeed(c.s.Seed^salt, ai*1000+k)
	return [2]*rand.Rand{arena.SeatRand(seed, 0), arena.SeatRand(seed, 1)}
}

// seated returns the factories of a game where ai sits in seat and the
// opponent in the other.
func (c *suite[R, G, P, A, S, O]) seated(ai arena.Entrant[P, A, O], seat int, other game.Factory[P, A, O]) [2]game.Factory[P, A, O] {
	var f [2]game.Factory[P, A, O]
	f[seat], f[1-seat] = ai.Factory, other
	return f
}

// canon is v as bytes for comparing: its JSON, or its Go syntax when it
// has none.
func canon(v any) string {
	if b, err := json.Marshal(v); err == nil {
		return string(b)
	}
	return fmt.Sprintf("%#v", v)
}
