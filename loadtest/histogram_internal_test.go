package loadtest

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestHistogram(t *testing.T) {
	h := new(histogram)
	for i := 1; i <= 1000; i++ {
		h.add(time.Duration(i) * time.Microsecond)
	}
	q := h.quantiles()
	require.Equal(t, int64(1000), q.N)
	require.Equal(t, time.Millisecond, q.Max)
	for _, c := range []struct {
		got, want time.Duration
	}{{q.P50, 500 * time.Microsecond}, {q.P90, 900 * time.Microsecond}, {q.P99, 990 * time.Microsecond}} {
		require.InEpsilon(t, float64(c.want), float64(c.got), 0.02, "%v vs %v", c.got, c.want)
	}
	for _, d := range []time.Duration{0, 1, 127, 128, 129, 1000, time.Second, time.Hour} {
		v := bucketValue(bucketOf(d))
		require.InEpsilon(t, float64(max(d, 1)), float64(max(v, 1)), 0.02, "%v in bucket of %v", d, v)
	}
	var empty histogram
	require.Zero(t, empty.quantile(0.5))
}
