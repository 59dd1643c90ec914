package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// timingFields are the --json keys that measure time, not games.
var timingFields = []string{"games_per_sec", "ms_per_move_p99", "timing"}

// withoutTiming is a --json line with the timing fields removed.
func withoutTiming(t *testing.T, stdout string) map[string]any {
	t.Helper()
	m := matchLastJSON(t, stdout)
	for _, k := range timingFields {
		delete(m, k)
	}
	return m
}

// timingLine matches what the tables report of time: the last line of
// match and shots, and the durations of the shots table (with the padding
// before them, which depends on their width).
var timingLine = regexp.MustCompile(`(?m)^\d+ (games|shots) in .*$|[ ]+[\d.]+(ns|µs|ms|s)\b`)

// runShards runs args with --shard k/n --out for every k and returns the
// files.
func runShards(t *testing.T, args []string, n int) []string {
	t.Helper()
	dir := t.TempDir()
	var files []string
	for k := 1; k <= n; k++ {
		out := filepath.Join(dir, fmt.Sprintf("shard-%d.jsonl", k))
		code, stdout, stderr := matchRun(t, context.Background(),
			append(args, "--shard", fmt.Sprintf("%d/%d", k, n), "--out", out, "--workers", fmt.Sprint(k%3))...)
		require.Equal(t, ExitOK, code, stderr)
		require.Empty(t, stdout, "a shard prints nothing on stdout")
		files = append(files, out)
	}
	return files
}

// TestShardedEqualsUnsharded: every command's shards, merged, give the
// unsharded run's result, --json and table, apart from timing fields;
// whatever N, divisor of -n or not, and in any order of files.
func TestShardedEqualsUnsharded(t *testing.T) {
	for _, tc := range []struct {
		name   string
		args   []string
		shards []int
	}{
		{"match submarine", []string{"match", "--p1", "random", "--p2", "stateplayer2", "-n", "23", "--seed", "11"}, []int{1, 2, 5}},
		{"match audited", []string{"match", "--p1", "state", "--p2", "stateplayer2", "-n", "14", "--seed", "5", "--audit"}, []int{3}},
		{"match battleship", []string{"match", "--game", "battleship", "--p1", "bs-random", "--p2", "gridbot", "-n", "9", "--seed", "3"}, []int{2, 4}},
		{"tournament", []string{"tournament", "--players", "random,simple,stateplayer2", "-n", "5", "--seed", "9", "--bootstrap", "50"}, []int{1, 4, 15}},
		{"shots", []string{"shots", "--player", "gridbot", "--size", "6x6", "--fleet", "3,2,1", "-n", "13", "--seed", "2"}, []int{3, 13}},
		{"shots density", []string{"shots", "--player", "density", "--size", "5x5", "--fleet", "2,1", "-n", "5", "--seed", "4"}, []int{2}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, fullJSON, stderr := matchRun(t, context.Background(), append(tc.args, "--json")...)
			require.Equal(t, ExitOK, code, stderr)
			code, fullTable, stderr := matchRun(t, context.Background(), tc.args...)
			require.Equal(t, ExitOK, code, stderr)
			for _, n := range tc.shards {
				t.Run(fmt.Sprintf("%d shards", n), func(t *testing.T) {
					files := runShards(t, tc.args, n)
					reversed := make([]string, len(files))
					for i, f := range files {
						reversed[len(files)-1-i] = f
					}
					code, merged, stderr := matchRun(t, context.Background(), append([]string{"merge", "--json"}, reversed...)...)
					require.Equal(t, ExitOK, code, stderr)
					assert.Equal(t, withoutTiming(t, fullJSON), withoutTiming(t, merged))
					code, table, stderr := matchRun(t, context.Background(), append([]string{"merge"}, files...)...)
					require.Equal(t, ExitOK, code, stderr)
					assert.Equal(t, timingLine.ReplaceAllString(fullTable, "TIMING"), timingLine.ReplaceAllString(table, "TIMING"))
				})
			}
		})
	}
}

// TestTimingLineOnlyEatsTiming: the tables without the timing fields still
// show the games (a regexp that ate everything would pass the test above).
func TestTimingLineOnlyEatsTiming(t *testing.T) {
	table := "actions per game: mean 280.9, p90 427\n101 games in 0.00s: 36584 games/s, 1 actions/s, 2 workers\n" +
		"     13  20.46    20.0  5.27   27   30          243ns         28.3µs\n"
	assert.Equal(t, "actions per game: mean 280.9, p90 427\nTIMING\n     13  20.46    20.0  5.27   27   30TIMINGTIMING\n",
		timingLine.ReplaceAllString(table, "TIMING"))
}

func TestShardRefusals(t *testing.T) {
	base := []string{"match", "--p1", "random", "--p2", "random", "-n", "6", "--seed", "1"}
	files := runShards(t, base, 3)
	other := runShards(t, []string{"match", "--p1", "random", "--p2", "random", "-n", "6", "--seed", "2"}, 3)
	otherArgs := runShards(t, []string{"match", "--p1", "random", "--p2", "simple", "-n", "6", "--seed", "1"}, 3)
	shots := runShards(t, []string{"shots", "--player", "bs-random", "--size", "4x4", "--fleet", "2,1", "-n", "6", "--seed", "1"}, 3)
	// Shard 2 of a run whose rules file changed under the same path.
	rules := filepath.Join(t.TempDir(), "rules.yaml")
	require.NoError(t, os.WriteFile(rules, []byte("rules:\n  draw_limit: 500\n"), 0o644))
	withRules := append(slices.Clone(base), "--rules", rules)
	oldRules := runShards(t, withRules, 3)
	require.NoError(t, os.WriteFile(rules, []byte("rules:\n  draw_limit: 600\n"), 0o644))
	newRules := runShards(t, withRules, 3)
	code, _, stderr := matchRun(t, context.Background(), append([]string{"merge"}, newRules...)...)
	require.Equal(t, ExitOK, code, "the same rules file merges: %s", stderr)
	garbage := filepath.Join(t.TempDir(), "garbage.jsonl")
	require.NoError(t, os.WriteFile(garbage, []byte("not a shard\n"), 0o644))
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"missing shard", []string{"merge", files[0], files[2]}, "missing shard(s) 2 of 3"},
		{"duplicate shard", []string{"merge", files[0], files[1], files[1], files[2]}, "shard 2/3 twice"},
		{"other seed", []string{"merge", files[0], other[1], files[2]}, "seed 2, not 1"},
		{"other players", []string{"merge", files[0], otherArgs[1], files[2]}, "arguments"},
		{"same rules path, other content", []string{"merge", oldRules[0], newRules[1], oldRules[2]}, "rules#sha256"},
		{"other command", []string{"merge", files[0], shots[1], files[2]}, `command "shots"`},
		{"not a shard file", []string{"merge", garbage}, "bad shard file"},
		{"no files", []string{"merge"}, "requires at least 1 arg"},
		{"shard without seed", []string{"match", "--p1", "random", "--p2", "random", "--shard", "1/2", "--out", "x"}, "--shard needs --seed"},
		{"shard without out", append(base, "--shard", "1/2"), "go together"},
		{"out without shard", append(base, "--out", "x"), "go together"},
		{"bad shard", append(base, "--shard", "3/2", "--out", "x"), "1 <= K <= N"},
		{"more shards than games", append(base, "--shard", "1/7", "--out", "x"), "no games"},
		{"shard with replays", append(base, "--shard", "1/2", "--out", "x", "--replays", "d"), "--replays cannot be used with --shard"},
		{"tournament shard with timing", []string{"tournament", "--players", "random,simple", "--seed", "1", "--timing", "--shard", "1/2", "--out", "x"}, "--timing cannot"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := matchRun(t, context.Background(), tc.args...)
			assert.Equal(t, ExitUsage, code, stderr)
			assert.Empty(t, stdout)
			assert.Contains(t, stderr, tc.want)
		})
	}
}

// TestShardFileRecordsTheRun: the header names the command, its
// game-deciding flags and the games of the shard; not --workers.
func TestShardFileRecordsTheRun(t *testing.T) {
	files := runShards(t, []string{"match", "--p1", "random", "--p2", "random", "-n", "10", "--seed", "4"}, 3)
	data, err := os.ReadFile(files[1])
	require.NoError(t, err)
	head, _, _ := strings.Cut(string(data), "\n")
	assert.Contains(t, head, `"command":"match","args":{"p1":"random","p2":"random"},"seed":4,"games":10,"shard":2,"shards":3,"first":3,"count":3`)
}
