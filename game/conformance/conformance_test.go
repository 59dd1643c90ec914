package conformance_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/arena"
	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/game/conformance"
	"github.com/kaisen-ai/kaisen/game/sonar"
)

// findings is a conformance.T that keeps what the checks report; Fatalf
// stops the check (run recovers it).
type findings struct{ errs []string }

type stop struct{}

func (f *findings) Helper()             {}
func (f *findings) Logf(string, ...any) {}
func (f *findings) Errorf(format string, args ...any) {
	f.errs = append(f.errs, fmt.Sprintf(format, args...))
}
func (f *findings) Fatalf(format string, args ...any) {
	f.Errorf(format, args...)
	panic(stop{})
}

// run runs the named check of s and returns its findings.
func run(t *testing.T, s subject, name string) []string {
	t.Helper()
	return runAny(t, conformance.Checks(s), name)
}

type subject = conformance.Subject[*sonar.Rules, *sonar.Game, sonar.Placement, sonar.Action, sonar.Step, sonar.Told]

type entrant = arena.Entrant[sonar.Placement, sonar.Action, sonar.Told]

// sonarSubject is the test game's subject, as the registry builds it.
func sonarSubject(t *testing.T) subject {
	r := sonar.DefaultRules()
	d := sonar.Def()
	s := subject{Name: d.Name, Rules: r, Illegal: d.Illegal, Perft: d.Perft, Seed: 1}
	for i, e := range sonar.AIs.Entries() {
		f, err := e.Build(r, nil)
		require.NoError(t, err)
		if e.Name == "sonar-random" {
			s.Opponent = i
		}
		s.AIs = append(s.AIs, entrant{Name: e.Name, Factory: f})
	}
	return s
}

// TestTheTestGamePasses: every check passes on the test game.
func TestTheTestGamePasses(t *testing.T) {
	s := sonarSubject(t)
	for _, c := range conformance.Checks(s) {
		t.Run(c.Name, func(t *testing.T) { c.Run(t) })
	}
}

// cheater pings where the enemy's first boat is: it reads the placements
// the rules started the game with (what no seat is told).
type cheater struct {
	game.Player[sonar.Placement, sonar.Action, sonar.Told]
	seat  int
	spied *[2]sonar.Placement
}

func (c cheater) Act() sonar.Action { return sonar.Action{Kind: sonar.Ping, At: c.spied[1-c.seat][0]} }

// deaf is told nothing by reference: its ObserveRef does not do what its
// Observe does.
type deaf struct {
	game.Player[sonar.Placement, sonar.Action, sonar.Told]
}

func (deaf) ObserveRef(*sonar.Told) {}

// spying rules keep the placements of the last game started.
type spying struct {
	*sonar.Rules
	pl [2]sonar.Placement
}

func (s *spying) Start(pl [2]sonar.Placement, first int) (*sonar.Game, error) {
	s.pl = pl
	return s.Rules.Start(pl, first)
}

// impure rules tell every other observation wrongly.
type impure struct {
	*sonar.Rules
	n int
}

func (r *impure) Tell(g *sonar.Game, st *sonar.Step, err error, seat int, o *sonar.Told) bool {
	ok := r.Rules.Tell(g, st, err, seat, o)
	r.n++
	o.Afloat[0] += r.n % 2
	return ok
}

// TestBrokenGamesFail: each check finds what it is written for.
func TestBrokenGamesFail(t *testing.T) {
	base := sonarSubject(t)
	illegal := func(rng *rand.Rand, seat int) game.Player[sonar.Placement, sonar.Action, sonar.Told] {
		return cheater{Player: base.AIs[base.Opponent].Factory(rng, seat), seat: seat, spied: &[2]sonar.Placement{{-1}, {-1}}}
	}
	for _, tt := range []struct {
		name, check, want string
		edit              func(s *subject)
	}{
		{"a wrong perft pin", "perft", "counts [22 478 10224], pinned [22 478 10225]", func(s *subject) {
			s.Perft = append(s.Perft[:0:0], s.Perft...)
			s.Perft[0].Counts = []int{22, 478, 10225}
		}},
		{"a legal action called illegal", "legal-moves", "was accepted", func(s *subject) {
			s.Illegal = append(s.Illegal, sonar.Action{Kind: sonar.Ping, At: 0})
		}},
		{"an AI that plays illegally", "random-play", "a built-in AI forfeited", func(s *subject) {
			s.AIs = append(s.AIs, entrant{Name: "cheater", Factory: illegal})
		}},
		{"no perft pins", "rules", "no pinned perft count", func(s *subject) { s.Perft = nil }},
		{"an AI told otherwise by reference", "random-play", "told by value (Observe), not by reference", func(s *subject) {
			var hunter entrant
			for _, ai := range s.AIs {
				if ai.Name == "sonar-hunter" {
					hunter = ai
				}
			}
			s.AIs = append(s.AIs, entrant{Name: "deaf", Factory: func(rng *rand.Rand, seat int) game.Player[sonar.Placement, sonar.Action, sonar.Told] {
				return deaf{hunter.Factory(rng, seat)}
			}})
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := base
			tt.edit(&s)
			errs := run(t, s, tt.check)
			require.NotEmpty(t, errs)
			require.Contains(t, strings.Join(errs, "\n"), tt.want)
		})
	}
	t.Run("a peeking AI", func(t *testing.T) {
		spy := &spying{Rules: sonar.DefaultRules()}
		peeking := func(rng *rand.Rand, seat int) game.Player[sonar.Placement, sonar.Action, sonar.Told] {
			return cheater{Player: base.AIs[base.Opponent].Factory(rng, seat), seat: seat, spied: &spy.pl}
		}
		s := conformance.Subject[*spying, *sonar.Game, sonar.Placement, sonar.Action, sonar.Step, sonar.Told]{
			Name: base.Name, Rules: spy, AIs: []entrant{base.AIs[base.Opponent], {Name: "peeker", Factory: peeking}}, Illegal: base.Illegal, Seed: 1}
		errs := runAny(t, conformance.Checks(s), "hygiene")
		require.Contains(t, strings.Join(errs, "\n"), "peeker in seat")
	})
	t.Run("impure Tell", func(t *testing.T) {
		s := conformance.Subject[*impure, *sonar.Game, sonar.Placement, sonar.Action, sonar.Step, sonar.Told]{
			Name: base.Name, Rules: &impure{Rules: sonar.DefaultRules()}, AIs: base.AIs, Opponent: base.Opponent, Illegal: base.Illegal, Seed: 1}
		errs := runAny(t, conformance.Checks(s), "random-play")
		require.Contains(t, strings.Join(errs, "\n"), "Tell(seat")
	})
}

// runAny runs the named check among checks.
func runAny(t *testing.T, checks []conformance.Check, name string) []string {
	t.Helper()
	f := &findings{}
	for _, c := range checks {
		if c.Name == name {
			func() {
				defer func() {
					if v := recover(); v != nil && v != (stop{}) {
						panic(v)
					}
				}()
				c.Run(f)
			}()
			return f.errs
		}
	}
	t.Fatalf("no check %q", name)
	return nil
}
