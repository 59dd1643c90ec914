package cli

import (
	"context"
	"fmt"
	"os"
	"testing"

	"github.com/stretchr/testify/require"
)

// asKaisenEnv makes the test binary run as kaisen (TestMain), so that
// kaisen play can be an exec: player without building kaisen.
const asKaisenEnv = "KAISEN_CLI_TEST_AS_KAISEN"

// selfPlayer is kaisen play, as the test binary, as an exec: player.
func selfPlayer(t *testing.T, args string) string {
	t.Setenv(asKaisenEnv, "1") // inherited by the bots
	exe, err := os.Executable()
	require.NoError(t, err)
	return fmt.Sprintf("exec:%s play %s --addr {host}:{port} --seed {seed}", exe, args)
}

func TestMatchExecPlayer(t *testing.T) {
	tests := []struct {
		name string
		args func(bot string) []string
	}{
		{"p1", func(b string) []string { return []string{"--p1", b, "--p2", "random"} }},
		{"p2", func(b string) []string { return []string{"--p1", "random", "--p2", b} }},
		{"both", func(b string) []string { return []string{"--p1", b, "--p2", b} }},
		{"battleship", func(string) []string {
			return []string{"--game", "battleship", "--p1", "gridbot", "--p2", selfPlayer(t, "--game battleship --player bs-random")}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := append([]string{"match", "-n", "4", "--seed", "3", "--workers", "2", "--json"}, tt.args(selfPlayer(t, "--player random"))...)
			code, stdout, stderr := matchRun(t, context.Background(), args...)
			require.Equal(t, ExitOK, code, stderr)
			got := matchLastJSON(t, stdout)
			require.EqualValues(t, 4, got["games"])
			require.EqualValues(t, 0, got["p1_forfeits"], stderr)
			require.EqualValues(t, 0, got["p2_forfeits"], stderr)
		})
	}
}

func TestMatchExecUsage(t *testing.T) {
	bot := "exec:./bot {host} {port}"
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no port", []string{"--p1", "exec:./bot", "--p2", "random"}, "never says {port}"},
		{"unknown house AI", []string{"--p1", bot, "--p2", "nobody"}, "nobody"},
		{"rules", []string{"--p1", bot, "--p2", "random", "--rules", "../../configs/match.yaml"}, "not --rules"},
		{"series", []string{"--p1", bot, "--p2", "random", "--series", "2"}, "--series"},
		{"dialect of battleship", []string{"--game", "battleship", "--p1", bot, "--p2", "gridbot", "--dialect", "submarine-py"}, "one wire format"},
		{"bad dialect", []string{"--p1", bot, "--p2", "random", "--dialect", "klingon"}, "klingon"},
		{"negative memory", []string{"--p1", bot, "--p2", "random", "--bot-memory", "-1"}, "memory limit"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, _, stderr := matchRun(t, context.Background(), append([]string{"match", "-n", "2", "--seed", "1"}, tt.args...)...)
			require.Equal(t, ExitUsage, code, stderr)
			require.Contains(t, stderr, tt.want)
		})
	}
}

func TestTournamentExecPlayer(t *testing.T) {
	players := "random," + selfPlayer(t, "--player random") + ",stateplayer2"
	code, stdout, stderr := matchRun(t, context.Background(), "tournament", "--players", players, "-n", "4", "--seed", "2", "--workers", "2", "--json")
	require.Equal(t, ExitOK, code, stderr)
	got := matchLastJSON(t, stdout)
	require.Len(t, got["players"], 3)
	code, _, stderr = matchRun(t, context.Background(), "tournament", "--players", "random,exec:./bot {host} {port}", "--timing", "-n", "2", "--seed", "1")
	require.Equal(t, ExitUsage, code, stderr)
	require.Contains(t, stderr, "--timing")
}
