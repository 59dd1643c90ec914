package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func tuneRun(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = Run(context.Background(), args, nil, &out, &errOut)
	return code, out.String(), errOut.String()
}

// dateless drops the date of the tuned file's first line.
var tuneDate = regexp.MustCompile(`\(\d{4}-\d{2}-\d{2}\)`)

func TestTuneEndToEnd(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "simple-tuned.yaml")
	args := []string{"tune", "--player", "simple", "--against", "random", "--budget-games", "60",
		"--batch", "8", "--final-games", "10", "--seed", "3", "--workers", "2", "--out", out}
	code, stdout, stderr := tuneRun(t, args...)
	require.Equal(t, 0, code, stderr)
	require.Contains(t, stderr, "tuning 1 weights of simple")
	require.Contains(t, stderr, "iter 2/2")
	require.Contains(t, stdout, "tuned   ")
	require.Contains(t, stdout, "move_probability")
	first, err := os.ReadFile(out)
	require.NoError(t, err)
	text := string(first)
	require.Contains(t, text, "--seed 3")
	require.Contains(t, text, "# seed 3; 52 games played")
	require.Regexp(t, `Measured win rate [01]\.\d{4}, 95% interval \[[01]\.\d{4}, [01]\.\d{4}\]`, text)
	require.Contains(t, text, "move_probability: ")
	_, err = os.Stat(out + ".checkpoint.json")
	require.NoError(t, err)

	// Again with the same settings: the finished checkpoint is resumed and
	// the file comes out the same.
	code, _, stderr = tuneRun(t, args...)
	require.Equal(t, 0, code, stderr)
	require.Contains(t, stderr, "resuming")
	second, err := os.ReadFile(out)
	require.NoError(t, err)
	require.Equal(t, tuneDate.ReplaceAllString(text, ""), tuneDate.ReplaceAllString(string(second), ""))

	// A fresh run with the same seed (no checkpoint) gives the same file.
	out2 := filepath.Join(dir, "again.yaml")
	args2 := append(args[:len(args)-1:len(args)-1], out2)
	code, _, stderr = tuneRun(t, args2...)
	require.Equal(t, 0, code, stderr)
	third, err := os.ReadFile(out2)
	require.NoError(t, err)
	require.Equal(t, tuneDate.ReplaceAllString(text, ""), tuneDate.ReplaceAllString(string(third), ""))
}

func TestTuneErrors(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{name: "no player", args: []string{"tune", "--against", "random"}, want: "--player and --against are required"},
		{name: "battleship config", args: []string{"tune", "--player", "simple", "--against", "random", "--rules", "../../configs/battleship-match.yaml", "--seed", "1"}, want: "submarine game only"},
		{name: "unknown opponent", args: []string{"tune", "--player", "simple", "--against", "nobody", "--seed", "1"}, want: "nobody"},
		{name: "unknown key", args: []string{"tune", "--player", "simple", "--against", "random", "--keys", "nope", "--seed", "1"}, want: `"nope"`},
		{name: "budget too small", args: []string{"tune", "--player", "simple", "--against", "random", "--budget-games", "10", "--seed", "1"}, want: "no iteration"},
		{name: "nothing to tune", args: []string{"tune", "--player", "state", "--against", "random", "--seed", "1"}, want: "no tunable"},
		{name: "no config", args: []string{"tune", "--player", "random", "--against", "random", "--seed", "1"}, want: "no YAML config"},
		{name: "draw score", args: []string{"tune", "--player", "simple", "--against", "random", "--draw-score", "2"}, want: "--draw-score"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, _, stderr := tuneRun(t, tt.args...)
			require.NotEqual(t, 0, code)
			require.Contains(t, stderr, tt.want)
		})
	}
}

func TestTuneHelpTeaches(t *testing.T) {
	code, stdout, _ := tuneRun(t, "tune", "--help")
	require.Equal(t, 0, code)
	for _, want := range []string{"SPSA", "common random numbers", "tune:\"min,max\"", "--checkpoint", "Examples:", "95% interval"} {
		require.True(t, strings.Contains(stdout, want), "help lacks %q", want)
	}
}
