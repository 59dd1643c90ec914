package cli

import (
	"math"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// gcSettings reads the collector's percent (-1 when off) and memory limit
// without setting them: a read that set the percent and put it back could
// undo a switch that collectFrom's cleanup makes in between.
func gcSettings() (percent int, limit int64) {
	s := []metrics.Sample{{Name: "/gc/gogc:percent"}, {Name: "/gc/gomemlimit:bytes"}}
	metrics.Read(s)
	// The metric holds the percent as an unsigned number: off (-1) reads
	// as the largest uint64, which converts back to -1.
	return int(s[0].Value.Uint64()), int64(s[1].Value.Uint64())
}

func TestCollectFrom(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(math.MaxInt64))
	tests := []struct {
		name       string
		ownLimit   int64 // the process's limit before the call
		floor      int64
		live       int   // bytes kept live before collecting
		switched   bool  // the collector is at percent after the collection
		wantLimit  int64 // the limit in force before the switch
		wantPct    int   // the percent after the collection
		wantAfterL int64 // the limit after the collection
	}{
		{name: "below the floor: still off", ownLimit: math.MaxInt64, floor: 1 << 30, live: 1 << 20,
			wantLimit: 1 << 30, wantPct: -1, wantAfterL: 1 << 30},
		{name: "near the floor: switched", ownLimit: math.MaxInt64, floor: 64 << 20, live: 64 << 20, switched: true,
			wantLimit: 64 << 20, wantPct: 10, wantAfterL: math.MaxInt64},
		{name: "a lower limit of the process stays", ownLimit: 512 << 20, floor: 1 << 30, live: 1 << 20,
			wantLimit: 512 << 20, wantPct: -1, wantAfterL: 512 << 20},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			debug.SetGCPercent(100)
			debug.SetMemoryLimit(tt.ownLimit)
			restore := collectFrom(tt.floor, 10)
			p, l := gcSettings()
			require.Equal(t, -1, p)
			require.Equal(t, tt.wantLimit, l)
			keep := make([]byte, tt.live)
			for i := 0; i < len(keep); i += 4096 {
				keep[i] = 1
			}
			runtime.GC()
			if tt.switched {
				require.Eventually(t, func() bool { p, _ := gcSettings(); return p == tt.wantPct },
					5*time.Second, time.Millisecond)
			} else {
				runtime.GC() // a second collection runs the first one's cleanup
				time.Sleep(10 * time.Millisecond)
			}
			p, l = gcSettings()
			require.Equal(t, tt.wantPct, p)
			require.Equal(t, tt.wantAfterL, l)
			runtime.KeepAlive(keep)
			restore()
			p, l = gcSettings()
			require.Equal(t, 100, p)
			require.Equal(t, tt.ownLimit, l)
		})
	}
}
