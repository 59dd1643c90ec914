package hygiene

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestNormalize(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"run id", `"game":"20261201T213000Z-9f3c2a71d04be655-12"`, `"game":"RUNID-12"`},
		{"ports", "p0=127.0.0.1:51234 p1=127.0.0.1:2000", "p0=127.0.0.1:PORT p1=127.0.0.1:PORT"},
		{"dir", "/tmp/TestX/001/replays/a.jsonl", "DIR/replays/a.jsonl"},
		{"a cell stays", `"position":[2,3],"hp":3`, `"position":[2,3],"hp":3`},
		{"another address stays", "10.0.0.1:80", "10.0.0.1:80"},
		{"a short hex stays", "20261201T213000Z-9f3c", "20261201T213000Z-9f3c"},
		{"time left", `"timed":true,"left_ms":9998}`, `"timed":true,"left_ms":MS}`},
		{"list times", "<td>2026-12-02 05:23:48</td><td>100ms</td><td>1m2.5s</td>", "<td>TIME</td><td>DURATION</td><td>DURATION</td>"},
		{"a move count stays", "<td>running, 12 moves</td><td>79</td>", "<td>running, 12 moves</td><td>79</td>"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.Equal(t, tt.want, Normalize(tt.in, "/tmp/TestX/001"))
		})
	}
}

func TestCompare(t *testing.T) {
	a := Capture{ChannelWire: {"your turn", "a", "b"}, ChannelLog: {"x"}}
	require.NoError(t, Compare(a, Capture{ChannelWire: {"your turn", "a", "b"}, ChannelLog: {"x"}}))

	err := Compare(a, Capture{ChannelWire: {"your turn", "A", "b"}, ChannelLog: {"x"}})
	require.Error(t, err)
	require.Contains(t, err.Error(), "channel wire differs")
	require.NotContains(t, err.Error(), "channel log differs")
	require.Contains(t, err.Error(), "  - a\n  + A\n")

	err = Compare(a, Capture{ChannelWire: {"your turn", "a", "b"}})
	require.ErrorContains(t, err, "channel log differs", "a channel missing on one side")

	require.Equal(t, "  (line 3 of 2 / 3)\n    x\n    y\n  + z\n", Diff([]string{"x", "y"}, []string{"x", "y", "z"}))
}
