package conformance

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"sync/atomic"

	"github.com/kaisen-ai/kaisen/arena"
	"github.com/kaisen-ai/kaisen/explain"
	"github.com/kaisen-ai/kaisen/game"
)

// seriesSize and seriesGames shape the series check: two series of two.
const (
	seriesSize  = 2
	seriesGames = 2 * seriesSize
)

// is reports whether the players f makes are a T (through adapters).
func is[T, P, A, O any](f game.Factory[P, A, O]) bool {
	_, ok := game.As[T](f(rand.New(rand.NewPCG(0, 0)), 0))
	return ok
}

// counted wraps f to count the players it makes (from any goroutine).
func counted[P, A, O any](f game.Factory[P, A, O], n *atomic.Int64) game.Factory[P, A, O] {
	return func(rng *rand.Rand, seat int) game.Player[P, A, O] {
		n.Add(1)
		return f(rng, seat)
	}
}

// family is the arena family of ai (P1) against the opponent (P2).
func (c *suite[R, G, P, A, S, O]) family(p1, p2 arena.Entrant[P, A, O]) *arena.Game[G, P, A, S, O] {
	return &arena.Game[G, P, A, S, O]{Name: c.s.Name, Rules: c.s.Rules, First: c.s.First, P1: p1, P2: p2}
}

// series plays every AI against the opponent in arena series and checks
// that a Learner is made once per series and any other player once per
// game; the opponent against itself (when it does not learn) must play
// the games of a plain match.
func (c *suite[R, G, P, A, S, O]) series(t T) {
	opp := c.opponent()
	for i, ai := range c.s.AIs {
		var made [2]atomic.Int64
		p1, p2 := ai, opp
		p1.Factory, p2.Factory = counted(ai.Factory, &made[0]), counted(opp.Factory, &made[1])
		m := arena.Match{Family: c.family(p1, p2), Games: seriesGames, Seed: c.s.Seed + uint64(i), Workers: 1, Series: seriesSize}
		sum, err := m.Run(context.Background(), nil)
		name := fmt.Sprintf("%s: %s against %s in series", c.s.Name, ai.Name, opp.Name)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if sum.Games != seriesGames || sum.P1Wins+sum.P2Wins+sum.Draws != seriesGames || sum.P1Forfeits+sum.P2Forfeits != 0 {
			t.Errorf("%s: summary %+v", name, sum)
		}
		learns := [2]bool{is[game.Learner](ai.Factory), is[game.Learner](opp.Factory)}
		for role, l := range learns {
			want := int64(seriesGames)
			if l {
				want = seriesGames / seriesSize
			}
			if got := made[role].Load(); got != want {
				t.Errorf("%s: role %d (learner %v) was made %d times, want %d", name, role+1, l, got, want)
			}
		}
		if learns[0] || learns[1] || i != c.s.Opponent {
			continue // the opponent against itself shows that series change nothing else
		}
		plain := m
		plain.Series, plain.Family = 0, c.family(ai, opp)
		want, err := plain.Run(context.Background(), nil)
		if err != nil {
			t.Errorf("%s: plain match: %v", name, err)
			continue
		}
		want.Series, want.Elapsed, sum.Elapsed = sum.Series, 0, 0
		if canon(want) != canon(sum) {
			t.Errorf("%s: players that do not learn played other games in series:\n%+v\n%+v", name, sum, want)
		}
	}
}

// explanations plays every AI against the opponent through arena's table
// with a recorder, with and without explanations asked.
func (c *suite[R, G, P, A, S, O]) explanations(t T) {
	opp := c.opponent()
	for i, ai := range c.s.AIs {
		explains := [2]bool{is[explain.Explainer](ai.Factory), is[explain.Explainer](opp.Factory)} // by role
		for k := range 1 {
			d := arena.Deal{Index: k, Seed: arena.GameSeed(c.s.Seed+5, i*1000+k), P1Seat: k % 2, Replay: io.Discard}
			name := fmt.Sprintf("%s: %s against %s, game %d", c.s.Name, ai.Name, opp.Name, k)
			asked := c.recorded(t, name, ai, opp, d, true)
			plain := c.recorded(t, name, ai, opp, d, false)
			if asked == nil || plain == nil {
				continue
			}
			if !equalLines(asked.lines, plain.lines) {
				t.Errorf("%s: asking for explanations changed the game:\n%s", name, diff(asked.lines, plain.lines))
			}
			for n, dec := range asked.decisions {
				seat := seatOf(asked.lines[2+n])
				role := 0
				if seat != d.P1Seat {
					role = 1
				}
				if (dec != nil) != explains[role] {
					t.Errorf("%s: action %d by seat %d (explains %v) recorded decision %q", name, n+1, seat, explains[role], dec)
				}
				if plain.decisions[n] != nil {
					t.Errorf("%s: action %d recorded a decision unasked", name, n+1)
				}
			}
		}
	}
}

// recorded plays deal d of ai (P1) against opp (P2) through the arena
// family's table and returns its transcript (nil after a reported error).
func (c *suite[R, G, P, A, S, O]) recorded(t T, name string, ai, opp arena.Entrant[P, A, O], d arena.Deal, ask bool) *transcript[P, A, S] {
	t.Helper()
	var rec *transcript[P, A, S]
	fam := c.family(ai, opp)
	fam.Record = func(io.Writer, arena.RecordHeader) arena.Recorder[P, A, S] {
		rec = &transcript[P, A, S]{}
		return rec
	}
	d.Explain = ask
	res, err := fam.NewTable(nil).Play(d)
	if err != nil || rec == nil {
		t.Errorf("%s: %v (recorded %v)", name, err, rec != nil)
		return nil
	}
	if res.Forfeit[0] || res.Forfeit[1] {
		t.Errorf("%s: a built-in AI forfeited: %s", name, res.Reason)
	}
	want := []string{"placement 0", "placement 1"}
	for n := range rec.decisions {
		want = append(want, fmt.Sprintf("action %d", n+1))
	}
	if want = append(want, "result"); !equalLines(rec.order, want) {
		t.Errorf("%s: the recorder was called %v", name, rec.order)
	}
	return rec
}

// seatOf is the actor of a transcript's action line.
func seatOf(line string) int {
	var n, seat int
	fmt.Sscanf(line, "act %d seat %d", &n, &seat)
	return seat
}
