package server

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/game/submarine"
	subrecord "github.com/kaisen-ai/kaisen/game/submarine/record"
	"github.com/kaisen-ai/kaisen/internal/race"
	"github.com/kaisen-ai/kaisen/protocol"
)

var listeningLineRE = regexp.MustCompile(`^listening on (\S+) `)

// buildKaisen builds the kaisen command into dir.
func buildKaisen(t *testing.T, dir string) string {
	t.Helper()
	goTool, err := exec.LookPath("go")
	require.NoError(t, err, "the crash test builds kaisen: put the go command on PATH")
	bin := filepath.Join(dir, "kaisen")
	cmd := exec.Command(goTool, "build", "-o", bin, "./cmd/kaisen")
	cmd.Dir = ".."
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "go build: %s", out)
	return bin
}

// startKaisenServe runs `kaisen serve` with args and returns the process
// and the first listener's address.
func startKaisenServe(t *testing.T, bin string, args ...string) (*exec.Cmd, string) {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"serve", "--log-format", "json"}, args...)...)
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	cmd.Stderr = io.Discard
	require.NoError(t, cmd.Start())
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	addr := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if m := listeningLineRE.FindStringSubmatch(sc.Text()); m != nil {
				addr <- m[1]
			}
		}
		close(addr)
	}()
	select {
	case a, ok := <-addr:
		require.True(t, ok, "kaisen serve exited before listening")
		return cmd, a
	case <-time.After(30 * time.Second):
		t.Fatal("kaisen serve did not start listening")
		return nil, ""
	}
}

// countLines counts the lines of a file (0 when it does not exist).
func countLines(path string) int {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0
	}
	return bytes.Count(b, []byte("\n"))
}

// TestSIGKILLLeavesWholeRecords kills `kaisen serve` (SIGKILL) while many
// games are being played and checks what it leaves on disk: every line of
// the result log is a whole result, every replay file is whole and verifies
// against the rules, every result's replay exists, temporary files are not
// replays. A server started again on the same files appends after them.
func TestSIGKILLLeavesWholeRecords(t *testing.T) {
	checkLeaks(t)
	dir := t.TempDir()
	bin := buildKaisen(t, dir)
	rl, rd := filepath.Join(dir, "results.jsonl"), filepath.Join(dir, "replays")
	args := []string{"--house", "random", "--listen", "127.0.0.1:0", "--result-log", rl, "--replay-dir", rd,
		"--seed", "7", "--max-connections-per-ip", "1024", "--log-level", "warn"}
	cmd, addr := startKaisenServe(t, bin, args...)

	// Many clients play until the server dies under them.
	rules := submarine.DefaultRules()
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	var played atomic.Int64
	var wg sync.WaitGroup
	for i := range 16 {
		wg.Go(func() {
			for seed := uint64(i) << 32; ctx.Err() == nil; seed++ {
				if _, err := randomClient(addr, protocol.Classic, rules, seed, ""); err != nil {
					return // the server is gone
				}
				played.Add(1)
			}
		})
	}
	want := 40
	if testing.Short() || race.Enabled {
		want = 20
	}
	deadline := time.Now().Add(30 * time.Second)
	for countLines(rl) < want {
		require.True(t, time.Now().Before(deadline), "only %d results after 30s", countLines(rl))
		time.Sleep(5 * time.Millisecond)
	}
	require.NoError(t, cmd.Process.Kill()) // SIGKILL, mid-game for most clients
	_ = cmd.Wait()
	stop()
	wg.Wait()

	results := checkRecords(t, rl, rd)
	t.Logf("%d results, %d games finished by clients before the kill", len(results), played.Load())
	require.GreaterOrEqual(t, len(results), want)
	require.GreaterOrEqual(t, int64(len(results)), played.Load(), "every game a client saw end is in the result log")

	// A new server appends to the same files.
	_, addr = startKaisenServe(t, bin, args...)
	ends, err := randomClient(addr, protocol.Classic, rules, 1, "")
	require.NoError(t, err)
	require.Len(t, ends, 1)
	require.Eventually(t, func() bool { return countLines(rl) > len(results) }, 10*time.Second, 5*time.Millisecond)
	require.Len(t, checkRecords(t, rl, rd), len(results)+1)
}

// checkRecords checks the result log and the replay directory a server left
// and returns the results.
func checkRecords(t *testing.T, rl, rd string) []Result {
	t.Helper()
	b, err := os.ReadFile(rl)
	require.NoError(t, err)
	require.True(t, len(b) == 0 || b[len(b)-1] == '\n', "the result log ends with a whole line")
	var results []Result
	games := map[string]bool{}
	for i, line := range bytes.Split(bytes.TrimSuffix(b, []byte("\n")), []byte("\n")) {
		var r Result
		require.NoError(t, jsonUnmarshalStrict(line, &r), "result log line %d: %s", i+1, line)
		require.NotEmpty(t, r.Game)
		require.False(t, games[r.Game], "game %s twice", r.Game)
		games[r.Game] = true
		// Aborted games have their partial replay too.
		require.NotEmpty(t, r.Replay, "game %s has no replay", r.Game)
		_, err := os.Stat(filepath.Join(rd, r.Replay))
		require.NoError(t, err, "the replay of a logged game exists")
		results = append(results, r)
	}
	entries, err := os.ReadDir(rd)
	require.NoError(t, err)
	replays := 0
	for _, e := range entries {
		name := e.Name()
		if strings.HasPrefix(name, ".") && strings.Contains(name, ".tmp-") {
			continue // an unfinished replay: not a replay
		}
		require.True(t, strings.HasSuffix(name, ".jsonl"), "unexpected file %s", name)
		rp, err := subrecord.ReadFile(filepath.Join(rd, name))
		require.NoError(t, err, "replay %s", name)
		require.NoError(t, subrecord.Verify(rp), "replay %s", name)
		replays++
	}
	require.GreaterOrEqual(t, replays, len(results), fmt.Sprintf("%d replays", replays))
	return results
}
