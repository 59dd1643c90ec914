package matrix_test

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

	"github.com/kaisen-ai/kaisen/games"
	"github.com/kaisen-ai/kaisen/internal/cli"
	"github.com/kaisen-ai/kaisen/queue/queuetest"
)

// The run hosts of the matrix: the commands that split, record, resume
// and score runs, each through kaisen's own command line (cli.Run), the
// way a user runs them, on any registered game.

// kaisen runs the command in-process and returns its stdout, failing the
// test on a non-zero exit.
func kaisen(t *testing.T, args ...string) string {
	t.Helper()
	var out, errOut bytes.Buffer
	code := cli.Run(context.Background(), args, strings.NewReader(""), &out, &errOut)
	require.Zero(t, code, "kaisen %s: %s", strings.Join(args, " "), errOut.String())
	return out.String()
}

// lastJSON is the last line of out, a --json line, without the fields
// that depend on the machine (timing, workers).
func lastJSON(t *testing.T, out string) map[string]any {
	t.Helper()
	lines := strings.Split(strings.TrimSpace(out), "\n")
	var m map[string]any
	require.NoError(t, json.Unmarshal([]byte(lines[len(lines)-1]), &m), lines[len(lines)-1])
	for _, k := range []string{"games_per_sec", "elapsed_sec", "elapsed", "workers", "ms_per_move_p99", "ms_per_move_mean"} {
		delete(m, k)
	}
	return m
}

// matchArgs is kaisen match of the game's default AIs, n games, seed 26.
func matchArgs(g games.Game, n int, more ...string) []string {
	return append([]string{"match", "--game", g.Name, "--p1", g.DefaultPlayers[0], "--p2", g.DefaultPlayers[1],
		"-n", strconv.Itoa(n), "--seed", "26", "--progress", "never"}, more...)
}

// shardHost splits a match in two shards (kaisen match --shard K/2
// --out) and merges them (kaisen merge): the merged result is the
// unsplit run's.
func shardHost(t *testing.T, g games.Game) {
	n, _ := matrixGames()
	whole := lastJSON(t, kaisen(t, matchArgs(g, n, "--json")...))
	dir := t.TempDir()
	var files []string
	for k := 1; k <= 2; k++ {
		f := filepath.Join(dir, "s"+strconv.Itoa(k)+".jsonl")
		kaisen(t, matchArgs(g, n, "--shard", strconv.Itoa(k)+"/2", "--out", f)...)
		files = append(files, f)
	}
	merged := lastJSON(t, kaisen(t, append([]string{"merge", "--json"}, files[1], files[0])...))
	require.Equal(t, whole, merged, "the merged shards are the unsplit run")
}

// gamesOutHost records a match in one file (--games-out), lists it
// (kaisen replay FILE), cuts it after its first games as a killed run
// leaves it and resumes it (--recover): the resumed run ends on the
// uninterrupted run's result and file.
func gamesOutHost(t *testing.T, g games.Game) {
	n, _ := matrixGames()
	dir := t.TempDir()
	full := filepath.Join(dir, "full.jsonl")
	want := lastJSON(t, kaisen(t, matchArgs(g, n, "--json", "--games-out", full)...))
	data, err := os.ReadFile(full)
	require.NoError(t, err)

	list := kaisen(t, "replay", full)
	require.Equal(t, n, strings.Count(list, "\n"), list)
	for i := range n {
		require.Contains(t, list, "full.jsonl#"+strconv.Itoa(i)+": ")
	}

	// A killed run: the header and the first two games, and half a line.
	lines := bytes.SplitAfter(data, []byte("\n"))
	require.Greater(t, len(lines), 3)
	cut := bytes.Join(lines[:3], nil)
	cut = append(cut, lines[3][:len(lines[3])/2]...)
	part := filepath.Join(dir, "part.jsonl")
	require.NoError(t, os.WriteFile(part, cut, 0o644))
	got := lastJSON(t, kaisen(t, matchArgs(g, n, "--json", "--games-out", part, "--recover")...))
	require.Equal(t, want, got, "the resumed run ends on the uninterrupted run's result")
	resumed, err := os.ReadFile(part)
	require.NoError(t, err)
	require.Equal(t, strings.Count(string(data), "\n"), strings.Count(string(resumed), "\n"), "every game once")
}

// gauntletRow matches a row of kaisen gauntlet's table: opponent, games,
// wins, draws, losses.
var gauntletRow = regexp.MustCompile(`(?m)^  (\S+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s`)

// gauntletHost plays the game's first default AI against two of its
// AIs (kaisen gauntlet --pool) in pairs: each row has its games, and
// the same seed gives the same table.
func gauntletHost(t *testing.T, g games.Game) {
	pool := []string{g.DefaultPlayers[1]}
	for _, p := range g.Players() {
		if !strings.Contains(strings.Join(pool, ","), p.Name) && len(pool) < 2 {
			pool = append(pool, p.Name)
		}
	}
	args := []string{"gauntlet", "--game", g.Name, g.DefaultPlayers[0], "--pool", strings.Join(pool, ","), "-n", "2", "--seed", "26", "--progress", "never"}
	out := kaisen(t, args...)
	table := out[:strings.LastIndex(strings.TrimSpace(out), "\n")] // the timing line moves
	require.Equal(t, table, func() string { o := kaisen(t, args...); return o[:strings.LastIndex(strings.TrimSpace(o), "\n")] }(), "the same seed twice")
	rows := map[string][]string{}
	for _, m := range gauntletRow.FindAllStringSubmatch(out, -1) {
		rows[m[1]] = m[2:]
	}
	for _, p := range append(pool, "overall") {
		require.Contains(t, rows, p, out)
		r := rows[p]
		games, _ := strconv.Atoi(r[0])
		w, _ := strconv.Atoi(r[1])
		d, _ := strconv.Atoi(r[2])
		l, _ := strconv.Atoi(r[3])
		require.Equal(t, games, w+d+l, "row %s: every game won, drawn or lost", p)
		require.Positive(t, games)
	}
}

// replayHost records a match's replays (kaisen match --replays), checks
// them all (kaisen replay DIR --verify), draws one (kaisen replay FILE)
// and writes its page (--html); an edited file is refused.
func replayHost(t *testing.T, g games.Game) {
	dir := t.TempDir()
	kaisen(t, matchArgs(g, 2, "--replays", dir)...)
	out := kaisen(t, "replay", dir, "--verify")
	require.Contains(t, out, dir+": 2 files, every one verified\n")
	file := filepath.Join(dir, "game-000001.jsonl")
	require.NotEmpty(t, kaisen(t, "replay", file))

	page := filepath.Join(dir, "game.html")
	kaisen(t, "replay", file, "--html", page)
	html, err := os.ReadFile(page)
	require.NoError(t, err)
	require.Contains(t, string(html), "<html")
	require.Contains(t, string(html), `"game":"`+g.Name+`"`, "the page's data is the game's")

	var stdout, stderr bytes.Buffer

	data, err := os.ReadFile(file)
	require.NoError(t, err)
	lines := bytes.SplitAfter(bytes.TrimRight(data, "\n"), []byte("\n"))
	edited := bytes.Join(append(lines[:len(lines)-2:len(lines)-2], lines[len(lines)-1]), nil) // the last action taken out
	require.NoError(t, os.WriteFile(file, edited, 0o644))
	stdout.Reset()
	stderr.Reset()
	code := cli.Run(context.Background(), []string{"replay", dir, "--verify"}, nil, &stdout, &stderr)
	require.Equal(t, 1, code, "an edited replay is refused: %s", stdout.String())
	require.Contains(t, stderr.String(), "1 of 2 files do not verify: game-000001.jsonl")
}

// queueHost plays a match through the work queue (kaisen match --nats):
// a broker on a loopback port and two workers playing its items as
// kaisen worker does (queue.PlayItem, the typed library call of each
// item), and the queued match prints the local one's result.
func queueHost(t *testing.T, g games.Game) {
	url := queuetest.Start(t, 2)
	n, _ := matrixGames()
	local := lastJSON(t, kaisen(t, matchArgs(g, n, "--json")...))
	var out, errOut bytes.Buffer
	code := cli.Run(context.Background(), matchArgs(g, n, "--json", "--nats", url, "--shard-games", "2"), strings.NewReader(""), &out, &errOut)
	require.Zero(t, code, errOut.String())
	require.Contains(t, errOut.String(), "run id match-", "the match went through the queue")
	require.Equal(t, local, lastJSON(t, out.String()), "the queued match is the local one")
}
