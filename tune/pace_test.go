package tune

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestTotalAndETA: a run's total counts the SPSA points, the final
// measurement and the games played after it; the ETA extrapolates this
// process's pace over the games left.
func TestTotalAndETA(t *testing.T) {
	tu := &Tuning{Batch: 10, EvalGames: 25, After: 100}
	require.Equal(t, 2*10*4+2*25+100, tu.Total(4))
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	p := pace{began: t0, from: 40, total: 230}
	require.Empty(t, p.eta(t0.Add(time.Second), 40), "no game played by this process yet")
	// 20 games in 10 s: 2 games/s, 170 games left: 85 s
	require.Equal(t, "  ETA 0:01:25 (170 games left)", p.eta(t0.Add(10*time.Second), 60))
	require.Empty(t, p.eta(t0.Add(time.Minute), 230), "done")
	require.Equal(t, "1:02:03", Clock(time.Hour+2*time.Minute+3*time.Second))
}
