package cli

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestGauntletExec: the Go starter bot (bots/gostarter) run through exec:
// plays a gauntlet without a forfeit; --json has every game, --html the
// report with links to the replays' pages written beside it.
func TestGauntletExec(t *testing.T) {
	dir := t.TempDir()
	bot := filepath.Join(dir, "gostarter")
	out, err := exec.Command("go", "build", "-o", bot, "../../bots/gostarter").CombinedOutput()
	require.NoError(t, err, "%s", out)
	report := filepath.Join(dir, "report.html")
	code, stdout, stderr := matchRun(t, context.Background(), "gauntlet", "exec:"+bot+" --addr {host}:{port} --seed {seed}",
		"--pool", "random,simple", "-n", "4", "--seed", "1", "--workers", "2", "--json", "--html", report, "--progress", "never")
	require.Equal(t, 0, code, stderr)
	var res struct {
		Games     int `json:"games_per_opponent"`
		Opponents []struct {
			Name     string `json:"name"`
			Games    int    `json:"games"`
			Forfeits int    `json:"forfeits"`
		} `json:"opponents"`
		Overall struct {
			Games       int   `json:"games"`
			Pentanomial []int `json:"pentanomial"`
		} `json:"overall"`
		List []struct {
			Opponent string `json:"opponent"`
			Replay   string `json:"replay"`
			Reason   string `json:"reason"`
		} `json:"games"`
	}
	require.NoError(t, json.Unmarshal([]byte(strings.TrimSpace(stdout)), &res), stdout)
	require.Equal(t, 4, res.Games)
	require.Len(t, res.Opponents, 2)
	for _, o := range res.Opponents {
		require.Equal(t, 4, o.Games, o.Name)
		require.Zero(t, o.Forfeits, "%s: the starter forfeits no game", o.Name)
	}
	require.Equal(t, 8, res.Overall.Games)
	require.Len(t, res.List, 8)
	page, err := os.ReadFile(report)
	require.NoError(t, err)
	for _, g := range res.List {
		require.NotContains(t, g.Reason, "forfeit")
		require.Contains(t, string(page), `href="report.html.replays/`+g.Replay+`"`)
		require.FileExists(t, filepath.Join(dir, "report.html.replays", filepath.FromSlash(g.Replay)))
	}
	for _, external := range []string{"src=", "<link", "@import", "url("} {
		require.NotContains(t, string(page), external, "self-contained: no external asset")
	}
}

// TestGauntletTable: the table names every opponent of the pool (the
// game's AIs by default) and the overall line.
func TestGauntletTable(t *testing.T) {
	code, stdout, stderr := matchRun(t, context.Background(), "gauntlet", "--game", "battleship", "gridbot", "-n", "2", "--seed", "4",
		"--pool", "bs-random,gridbot", "--progress", "never")
	require.Equal(t, 0, code, stderr)
	require.Contains(t, stdout, "battleship gauntlet: gridbot against 2 opponents, 2 games each")
	for _, want := range []string{"\n  bs-random ", "\n  gridbot ", "\n  overall ", "Score of gridbot vs the pool: ", "Elo difference: ", "Ptnml(0-2): "} {
		require.Contains(t, stdout, want)
	}
}

func TestGauntletErrors(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"odd games", []string{"random", "-n", "3"}, "even number"},
		{"unknown opponent", []string{"random", "--pool", "random,nobody"}, "nobody"},
		{"program in the pool", []string{"random", "--pool", "exec:./x {host} {port}"}, "built-in AIs"},
		{"unknown bot", []string{"nobody", "--pool", "random"}, "nobody"},
		{"weights of a program", []string{"exec:./x {host} {port}", "--bot-weights", "w.yaml", "--pool", "random"}, "--bot-weights"},
		{"no bot", []string{}, "accepts 1 arg"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := append([]string{"gauntlet", "--seed", "1"}, tt.args...)
			code, _, stderr := matchRun(t, context.Background(), args...)
			require.Equal(t, 2, code, stderr)
			require.Contains(t, stderr, tt.want)
		})
	}
}
