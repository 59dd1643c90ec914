package cli

import (
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/game/submarine"
	subrecord "github.com/kaisen-ai/kaisen/game/submarine/record"
	"github.com/kaisen-ai/kaisen/internal/config"
	"github.com/kaisen-ai/kaisen/players"
	"github.com/kaisen-ai/kaisen/players/admiral"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// replayDir plays kaisen match with args into a new replay directory.
func replayDir(t *testing.T, args ...string) string {
	t.Helper()
	dir := t.TempDir()
	code, _, stderr := matchRun(t, context.Background(), append(append([]string{"match"}, args...), "--replays", dir, "--progress", "never")...)
	require.Equal(t, ExitOK, code, stderr)
	return dir
}

// TestPlacements: kaisen placements counts exactly the placements the
// replays record for the player (read here straight from the files), prints
// the golden table, and writes admiral weights that admiral loads with
// those counts.
func TestPlacements(t *testing.T) {
	dir := replayDir(t, "--p1", "random", "--p2", "hirota", "-n", "12", "--seed", "7100")
	bs := replayDir(t, "--game", "battleship", "-n", "1", "--seed", "1")

	r := submarine.DefaultRules()
	want := make([][]int, len(r.Fleet))
	for i := range want {
		want[i] = make([]int, r.Board.Size())
	}
	files, err := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	require.NoError(t, err)
	require.Len(t, files, 12)
	for _, f := range files {
		rp, err := subrecord.ReadFile(f)
		require.NoError(t, err)
		seat := 0
		if rp.Header.Players[1].Name == "hirota" {
			seat = 1
		}
		for i, c := range rp.Placement(r, seat) {
			want[i][c]++
		}
	}

	out := filepath.Join(t.TempDir(), "avh.yaml")
	code, table, stderr := matchRun(t, context.Background(), "placements", "--player", "hirota", dir, filepath.Join(bs, "game-000000.jsonl"), "--out", out)
	require.Equal(t, ExitOK, code, stderr)
	golden := filepath.Join("testdata", "placements-hirota.golden")
	if *update {
		require.NoError(t, os.MkdirAll("testdata", 0o755))
		require.NoError(t, os.WriteFile(golden, []byte(table), 0o644))
	}
	g, err := os.ReadFile(golden)
	require.NoError(t, err)
	assert.Equal(t, string(g), table)

	code, js, stderr := matchRun(t, context.Background(), "placements", "--player", "hirota", dir, "--json")
	require.Equal(t, ExitOK, code, stderr)
	var got placementsJSON
	require.NoError(t, json.Unmarshal([]byte(js), &got))
	assert.Equal(t, 12, got.Games)
	for i := range want {
		assert.Equal(t, want[i], got.Ships[i].Counts, "ship %d", i)
	}

	cfg := admiral.DefaultAdmiralConfig()
	require.NoError(t, config.Load(out, &cfg))
	assert.Equal(t, want, cfg.Belief.EnemyPrior, "the weights hold the counts")
	_, err = players.New("admiral", r, func(into any) error { return config.Load(out, into) })
	require.NoError(t, err, "admiral loads them")
}

func TestPlacementsRefusals(t *testing.T) {
	dir := replayDir(t, "--p1", "random", "--p2", "simple", "-n", "2", "--seed", "1")
	bs := replayDir(t, "--game", "battleship", "-n", "1", "--seed", "1")
	rules := filepath.Join(t.TempDir(), "r.yaml")
	require.NoError(t, os.WriteFile(rules, []byte("rules:\n  width: 6\n"), 0o644))
	wide := replayDir(t, "--p1", "random", "--p2", "simple", "-n", "1", "--seed", "1", "--rules", rules)
	require.NoError(t, os.WriteFile(rules, []byte("rules:\n  draw_limit: 300\n"), 0o644))
	short := replayDir(t, "--p1", "random", "--p2", "simple", "-n", "1", "--seed", "1", "--rules", rules)
	code, js, stderr := matchRun(t, context.Background(), "placements", "--player", "simple", dir, short, "--json")
	require.Equal(t, ExitOK, code, "another draw limit, the same board and fleet: %s", stderr)
	assert.Contains(t, js, `"games":3`)
	for _, tc := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"no player", []string{"placements", dir}, ExitUsage, "--player NAME is required"},
		{"no dir", []string{"placements", "--player", "x"}, ExitUsage, "requires at least 1 arg"},
		{"player not in the replays", []string{"placements", "--player", "hirota", dir}, ExitUsage, "players found: random, simple"},
		{"battleship only", []string{"placements", "--player", "gridbot", bs}, 1, "no submarine replay"},
		{"missing path", []string{"placements", "--player", "x", filepath.Join(dir, "nope")}, 1, "nope"},
		{"another board", []string{"placements", "--player", "simple", dir, wide}, ExitUsage, "another board or fleet"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, _, stderr := matchRun(t, context.Background(), tc.args...)
			assert.Equal(t, tc.code, code)
			assert.Contains(t, stderr, tc.want)
		})
	}
}
