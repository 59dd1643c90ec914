package extern

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestArgv(t *testing.T) {
	tests := []struct {
		name   string
		line   string
		limits Limits
		want   []string
	}{
		{"plain words run directly", "./bot --addr 127.0.0.1:5 -v", Limits{}, []string{"./bot", "--addr", "127.0.0.1:5", "-v"}},
		{"quotes need the shell", "python3 'my bot.py' 1", Limits{}, []string{shell, "-c", "python3 'my bot.py' 1"}},
		{"a list needs the shell", "sleep 9 & ./bot 1", Limits{}, []string{shell, "-c", "sleep 9 & ./bot 1"}},
		{"an assignment needs the shell", "X=1 ./bot 1", Limits{}, []string{shell, "-c", "X=1 ./bot 1"}},
		{"limits need the shell", "./bot 1", Limits{MemoryBytes: 64 << 20, CPUSeconds: 5},
			[]string{shell, "-c", "ulimit -d 65536 || exit 125; ulimit -t 5 || exit 125; ./bot 1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.Equal(t, tt.want, tt.limits.argv(tt.line))
		})
	}
}

func TestExpand(t *testing.T) {
	c := Command{Line: "./bot {host}:{port} --seed {seed} {port}"}
	require.Equal(t, "./bot 127.0.0.1:4242 --seed 9 4242", c.expand("127.0.0.1", 4242, 9))
}
