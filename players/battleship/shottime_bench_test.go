package bsplayers

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	bsbelief "github.com/kaisen-ai/kaisen/belief/battleship"
	"github.com/kaisen-ai/kaisen/game/battleship"
	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/internal/cputime"
)

// cpuTimed measures each Shoot of a player: the CPU time of the whole
// process (every goroutine of the count: its two numeric passes run on
// two) and the wall time.
type cpuTimed struct {
	Player
	cpu, wall []time.Duration
}

func (p *cpuTimed) Shoot() grid.Cell {
	c0, _ := cputime.Process()
	w0 := time.Now()
	c := p.Player.Shoot()
	p.wall = append(p.wall, time.Since(w0))
	c1, _ := cputime.Process()
	p.cpu = append(p.cpu, c1-c0)
	return c
}

// BenchmarkShotTime plays whole games (one per iteration; game i: fleet
// PCG(7, 2i) uniform, player PCG(7, 2i+1)) of each counting bot at its
// built-in settings on the classic board and reports the time per shot:
// p50, p99 and max of the process CPU time (both goroutines of a count,
// the figure to hold to the per-shot budget) and p99 of the wall time,
// with the shots per game.
func BenchmarkShotTime(b *testing.B) {
	if _, ok := cputime.Process(); !ok {
		b.Skip("no process CPU time on this platform")
	}
	r := battleship.DefaultRules()
	u, err := bsbelief.NewUniformPlacer(r)
	if err != nil {
		b.Fatal(err)
	}
	for _, name := range []string{"density", "greedy"} {
		b.Run(name, func(b *testing.B) {
			factory, err := New(name, r, nil)
			if err != nil {
				b.Fatal(err)
			}
			var cpu, wall []time.Duration
			shots, game := 0, 0
			for b.Loop() {
				layout, err := u.Place(rand.New(rand.NewPCG(7, uint64(2*game))))
				if err != nil {
					b.Fatal(err)
				}
				p := &cpuTimed{Player: factory(rand.New(rand.NewPCG(7, uint64(2*game+1))))}
				game++
				n, err := Solo(context.Background(), r, p, layout)
				if err != nil {
					b.Fatal(err)
				}
				shots += n
				cpu, wall = append(cpu, p.cpu...), append(wall, p.wall...)
			}
			slices.Sort(cpu)
			slices.Sort(wall)
			b.ReportMetric(ms(quantile(cpu, 0.50)), "cpu-ms/shot-p50")
			b.ReportMetric(ms(quantile(cpu, 0.99)), "cpu-ms/shot-p99")
			b.ReportMetric(ms(cpu[len(cpu)-1]), "cpu-ms/shot-max")
			b.ReportMetric(ms(quantile(wall, 0.99)), "wall-ms/shot-p99")
			b.ReportMetric(float64(shots)/float64(game), "shots/game")
		})
	}
}

// quantile is the nearest-rank q-quantile of sorted durations.
func quantile(sorted []time.Duration, q float64) time.Duration {
	return sorted[min(len(sorted)-1, int(q*float64(len(sorted))))]
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
