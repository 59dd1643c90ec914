package bsbelief

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/kaisen-ai/kaisen/game/battleship"
)

// BenchmarkCountEmpty counts the empty classic board (1855545978831780
// layouts and the per-cell map).
func BenchmarkCountEmpty(b *testing.B) {
	pos := battleship.NewPosition(battleship.DefaultRules())
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
