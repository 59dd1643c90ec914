package endgame

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/game/submarine"
	"github.com/kaisen-ai/kaisen/internal/cputime"
)

// BenchmarkBuild solves from scratch every class of the published fleet
// with at most two ships a side (go test -bench Build -benchtime 1x).
func BenchmarkBuild(b *testing.B) {
	benchBuild(b, 2, 2)
}

// BenchmarkWarm solves from scratch everything the default table covers
// for the published fleet (Tablebase.Warm): at most two ships a side, and
// three against one.
func BenchmarkWarm(b *testing.B) {
	benchBuild(b, 0, 0)
}

func benchBuild(b *testing.B, ka, kb int) {
	r := submarine.DefaultRules()
	ms := Materials(r)
	var positions int
	var bytes int64
	cpu0, ok := cputime.Process()
	for b.Loop() {
		t := NewTablebase(r.Board, 0)
		if ka == 0 {
			if err := t.Warm(r); err != nil {
				b.Fatal(err)
			}
		}
		for _, x := range ms {
			for _, y := range ms {
				if ka > 0 && ((len(x) <= ka && len(y) <= kb) || (len(x) <= kb && len(y) <= ka)) {
					if _, err := t.Tally(x, y); err != nil {
						b.Fatal(err)
					}
				}
			}
		}
		_, positions, bytes = t.Stats()
	}
	b.ReportMetric(float64(positions), "positions")
	b.ReportMetric(float64(bytes)/(1<<20), "MiB")
	b.ReportMetric(float64(positions)/(b.Elapsed().Seconds()/float64(b.N)), "positions/s")
	if cpu1, ok1 := cputime.Process(); ok && ok1 {
		b.ReportMetric((cpu1-cpu0).Seconds()/float64(b.N), "cpu-s/op")
	}
}

// BenchmarkProbe is one Solve of a random position with at most two ships
// a side from a built table.
func BenchmarkProbe(b *testing.B) {
	s := solver5(b)
	r := submarine.DefaultRules()
	rng := rand.New(rand.NewPCG(1, 2))
	ps := make([]Position, 1024)
	for i := range ps {
		ps[i] = randomPosition(rng, r, 1+rng.IntN(2), 1+rng.IntN(2))
		if _, err := s.Solve(ps[i]); err != nil {
			b.Fatal(err)
		}
	}
	i := 0
	for b.Loop() {
		if _, err := s.Solve(ps[i&1023]); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

// BenchmarkSearch is one Solve of a random position with three ships
// against two or three (the search, table leaves), default budget; it
// reports the nodes searched per second and the share of positions proved.
func BenchmarkSearch(b *testing.B) {
	s := solver5(b)
	if err := s.tb.Warm(submarine.DefaultRules()); err != nil {
		b.Fatal(err)
	}
	r := submarine.DefaultRules()
	rng := rand.New(rand.NewPCG(3, 4))
	nodes, proved, n := 0, 0, 0
	cpu0, ok := cputime.Process()
	for b.Loop() {
		p := randomPosition(rng, r, 3, 2+rng.IntN(2))
		if rng.IntN(2) == 0 {
			p = p.Swap()
		}
		st := fromPosition(&p)
		sr := s.searcher(s.nodes)
		v, err := sr.value(&st)
		if err != nil {
			b.Fatal(err)
		}
		nodes += sr.nodes
		sr.release()
		if v.Outcome != Unknown {
			proved++
		}
		n++
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
	if cpu1, ok1 := cputime.Process(); ok && ok1 {
		b.ReportMetric(float64(nodes)/(cpu1-cpu0).Seconds(), "nodes/cpu-s")
	}
	b.ReportMetric(float64(proved)/float64(n), "proved")
}

// BenchmarkBuild32 solves, with a table limit raised to admit them, the
// class of a full fleet (3+2+1) against a battleship and a cruiser (3+2)
// and every class its hits lead to: what a table of three ships against two
// would cost.
func BenchmarkBuild32(b *testing.B) {
	r := submarine.DefaultRules()
	var positions int
	var bytes int64
	cpu0, ok := cputime.Process()
	for b.Loop() {
		t := NewTablebase(r.Board, 1<<25)
		if _, err := t.Tally([]int{3, 2, 1}, []int{3, 2}); err != nil {
			b.Fatal(err)
		}
		_, positions, bytes = t.Stats()
	}
	b.ReportMetric(float64(positions), "positions")
	b.ReportMetric(float64(bytes)/(1<<20), "MiB")
	if cpu1, ok1 := cputime.Process(); ok && ok1 {
		b.ReportMetric((cpu1-cpu0).Seconds()/float64(b.N), "cpu-s/op")
	}
}

// BenchmarkSearchVsTable32 measures what the search finds where an exact
// answer exists: it builds the table of a full fleet against a cruiser and
// a submarine (2+1; a quarter of its positions are won, some in 21 plies),
// once, then each op solves one random
// position of that class, either side to move, by search with the default
// table as leaves and a budget of 20,000 nodes (admiral's default). It fails on any wrong outcome and reports the
// share of the decisive positions the search proved.
func BenchmarkSearchVsTable32(b *testing.B) {
	r := submarine.DefaultRules()
	exact := newSolver(NewTablebase(r.Board, 1<<25), Options{})
	if _, err := exact.tb.Tally([]int{3, 2, 1}, []int{2, 1}); err != nil {
		b.Fatal(err)
	}
	s := newSolver(solver5(b).tb, Options{Nodes: 20_000})
	rng := rand.New(rand.NewPCG(7, 8))
	decisive, proved, n := 0, 0, 0
	for b.Loop() {
		var f [2]submarine.Fleet
		f[0] = submarine.NewFleet(r, []grid.Cell{0, 0, 0})
		cells := rng.Perm(25)
		for i := range 3 {
			f[0].Pos[i] = grid.Cell(cells[i])
		}
		cells = rng.Perm(25)
		for i := 1; i < 3; i++ {
			f[1].Pos[i], f[1].HP[i] = grid.Cell(cells[i]), int8(r.Fleet[i].HP)
		}
		p, err := NewPosition(r, f[0], f[1])
		if err != nil {
			b.Fatal(err)
		}
		if rng.IntN(2) == 0 {
			p = p.Swap()
		}
		want, err := exact.Solve(p)
		if err != nil {
			b.Fatal(err)
		}
		got, err := s.Solve(p)
		if err != nil {
			b.Fatal(err)
		}
		if got.Outcome != Unknown && (got.Outcome != want.Outcome || got.Plies < want.Plies) {
			b.Fatalf("%s: search %v, table %v", p, got, want)
		}
		if want.Outcome != Draw {
			decisive++
			if got.Outcome != Unknown {
				proved++
			}
		}
		n++
	}
	b.ReportMetric(float64(decisive)/float64(n), "decisive")
	if decisive > 0 {
		b.ReportMetric(float64(proved)/float64(decisive), "proved-of-decisive")
	}
}

// BenchmarkSearchBudget solves the same 200 seeded random positions (three
// ships against three or two, either side to move) per op at several
// budgets and reports how many the search proves won or lost: what more
// budget buys (go test -bench SearchBudget -benchtime 1x).
func BenchmarkSearchBudget(b *testing.B) {
	r := submarine.DefaultRules()
	base := solver5(b)
	if err := base.tb.Warm(r); err != nil {
		b.Fatal(err)
	}
	for _, nb := range []int{3, 2} {
		rng := rand.New(rand.NewPCG(9, 10))
		ps := make([]Position, 200)
		for i := range ps {
			ps[i] = randomPosition(rng, r, 3, nb)
			if rng.IntN(2) == 0 {
				ps[i] = ps[i].Swap()
			}
		}
		for _, nodes := range []int{20_000, 200_000, 2_000_000} {
			b.Run(fmt.Sprintf("3v%d/nodes=%d", nb, nodes), func(b *testing.B) {
				s := newSolver(base.tb, Options{Nodes: nodes})
				var c [4]int
				for b.Loop() {
					c = [4]int{}
					for _, p := range ps {
						v, err := s.Solve(p)
						if err != nil {
							b.Fatal(err)
						}
						c[v.Outcome]++
					}
				}
				b.ReportMetric(float64(c[Win]), "won")
				b.ReportMetric(float64(c[Loss]), "lost")
				b.ReportMetric(float64(c[Unknown]), "unknown")
			})
		}
	}
}
