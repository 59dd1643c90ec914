package arena_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/arena"
)

// TestWilson checks against published values (R: binom::binom.wilson, and
// prop.test(k, n, correct = FALSE)$conf.int).
func TestWilson(t *testing.T) {
	tests := []struct {
		k, n   int
		lo, hi float64
	}{
		{8, 10, 0.4901625, 0.9433178},
		{0, 10, 0, 0.2775328},
		{10, 10, 0.7224672, 1},
		{50, 100, 0.4038315, 0.5961685},
		{1, 1, 0.2065493, 1},
		{5021, 10000, 0.4923013, 0.5118970},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("%d/%d", tc.k, tc.n), func(t *testing.T) {
			got := arena.Wilson(tc.k, tc.n, arena.Z95)
			require.InDelta(t, tc.lo, got.Lo, 1e-6)
			require.InDelta(t, tc.hi, got.Hi, 1e-6)
		})
	}
	require.Equal(t, arena.Interval{Lo: 0, Hi: 1}, arena.Wilson(0, 0, arena.Z95), "no data: anything is possible")
}

func TestMeanQuantile(t *testing.T) {
	tests := []struct {
		xs   []int32
		mean float64
		p90  int32
		p50  int32
	}{
		{nil, 0, 0, 0},
		{[]int32{7}, 7, 7, 7},
		{[]int32{10, 9, 8, 7, 6, 5, 4, 3, 2, 1}, 5.5, 9, 5},
		{[]int32{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}, 6, 10, 6},
		{[]int32{300, 100, 200, 100}, 175, 300, 100},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprint(tc.xs), func(t *testing.T) {
			require.InDelta(t, tc.mean, arena.Mean(tc.xs), 1e-12)
			require.Equal(t, tc.p90, arena.Quantile(tc.xs, 0.9))
			require.Equal(t, tc.p50, arena.Quantile(tc.xs, 0.5))
		})
	}
}

func ExampleWilson() {
	iv := arena.Wilson(8, 10, arena.Z95)
	fmt.Printf("8 wins in 10 games: %.1f%% to %.1f%%\n", 100*iv.Lo, 100*iv.Hi)
	// Output: 8 wins in 10 games: 49.0% to 94.3%
}
