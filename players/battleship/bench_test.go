package bsplayers

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	bsbelief "github.com/kaisen-ai/kaisen/belief/battleship"
	"github.com/kaisen-ai/kaisen/game/battleship"
)

// BenchmarkDensityMove plays whole density games (one per iteration) on the
// classic board against uniform fleets and reports the decision time per
// move (p50 and p99, wall clock), the shots per game and the share of moves
// decided by exact counting.
func BenchmarkDensityMove(b *testing.B) {
	r := battleship.DefaultRules()
	u, err := bsbelief.NewUniformPlacer(r)
	if err != nil {
		b.Fatal(err)
	}
	var moves []time.Duration
	var stats DensityStats
	shots, game := 0, 0
	for b.Loop() {
		rng := rand.New(rand.NewPCG(uint64(game), 7))
		game++
		layout, err := u.Place(rng)
		if err != nil {
			b.Fatal(err)
		}
		d := NewDensity(r, DefaultDensityConfig(), u, rng)
		sea, err := battleship.NewSea(r, layout)
		if err != nil {
			b.Fatal(err)
		}
		for sea.Afloat() > 0 {
			start := time.Now()
			c := d.Shoot()
			moves = append(moves, time.Since(start))
			res, err := sea.Fire(c)
			if err != nil {
				b.Fatal(err)
			}
			d.Observe(battleship.Event{Mine: true, Result: res})
			shots++
		}
		stats = stats.Add(d.Stats())
	}
	slices.Sort(moves)
	at := func(p float64) float64 {
		return float64(moves[min(len(moves)-1, int(p*float64(len(moves))))]) / float64(time.Millisecond)
	}
	b.ReportMetric(at(0.50), "ms/move-p50")
	b.ReportMetric(at(0.99), "ms/move-p99")
	b.ReportMetric(float64(shots)/float64(game), "shots/game")
	b.ReportMetric(float64(stats.Exact)/float64(shots), "exact-share")
}

// BenchmarkGridBotGame plays whole gridbot games.
func BenchmarkGridBotGame(b *testing.B) {
	r := battleship.DefaultRules()
	u, err := bsbelief.NewUniformPlacer(r)
	if err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 1))
	for b.Loop() {
		layout, err := u.Place(rng)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := Solo(context.Background(), r, NewGridBot(r, DefaultGridConfig(), u, rng), layout); err != nil {
			b.Fatal(err)
		}
	}
}
