package cli

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
)

// collectFrom sets the collector of the process for a burst of allocation
// that stays mostly live, such as a count: off until the Go runtime holds
// floor bytes (a memory limit, kept at the process's own limit when that
// is lower), then at percent% of heap growth. The switch comes at the
// first collection after which the live heap grown by percent% would
// reach the limit's heap goal: from there the limit would make the
// collector run ever more often (all the time once the live heap passes
// it), so the process's own limit comes back with it. restore puts back
// the collector's settings from before the call and stops the switch.
func collectFrom(floor int64, percent int) (restore func()) {
	t := &gcFloor{percent: percent}
	t.oldLimit = debug.SetMemoryLimit(-1) // -1 reads it
	t.oldPercent = debug.SetGCPercent(-1)
	debug.SetMemoryLimit(min(floor, t.oldLimit))
	t.arm()
	return t.restore
}

// gcFloor is collectFrom's state. It hears of each collection through a
// cleanup on an object left unreachable on purpose, which runs (on the
// runtime's cleanup goroutine) after the collection that frees it.
type gcFloor struct {
	percent    int
	oldPercent int
	oldLimit   int64
	mu         sync.Mutex
	done       bool // switched or restored: no more tuning
}

// gcSentinel is the object whose cleanup runs after a collection: it
// holds a pointer so that the tiny allocator, which packs small objects
// without pointers together, does not keep it alive with its neighbours.
type gcSentinel struct {
	_ *int
	_ [2]uint64
}

func (t *gcFloor) arm() {
	runtime.AddCleanup(new(gcSentinel), (*gcFloor).collected, t)
}

// collected switches to percent when the next collection at percent
// would come no later than the limit's, else waits for the next one.
func (t *gcFloor) collected() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.done {
		return
	}
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}, {Name: "/gc/heap/goal:bytes"}}
	metrics.Read(s)
	live, goal := s[0].Value.Uint64(), s[1].Value.Uint64()
	if live+live*uint64(t.percent)/100 >= goal {
		t.done = true
		debug.SetGCPercent(t.percent)
		debug.SetMemoryLimit(t.oldLimit)
		return
	}
	t.arm()
}

func (t *gcFloor) restore() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.done = true
	debug.SetGCPercent(t.oldPercent)
	debug.SetMemoryLimit(t.oldLimit)
}
