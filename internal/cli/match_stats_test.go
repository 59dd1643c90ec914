package cli

import (
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestMatchStatsLines: the statistics come after the table, whose lines
// are those of a match without them.
func TestMatchStatsLines(t *testing.T) {
	tests := []struct {
		name  string
		args  []string
		want  []string
		avoid []string
	}{
		{"games on their own", []string{"--p1", "state", "--p2", "simple", "-n", "100", "--seed", "3"},
			[]string{"Score of state vs simple: ", "(trinomial: every game on its own)"}, []string{"Ptnml", "SPRT", "played in pairs"}},
		{"pairs", []string{"--p1", "state", "--p2", "simple", "-n", "100", "--seed", "3", "--pairs"},
			[]string{"played in pairs: ", "(pentanomial: 50 pairs)", "Ptnml(0-2): ["}, []string{"SPRT"}},
		{"perfect score", []string{"--p1", "stateplayer2", "--p2", "random", "-n", "40", "--seed", "3", "--pairs"},
			[]string{"Score of stateplayer2 vs random: 40 - 0 - 0 [1.000] 40\n", "Elo difference: +inf, LOS: 100.0 %, DrawRatio: 0.0 %\n",
				"Ptnml(0-2): [0, 0, 0, 0, 20]\n"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := matchRun(t, context.Background(), append([]string{"match"}, tt.args...)...)
			require.Equal(t, 0, code, stderr)
			table, stats, ok := strings.Cut(stdout, "\nScore of ")
			require.True(t, ok, stdout)
			require.Regexp(t, regexp.MustCompile(`\d+ games in [0-9.]+s: .* workers\n\n$`), table+"\n", "the table ends as before, then the statistics")
			for _, w := range tt.want {
				require.Contains(t, stdout, w)
			}
			for _, a := range tt.avoid {
				require.NotContains(t, stdout, a)
			}
			require.Regexp(t, regexp.MustCompile(`(?m)^Elo difference: (-?[0-9.]+ \+/- [0-9.]+|[+-]inf), LOS: [0-9.]+ %, DrawRatio: [0-9.]+ %$`), stats)
			require.Regexp(t, regexp.MustCompile(`(?m)^Elo 95% interval: \[([+-][0-9.]+|-inf), ([+-][0-9.]+|\+inf)\] \(`), stats)
		})
	}
}

// TestMatchSPRTDeterministic: the SPRT stops at the same pair whatever
// the number of workers, with the verdict in the table and the JSON.
func TestMatchSPRTDeterministic(t *testing.T) {
	args := []string{"match", "--p1", "state", "--p2", "stateplayer2", "--seed", "3", "--sprt", "elo0=-5,elo1=0"}
	var results []map[string]any
	for _, w := range []string{"1", "3"} {
		code, stdout, stderr := matchRun(t, context.Background(), append(args, "--workers", w, "--json")...)
		require.Equal(t, 0, code, stderr)
		got := matchLastJSON(t, stdout)
		delete(got, "games_per_sec")
		results = append(results, got)
	}
	require.Equal(t, results[0], results[1])
	sprt := results[0]["sprt"].(map[string]any)
	require.Equal(t, "H0", sprt["decision"])
	require.LessOrEqual(t, sprt["llr"], sprt["lbound"])
	games := results[0]["games"].(float64)
	require.Less(t, games, 2000.0, "stopped early")
	require.Len(t, results[0]["pentanomial"], 5)
	require.Contains(t, results[0], "elo")

	code, stdout, stderr := matchRun(t, context.Background(), append(args, "--workers", "2")...)
	require.Equal(t, 0, code, stderr)
	require.Regexp(t, regexp.MustCompile(`(?m)^SPRT: llr -[0-9.]+ \(-[0-9.]+%\), lbound -2\.94, ubound 2\.94 - H0 was accepted$`), stdout)
	require.Contains(t, stdout, "stopped after ")
	require.NotContains(t, stdout, "interrupted", "a decision is no interruption")
}

func TestMatchPairsUsage(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"odd games", []string{"--pairs", "-n", "7"}, "even number"},
		{"odd games with sprt", []string{"--sprt", "elo0=0,elo1=5", "-n", "7"}, "even number"},
		{"bad sprt", []string{"--sprt", "elo0=5,elo1=0"}, "--sprt"},
		{"sprt without elo1", []string{"--sprt", "elo0=0"}, "elo1"},
		{"sprt with shard", []string{"--sprt", "elo0=0,elo1=5", "--shard", "1/2", "--out", "x.jsonl", "--seed", "1"}, "sprt"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, _, stderr := matchRun(t, context.Background(), append([]string{"match", "--p1", "random", "--p2", "random"}, tt.args...)...)
			require.Equal(t, ExitUsage, code, stderr)
			require.Contains(t, stderr, tt.want)
		})
	}
}
