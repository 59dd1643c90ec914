package belief_test

import (
	"math/rand/v2"
	"testing"

	"github.com/kaisen-ai/kaisen/belief"
	"github.com/kaisen-ai/kaisen/game/submarine"
	"github.com/kaisen-ai/kaisen/internal/cputime"
)

// benchHistories returns the events seat 0 was told in a few random games on
// the default rules: real game positions for the update benchmarks.
func benchHistories(b *testing.B, games int) [][]submarine.Event {
	rng := rand.New(rand.NewPCG(1, 2))
	r := submarine.DefaultRules()
	r.DrawLimit = 400
	var hs [][]submarine.Event
	for range games {
		tr := randomGame(b, r, rng)
		evs := make([]submarine.Event, len(tr.steps))
		for k := range tr.steps {
			evs[k] = tr.event(k, 0)
		}
		hs = append(hs, evs)
	}
	return hs
}

// BenchmarkShipsUpdate measures one Observe (both uses, plain) on events of
// real games, 5x5 with 3 ships.
func BenchmarkShipsUpdate(b *testing.B) {
	r := submarine.DefaultRules()
	hs := benchHistories(b, 20)
	for _, careful := range []bool{false, true} {
		name := "plain"
		if careful {
			name = "careful"
		}
		b.Run(name, func(b *testing.B) {
			defer cputime.LockThread()()
			updates := 0
			c0, cpuOK := cputime.Thread()
			b.ReportAllocs()
			for b.Loop() {
				for _, h := range hs {
					s := belief.NewShips(r)
					for _, ev := range h {
						if careful {
							s.ObserveCareful(ev, belief.Enemy)
						} else {
							s.Observe(ev, belief.Enemy)
						}
					}
					updates += len(h)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(updates), "ns/update")
			if c1, ok := cputime.Thread(); ok && cpuOK {
				b.ReportMetric(float64((c1-c0).Nanoseconds())/float64(updates), "cpu-ns/update")
			}
		})
	}
}
