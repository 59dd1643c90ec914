package tournament

import (
	"math"
	"sync"
	"time"
)

// Timing summarises how long a player took per decision (an action, a
// shot, an answer: whatever its game asks of it), over every game of a
// tournament.
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

// Clock collects one entrant's decision times over a tournament: with
// Config.Timing, Config.Timed makes every decision of the entrant's players
// Add its duration. It is safe for concurrent use; the zero value is ready.
type Clock struct {
	mu    sync.Mutex
	hist  [timeBuckets]int64
	n     int64
	sum   time.Duration
	worst time.Duration
}

// Add records one decision that took d.
func (c *Clock) Add(d time.Duration) {
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
func (c *Clock) quantile(q float64) float64 {
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

func (c *Clock) timing() Timing {
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
