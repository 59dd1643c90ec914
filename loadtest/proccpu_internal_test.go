package loadtest

import (
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseProcStat(t *testing.T) {
	tests := []struct {
		name, line string
		want       time.Duration
		wantErr    string
	}{
		{"plain", "4242 (kaisen) S 1 4242 4242 0 -1 4194560 1234 0 0 0 250 75 0 0 20 0 9 0 100 0 0", 3250 * time.Millisecond, ""},
		{"a command name with spaces and parentheses", "7 (a (b) c) R 1 7 7 0 -1 0 0 0 0 0 3 4 0 0", 70 * time.Millisecond, ""},
		{"no parenthesis", "7 kaisen R 1", 0, "no ')'"},
		{"too short", "7 (k) R 1 2 3", 0, "fields after the command name"},
		{"not a number", "7 (k) R 1 7 7 0 -1 0 0 0 0 0 x 4", 0, `bad tick count "x"`},
		{"negative", "7 (k) R 1 7 7 0 -1 0 0 0 0 0 -3 4", 0, `bad tick count "-3"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parseProcStat([]byte(tt.line))
			if tt.wantErr != "" {
				require.ErrorIs(t, err, ErrLoad)
				require.ErrorContains(t, err, tt.wantErr)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

var sink int

// TestProcessCPUOfSelf: the CPU time read back grows with work done.
func TestProcessCPUOfSelf(t *testing.T) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("no /proc (not Linux)")
	}
	before, err := ProcessCPU(os.Getpid())
	require.NoError(t, err)
	// Spin (CPU time, not sleep) until a tick more is read back; on a
	// busy machine the wall time this takes varies, so give it up to 10s.
	after := before
	for deadline := time.Now().Add(10 * time.Second); after == before && time.Now().Before(deadline); {
		for range 1 << 20 {
			sink++
		}
		after, err = ProcessCPU(os.Getpid())
		require.NoError(t, err)
	}
	assert.Greater(t, after, before)
	_, err = ProcessCPU(-1)
	require.ErrorIs(t, err, ErrLoad)
}
