package admiral

import (
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	kgame "github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/game/submarine"
	"github.com/kaisen-ai/kaisen/internal/config"
	"github.com/kaisen-ai/kaisen/players"
)

// BenchmarkAdmiralDecision plays b.N whole games of admiral (default budget)
// against stateplayer2 (and, in the Hirota variant, against hirota, whose
// games reach perfect information and the exact solver far more often; draw
// limit 2000 to bound their length) under the default rules, seats
// alternating, and times
// every admiral decision (Act). ns/op is admiral's thinking time per game;
// decision-ms is the mean per decision, p50-ms, p99-ms and max-ms the
// percentiles over all decisions of the run, and over-20ms the fraction of
// decisions slower than 20 ms (the goal is p99 <= 20 ms). It also reports
// the games' results (wins and draws, as fractions of the games), the
// fraction of games in which the exact solver took over (solved-games: both
// fleets known) and the median action at which it did (solved-from-p50).
//
//	go test ./players -run '^$' -bench AdmiralDecision -benchtime 200x
//
// (The thinking time excludes Observe, where the opponent model updates
// its posterior; kaisen match's CPU time counts everything.)
func BenchmarkAdmiralDecision(b *testing.B) { benchAdmiralDecision(b, "stateplayer2", 0) }

func BenchmarkAdmiralDecisionHirota(b *testing.B) { benchAdmiralDecision(b, "hirota", 2000) }

// BenchmarkAdmiralDecisionExploiter is the Hirota variant against the
// joint-greedy exploiter tuned against admiral
// (configs/exploiters/joint-greedy-vs-admiral-995e2ff.yaml): long drawn
// games in which the opponent model's search runs on nearly every
// decision.
func BenchmarkAdmiralDecisionExploiter(b *testing.B) {
	benchAdmiralDecisionLoad(b, "joint-greedy", config.File("../../configs/exploiters/joint-greedy-vs-admiral-995e2ff.yaml"), 2000, DefaultAdmiralConfig())
}

// BenchmarkAdmiralDecisionHirotaModel is the Hirota variant with the
// opponent model on (opponent.model: true).
func BenchmarkAdmiralDecisionHirotaModel(b *testing.B) {
	cfg := DefaultAdmiralConfig()
	cfg.Opponent.Model = true
	benchAdmiralDecisionCfg(b, "hirota", 2000, cfg)
}

func benchAdmiralDecision(b *testing.B, against string, drawLimit int) {
	benchAdmiralDecisionCfg(b, against, drawLimit, DefaultAdmiralConfig())
}

func benchAdmiralDecisionCfg(b *testing.B, against string, drawLimit int, cfg AdmiralConfig) {
	benchAdmiralDecisionLoad(b, against, nil, drawLimit, cfg)
}

// benchAdmiralDecisionLoad is benchAdmiralDecisionCfg with the opponent's
// weights from load (nil: its built-in weights).
func benchAdmiralDecisionLoad(b *testing.B, against string, load players.Loader, drawLimit int, cfg AdmiralConfig) {
	r := submarine.DefaultRules()
	if drawLimit > 0 {
		r.DrawLimit = drawLimit
	}
	opp, err := players.New(against, r, load)
	if err != nil {
		b.Fatal(err)
	}
	sh := newAdmiralShared(r, cfg)
	var times []time.Duration
	var perfectAt []int
	wins, draws := 0, 0
	b.ResetTimer()
	for game := range b.N {
		seat := game % 2
		var ps [2]players.Player
		adm := newAdmiral(r, cfg, rand.New(rand.NewPCG(uint64(game), 1)), sh)
		ps[seat] = adm
		ps[1-seat] = opp(rand.New(rand.NewPCG(uint64(game), 2)))
		g, err := submarine.NewGame(r, ps[0].Place(), ps[1].Place(), 0)
		if err != nil {
			b.Fatal(err)
		}
		var v submarine.View
		for g.Status() == kgame.Running {
			s := g.ToAct()
			var a submarine.Action
			if s == seat {
				t0 := time.Now()
				a = adm.Act()
				times = append(times, time.Since(t0))
			} else {
				a = ps[s].Act()
			}
			st, _ := g.Apply(a)
			g.ViewInto(s, &v)
			ps[s].Observe(st.Actor, &v)
			g.ViewInto(1-s, &v)
			ps[1-s].Observe(st.Other, &v)
		}
		switch {
		case g.Status() != kgame.Won:
			draws++
		case g.Winner() == seat:
			wins++
		}
		if at := adm.PerfectAt(); at > 0 {
			perfectAt = append(perfectAt, at)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(wins)/float64(b.N), "wins")
	b.ReportMetric(float64(draws)/float64(b.N), "draws")
	b.ReportMetric(float64(len(perfectAt))/float64(b.N), "solved-games")
	if len(perfectAt) > 0 {
		slices.Sort(perfectAt)
		b.ReportMetric(float64(perfectAt[len(perfectAt)/2]), "solved-from-p50")
	}
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
