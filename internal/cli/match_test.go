package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/arena"
	subrecord "github.com/kaisen-ai/kaisen/game/submarine/record"
	"github.com/kaisen-ai/kaisen/internal/race"
)

func matchRun(t *testing.T, ctx context.Context, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = Run(ctx, args, nil, &out, &errOut)
	return code, out.String(), errOut.String()
}

// lastJSON decodes the last line of stdout.
func matchLastJSON(t *testing.T, stdout string) map[string]any {
	t.Helper()
	lines := strings.Split(strings.TrimRight(stdout, "\n"), "\n")
	var m map[string]any
	require.NoError(t, json.Unmarshal([]byte(lines[len(lines)-1]), &m), stdout)
	return m
}

func TestMatchJSONReproducible(t *testing.T) {
	n := 10000
	if testing.Short() || race.Enabled {
		n = 1000
	}
	ns := strconv.Itoa(n)
	var results []map[string]any
	for _, workers := range []string{"1", "2", "5"} {
		code, stdout, stderr := matchRun(t, context.Background(), "match", "--p1", "random", "--p2", "random",
			"-n", ns, "--seed", "12345", "--workers", workers, "--json")
		require.Equal(t, 0, code, stderr)
		require.NotContains(t, stderr, "drawn at random", "the seed was given")
		got := matchLastJSON(t, stdout)
		require.Greater(t, got["games_per_sec"], 0.0)
		delete(got, "games_per_sec")
		results = append(results, got)
	}
	want := results[0]
	require.Equal(t, want, results[1], "same seed, 2 workers")
	require.Equal(t, want, results[2], "same seed, 5 workers")
	require.EqualValues(t, n, want["games"])
	require.EqualValues(t, 0, want["p1_forfeits"])
	require.EqualValues(t, 0, want["p2_forfeits"])
	require.EqualValues(t, 0, want["draws"])
	require.EqualValues(t, n, want["p1_wins"].(float64)+want["p2_wins"].(float64))
	require.EqualValues(t, 12345, want["seed"])
	require.Equal(t, "random", want["p1"])
	require.InDelta(t, 280, want["mean_actions"], 30)
	keys := []string{"games", "p1", "p2", "p1_wins", "p2_wins", "draws", "p1_forfeits", "p2_forfeits", "mean_actions", "p90_actions", "seed"}
	require.Len(t, want, len(keys))
	for _, k := range keys {
		require.Contains(t, want, k)
	}

	code, stdout, _ := matchRun(t, context.Background(), "match", "--p1", "random", "--p2", "random", "-n", ns, "--seed", "12346", "--json")
	require.Equal(t, 0, code)
	other := matchLastJSON(t, stdout)
	delete(other, "games_per_sec")
	require.NotEqual(t, want, other, "another seed, other games")
}

func TestMatchReplaysIdenticalAcrossWorkers(t *testing.T) {
	n := 60
	if race.Enabled {
		n = 20
	}
	var dirs []string
	for _, workers := range []string{"1", "2"} {
		dir := filepath.Join(t.TempDir(), "replays")
		code, _, stderr := matchRun(t, context.Background(), "match", "--p1", "random", "--p2", "random",
			"-n", strconv.Itoa(n), "--seed", "9", "--workers", workers, "--replays", dir, "--json")
		require.Equal(t, 0, code, stderr)
		dirs = append(dirs, dir)
	}
	for i := range n {
		a, err := os.ReadFile(filepath.Join(dirs[0], arena.ReplayName(i)))
		require.NoError(t, err)
		b, err := os.ReadFile(filepath.Join(dirs[1], arena.ReplayName(i)))
		require.NoError(t, err)
		require.Equal(t, a, b, "game %d", i)
		rp, err := subrecord.Read(bytes.NewReader(a))
		require.NoError(t, err)
		require.NoError(t, subrecord.Verify(rp))
	}
}

func TestMatchTable(t *testing.T) {
	code, stdout, stderr := matchRun(t, context.Background(), "match", "--p1", "random", "--p2", "random", "-n", "200", "--seed", "3")
	require.Equal(t, 0, code, stderr)
	for _, want := range []string{
		"submarine match: random (p1) vs random (p2), seed 3",
		"p1 sits in seat 0 in even games and in seat 1 in odd games; seat 0 acts first",
		"wins (95% CI)", "forfeits",
		"actions per game: mean ",
		"200 games in ",
	} {
		require.Contains(t, stdout, want)
	}
	require.Regexp(t, regexp.MustCompile(`(?m)^p1 random +\d+ +\d+\.\d% \[ ?\d+\.\d, ?\d+\.\d\] .* 0$`), stdout)
	require.NotContains(t, stderr, "\r", "no progress bar when stderr is not a terminal")
}

func TestMatchRandomSeedIsPrinted(t *testing.T) {
	code, stdout, stderr := matchRun(t, context.Background(), "match", "--p1", "random", "--p2", "random", "-n", "20", "--json")
	require.Equal(t, 0, code, stderr)
	m := regexp.MustCompile(`seed (\d+) \(drawn at random; add --seed (\d+) to repeat\)`).FindStringSubmatch(stderr)
	require.NotNil(t, m, stderr)
	require.Equal(t, m[1], m[2])
	got := matchLastJSON(t, stdout)
	require.Equal(t, m[1], strconv.FormatFloat(got["seed"].(float64), 'f', 0, 64))
	seed, err := strconv.ParseUint(m[1], 10, 64)
	require.NoError(t, err)
	require.Less(t, seed, uint64(1)<<53)
}

func TestMatchInterrupted(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	code, stdout, stderr := matchRun(t, ctx, "match", "--p1", "random", "--p2", "random", "-n", "1000", "--seed", "1")
	require.Equal(t, 130, code)
	require.Contains(t, stdout, "interrupted: 0 of 1000 games played")
	require.Contains(t, stderr, "match: interrupted after 0 of 1000 games")

	code, stdout, _ = matchRun(t, ctx, "match", "--p1", "random", "--p2", "random", "-n", "1000", "--seed", "1", "--json")
	require.Equal(t, 130, code)
	require.EqualValues(t, 0, matchLastJSON(t, stdout)["games"])
}

func TestMatchConfig(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "match.yaml")
	require.NoError(t, os.WriteFile(cfg, []byte("rules:\n  width: 6\n  height: 4\n  shape: rounded\n  draw_limit: 40\n"), 0o644))
	replays := filepath.Join(dir, "out")
	code, stdout, stderr := matchRun(t, context.Background(), "match", "--p1", "random", "--p2", "random", "-n", "30",
		"--seed", "1", "--rules", cfg, "--replays", replays, "--json")
	require.Equal(t, 0, code, stderr)
	got := matchLastJSON(t, stdout)
	require.Greater(t, got["draws"], 0.0, "a draw limit of 40 actions draws some random games")
	require.LessOrEqual(t, got["mean_actions"], 40.0)
	rp, err := subrecord.ReadFile(filepath.Join(replays, arena.ReplayName(0)))
	require.NoError(t, err)
	require.Equal(t, subrecord.Rules{Width: 6, Height: 4, Rocks: []subrecord.Pos{{0, 0}, {5, 0}, {0, 3}, {5, 3}},
		Fleet: []subrecord.Ship{{Name: "w", HP: 3}, {Name: "c", HP: 2}, {Name: "s", HP: 1}}, DrawLimit: 40}, rp.Header.Rules)
}

func TestMatchErrors(t *testing.T) {
	dir := t.TempDir()
	badCfg := filepath.Join(dir, "bad.yaml")
	require.NoError(t, os.WriteFile(badCfg, []byte("rules: {colour: blue}\n"), 0o644))
	tests := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"empty player", []string{"match", "--p1", ""}, 2, "--p1 and --p2 must name players (players: random"},
		{"unknown player", []string{"match", "--p1", "random", "--p2", "nobody"}, 2, `--p2: unknown player "nobody"`},
		{"no games", []string{"match", "--p1", "random", "--p2", "random", "-n", "0"}, 2, "-n 0"},
		{"negative workers", []string{"match", "--p1", "random", "--p2", "random", "--workers", "-2"}, 2, "--workers -2"},
		{"explain without replays", []string{"match", "--p1", "random", "--p2", "random", "--explain"}, 2, "add --replays DIR"},
		{"unknown game", []string{"match", "--p1", "random", "--p2", "random", "--game", "chess"}, 2, `--game "chess"`},
		{"bad config", []string{"match", "--p1", "random", "--p2", "random", "--rules", badCfg}, 2, `unknown key "rules.colour"`},
		{"missing config", []string{"match", "--p1", "random", "--p2", "random", "--rules", filepath.Join(dir, "none.yaml")}, 2, "none.yaml"},
		{"config for a player that takes none", []string{"match", "--p1", "random", "--p2", "random", "--p1-weights", badCfg}, 2, "random: takes no config"},
		{"bad seed", []string{"match", "--p1", "random", "--p2", "random", "--seed", "-1"}, 2, `--seed: want a non-negative integer, got "-1"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := matchRun(t, context.Background(), tc.args...)
			require.Equal(t, tc.code, code, stderr)
			require.Contains(t, stderr, tc.want)
			require.Empty(t, stdout)
		})
	}
}

func TestMatchHelp(t *testing.T) {
	code, stdout, _ := matchRun(t, context.Background(), "match", "--help")
	require.Equal(t, 0, code)
	for _, want := range []string{"seat 0 always acts first", "--p1-weights", "kaisen match --p1 random --p2 random -n 10000", "Wilson"} {
		require.Contains(t, stdout, want)
	}
}
