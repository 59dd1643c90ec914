package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/arena"
	bsrecord "github.com/kaisen-ai/kaisen/game/battleship/record"
)

func TestReplayBattleship(t *testing.T) {
	dir := t.TempDir()
	code, _, stderr := matchRun(t, context.Background(), "match", "--game", "battleship", "--p1", "gridbot", "--p2", "bs-random",
		"-n", "2", "--seed", "4", "--replays", dir, "--explain", "--json")
	require.Equal(t, 0, code, stderr)
	file := filepath.Join(dir, arena.ReplayName(1))
	rp, err := bsrecord.ReadFile(file)
	require.NoError(t, err)
	n := len(rp.Shots)
	require.Greater(t, n, 20)

	render := func(opt bsrecord.RenderOptions) string {
		var b bytes.Buffer
		require.NoError(t, bsrecord.Render(&b, rp, opt))
		return b.String()
	}
	tests := []struct {
		name     string
		args     []string
		want     string
		contains []string
	}{
		{"whole game", nil, render(bsrecord.RenderOptions{To: -1}),
			[]string{"seat 0: bs-random (p2), shoots first", "\n#1 seat 0 bs-random (p2) shoots ", "   why: state HUNT", "result: seat "}},
		{"start", []string{"--turn", "0"}, render(bsrecord.RenderOptions{}), []string{"\nstart\n"}},
		{"one shot", []string{"--turn", "5"}, render(bsrecord.RenderOptions{From: 5, To: 5}), []string{"\n#5 seat ", "\nafter shot 5\n"}},
		{"from", []string{"--from", "7", "--boards", "turn"}, render(bsrecord.RenderOptions{From: 7, To: -1, Boards: bsrecord.BoardsTurn}), nil},
		{"every shot, cyrillic", []string{"--boards", "shot", "--cyrillic"}, render(bsrecord.RenderOptions{To: -1, Boards: bsrecord.BoardsShot, Cyrillic: true}),
			[]string{"а  б  в  г  д  е  ж  з  и  к", "\nafter shot 1\n"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := matchRun(t, context.Background(), append([]string{"replay", file}, tc.args...)...)
			require.Equal(t, 0, code, stderr)
			require.Equal(t, tc.want, stdout)
			for _, s := range tc.contains {
				require.Contains(t, stdout, s)
			}
		})
	}

	code, stdout, _ := matchRun(t, context.Background(), "replay", file, "--verify")
	require.Equal(t, 0, code)
	require.Regexp(t, `game-000001.jsonl: ok: \d+ shots \(\d+ by seat 0, \d+ by seat 1\), seat \d \S+ wins\n$`, stdout)

	for _, bad := range [][]string{{"--turn", "-1"}, {"--turn", "100000"}, {"--from", "100000"}, {"--turn", "1", "--from", "1"},
		{"--heatmap"}, {"--boards", "often"}} {
		code, _, stderr := matchRun(t, context.Background(), append([]string{"replay", file}, bad...)...)
		require.Equal(t, 2, code, "%v: %s", bad, stderr)
	}

	// A tampered file is refused, drawn or verified.
	data, err := os.ReadFile(file)
	require.NoError(t, err)
	tampered := filepath.Join(dir, "tampered.jsonl")
	require.NoError(t, os.WriteFile(tampered, bytes.Replace(data, []byte(`"outcome":"miss"`), []byte(`"outcome":"hit","again":true`), 1), 0o644))
	for _, args := range [][]string{{"replay", tampered}, {"replay", tampered, "--verify"}} {
		code, _, stderr := matchRun(t, context.Background(), args...)
		require.Equal(t, 1, code)
		require.Contains(t, stderr, "replay: mismatch")
	}
	// A malformed one names the line.
	require.NoError(t, os.WriteFile(tampered, bytes.Replace(data, []byte(`"type":"shot","n":3,`), []byte(`"type":"shot","n":3,"x":1,`), 1), 0o644))
	code, _, stderr = matchRun(t, context.Background(), "replay", tampered)
	require.Equal(t, 1, code)
	require.Contains(t, stderr, `replay: bad format: line 6: shot: unknown key "x"`)
}

func TestReplaySubmarineRefusesBattleshipFlags(t *testing.T) {
	dir := t.TempDir()
	code, _, stderr := matchRun(t, context.Background(), "match", "--p1", "random", "--p2", "random", "-n", "1", "--seed", "4", "--replays", dir, "--json")
	require.Equal(t, 0, code, stderr)
	file := filepath.Join(dir, arena.ReplayName(0))
	for _, args := range [][]string{{"--boards", "shot"}, {"--cyrillic"}} {
		code, _, stderr := matchRun(t, context.Background(), append([]string{"replay", file}, args...)...)
		require.Equal(t, 2, code, stderr)
		require.Contains(t, stderr, "is for battleship replays")
	}
}
