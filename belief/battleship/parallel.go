package bsbelief

// Splitting the heavy steps of a count over goroutines. Each split step
// writes disjoint parts of its output (the profiles of a range, or the
// groups of a join), and what it sums (work, overflow flags, supports)
// is combined in a fixed order or commutes exactly (integer sums, bit
// ors), so the results, errors and work are the same for any number of
// workers.

import (
	"runtime"
	"sort"
	"sync"
)

// minSplitWeight is the least weight (span entries or transitions) of a
// step worth splitting: below it a goroutine's start and the cache
// misses of a second core cost more than they save.
const minSplitWeight = 1 << 15

// setWorkers sets d's workers and minSplit from opt.
func (d *counter) setWorkers(opt CountOptions) {
	d.workers = opt.Workers
	if d.workers <= 0 {
		d.workers = runtime.GOMAXPROCS(0)
	}
	d.minSplit = minSplitWeight
	if opt.splitMin > 0 {
		d.minSplit = opt.splitMin
	}
}

// parts returns how many ranges a step of the given weight is split
// into: 1 when it is small or the count runs on one worker.
func (d *counter) parts(weight int) int {
	if d.workers <= 1 || weight < d.minSplit {
		return 1
	}
	return min(d.workers, max(1, weight/max(1, d.minSplit/2)))
}

// splitRanges cuts [0, n) into k ranges of about equal weight, cum being
// the cumulative weight (cum(i) for i in 0..n, non-decreasing, cum(0) =
// 0): the bounds b[0] = 0 <= b[1] <= ... <= b[k] = n.
func splitRanges(n, k int, cum func(i int) int64) []int {
	b := make([]int, k+1)
	total := cum(n)
	for p := 1; p < k; p++ {
		target := total * int64(p) / int64(k)
		b[p] = max(b[p-1], sort.Search(n, func(i int) bool { return cum(i) >= target }))
	}
	b[k] = n
	return b
}

// runParts runs f(p, lo, hi) for the k ranges of bounds b, the first on
// the calling goroutine and the others on their own, and returns when
// all are done.
func runParts(b []int, f func(p, lo, hi int)) {
	runWorkers(len(b)-1, func(p int) { f(p, b[p], b[p+1]) })
}

// runWorkers runs f(0), ..., f(k-1), f(0) on the calling goroutine and
// the others on their own, and returns when all are done.
func runWorkers(k int, f func(p int)) {
	if k == 1 {
		f(0)
		return
	}
	var wg sync.WaitGroup
	for p := 1; p < k; p++ {
		wg.Go(func() { f(p) })
	}
	f(0)
	wg.Wait()
}
