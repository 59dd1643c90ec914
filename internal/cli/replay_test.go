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
	subrecord "github.com/kaisen-ai/kaisen/game/submarine/record"
)

func TestReplayCommand(t *testing.T) {
	dir := t.TempDir()
	code, _, stderr := matchRun(t, context.Background(), "match", "--p1", "random", "--p2", "random", "-n", "3", "--seed", "4", "--replays", dir, "--json")
	require.Equal(t, 0, code, stderr)
	file := filepath.Join(dir, arena.ReplayName(1))
	rp, err := subrecord.ReadFile(file)
	require.NoError(t, err)
	n := len(rp.Steps)

	var want bytes.Buffer
	require.NoError(t, subrecord.Render(&want, rp, subrecord.RenderOptions{To: -1, Fold: DefaultFold}))
	code, stdout, stderr := matchRun(t, context.Background(), "replay", file)
	require.Equal(t, 0, code, stderr)
	require.Equal(t, want.String(), stdout, "quiet stretches folded by default")
	require.Contains(t, stdout, "seat 0: random (p2), acts first", "p2 sits in seat 0 in odd games")
	require.NotEmpty(t, subrecord.FoldStretches(rp, DefaultFold, 0, n), "the game has a quiet stretch to fold")
	require.Contains(t, stdout, " actions without a hit (")

	want.Reset()
	require.NoError(t, subrecord.Render(&want, rp, subrecord.RenderOptions{To: -1}))
	code, stdout, stderr = matchRun(t, context.Background(), "replay", file, "--fold", "0")
	require.Equal(t, 0, code, stderr)
	require.Equal(t, want.String(), stdout, "--fold 0: every action")
	require.Equal(t, n+1, strings.Count(stdout, "\nseat 0: random (p2)    seat 1: random (p1)\n"), "one drawing a frame")

	code, stdout, _ = matchRun(t, context.Background(), "replay", file, "--turn", "0")
	require.Equal(t, 0, code)
	require.Contains(t, stdout, "\nstart\n")
	require.NotContains(t, stdout, "\n#1 ")

	code, stdout, _ = matchRun(t, context.Background(), "replay", file, "--turn", "2")
	require.Equal(t, 0, code)
	require.Contains(t, stdout, "\n#2 seat 1 ")
	require.NotContains(t, stdout, "\nstart\n")
	require.NotContains(t, stdout, "\n#3 ")

	code, stdout, _ = matchRun(t, context.Background(), "replay", file, "--from", "2")
	require.Equal(t, 0, code)
	require.Contains(t, stdout, "\n#3 ")
	require.Contains(t, stdout, "result: seat ")

	code, stdout, _ = matchRun(t, context.Background(), "replay", file, "--turn", "2", "--heatmap")
	require.Equal(t, 0, code)
	require.Contains(t, stdout, "seat 1's belief, % ship:")
	want.Reset()
	require.NoError(t, subrecord.Render(&want, rp, subrecord.RenderOptions{From: 2, To: 2, Heatmap: true}))
	require.Equal(t, want.String(), stdout)

	code, stdout, _ = matchRun(t, context.Background(), "replay", file, "--verify")
	require.Equal(t, 0, code)
	require.Regexp(t, `game-000001.jsonl: ok: \d+ actions, seat \d random wins\n$`, stdout)

	for _, bad := range [][]string{{"--turn", "-1"}, {"--turn", "100000"}, {"--from", "100000"}, {"--turn", "1", "--from", "1"}, {"--fold", "1"}, {"--fold", "-3"}} {
		code, _, stderr = matchRun(t, context.Background(), append([]string{"replay", file}, bad...)...)
		require.Equal(t, 2, code, "%v: %s", bad, stderr)
	}
	require.Greater(t, n, 2)

	// A tampered file is refused.
	data, err := os.ReadFile(file)
	require.NoError(t, err)
	tampered := filepath.Join(dir, "tampered.jsonl")
	require.NoError(t, os.WriteFile(tampered, bytes.Replace(data, []byte(`"seat":1,"cells":[[`), []byte(`"seat":1,"cells":[[9`), 1), 0o644))
	for _, args := range [][]string{{"replay", tampered}, {"replay", tampered, "--verify"}} {
		code, _, stderr = matchRun(t, context.Background(), args...)
		require.Equal(t, 1, code)
		require.Contains(t, stderr, "replay: mismatch")
	}
	code, _, stderr = matchRun(t, context.Background(), "replay", filepath.Join(dir, "missing.jsonl"))
	require.Equal(t, 1, code)
	require.Contains(t, stderr, "no such file")
	code, _, _ = matchRun(t, context.Background(), "replay")
	require.Equal(t, ExitUsage, code)
}

// TestReplayDirectory checks every replay of a directory: the games of a
// match's --replays, a --games-out file among them, each on its line with
// how it ended (an adjudicated draw says so), and a file that does not
// verify named without hiding the others.
func TestReplayDirectory(t *testing.T) {
	dir := t.TempDir()
	args := []string{"match", "--p1", "random", "--p2", "random", "-n", "2", "--seed", "4", "--max-actions", "20", "--progress", "never"}
	code, _, stderr := matchRun(t, context.Background(), append(args, "--replays", dir)...)
	require.Equal(t, 0, code, stderr)
	code, _, stderr = matchRun(t, context.Background(), append(args, "--games-out", filepath.Join(dir, "all.jsonl"))...)
	require.Equal(t, 0, code, stderr)

	code, stdout, stderr := matchRun(t, context.Background(), "replay", dir, "--verify")
	require.Equal(t, 0, code, stderr)
	require.Equal(t, 4, strings.Count(stdout, ": ok: 20 actions, draw (adjudicated: cap)\n"), stdout)
	require.Contains(t, stdout, "all.jsonl#1: ok: ")
	require.Contains(t, stdout, dir+": 3 files, every one verified\n")

	code, stdout, stderr = matchRun(t, context.Background(), "replay", dir, "--json")
	require.Equal(t, 0, code, stderr)
	require.Equal(t, 4, strings.Count(stdout, `"adjudicated":"cap","verified":true}`), stdout)

	code, _, stderr = matchRun(t, context.Background(), "replay", dir)
	require.Equal(t, ExitUsage, code)
	require.Contains(t, stderr, "is a directory: check its replays with --verify")

	require.NoError(t, os.WriteFile(filepath.Join(dir, "bad.jsonl"), []byte("garbage\n"), 0o644))
	code, stdout, stderr = matchRun(t, context.Background(), "replay", dir, "--verify")
	require.Equal(t, 1, code)
	require.Contains(t, stderr, "1 of 4 files do not verify: bad.jsonl")
	require.Contains(t, stdout, "game-000001.jsonl: ok: ", "the other files are still checked")
}
