package server

import (
	"context"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/kaisen-ai/kaisen/game/submarine"
	"github.com/kaisen-ai/kaisen/internal/cputime"
	"github.com/kaisen-ai/kaisen/protocol"
)

// BenchmarkServerLoopback measures whole random games over loopback TCP:
// pairs of random clients (in this process) play on a pair listener until
// b.N games have finished. ns/op is per game; games/s and actions/s are the
// server's throughput. "bare" records nothing; "durable" writes the result
// log (fsync per batch) and one replay file per game (fsync + rename).
// cpu-ms/game is the CPU time of the whole process (server and clients)
// per game, which does not depend on what else the machine is running.
//
//	go test ./server -run '^$' -bench ServerLoopback -benchtime 2000x
func BenchmarkServerLoopback(b *testing.B) {
	for _, bc := range []struct {
		name    string
		durable bool
	}{{"bare", false}, {"durable", true}} {
		b.Run(bc.name, func(b *testing.B) {
			cfg := DefaultConfig()
			cfg.Listeners[0].Address = "127.0.0.1:0"
			cfg.ResultLog, cfg.ReplayDir = "", ""
			if bc.durable {
				dir := b.TempDir()
				cfg.ResultLog = filepath.Join(dir, "results.jsonl")
				cfg.ReplayDir = filepath.Join(dir, "replays")
			}
			cfg.Seed = 1
			cfg.Limits.MaxConnectionsPerIP = 4096
			cfg.Limits.MaxConnections = 4096
			s, err := New(cfg, nil)
			if err != nil {
				b.Fatal(err)
			}
			if err := s.Listen(); err != nil {
				b.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan error, 1)
			go func() { done <- s.Serve(ctx) }()
			addr := s.Addrs()[0].String()
			rules := submarine.DefaultRules()
			finished := func() int64 { return s.metrics.finished[OutcomeWin].Load() + s.metrics.finished[OutcomeDraw].Load() }

			clients := 4 * runtime.GOMAXPROCS(0)
			b.ResetTimer()
			start := time.Now()
			cpu0, _ := cputime.Process()
			var wg sync.WaitGroup
			for i := range clients {
				wg.Go(func() {
					for seed := uint64(i) << 32; finished() < int64(b.N); seed++ {
						if _, err := randomClient(addr, protocol.Classic, rules, seed, ""); err != nil && finished() < int64(b.N) {
							b.Error(err)
							return
						}
					}
				})
			}
			for finished() < int64(b.N) && !b.Failed() {
				time.Sleep(time.Millisecond)
			}
			cpu1, _ := cputime.Process()
			elapsed, cpu := time.Since(start), cpu1-cpu0
			b.StopTimer()
			games, actions := finished(), s.metrics.actions.Load()
			cancel()
			if err := <-done; err != nil {
				b.Fatal(err)
			}
			wg.Wait()
			b.ReportMetric(float64(games)/elapsed.Seconds(), "games/s")
			b.ReportMetric(float64(actions)/elapsed.Seconds(), "actions/s")
			b.ReportMetric(float64(actions)/float64(games), "actions/game")
			b.ReportMetric(cpu.Seconds()*1000/float64(games), "cpu-ms/game")
		})
	}
}
