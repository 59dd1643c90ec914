package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/arena"
	"github.com/kaisen-ai/kaisen/replay"
)

// TestHTMLReplays: kaisen match --replays DIR --html writes one page beside
// each replay, kaisen replay --html writes the same page, and both games
// carry the players' heatmaps when recorded with --explain.
func TestHTMLReplays(t *testing.T) {
	tests := []struct {
		game, p1, p2 string
		seed         string // a seed whose games end well before the draw limit
		heat         string // a heatmap name in the page
	}{
		{"submarine", "hirota", "stateplayer2", "4", `"any ship"`},
		{"battleship", "density", "bs-random", "3", `"exact"`},
	}
	for _, tt := range tests {
		t.Run(tt.game, func(t *testing.T) {
			dir := t.TempDir()
			code, _, stderr := matchRun(t, context.Background(), "match", "--game", tt.game, "--p1", tt.p1, "--p2", tt.p2,
				"-n", "2", "--seed", tt.seed, "--replays", dir, "--explain", "--html", "--json")
			require.Equal(t, 0, code, stderr)
			for i := range 2 {
				page, err := os.ReadFile(filepath.Join(dir, strings.TrimSuffix(arena.ReplayName(i), ".jsonl")+".html"))
				require.NoError(t, err)
				require.Contains(t, string(page), "const DATA = {")
				require.Contains(t, string(page), tt.heat)

				file := filepath.Join(dir, arena.ReplayName(i))
				out := filepath.Join(t.TempDir(), "out.html")
				code, stdout, stderr := matchRun(t, context.Background(), "replay", "--html", out, file)
				require.Equal(t, 0, code, stderr)
				require.Empty(t, stdout)
				again, err := os.ReadFile(out)
				require.NoError(t, err)
				require.True(t, bytes.Equal(page, again), "replay --html writes the page match --html wrote")
			}
		})
	}

	dir := t.TempDir()
	code, _, stderr := matchRun(t, context.Background(), "match", "-n", "1", "--html")
	require.Equal(t, ExitUsage, code)
	require.Contains(t, stderr, "--html writes the replays as web pages: add --replays DIR")
	code, _, _ = matchRun(t, context.Background(), "match", "-n", "1", "--seed", "1", "--replays", dir)
	require.Equal(t, 0, code)
	file := filepath.Join(dir, arena.ReplayName(0))
	for _, bad := range [][]string{{"--json"}, {"--verify"}, {"--turn", "1"}, {"--from", "1"}} {
		code, _, stderr = matchRun(t, context.Background(), append([]string{"replay", file, "--html", filepath.Join(dir, "x.html")}, bad...)...)
		require.Equal(t, ExitUsage, code, "%v: %s", bad, stderr)
	}
	// A tampered replay gives no page.
	data, err := os.ReadFile(file)
	require.NoError(t, err)
	tampered := filepath.Join(dir, "tampered.jsonl")
	require.NoError(t, os.WriteFile(tampered, bytes.Replace(data, []byte(`"seat":1,"cells":[[`), []byte(`"seat":1,"cells":[[9`), 1), 0o644))
	code, _, stderr = matchRun(t, context.Background(), "replay", tampered, "--html", filepath.Join(dir, "t.html"))
	require.Equal(t, 1, code)
	require.Contains(t, stderr, replay.ErrMismatch.Error())
	require.NoFileExists(t, filepath.Join(dir, "t.html"))
}
