package deploy

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/stretchr/testify/require"
)

// proc is a kaisen process whose stderr is kept and watched.
type proc struct {
	cmd  *exec.Cmd
	mu   sync.Mutex
	log  bytes.Buffer
	seen chan string // lines matching watch
	done chan struct{}
}

// start starts bin with args; lines of stderr matching watch are sent on
// p.seen (dropped when nobody reads).
func start(t *testing.T, ctx context.Context, bin string, watch *regexp.Regexp, args ...string) *proc {
	t.Helper()
	p := &proc{cmd: exec.CommandContext(ctx, bin, args...), seen: make(chan string, 64), done: make(chan struct{})}
	stderr, err := p.cmd.StderrPipe()
	require.NoError(t, err)
	require.NoError(t, p.cmd.Start())
	go func() {
		defer close(p.done)
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			line := sc.Text()
			p.mu.Lock()
			p.log.WriteString(line + "\n")
			p.mu.Unlock()
			if watch != nil && watch.MatchString(line) {
				select {
				case p.seen <- line:
				default:
				}
			}
		}
		_, _ = io.Copy(io.Discard, stderr)
	}()
	t.Cleanup(func() {
		if p.cmd.ProcessState == nil {
			_ = p.cmd.Process.Signal(syscall.SIGTERM)
			_ = p.cmd.Wait()
		}
	})
	return p
}

func (p *proc) String() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.log.String()
}

// next waits for the next watched line.
func (p *proc) next(t *testing.T, what string) string {
	t.Helper()
	select {
	case line := <-p.seen:
		return line
	case <-time.After(20 * time.Second):
		t.Fatalf("no %s within 20s; log:\n%s", what, p)
		return ""
	}
}

var (
	listening = regexp.MustCompile(`listening on (nats://\S+)`)
	playing   = regexp.MustCompile(`msg=playing .*shard=(\d+/\d+)`)
)

// TestNATSMultiProcess: kaisen broker and three kaisen worker processes
// play a queued match; one worker is killed with SIGKILL in the middle of
// an item and another started. The item goes to another worker after the
// ack wait, garbage on the queue is logged and skipped, and the result is
// the local run's, nothing lost, nothing counted twice.
func TestNATSMultiProcess(t *testing.T) {
	bin := kaisen(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	const args = "match --p1 stateplayer2 --p2 stateplayer2 -n 240 --seed 5"
	want := unsharded(t, bin, args)

	broker := start(t, ctx, bin, listening, "broker", "--listen", "127.0.0.1:0", "--store", t.TempDir(), "--ack-wait", "2s")
	url := listening.FindStringSubmatch(broker.next(t, "broker"))[1]

	// Garbage first: the workers must skip it.
	nc, err := nats.Connect(url)
	require.NoError(t, err)
	defer nc.Close()
	require.NoError(t, nc.Publish("kaisen.work.junk.1", []byte("not an item")))
	require.NoError(t, nc.Publish("kaisen.work.junk.2", []byte(`{"v":9,"run":"junk"}`)))
	require.NoError(t, nc.Flush())

	var workers []*proc
	for i := range 3 {
		workers = append(workers, start(t, ctx, bin, playing, "worker", "--nats", url, "--workers", "1", "--name", fmt.Sprintf("w%d", i+1)))
	}
	run := exec.CommandContext(ctx, bin, append(strings.Fields(args), "--json", "--nats", url, "--run-id", "mp", "--shard-games", "20")...)
	var stdout, stderr bytes.Buffer
	run.Stdout, run.Stderr = &stdout, &stderr
	require.NoError(t, run.Start())

	// Kill worker 1 as soon as it starts an item (an item of 20
	// stateplayer2 games takes longer than reading its log line).
	killed := playing.FindStringSubmatch(workers[0].next(t, "item on worker 1"))[1]
	require.NoError(t, workers[0].cmd.Process.Kill())
	_ = workers[0].cmd.Wait()
	workers = append(workers, start(t, ctx, bin, nil, "worker", "--nats", url, "--workers", "1", "--name", "w4"))

	require.NoError(t, run.Wait(), stderr.String())
	require.Equal(t, want, withoutTiming(t, stdout.String()))

	var others string
	for _, w := range workers[1:] {
		others += w.String()
	}
	// Another worker got the item: it played it (or, had the killed worker
	// stored the result just before dying, found it done and acked it).
	require.Regexp(t, `(?m)worker=w\d run=mp shard=`+regexp.QuoteMeta(killed)+`(\s|$)`, others,
		"the killed worker's item %s went to another worker", killed)
	logs := others + workers[0].String()
	require.Contains(t, logs, "bad work item: terminated")
	require.Contains(t, logs, "unknown message version")
}

// manifestArgs are the one-line args lists of the containers of a
// manifest, by container name.
func manifestArgs(t *testing.T, manifest string) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	name := regexp.MustCompile(`(?m)^\s+- name: (\w+)\n\s+image: kaisen:latest`)
	args := regexp.MustCompile(`(?m)^\s+args: (\[.*\])$`)
	names := name.FindAllStringSubmatch(manifest, -1)
	lists := args.FindAllStringSubmatch(manifest, -1)
	require.Len(t, lists, len(names), "one args line per container")
	for i, n := range names {
		var a []string
		require.NoError(t, json.Unmarshal([]byte(lists[i][1]), &a), lists[i][1])
		out[n[1]] = a
	}
	return out
}

// TestKubernetesQueue runs the containers of kubernetes/queue.yaml on this
// machine with their own args: the broker (on loopback instead of
// 0.0.0.0, with the password of the secret), two workers and the run's Job
// (a small -n instead of 100000); the run prints the local run's result.
func TestKubernetesQueue(t *testing.T) {
	data, err := os.ReadFile("kubernetes/queue.yaml")
	require.NoError(t, err)
	args := manifestArgs(t, string(data))
	require.Equal(t, []string{"broker", "run", "worker"}, slices.Sorted(maps.Keys(args)))
	require.Contains(t, args["run"], "--run-id", "a restarted Job pod resumes its run")

	bin := kaisen(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	const password = "test-secret"
	expand := func(a []string, url string) []string {
		var out []string
		for _, s := range a {
			s = strings.ReplaceAll(s, "$(KAISEN_NATS_PASSWORD)", password)
			s = strings.ReplaceAll(s, "kaisen-broker:4222", url)
			s = strings.ReplaceAll(s, "0.0.0.0:4222", "127.0.0.1:0")
			s = strings.ReplaceAll(s, "/data", t.TempDir())
			out = append(out, s)
		}
		return out
	}
	t.Setenv("KAISEN_NATS_PASSWORD", password) // the secret, as the pods' env has it
	b := start(t, ctx, bin, listening, expand(args["broker"], "")...)
	host := strings.TrimPrefix(listening.FindStringSubmatch(b.next(t, "broker"))[1], "nats://")
	for range 2 {
		start(t, ctx, bin, nil, expand(args["worker"], host)...)
	}
	job := expand(args["run"], host)
	i := slices.Index(job, "-n")
	require.Positive(t, i)
	job[i+1] = "60"
	job[slices.Index(job, "--p1")+1] = "random" // admiral is slow: the manifest's run, smaller
	out, err := exec.CommandContext(ctx, bin, job...).Output()
	require.NoError(t, err)
	local := slices.Clone(job[:slices.Index(job, "--nats")])
	require.Equal(t, unsharded(t, bin, strings.Join(slices.DeleteFunc(local, func(s string) bool { return s == "--json" }), " ")),
		withoutTiming(t, string(out)))
}
