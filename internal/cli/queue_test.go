package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/queue"
	"github.com/kaisen-ai/kaisen/queue/queuetest"
)

// startWorkers starts a broker and n workers (queuetest.Start).
func startWorkers(t *testing.T, n int) string { return queuetest.Start(t, n) }

// TestQueuedEqualsLocal: match, tournament and shots played by three
// workers through the queue print what the local run prints, --json and
// table, apart from the timing fields.
func TestQueuedEqualsLocal(t *testing.T) {
	url := startWorkers(t, 3)
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"match submarine", []string{"match", "--p1", "random", "--p2", "stateplayer2", "-n", "23", "--seed", "11"}},
		{"match battleship", []string{"match", "--game", "battleship", "--p1", "bs-random", "--p2", "gridbot", "-n", "9", "--seed", "3"}},
		{"match audited", []string{"match", "--p1", "state", "--p2", "stateplayer2", "-n", "10", "--seed", "5", "--audit"}},
		{"tournament", []string{"tournament", "--players", "random,simple,stateplayer2", "-n", "5", "--seed", "9", "--bootstrap", "50"}},
		{"shots", []string{"shots", "--player", "gridbot", "--size", "6x6", "--fleet", "3,2,1", "-n", "13", "--seed", "2"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			code, localJSON, stderr := matchRun(t, ctx, append(tc.args, "--json")...)
			require.Equal(t, ExitOK, code, stderr)
			code, localTable, stderr := matchRun(t, ctx, tc.args...)
			require.Equal(t, ExitOK, code, stderr)
			queued := append(tc.args, "--nats", url, "--shard-games", "4")
			code, gotJSON, stderr := matchRun(t, ctx, append(queued, "--json")...)
			require.Equal(t, ExitOK, code, stderr)
			require.Contains(t, stderr, "run id "+tc.args[0]+"-")
			require.Equal(t, withoutTiming(t, localJSON), withoutTiming(t, gotJSON))
			code, gotTable, stderr := matchRun(t, ctx, queued...)
			require.Equal(t, ExitOK, code, stderr)
			require.Equal(t, timingLine.ReplaceAllString(localTable, ""), timingLine.ReplaceAllString(gotTable, ""))
		})
	}
}

// TestQueuedResumeSameRunID: a run id that already holds a finished run
// gives its result again without a worker (nothing replayed), and refuses
// another run's command under the same id.
func TestQueuedResumeSameRunID(t *testing.T) {
	b, err := queue.StartBroker(queue.BrokerConfig{Listen: "127.0.0.1:0", StoreDir: t.TempDir()})
	require.NoError(t, err)
	defer b.Close()
	url := b.URL()
	args := []string{"match", "--p1", "random", "--p2", "random", "-n", "12", "--seed", "5", "--json", "--nats", url, "--run-id", "r1", "--shard-games", "5"}
	first := make(chan string, 1)
	go func() {
		_, stdout, _ := matchRun(t, context.Background(), args...)
		first <- stdout
	}()
	nc, js, err := queue.Connect(url, "w", "")
	require.NoError(t, err)
	defer nc.Close()
	h, err := queue.Setup(context.Background(), js, queue.Settings{})
	require.NoError(t, err)
	wctx, stopWorker := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		w := &queue.Worker{Q: h, Play: queue.PlayItem, Name: "w", Workers: 1, Log: slog.New(slog.DiscardHandler), Poll: 100 * time.Millisecond}
		_ = w.Run(wctx)
	}()
	var want string
	select {
	case want = <-first:
	case <-time.After(20 * time.Second):
		t.Fatal("the queued match did not finish")
	}
	stopWorker() // no worker from here on
	<-done
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	code, got, stderr := matchRun(t, ctx, args...)
	require.Equal(t, ExitOK, code, stderr)
	require.Equal(t, withoutTiming(t, want), withoutTiming(t, got))

	other := append([]string{}, args...)
	other[8] = "6" // --seed 6 under the same run id
	code, _, stderr = matchRun(t, ctx, other...)
	require.Equal(t, ExitUsage, code)
	require.Contains(t, stderr, "seed 5, not 6")
}

// TestQueuedSettingsTravelAsText: the weights and rules files of a queued
// run travel in its items as text, so workers started after the files are
// gone still play the local run's games (match, tournament and shots).
func TestQueuedSettingsTravelAsText(t *testing.T) {
	b, err := queue.StartBroker(queue.BrokerConfig{Listen: "127.0.0.1:0", StoreDir: t.TempDir()})
	require.NoError(t, err)
	defer b.Close()
	nc, js, err := queue.Connect(b.URL(), "test", "")
	require.NoError(t, err)
	defer nc.Close()
	h, err := queue.Setup(context.Background(), js, queue.Settings{AckWait: 5 * time.Second})
	require.NoError(t, err)
	dir := t.TempDir()
	file := func(name, text string) string {
		path := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(path, []byte(text), 0o600))
		return path
	}
	rules := "game: submarine\nrules:\n  width: 4\n  height: 4\n  draw_limit: 60\n"
	simple := "move_probability: 0.9\n"
	for _, tc := range []struct {
		name  string
		files map[string]string
		args  func(paths map[string]string) []string
	}{
		{"match", map[string]string{"rules": rules, "p2": simple}, func(p map[string]string) []string {
			return []string{"match", "--p1", "random", "--p2", "simple", "--p2-weights", p["p2"], "--rules", p["rules"], "-n", "12", "--seed", "4"}
		}},
		{"tournament", map[string]string{"rules": rules, "tuned": simple}, func(p map[string]string) []string {
			return []string{"tournament", "--players", "random,simple,simple@tuned", "--player-weights", "simple@tuned=" + p["tuned"],
				"--rules", p["rules"], "-n", "4", "--seed", "6", "--bootstrap", "20"}
		}},
		{"shots", map[string]string{"gridbot": "pattern: blocks\n"}, func(p map[string]string) []string {
			return []string{"shots", "--player", "gridbot", "--weights", p["gridbot"], "--size", "6x6", "--fleet", "3,2", "-n", "7", "--seed", "8"}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			paths := map[string]string{}
			for name, text := range tc.files {
				paths[name] = file(tc.name+"-"+name+".yaml", text)
			}
			args := append(tc.args(paths), "--json")
			code, want, stderr := matchRun(t, ctx, args...)
			require.Equal(t, ExitOK, code, stderr)
			st, err := h.JS.Stream(ctx, queue.WorkStream)
			require.NoError(t, err)
			before := st.CachedInfo().State.Msgs
			type out struct {
				code           int
				stdout, stderr string
			}
			queued := make(chan out, 1)
			go func() {
				code, stdout, stderr := matchRun(t, ctx, append(args, "--nats", b.URL(), "--shard-games", "3")...)
				queued <- out{code, stdout, stderr}
			}()
			require.Eventually(t, func() bool {
				info, err := st.Info(ctx)
				return err == nil && info.State.Msgs > before
			}, 20*time.Second, 20*time.Millisecond, "the items are published")
			time.Sleep(100 * time.Millisecond) // the last items of the run
			for _, path := range paths {
				require.NoError(t, os.Remove(path))
			}
			wctx, stop := context.WithCancel(ctx)
			done := make(chan struct{})
			go func() {
				defer close(done)
				w := &queue.Worker{Q: h, Name: "w", Workers: 1, Log: slog.New(slog.DiscardHandler), Poll: 100 * time.Millisecond}
				_ = w.Run(wctx)
			}()
			got := <-queued
			stop()
			<-done
			require.Equal(t, ExitOK, got.code, got.stderr)
			require.Equal(t, withoutTiming(t, want), withoutTiming(t, got.stdout))
		})
	}
}

// cancelOn cancels when a line containing word is written.
type cancelOn struct {
	mu     sync.Mutex
	buf    bytes.Buffer
	word   string
	cancel context.CancelFunc
}

func (c *cancelOn) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.buf.Write(p)
	if strings.Contains(c.buf.String(), c.word) {
		c.cancel()
	}
	return len(p), nil
}

// TestQueuedTuneEqualsLocalAndResumes: kaisen tune --nats spreads each
// evaluation's games over workers and writes the weights the local run
// writes; stopped after its first iteration, it resumes from the
// checkpoint in the queue (another process would do the same with the same
// --run-id) and still ends with the same weights.
func TestQueuedTuneEqualsLocalAndResumes(t *testing.T) {
	url := startWorkers(t, 3)
	dir := t.TempDir()
	base := []string{"tune", "--player", "simple", "--against", "random,simple", "--budget-games", "60",
		"--batch", "8", "--final-games", "10", "--seed", "3", "--workers", "1"}
	local := filepath.Join(dir, "local.yaml")
	code, _, stderr := tuneRun(t, append(base, "--out", local)...)
	require.Equal(t, ExitOK, code, stderr)

	queued := filepath.Join(dir, "queued.yaml")
	args := append(base, "--out", queued, "--nats", url, "--run-id", "tune1", "--shard-games", "3")
	ctx, cancel := context.WithCancel(context.Background())
	stop := &cancelOn{word: "iter 1/2", cancel: cancel}
	code = Run(ctx, args, nil, &bytes.Buffer{}, stop)
	require.Equal(t, ExitInterrupted, code, stop.buf.String())
	require.Contains(t, stop.buf.String(), "--run-id tune1")
	_, err := os.Stat(queued)
	require.ErrorIs(t, err, os.ErrNotExist, "the stopped run wrote no weights")

	code, _, stderr = tuneRun(t, args...)
	require.Equal(t, ExitOK, code, stderr)
	require.Contains(t, stderr, "resuming the queue (--run-id tune1) at iteration 1 of 2")
	want, err := os.ReadFile(local)
	require.NoError(t, err)
	got, err := os.ReadFile(queued)
	require.NoError(t, err)
	require.Equal(t, tuneDate.ReplaceAllString(string(want), ""), tuneDate.ReplaceAllString(string(got), ""))
}

// TestQueuedTuneWithFiles: an opponent's weights and the --rules of a
// queued tuning run travel in its items as text: it writes the local
// run's file.
func TestQueuedTuneWithFiles(t *testing.T) {
	url := startWorkers(t, 2)
	dir := t.TempDir()
	rules := filepath.Join(dir, "rules.yaml")
	require.NoError(t, os.WriteFile(rules, []byte("game: submarine\nrules:\n  width: 4\n  height: 4\n  draw_limit: 60\n"), 0o600))
	eager := filepath.Join(dir, "eager.yaml")
	require.NoError(t, os.WriteFile(eager, []byte("move_probability: 0.9\n"), 0o600))
	base := []string{"tune", "--player", "simple", "--against", "random,simple@" + eager, "--rules", rules, "--budget-games", "40",
		"--batch", "8", "--final-games", "10", "--seed", "5", "--workers", "1"}
	local := filepath.Join(dir, "local.yaml")
	code, _, stderr := tuneRun(t, append(base, "--out", local)...)
	require.Equal(t, ExitOK, code, stderr)
	queued := filepath.Join(dir, "queued.yaml")
	code, _, stderr = tuneRun(t, append(base, "--out", queued, "--nats", url, "--shard-games", "3")...)
	require.Equal(t, ExitOK, code, stderr)
	want, err := os.ReadFile(local)
	require.NoError(t, err)
	got, err := os.ReadFile(queued)
	require.NoError(t, err)
	require.Equal(t, tuneDate.ReplaceAllString(string(want), ""), tuneDate.ReplaceAllString(string(got), ""))
}

// TestQueuedExploitEqualsLocal: kaisen exploit --nats plays the search and
// the out-of-sample games on the workers and prints and writes what the
// local run does; the queue flags stay out of the recorded command.
func TestQueuedExploitEqualsLocal(t *testing.T) {
	url := startWorkers(t, 3)
	dir := t.TempDir()
	local := filepath.Join(dir, "local.yaml")
	code, want, stderr := tuneRun(t, exploitArgs(local)...)
	require.Equal(t, ExitOK, code, stderr)
	queued := filepath.Join(dir, "queued.yaml")
	code, got, stderr := tuneRun(t, exploitArgs(queued, "--nats", url, "--run-id", "ex1", "--shard-games", "4")...)
	require.Equal(t, ExitOK, code, stderr)
	require.Equal(t, want, strings.ReplaceAll(got, queued, local))
	require.Contains(t, stderr, "verifying the")
	// The games were the workers': the queue holds results of run ex1,
	// the verification's 30 games included (8 items of at most 4 games).
	nc, js, err := queue.Connect(url, "test", "")
	require.NoError(t, err)
	defer nc.Close()
	h, err := queue.Setup(context.Background(), js, queue.Settings{})
	require.NoError(t, err)
	keys, err := h.Results.Keys(context.Background())
	require.NoError(t, err)
	require.GreaterOrEqual(t, len(keys), 2*2*2+2*3+8, "iterations, final games and verification, as items: %v", keys)
	for _, k := range keys {
		require.True(t, strings.HasPrefix(k, "ex1-"), k)
	}
	w, err := os.ReadFile(local)
	require.NoError(t, err)
	g, err := os.ReadFile(queued)
	require.NoError(t, err)
	require.Equal(t, tuneDate.ReplaceAllString(string(w), ""), tuneDate.ReplaceAllString(string(g), ""))
	require.NotContains(t, string(g), "--nats")
}

func TestQueueFlagErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"match", "--nats", "nats://127.0.0.1:1", "--shard", "1/2", "--out", "x", "--seed", "1"}, "not with --shard"},
		{[]string{"match", "--nats", "nats://127.0.0.1:1"}, "--nats needs --seed"},
		{[]string{"match", "--run-id", "x", "--seed", "1"}, "--run-id goes with --nats"},
		{[]string{"match", "--nats", "nats://127.0.0.1:1", "--seed", "1", "--run-id", "a.b"}, `--run-id "a.b"`},
		{[]string{"match", "--nats", "nats://127.0.0.1:1", "--seed", "1", "--replays", "d"}, "--replays cannot be used with --nats"},
		{[]string{"match", "--nats", "nats://127.0.0.1:1", "--seed", "1", "--run-id", strings.Repeat("x", 65)}, "want 1 to 64"},
		{[]string{"tournament", "--nats", "nats://127.0.0.1:1", "--seed", "1", "--shard-games", "0"}, "--shard-games 0"},
		{[]string{"tune", "--player", "simple", "--against", "random", "--nats", "nats://127.0.0.1:1", "--checkpoint", "c.json"}, "--checkpoint is a file"},
		{[]string{"exploit", "--target", "simple", "--family", "simple", "--nats", "nats://127.0.0.1:1", "--checkpoint", "c.json"}, "--checkpoint is a file"},
		{[]string{"exploit", "--target", "simple", "--family", "simple", "--run-id", "x"}, "--run-id goes with --nats"},
		{[]string{"worker"}, "--nats URL is required"},
		{[]string{"broker", "--listen", "0.0.0.0:0", "--store", "x"}, "needs credentials"},
		{[]string{"broker", "--listen", "127.0.0.1:0", "--store", "x", "--replicas", "3"}, "--replicas 3: want 1 to 5, and more than 1 only with --cluster"},
		{[]string{"broker", "--listen", "127.0.0.1:0", "--store", "x", "--node", "n1"}, "need --cluster NAME"},
		{[]string{"broker", "--listen", "127.0.0.1:0", "--store", "x", "--cluster", "q"}, "--cluster q: give this node a name"},
		{[]string{"broker", "--listen", "127.0.0.1:0", "--store", "x", "--cluster", "q", "--node", "n1", "--cluster-listen", "0.0.0.0:0"}, "needs credentials"},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			code, _, stderr := matchRun(t, context.Background(), tc.args...)
			require.Equal(t, ExitUsage, code, stderr)
			require.Contains(t, stderr, tc.want)
		})
	}
}

// TestQueueStatusAndPurge: kaisen queue status lists a played run with its
// results, as a table and --json; kaisen queue purge removes it.
func TestQueueStatusAndPurge(t *testing.T) {
	url := startWorkers(t, 2)
	code, _, stderr := matchRun(t, context.Background(), "match", "--p1", "random", "--p2", "random", "-n", "12", "--seed", "5",
		"--nats", url, "--run-id", "m1", "--shard-games", "5")
	require.Equal(t, ExitOK, code, stderr)

	// A worker acks its item after it publishes the result the match
	// waited for, so an item may still be pending for a moment: wait for
	// the acks, then the status is final.
	var runs []queue.RunStatus
	require.Eventually(t, func() bool {
		code, stdout, stderr := matchRun(t, context.Background(), "queue", "status", "--nats", url, "--json")
		require.Equal(t, ExitOK, code, stderr)
		runs = nil
		require.NoError(t, json.Unmarshal([]byte(stdout), &runs))
		return len(runs) == 1 && runs[0].Pending == 0
	}, 10*time.Second, 20*time.Millisecond)
	require.Equal(t, []queue.RunStatus{{Run: "m1", Results: 3}}, runs)
	code, stdout, _ := matchRun(t, context.Background(), "queue", "status", "--nats", url)
	require.Equal(t, ExitOK, code)
	require.Regexp(t, `(?m)^\s*run\s+items waiting\s+results\s+errors\s+checkpoint\s*$`, stdout)
	require.Regexp(t, `(?m)^\s*m1\s+0\s+3\s+0\s+-\s*$`, stdout)

	code, stdout, stderr = matchRun(t, context.Background(), "queue", "purge", "--nats", url, "--run-id", "m1", "--json")
	require.Equal(t, ExitOK, code, stderr)
	require.JSONEq(t, `[{"run":"m1","pending":0,"results":3,"errors":0,"checkpoint":false}]`, stdout)
	code, stdout, _ = matchRun(t, context.Background(), "queue", "status", "--nats", url, "--json")
	require.Equal(t, ExitOK, code)
	require.JSONEq(t, `[]`, stdout)
	code, _, stderr = matchRun(t, context.Background(), "queue", "purge", "--nats", url, "--run-id", "m1")
	require.Equal(t, ExitOK, code)
	require.Contains(t, stderr, "the queue holds nothing of run m1")

	for _, bad := range [][]string{
		{"queue", "purge", "--nats", url},
		{"queue", "purge", "--nats", url, "--run-id", "a.b"},
		{"queue", "status"},
		{"queue", "nonsense"},
	} {
		code, _, stderr = matchRun(t, context.Background(), bad...)
		require.Equal(t, ExitUsage, code, "%v: %s", bad, stderr)
	}
}
