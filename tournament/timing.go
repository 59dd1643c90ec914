package tournament

import (
	"math"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/kaisen-ai/kaisen/explain"
	"github.com/kaisen-ai/kaisen/game/submarine"
	"github.com/kaisen-ai/kaisen/players"
)

// Timing summarises how long a player took per decision (Act), over every
// game of a tournament.
type Timing struct {
	Decisions int     `json:"decisions"`
	MeanMS    float64 `json:"mean_ms"`
	P50MS     float64 `json:"p50_ms"`
	P99MS     float64 `json:"p99_ms"`
	MaxMS     float64 `json:"max_ms"`
}

// timeBuckets is the resolution of the decision-time histogram: bucket k
// holds times in [1.02^k, 1.02^(k+1)) microseconds, so a quantile is exact to
// 2%; 1200 buckets reach beyond 20 seconds.
const timeBuckets = 1200

var logStep = math.Log(1.02)

// clock collects one player's decision times. It is safe for concurrent use.
type clock struct {
	mu    sync.Mutex
	hist  [timeBuckets]int64
	n     int64
	sum   time.Duration
	worst time.Duration
}

func (c *clock) add(d time.Duration) {
	us := float64(d) / float64(time.Microsecond)
	k := 0
	if us > 1 {
		k = min(timeBuckets-1, int(math.Log(us)/logStep))
	}
	c.mu.Lock()
	c.hist[k]++
	c.n++
	c.sum += d
	c.worst = max(c.worst, d)
	c.mu.Unlock()
}

// quantile returns the upper edge of the bucket holding the q-quantile, in
// milliseconds (capped by the worst time seen).
func (c *clock) quantile(q float64) float64 {
	rank := int64(math.Ceil(q * float64(c.n)))
	var seen int64
	for k, h := range c.hist {
		seen += h
		if seen >= rank && h > 0 {
			ms := math.Exp(float64(k+1)*logStep) / 1000
			return math.Min(ms, float64(c.worst)/float64(time.Millisecond))
		}
	}
	return float64(c.worst) / float64(time.Millisecond)
}

func (c *clock) timing() Timing {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.n == 0 {
		return Timing{}
	}
	return Timing{
		Decisions: int(c.n),
		MeanMS:    float64(c.sum) / float64(c.n) / float64(time.Millisecond),
		P50MS:     c.quantile(0.5),
		P99MS:     c.quantile(0.99),
		MaxMS:     float64(c.worst) / float64(time.Millisecond),
	}
}

// timed wraps a player and records the duration of every Act.
type timed struct {
	players.Player
	c *clock
}

func (t *timed) Act() submarine.Action {
	start := time.Now()
	a := t.Player.Act()
	t.c.add(time.Since(start))
	return a
}

// Explain passes the wrapped player's explanation on (an empty Decision when
// it has none).
func (t *timed) Explain() explain.Decision {
	if e, ok := t.Player.(explain.Explainer); ok {
		return e.Explain()
	}
	return explain.Decision{}
}

func timedFactory(f players.Factory, c *clock) players.Factory {
	return func(rng *rand.Rand) players.Player { return &timed{Player: f(rng), c: c} }
}
