package cli

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/arena"
	subrecord "github.com/kaisen-ai/kaisen/game/submarine/record"
	"github.com/kaisen-ai/kaisen/replay"
)

func TestParseAdjudication(t *testing.T) {
	tests := []struct {
		text string
		want replay.Adjudication
		err  string
	}{
		{text: "", want: replay.Adjudication{}},
		{text: "draw=200", want: replay.Adjudication{Draw: 200}},
		{text: " draw = 7 ,", want: replay.Adjudication{Draw: 7}},
		{text: "draw=0", err: "1 or more"},
		{text: "draw=x", err: "1 or more"},
		{text: "draw", err: "want key=value"},
		{text: "resign=3", err: `unknown key "resign"`},
	}
	for _, tc := range tests {
		t.Run(tc.text, func(t *testing.T) {
			got, err := parseAdjudication(tc.text)
			if tc.err != "" {
				require.ErrorContains(t, err, tc.err)
				return
			}
			require.NoError(t, err)
			require.Equal(t, tc.want, got)
		})
	}
}

// TestMatchAdjudicate: --adjudicate and --max-actions end games early,
// the table and --json count them, the replays verify; off by default.
func TestMatchAdjudicate(t *testing.T) {
	dir := t.TempDir()
	code, stdout, stderr := matchRun(t, context.Background(), "match", "--p1", "random", "--p2", "random",
		"-n", "20", "--seed", "42", "--adjudicate", "draw=20", "--max-actions", "100", "--replays", dir, "--json")
	require.Equal(t, 0, code, stderr)
	got := matchLastJSON(t, stdout)
	adj, ok := got["adjudicated"].(map[string]any)
	require.True(t, ok, stdout)
	require.Equal(t, "draw=20, max-actions=100", adj["settings"])
	require.EqualValues(t, 20, adj["draw"])
	require.EqualValues(t, 100, adj["max_actions"])
	solver, capped := adj["solver_draw"].(float64), adj["cap"].(float64)
	require.Positive(t, solver)
	require.Positive(t, capped)
	require.Equal(t, solver+capped, adj["games"])
	require.LessOrEqual(t, adj["games"], got["draws"])
	for i := range 20 {
		rp, err := subrecord.ReadFile(filepath.Join(dir, arena.ReplayName(i)))
		require.NoError(t, err)
		require.NoError(t, subrecord.Verify(rp), "game %d", i)
	}

	code, stdout, stderr = matchRun(t, context.Background(), "match", "--p1", "random", "--p2", "random",
		"-n", "20", "--seed", "42", "--adjudicate", "draw=20", "--max-actions", "100")
	require.Equal(t, 0, code, stderr)
	require.Contains(t, stdout, "adjudicated (draw=20, max-actions=100): ")

	code, stdout, stderr = matchRun(t, context.Background(), "match", "--p1", "random", "--p2", "random",
		"-n", "20", "--seed", "42", "--json")
	require.Equal(t, 0, code, stderr)
	require.NotContains(t, matchLastJSON(t, stdout), "adjudicated", "off by default")
}

func TestMatchAdjudicateRefused(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"bad key", []string{"--adjudicate", "resign=2"}, "--adjudicate: unknown key"},
		{"negative cap", []string{"--max-actions", "-1"}, "--max-actions -1"},
		{"draw on Battleship", []string{"--game", "battleship", "--adjudicate", "draw=5"}, "submarine game's built-in players"},
		{"exec players", []string{"--p1", "exec:true {host} {port}", "--max-actions", "10"}, "built-in players"},
		{"shard", []string{"--max-actions", "10", "--shard", "1/2", "--out", "x.jsonl"}, "max-actions"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"match", "-n", "2", "--seed", "1"}, tc.args...)
			code, _, stderr := matchRun(t, context.Background(), args...)
			require.Equal(t, ExitUsage, code, stderr)
			require.Contains(t, stderr, tc.want)
		})
	}
}

// TestMatchAdjudicateGamesOut: --games-out records the adjudication of the
// run and its games; --recover counts the adjudicated games it resumes and
// refuses a run with other settings.
func TestMatchAdjudicateGamesOut(t *testing.T) {
	path := filepath.Join(t.TempDir(), "games.jsonl")
	args := []string{"match", "--p1", "random", "--p2", "random", "-n", "20", "--seed", "42",
		"--adjudicate", "draw=20", "--games-out", path, "--json", "--progress", "never"}
	code, stdout, stderr := matchRun(t, context.Background(), args...)
	require.Equal(t, 0, code, stderr)
	want := matchLastJSON(t, stdout)["adjudicated"]
	require.NotNil(t, want)

	code, stdout, stderr = matchRun(t, context.Background(), append(args, "--recover")...)
	require.Equal(t, 0, code, stderr)
	require.Equal(t, want, matchLastJSON(t, stdout)["adjudicated"], "the resumed games keep their adjudication")

	code, _, stderr = matchRun(t, context.Background(), "match", "--p1", "random", "--p2", "random", "-n", "20", "--seed", "42",
		"--adjudicate", "draw=30", "--games-out", path, "--recover", "--progress", "never")
	require.Equal(t, ExitUsage, code, stderr)
	require.Contains(t, stderr, "--recover")
}
