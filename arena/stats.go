package arena

import (
	"math"
	"slices"
)

// Z95 is the standard-normal quantile of a two-sided 95% interval.
const Z95 = 1.959963984540054

// Interval is a closed interval of proportions [Lo, Hi].
type Interval struct {
	Lo, Hi float64
}

// Wilson returns the Wilson score interval of a proportion with k successes
// out of n trials at normal quantile z (Z95 for 95%). It stays inside [0, 1]
// and is sensible for k = 0 or k = n, unlike the normal approximation. With
// n = 0 nothing is known and the interval is [0, 1].
func Wilson(k, n int, z float64) Interval {
	if n <= 0 {
		return Interval{0, 1}
	}
	k = min(max(k, 0), n)
	nf := float64(n)
	p := float64(k) / nf
	z2 := z * z
	denom := 1 + z2/nf
	center := (p + z2/(2*nf)) / denom
	half := z / denom * math.Sqrt(p*(1-p)/nf+z2/(4*nf*nf))
	return Interval{Lo: max(0, center-half), Hi: min(1, center+half)}
}

// Mean is the arithmetic mean of xs, 0 for an empty slice.
func Mean(xs []int32) float64 {
	if len(xs) == 0 {
		return 0
	}
	var sum int64
	for _, x := range xs {
		sum += int64(x)
	}
	return float64(sum) / float64(len(xs))
}

// Quantile returns the nearest-rank q-quantile of xs (0 < q <= 1): the
// smallest value such that at least a fraction q of xs is at most it. It sorts
// xs in place and returns 0 for an empty slice. Quantile(xs, 0.9) is the p90.
func Quantile(xs []int32, q float64) int32 {
	if len(xs) == 0 {
		return 0
	}
	slices.Sort(xs)
	rank := int(math.Ceil(q * float64(len(xs))))
	rank = min(max(rank, 1), len(xs))
	return xs[rank-1]
}
