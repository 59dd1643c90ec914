package cli

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/arena"
	"github.com/kaisen-ai/kaisen/audit"
	subrecord "github.com/kaisen-ai/kaisen/game/submarine/record"
	"github.com/kaisen-ai/kaisen/internal/race"
)

// TestMatchAudit: random throws drawn positions away against simple; the
// audit lists those games, the same ones whatever the number of workers,
// and auditing each listed game's replay finds the same throw.
func TestMatchAudit(t *testing.T) {
	dir := t.TempDir()
	var (
		runs []map[string]any
		a    auditJSON
	)
	for _, workers := range []string{"1", "2"} {
		code, stdout, stderr := matchRun(t, context.Background(), "match", "--p1", "random", "--p2", "simple",
			"-n", "12", "--seed", "3", "--workers", workers, "--audit", "--json", "--replays", filepath.Join(dir, workers))
		require.Equal(t, 0, code, stderr)
		got := matchLastJSON(t, stdout)
		delete(got, "games_per_sec")
		runs = append(runs, got)
		lines := strings.Split(strings.TrimSpace(stdout), "\n")
		var out struct {
			Audit auditJSON `json:"audit"`
		}
		require.NoError(t, json.Unmarshal([]byte(lines[len(lines)-1]), &out)) // the game seeds need all 64 bits
		a = out.Audit
	}
	require.Equal(t, runs[0], runs[1])
	assert.Equal(t, 12, a.Games)

	// Every game of each player is in one class; the wins are the
	// match's, and the forced draws and missed wins are listed.
	require.Len(t, a.Players, 2)
	for i, p := range a.Players {
		total, won := 0, 0
		for k, n := range p.Classes {
			total += n
			if strings.HasPrefix(k, "won_") {
				won += n
			}
		}
		assert.Equal(t, 12, total, p.Player)
		assert.Equal(t, int(runs[0][p.Player+"_wins"].(float64)), won, p.Player)
		assert.Len(t, p.Forced, p.Classes["forced_draw"])
		assert.Len(t, p.Missed, p.Classes["missed_win"])
		after := 0
		for _, n := range p.WinSunkBefore {
			after += n
		}
		assert.Equal(t, won-p.Classes["won_hidden"], after, p.Player)
		assert.Equal(t, []string{"p1", "p2"}[i], p.Player)
		for _, pt := range p.Forced {
			assert.Equal(t, "draw", pt.Value)
			assert.Regexp(t, `^\d(\+\d)* vs \d(\+\d)*$`, pt.Material)
		}
	}
	assert.Positive(t, a.Players[0].Classes["missed_win"]+a.Players[0].Classes["forced_draw"], "random does not win from known positions")

	// kaisen replay --audit DIR audits the replays as the match did.
	code, stdout, stderr := matchRun(t, context.Background(), "replay", filepath.Join(dir, "1"), "--audit", "--json")
	require.Equal(t, 0, code, stderr)
	var fromDir replayDirJSON
	require.NoError(t, json.Unmarshal([]byte(stdout), &fromDir))
	assert.Equal(t, a, *fromDir.Audit)
	assert.Equal(t, 12, fromDir.Games)
	assert.Equal(t, int(runs[0]["p1_wins"].(float64)), fromDir.P1Wins)
	assert.Equal(t, int(runs[0]["draws"].(float64)), fromDir.Draws)
	assert.Equal(t, "random", fromDir.P1)
	assert.Positive(t, fromDir.LongestDecided)
	assert.Positive(t, a.P1Thrown, "random throws drawn positions away")
	assert.Zero(t, a.P2Thrown)
	assert.Len(t, a.Thrown, a.P1Thrown+a.P2Thrown)
	for k, g := range a.Thrown {
		rp, err := subrecord.ReadFile(filepath.Join(dir, "1", arena.ReplayName(g.Index)))
		require.NoError(t, err)
		au, err := audit.ForReplay(rp, audit.Options{})
		require.NoError(t, err)
		rep, err := au.Replay(rp)
		require.NoError(t, err)
		require.NotNil(t, rep.Throw)
		assert.Equal(t, g.Ply, rep.Throw.Ply)
		assert.True(t, rep.Throw.Proven())
		assert.Equal(t, "random", g.Name)
		assert.Equal(t, rp.Header.Seed, g.Seed)

		if race.Enabled && k > 0 {
			continue // the command on one throw under -race; on all in TestMatchAuditTextFullSize
		}
		// kaisen replay --audit finds the same throw in the file.
		file := filepath.Join(dir, "1", arena.ReplayName(g.Index))
		code, stdout, stderr := matchRun(t, context.Background(), "replay", file, "--audit", "--json")
		require.Equal(t, 0, code, stderr)
		var got replayAuditJSON
		require.NoError(t, json.Unmarshal([]byte(stdout), &got))
		require.NotNil(t, got.Throw)
		assert.Equal(t, g.Ply, got.Throw.Ply)
		assert.True(t, got.Proven)
		assert.Equal(t, "random", got.Throw.Name)
		assert.Equal(t, "random", rp.Header.Players[got.Throw.Seat].Name)
		assert.NotEqual(t, "", got.Classes[got.Throw.Seat])
		assert.False(t, strings.HasPrefix(got.Classes[got.Throw.Seat], "won_"), "the thrower lost")
	}
}

// TestMatchAuditTextFullSize checks the text of TestMatchAudit's audits
// (minutes under the race detector, which runs their JSON): kaisen match
// --audit's table, kaisen replay --audit of the replay directory and of
// each game with a throw.
func TestMatchAuditTextFullSize(t *testing.T) {
	race.SkipFullSize(t)
	dir := t.TempDir()
	code, stdout, stderr := matchRun(t, context.Background(), "match", "--p1", "random", "--p2", "simple",
		"-n", "12", "--seed", "3", "--audit", "--replays", dir)
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, stdout, "solver audit: 12 games audited")
	assert.Regexp(t, `(?m)^draw forced under perfect information \(first known position drawn\) +\d+ +\d+$`, stdout)
	assert.Regexp(t, `lost after a position the solver holds \(drawn or won\): p1 random [1-9]\d*, p2 simple 0`, stdout)
	losses := strings.Count(stdout, "-> loss")

	code, stdout, stderr = matchRun(t, context.Background(), "replay", dir, "--audit", "--json")
	require.Equal(t, 0, code, stderr)
	var fromDir replayDirJSON
	require.NoError(t, json.Unmarshal([]byte(stdout), &fromDir))
	a := fromDir.Audit
	require.NotNil(t, a)
	require.NotEmpty(t, a.Thrown)
	assert.Equal(t, len(a.Thrown), losses-len(a.Unproved))

	code, stdout, stderr = matchRun(t, context.Background(), "replay", dir, "--audit")
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, stdout, "12 replays in ")
	assert.Contains(t, stdout, "how the games went")
	for _, g := range a.Thrown {
		code, stdout, stderr = matchRun(t, context.Background(), "replay", filepath.Join(dir, arena.ReplayName(g.Index)), "--audit")
		require.Equal(t, 0, code, stderr)
		assert.Contains(t, stdout, "lost a position the solver holds: action ")
		assert.Contains(t, stdout, "first known position after action ")
	}
}

func TestMatchAuditErrors(t *testing.T) {
	dir := t.TempDir()
	code, _, stderr := matchRun(t, context.Background(), "match", "--game", "battleship", "-n", "1", "--seed", "1", "--replays", dir)
	require.Equal(t, 0, code, stderr)
	for _, args := range [][]string{
		{"replay", filepath.Join(dir, arena.ReplayName(0)), "--audit"},
		{"replay", filepath.Join(dir, arena.ReplayName(0)), "--audit", "--turn", "3"},
		{"match", "--game", "battleship", "-n", "2", "--seed", "1", "--audit"},
		{"match", "--game", "battleship", "-n", "4", "--seed", "1", "--audit", "--shard", "1/2", "--out", filepath.Join(t.TempDir(), "s.json")},
		{"replay", dir, "--audit", "--turn", "3"},
	} {
		code, _, stderr := matchRun(t, context.Background(), args...)
		assert.Equal(t, 2, code, strings.Join(args, " "))
		assert.Contains(t, stderr, "--audit")
	}
	// A directory with no submarine replay, or none at all, is refused.
	code, _, stderr = matchRun(t, context.Background(), "replay", dir, "--audit")
	assert.Equal(t, 1, code)
	assert.NotEmpty(t, stderr)
	code, _, stderr = matchRun(t, context.Background(), "replay", t.TempDir(), "--audit")
	assert.Equal(t, 1, code)
	assert.Contains(t, stderr, "no replay")
}
