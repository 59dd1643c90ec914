package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func tournamentRun(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = Run(context.Background(), args, nil, &out, &errOut)
	return code, out.String(), errOut.String()
}

func TestTournamentTableAndJSON(t *testing.T) {
	code, stdout, stderr := tournamentRun(t, "tournament", "--players", "random,simple,stateplayer2", "-n", "10", "--seed", "4", "--bootstrap", "100")
	require.Equal(t, 0, code, stderr)
	for _, want := range []string{"10 games per pair", "rank", "elo", "stateplayer2", "(10-0-0)"} {
		require.Contains(t, stdout, want)
	}

	var results []map[string]any
	for _, workers := range []string{"1", "3"} {
		code, stdout, stderr = tournamentRun(t, "tournament", "--players", "random,simple,stateplayer2", "-n", "10",
			"--seed", "4", "--bootstrap", "100", "--workers", workers, "--json")
		require.Equal(t, 0, code, stderr)
		lines := strings.Split(strings.TrimRight(stdout, "\n"), "\n")
		var m map[string]any
		require.NoError(t, json.Unmarshal([]byte(lines[len(lines)-1]), &m))
		results = append(results, m)
	}
	require.Equal(t, results[0], results[1], "the same seed gives the same tournament whatever --workers is")
	ratings := results[0]["ratings"].([]any)
	require.Len(t, ratings, 3)
	require.Equal(t, "stateplayer2", ratings[0].(map[string]any)["name"])
}

func TestTournamentEntriesWithConfigsAndTiming(t *testing.T) {
	cfg := filepath.Join(t.TempDir(), "simple.yaml")
	require.NoError(t, os.WriteFile(cfg, []byte("move_probability: 0.0\n"), 0o644))
	code, stdout, stderr := tournamentRun(t, "tournament", "--players", "simple,simple@attacker", "--player-weights", "simple@attacker="+cfg,
		"-n", "6", "--seed", "1", "--bootstrap", "50", "--timing", "--workers", "1")
	require.Equal(t, 0, code, stderr)
	require.Contains(t, stdout, "simple@attacker")
	require.Contains(t, stdout, "p99 ms")
}

func TestTournamentErrors(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{args: []string{"tournament", "--players", "random"}, want: "at least two"},
		{args: []string{"tournament", "--players", "random,simple", "--rules", "../../configs/battleship-match.yaml", "--seed", "1"}, want: "submarine game only"},
		{args: []string{"tournament", "--players", "random,nobody", "--seed", "1"}, want: "nobody"},
		{args: []string{"tournament", "--players", "random,simple", "-n", "0"}, want: "-n 0"},
		{args: []string{"tournament", "--players", "random,random", "--seed", "1"}, want: "twice"},
		{args: []string{"tournament", "--players", "random,simple", "--player-weights", "x", "--seed", "1"}, want: "ENTRY=FILE"},
		{args: []string{"tournament", "--players", "random,simple", "--player-weights", "other=f.yaml", "--seed", "1"}, want: "no such entry"},
	}
	for _, tt := range tests {
		code, _, stderr := tournamentRun(t, tt.args...)
		require.NotEqual(t, 0, code, tt.args)
		require.Contains(t, stderr, tt.want, tt.args)
	}
}

func TestTournamentHelpTeaches(t *testing.T) {
	code, stdout, _ := tournamentRun(t, "tournament", "--help")
	require.Equal(t, 0, code)
	for _, want := range []string{"round robin", "Bradley-Terry", "bootstrap", "--json", "Examples:", "--timing"} {
		require.Contains(t, stdout, want)
	}
}
