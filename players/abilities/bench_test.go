package abplayers

import (
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/kaisen-ai/kaisen/game/abilities"
	"github.com/kaisen-ai/kaisen/internal/cputime"
)

// timed times every Act of a player: wall time and, where the platform
// tells it, the CPU time of the thread (the game runs on one locked
// thread), which a loaded machine does not inflate.
type timed struct {
	Player
	wall, cpu *[]time.Duration
}

func (p timed) Act(q *abilities.Question) abilities.Action {
	start := time.Now()
	c0, ok := cputime.Thread()
	a := p.Player.Act(q)
	*p.wall = append(*p.wall, time.Since(start))
	if c1, ok1 := cputime.Thread(); ok && ok1 {
		*p.cpu = append(*p.cpu, c1-c0)
	}
	return a
}

func quantile(ts []time.Duration, f float64) float64 {
	if len(ts) == 0 {
		return 0
	}
	slices.Sort(ts)
	return float64(ts[int(f*float64(len(ts)-1))]) / 1e6
}

// BenchmarkBeliefBotMove times every decision of ab-belief (its hidden
// belief's estimate before each shot, the enemy's once a turn when a
// 1-deck may move) in games against ab-plain on the classic 10x10 board
// with the Russian fleet, sides and seats alternating, and reports the
// p50 and p99 decision times, wall and thread CPU.
func BenchmarkBeliefBotMove(b *testing.B) {
	defer cputime.LockThread()()
	var wall, cpu []time.Duration
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
		ps[seat] = timed{fb(rng, seat), &wall, &cpu}
		ps[1-seat] = fp(rng, 1-seat)
		if res := PlayGame(r, ps[0], ps[1], 0); res.Forfeit >= 0 {
			b.Fatal(res.Err)
		}
		games++
	}
	b.ReportMetric(quantile(wall, 0.5), "ms/move-p50")
	b.ReportMetric(quantile(wall, 0.99), "ms/move-p99")
	b.ReportMetric(quantile(cpu, 0.5), "cpu-ms/move-p50")
	b.ReportMetric(quantile(cpu, 0.99), "cpu-ms/move-p99")
	b.ReportMetric(quantile(cpu, 1), "cpu-ms/move-max")
	b.ReportMetric(float64(len(wall))/float64(games), "moves/game")
}
