package bsbelief

import (
	"context"
	"fmt"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/kaisen-ai/kaisen/game/battleship"
	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/internal/cputime"
)

// BenchmarkCountEmpty counts the empty classic board (1855545978831780
// layouts and the per-cell map).
func BenchmarkCountEmpty(b *testing.B) {
	pos := battleship.NewPosition(battleship.DefaultRules())
	defer reportCPU(b)()
	for b.Loop() {
		c, err := Count(context.Background(), pos, CountOptions{})
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(c.States), "states")
		b.ReportMetric(float64(c.Work), "work")
	}
}

// playedPositions shoots k random cells at random uniform layouts.
func playedPositions(b *testing.B, k, n int) []*battleship.Position {
	r := battleship.DefaultRules()
	u, err := NewUniformPlacer(r)
	if err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(uint64(k), 99))
	var out []*battleship.Position
	for range n {
		p, err := u.Place(rng)
		if err != nil {
			b.Fatal(err)
		}
		sea, err := battleship.NewSea(r, p)
		if err != nil {
			b.Fatal(err)
		}
		pos := battleship.NewPosition(r)
		cells := r.Board.Usable().Cells()
		rng.Shuffle(len(cells), func(i, j int) { cells[i], cells[j] = cells[j], cells[i] })
		for _, c := range cells[:k] {
			res, _ := sea.Fire(c)
			pos.Record(res)
		}
		out = append(out, pos)
	}
	return out
}

// BenchmarkCountWork counts positions after 10, 20 and 30 random shots and
// reports the work units per millisecond (the density bot's calibration).
func BenchmarkCountWork(b *testing.B) {
	for _, k := range []int{10, 20, 30} {
		positions := playedPositions(b, k, 8)
		b.Run(map[int]string{10: "shots=10", 20: "shots=20", 30: "shots=30"}[k], func(b *testing.B) {
			var work int64
			cpu0, _ := cputime.Process()
			for b.Loop() {
				for _, pos := range positions {
					c, err := Count(context.Background(), pos, CountOptions{})
					if err != nil {
						b.Fatal(err)
					}
					work += c.Work
				}
			}
			ms := float64(b.Elapsed().Microseconds()) / 1000
			b.ReportMetric(float64(work)/ms, "work/ms")
			cpu1, _ := cputime.Process()
			b.ReportMetric(float64(work)/(float64(cpu1-cpu0)/1e6), "work/cpu-ms")
			b.ReportMetric(float64(work)/float64(b.N*len(positions)), "work/count")
		})
	}
}

// BenchmarkUniformPlacer draws classic layouts.
func BenchmarkUniformPlacer(b *testing.B) {
	u, err := NewUniformPlacer(battleship.DefaultRules())
	if err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for b.Loop() {
		if _, err := u.Place(rng); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCountEngines compares the reference numeric passes (compact
// vectors) with the span passes Count runs, on the empty classic board and
// on positions after 10 and 20 random shots.
func BenchmarkCountEngines(b *testing.B) {
	sets := []struct {
		name      string
		positions []*battleship.Position
	}{
		{"empty", []*battleship.Position{battleship.NewPosition(battleship.DefaultRules())}},
		{"shots=10", playedPositions(b, 10, 4)},
		{"shots=20", playedPositions(b, 20, 8)},
	}
	for _, set := range sets {
		for _, engine := range []string{"compact", "spans"} {
			b.Run(set.name+"/"+engine, func(b *testing.B) {
				defer reportCPU(b)()
				for b.Loop() {
					for _, pos := range set.positions {
						if _, err := countWith(pos, engine == "compact"); err != nil {
							b.Fatal(err)
						}
					}
				}
			})
		}
	}
}

// reportCPU reports the process's CPU time per operation (user and system,
// every thread): on a loaded machine it is steadier than the wall time.
// Call the function it returns when the loop is done.
func reportCPU(b *testing.B) func() {
	start, _ := cputime.Process()
	return func() {
		now, _ := cputime.Process()
		b.ReportMetric(float64(now-start)/float64(b.N), "cpu-ns/op")
	}
}

// BenchmarkCountWorkers counts the same positions on one worker and on
// GOMAXPROCS (the split of the heavy steps over cores), in one run: the
// empty classic board, 4 positions after 10 random shots, and the empty
// 12x12 board. The count's result is the same; ns/op is the wall time,
// cpu-ns/op the process's CPU time.
func BenchmarkCountWorkers(b *testing.B) {
	r12 := battleship.DefaultRules()
	r12.Board = grid.MustBoard(12, 12, nil)
	sets := []struct {
		name      string
		positions []*battleship.Position
	}{
		{"empty", []*battleship.Position{battleship.NewPosition(battleship.DefaultRules())}},
		{"shots=10", playedPositions(b, 10, 4)},
		{"12x12", []*battleship.Position{battleship.NewPosition(r12)}},
	}
	for _, set := range sets {
		for _, w := range []int{1, runtime.GOMAXPROCS(0)} {
			b.Run(fmt.Sprintf("%s/workers=%d", set.name, w), func(b *testing.B) {
				defer reportCPU(b)()
				for b.Loop() {
					for _, pos := range set.positions {
						if _, err := Count(context.Background(), pos, CountOptions{Workers: w}); err != nil {
							b.Fatal(err)
						}
					}
				}
			})
		}
	}
}
