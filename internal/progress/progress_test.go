package progress

import (
	"bytes"
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestLine(t *testing.T) {
	tests := []struct {
		name        string
		done, total int
		elapsed     time.Duration
		want        string
	}{
		{"start", 0, 100, 0, "[..........]   0/100   0%"},
		{"half", 50, 100, 2 * time.Second, "[#####.....]  50/100  50% 25 games/s ETA 0:00:02"},
		{"fast", 42000, 100000, 2 * time.Second, "[####......]  42000/100000  42% 21.0k games/s ETA 0:00:03"},
		{"done", 100, 100, 4 * time.Second, "[##########] 100/100 100% 25 games/s"},
		{"hours", 1, 10000, time.Second, "[..........]     1/10000   0% 1 games/s ETA 2:46:39"},
		{"over", 150, 100, time.Second, "[##########] 150/100 100% 150 games/s"},
		{"no total", 0, 0, 0, "[..........] 0/0   0%"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			require.Equal(t, tc.want, Line(tc.done, tc.total, tc.elapsed, 10, "games"))
		})
	}
}

func TestBarRedrawsOnlyOnChange(t *testing.T) {
	var buf bytes.Buffer
	b := New(&buf, 4, "games")
	b.width = 4
	clock := time.Unix(0, 0)
	b.start, b.now = clock, func() time.Time { return clock }
	b.Set(0)
	b.Set(0)
	clock = clock.Add(time.Second)
	b.Set(2)
	b.Done(4)
	require.Equal(t, "\r[....] 0/4   0%\x1b[K\r[##..] 2/4  50% 2 games/s ETA 0:00:01\x1b[K\r[####] 4/4 100% 4 games/s\x1b[K\n", buf.String())
}

func TestIsTerminal(t *testing.T) {
	require.False(t, IsTerminal(&bytes.Buffer{}))
	f, err := os.CreateTemp(t.TempDir(), "x")
	require.NoError(t, err)
	defer f.Close()
	require.False(t, IsTerminal(f), "a regular file is not a terminal")
	null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	require.NoError(t, err)
	defer null.Close()
	require.False(t, IsTerminal(null), "%s is a character device, not a terminal", os.DevNull)
	if tty, err := os.OpenFile("/dev/tty", os.O_WRONLY, 0); err == nil {
		defer tty.Close()
		require.True(t, IsTerminal(tty))
	}
}

func TestLines(t *testing.T) {
	var out bytes.Buffer
	clock := time.Unix(0, 0)
	b := NewLines(&out, 100, "games", 10*time.Second)
	b.now, b.start, b.lastAt, b.width = func() time.Time { return clock }, clock, clock, 10
	clock = clock.Add(5 * time.Second)
	b.Set(10)
	require.Empty(t, out.String(), "nothing before the first interval")
	clock = clock.Add(5 * time.Second)
	b.Set(20)
	clock = clock.Add(3 * time.Second)
	b.Set(30)
	clock = clock.Add(7 * time.Second)
	b.Set(40)
	clock = clock.Add(time.Second)
	b.Done(100)
	require.Equal(t, "[##........]  20/100  20% 2 games/s ETA 0:00:40\n"+
		"[####......]  40/100  40% 2 games/s ETA 0:00:30\n"+
		"[##########] 100/100 100% 5 games/s\n", out.String())
	require.NotContains(t, out.String(), "\r")

	out.Reset()
	quick := NewLines(&out, 10, "games", time.Hour)
	quick.Set(5)
	quick.Done(10)
	require.Empty(t, out.String(), "a short run stays silent")
}

func TestBarNote(t *testing.T) {
	var buf bytes.Buffer
	b := New(&buf, 4, "games")
	b.width, b.now = 4, func() time.Time { return b.start }
	b.Set(0)
	b.SetNote("Score 1 - 0 - 0")
	b.Set(0)
	require.Equal(t, "\r[....] 0/4   0%\x1b[K\r[....] 0/4   0%  Score 1 - 0 - 0\x1b[K", buf.String(),
		"a new note redraws the line")
}
