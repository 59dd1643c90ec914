package players

import (
	"testing"

	"github.com/kaisen-ai/kaisen/game/submarine"
)

// BenchmarkHirotaGame plays whole games of hirota against stateplayer2 and
// random (seeded, seats fixed); ns/act is the mean time of one action of
// either side, beliefs included.
func BenchmarkHirotaGame(b *testing.B) {
	r := submarine.DefaultRules()
	for _, opp := range []string{"random", "stateplayer2"} {
		b.Run(opp, func(b *testing.B) {
			hirota, err := New("hirota", r, nil)
			if err != nil {
				b.Fatal(err)
			}
			of, err := New(opp, r, nil)
			if err != nil {
				b.Fatal(err)
			}
			actions, seed := 0, uint64(0)
			for b.Loop() {
				res, _, _ := recordedGame(r, hirota, of, seed)
				if res.err != nil {
					b.Fatal(res.err)
				}
				actions += res.actions
				seed++
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(actions), "ns/act")
		})
	}
}
