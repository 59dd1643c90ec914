package abplayers

import (
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/kaisen-ai/kaisen/game/abilities"
)

// timed times every Act of a player.
type timed struct {
	Player
	times *[]time.Duration
}

func (p timed) Act(q *abilities.Question) abilities.Action {
	start := time.Now()
	a := p.Player.Act(q)
	*p.times = append(*p.times, time.Since(start))
	return a
}

// BenchmarkBeliefBotMove times every decision of ab-belief (its hidden
// belief's estimate before each shot, the enemy's once a turn when a
// 1-deck may move) in games against ab-plain on the classic 10x10 board
// with the Russian fleet, sides and seats alternating, and reports the
// p50 and p99 decision times.
func BenchmarkBeliefBotMove(b *testing.B) {
	var times []time.Duration
	games := 0
	for b.Loop() {
		sides := [2]abilities.Side{abilities.AI, abilities.Humans}
		if games%2 == 1 {
			sides = [2]abilities.Side{abilities.Humans, abilities.AI}
		}
		r := abilities.DefaultRules()
		r.Sides = sides
		fb, err := New("ab-belief", r, nil)
		if err != nil {
			b.Fatal(err)
		}
		fp, err := New("ab-plain", r, nil)
		if err != nil {
			b.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(uint64(games), 31))
		seat := games % 2
		ps := [2]Player{}
		ps[seat] = timed{fb(rng, seat), &times}
		ps[1-seat] = fp(rng, 1-seat)
		if res := PlayGame(r, ps[0], ps[1], 0); res.Forfeit >= 0 {
			b.Fatal(res.Err)
		}
		games++
	}
	slices.Sort(times)
	at := func(f float64) float64 { return float64(times[int(f*float64(len(times)-1))]) / 1e6 }
	b.ReportMetric(at(0.5), "ms/move-p50")
	b.ReportMetric(at(0.99), "ms/move-p99")
	b.ReportMetric(at(1), "ms/move-max")
	b.ReportMetric(float64(len(times))/float64(games), "moves/game")
}
