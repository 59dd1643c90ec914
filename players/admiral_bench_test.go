package players

import (
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/kaisen-ai/kaisen/game/submarine"
)

// BenchmarkAdmiralDecision plays b.N whole games of admiral (default budget)
// against stateplayer2 under the default rules, seats alternating, and times
// every admiral decision (Act). ns/op is admiral's thinking time per game;
// decision-ms is the mean per decision, p50-ms, p99-ms and max-ms the
// percentiles over all decisions of the run, and over-20ms the fraction of
// decisions slower than 20 ms (the goal is p99 <= 20 ms).
//
//	go test ./players -run '^$' -bench AdmiralDecision -benchtime 200x
func BenchmarkAdmiralDecision(b *testing.B) {
	r := submarine.DefaultRules()
	opp, err := New("stateplayer2", r, nil)
	if err != nil {
		b.Fatal(err)
	}
	sh := newAdmiralShared(r, DefaultAdmiralConfig())
	var times []time.Duration
	b.ResetTimer()
	for game := range b.N {
		seat := game % 2
		var ps [2]Player
		adm := newAdmiral(r, DefaultAdmiralConfig(), rand.New(rand.NewPCG(uint64(game), 1)), sh)
		ps[seat] = adm
		ps[1-seat] = opp(rand.New(rand.NewPCG(uint64(game), 2)))
		g, err := submarine.NewGame(r, ps[0].Place(), ps[1].Place(), 0)
		if err != nil {
			b.Fatal(err)
		}
		var v submarine.View
		for g.Outcome() == submarine.Running {
			s := g.Turn()
			var a submarine.Action
			if s == seat {
				t0 := time.Now()
				a = adm.Act()
				times = append(times, time.Since(t0))
			} else {
				a = ps[s].Act()
			}
			st := g.Apply(a)
			g.ViewInto(s, &v)
			ps[s].Observe(st.Actor, &v)
			g.ViewInto(1-s, &v)
			ps[1-s].Observe(st.Other, &v)
		}
	}
	b.StopTimer()
	slices.Sort(times)
	q := func(f float64) float64 {
		return float64(times[min(len(times)-1, int(f*float64(len(times))))].Microseconds()) / 1000
	}
	b.ReportMetric(q(0.5), "p50-ms")
	b.ReportMetric(q(0.99), "p99-ms")
	b.ReportMetric(float64(times[len(times)-1].Microseconds())/1000, "max-ms")
	slow, _ := slices.BinarySearch(times, 20*time.Millisecond+1)
	b.ReportMetric(float64(len(times)-slow)/float64(len(times)), "over-20ms")
	var total time.Duration
	for _, t := range times {
		total += t
	}
	b.ReportMetric(float64(total.Microseconds())/1000/float64(len(times)), "decision-ms")
}
