package bsbelief

// Splitting the heavy steps of a count over goroutines. Each split step
// writes disjoint parts of its output (the profiles of a range, or the
// groups of a join), and what it sums (work, overflow flags, supports)
// is combined in a fixed order or commutes exactly (integer sums, bit
// ors), so the results, errors and work are the same for any number of
// workers.

import (
	"runtime"
	"slices"
	"sort"
	"sync"
	"sync/atomic"
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

// enumShards splits the layers of pass 1 over goroutines by the hash of
// the profiles they make: each shard walks every profile of the layer
// but looks up and stores only the new profiles of its hashes, noting
// the transition that made each first. The serial walk numbers the new
// profiles in the order of the transitions that make them first, so
// merging the shards by those transitions gives the same numbering, the
// same profiles and supports (ors) and the same transition table.
type enumShards struct {
	shards []enumShard
	own    []uint8 // per transition: the shard of its destination
	heads  []int
	// made counts the profiles of the layer the shards have made, in
	// batches: once it passes the budget's maxKeys every shard stops.
	made atomic.Int64
}

// enumShard is one shard's part of a layer.
type enumShard struct {
	rules *cellRules
	idx   keyTable
	keys  []key
	masks []uint64
	first []int32 // per profile: the transition that made it first
	remap []int32 // per profile: its index in the layer
	over  bool    // more profiles than the budget allows
}

func newEnumShards(d *counter, k int) *enumShards {
	sh := &enumShards{shards: make([]enumShard, k), heads: make([]int, k)}
	for p := range sh.shards {
		sh.shards[p].rules = newCellRules(d)
	}
	return sh
}

// shardOf picks a profile's shard from bits of its hash that the
// tables' slots and tags barely use.
func shardOf(h uint64, k int) int { return int(h>>32&0xff) % k }

// layer builds the layer after cell t from the profiles keys and their
// forward supports sf, as the serial walk of forwardSupports does: it
// appends the new profiles to nkeys and their supports to nsf (room for
// both made by the caller) and fills the transition table tr. It
// reports fail, building nothing, when the layer has more than maxKeys
// profiles (maxKeys >= 0).
func (sh *enumShards) layer(d *counter, t int, keys []key, sf []uint64, nkeys []key, nsf []uint64, tr []uint32, maxKeys int) ([]key, []uint64, bool) {
	pw, k := d.pw, len(sh.shards)
	sh.own = grow(sh.own, len(tr), 0)
	sh.made.Store(0)
	const batch = 64
	runWorkers(k, func(p int) {
		s := &sh.shards[p]
		cs := s.rules.cell(d, t)
		s.keys, s.masks, s.first, s.over = s.keys[:0], s.masks[:0], s.first[:0], false
		s.idx.reset((len(keys) + len(keys)/4) / k)
		for i, kk := range keys {
			m := sf[i*pw : (i+1)*pw]
			if maskZero(m) {
				continue
			}
			if maxKeys >= 0 && i%1024 == 0 && sh.made.Load() > int64(maxKeys) {
				s.over = true // another shard found the layer too large
				return
			}
			rr := cs.rules(d, kk)
			for oi := range 2 {
				nk, ship, ok := cs.child(d, kk, rr, oi)
				if !ok || shardOf(nk.hash(), k) != p {
					continue
				}
				e := 2*i + oi
				j, seen := s.idx.find(nk, s.keys)
				if !seen {
					j = int32(len(s.keys))
					s.keys = append(s.keys, nk)
					s.idx.put(j, s.keys)
					n := len(s.masks)
					s.masks = slices.Grow(s.masks, pw)[:n+pw]
					clear(s.masks[n:])
					s.first = append(s.first, int32(e))
					if maxKeys >= 0 && len(s.keys)%batch == 0 && sh.made.Add(batch) > int64(maxKeys) {
						s.over = true // the layer has more profiles than the budget allows
						return
					}
				}
				tr[e] = uint32(j+1)<<6 | uint32(ship)
				sh.own[e] = uint8(p)
				d.orShiftUp(s.masks[int(j)*pw:(int(j)+1)*pw], m, ship)
			}
		}
	})
	total := 0
	for p := range sh.shards {
		s := &sh.shards[p]
		if s.over {
			return nkeys, nsf, true
		}
		total += len(s.keys)
		s.remap = grow(s.remap, len(s.keys), 0)
		sh.heads[p] = 0
	}
	if maxKeys >= 0 && total > maxKeys {
		return nkeys, nsf, true
	}
	// Merge: the profiles in the order of the transitions that made them.
	for range total {
		best, bf := -1, int32(0)
		for p := range sh.shards {
			s := &sh.shards[p]
			if h := sh.heads[p]; h < len(s.first) && (best < 0 || s.first[h] < bf) {
				best, bf = p, s.first[h]
			}
		}
		s := &sh.shards[best]
		lj := sh.heads[best]
		sh.heads[best]++
		s.remap[lj] = int32(len(nkeys))
		nkeys = append(nkeys, s.keys[lj])
		nsf = append(nsf, s.masks[lj*pw:(lj+1)*pw]...)
	}
	runParts(splitRanges(len(tr), k, func(e int) int64 { return int64(e) }), func(_, lo, hi int) {
		for e := lo; e < hi; e++ {
			if x := tr[e]; x != 0 {
				j := sh.shards[sh.own[e]].remap[x>>6-1]
				tr[e] = uint32(j+1)<<6 | x&63
			}
		}
	})
	return nkeys, nsf, false
}
