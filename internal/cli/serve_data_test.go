package cli

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestDataDir(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	for _, tt := range []struct{ xdg, want string }{
		{"/srv/data", "/srv/data/kaisen"},
		{"", filepath.Join(home, ".local", "share", "kaisen")},
		{"relative/dir", filepath.Join(home, ".local", "share", "kaisen")}, // the spec ignores relative paths
	} {
		t.Run(tt.xdg, func(t *testing.T) {
			t.Setenv("XDG_DATA_HOME", tt.xdg)
			got, err := dataDir()
			require.NoError(t, err)
			require.Equal(t, tt.want, got)
		})
	}
}

// TestServeWritesUnderDataDir: without --result-log and --replay-dir the
// server writes into the data directory, says where, and leaves the current
// directory alone; "" turns either off; a config file's value wins over the
// default.
func TestServeWritesUnderDataDir(t *testing.T) {
	xdg := t.TempDir()
	t.Setenv("XDG_DATA_HOME", xdg)
	data := filepath.Join(xdg, "kaisen")
	cfgPath := filepath.Join(t.TempDir(), "server.yaml")
	require.NoError(t, os.WriteFile(cfgPath, []byte("result_log: /tmp/elsewhere.jsonl\n"), 0o644))
	for _, tt := range []struct {
		name                 string
		args                 []string
		wantLog, wantReplays string
	}{
		{"defaults", nil, filepath.Join(data, "results.jsonl"), filepath.Join(data, "replays")},
		{"off", []string{"--result-log", "", "--replay-dir", ""}, "none", "none"},
		{"config file", []string{"--config", cfgPath}, "/tmp/elsewhere.jsonl", filepath.Join(data, "replays")},
	} {
		t.Run(tt.name, func(t *testing.T) {
			cmd := newServeCmd(&env{})
			require.NoError(t, cmd.ParseFlags(tt.args))
			var f serveFlags
			f.resultLog, _ = cmd.Flags().GetString("result-log")
			f.replayDir, _ = cmd.Flags().GetString("replay-dir")
			f.config, _ = cmd.Flags().GetString("config")
			cfg, err := serveConfig(cmd.Flags(), f, data)
			require.NoError(t, err)
			require.Equal(t, tt.wantLog, orNone(cfg.ResultLog))
			require.Equal(t, tt.wantReplays, orNone(cfg.ReplayDir))
		})
	}

	// End to end: the default run creates the data directory and prints both paths.
	cwd := t.TempDir()
	t.Chdir(cwd)
	ctx, cancel := context.WithCancel(context.Background())
	out := &lineSink{lines: make(chan string, 16)}
	var errb safeBuffer
	done := make(chan int, 1)
	go func() {
		done <- Run(ctx, []string{"serve", "--listen", "127.0.0.1:0"}, strings.NewReader(""), out, &errb)
	}()
	var lines []string
	for len(lines) < 3 {
		select {
		case l := <-out.lines:
			lines = append(lines, l)
		case c := <-done:
			t.Fatalf("serve exited with %d: %s", c, errb.String())
		}
	}
	cancel()
	require.Equal(t, 0, <-done, errb.String())
	require.Equal(t, "result log: "+filepath.Join(data, "results.jsonl"), lines[1])
	require.Equal(t, "replays: "+filepath.Join(data, "replays"), lines[2])
	require.DirExists(t, filepath.Join(data, "replays"))
	// No seed given: the key is drawn and nothing that derives games is printed.
	require.NotRegexp(t, `(?i)seed\D{0,4}\d`, errb.String())
	require.Contains(t, errb.String(), "a secret key drawn at start")
	entries, err := os.ReadDir(cwd)
	require.NoError(t, err)
	require.Empty(t, entries, "nothing written into the current directory")
}

func TestServeConfigDurationNeedsUnit(t *testing.T) {
	t.Setenv("XDG_DATA_HOME", t.TempDir())
	cfgPath := filepath.Join(t.TempDir(), "server.yaml")
	require.NoError(t, os.WriteFile(cfgPath, []byte("limits:\n  action_timeout: 5\n"), 0o644))
	var out, errb strings.Builder
	code := Run(context.Background(), []string{"serve", "--config", cfgPath}, strings.NewReader(""), &out, &errb)
	require.Equal(t, 2, code)
	require.Equal(t, "kaisen: config: "+cfgPath+": limits.action_timeout: got 5, want a duration with a unit such as 5s\n", errb.String())
}
