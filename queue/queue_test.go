package queue_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/nats-io/nkeys"
	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/jobs"
	"github.com/kaisen-ai/kaisen/queue"
	"github.com/kaisen-ai/kaisen/shard"
	"github.com/kaisen-ai/kaisen/tune"
)

var quiet = slog.New(slog.DiscardHandler)

// startQueue starts a broker on a free loopback port with a temporary
// store and sets the queue up with ackWait.
func startQueue(t *testing.T, ackWait time.Duration) (*queue.Broker, *queue.Handles) {
	t.Helper()
	noLeak(t)
	b, err := queue.StartBroker(queue.BrokerConfig{Listen: "127.0.0.1:0", StoreDir: t.TempDir()})
	require.NoError(t, err)
	t.Cleanup(b.Close)
	return b, connect(t, b, ackWait)
}

func connect(t *testing.T, b *queue.Broker, ackWait time.Duration) *queue.Handles {
	t.Helper()
	nc, js, err := queue.Connect(b.URL(), t.Name(), "")
	require.NoError(t, err)
	t.Cleanup(nc.Close)
	h, err := queue.Setup(context.Background(), js, queue.Settings{AckWait: ackWait})
	require.NoError(t, err)
	return h
}

// fakePlay writes a match shard file whose tallies follow from the item
// (every game of shard K won by p1 when K is odd), counting the plays.
type fakePlay struct {
	plays atomic.Int64
	block chan struct{} // when set, plays wait on it (or their context)
}

func (f *fakePlay) play(ctx context.Context, it *queue.Item, workers int) ([]byte, error) {
	f.plays.Add(1)
	if f.block != nil {
		select {
		case <-f.block:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	lo, hi := it.Spec().Range(it.Total)
	n := hi - lo
	m := shard.Match{Game: "submarine", P1: "a", P2: "b", Games: n, Actions: int64(10 * n), Lengths: shard.Hist{{10, int64(n)}}}
	if it.Shard%2 == 1 {
		m.P1Wins = n
	} else {
		m.P2Wins = n
	}
	var buf bytes.Buffer
	h := shard.Header{Command: it.Kind, Args: it.Args, Seed: it.Seed, Games: it.Total,
		Shard: it.Shard, Shards: it.Shards, First: lo, Count: n, Workers: workers}
	err := shard.Write(&buf, h, m)
	return buf.Bytes(), err
}

func items(run string, n, games int) []queue.Item {
	out := make([]queue.Item, n)
	for k := range out {
		out[k] = queue.Item{Run: run, Shard: k + 1, Shards: n, Seed: 7, Games: games, Total: games,
			Kind: "match", Args: map[string]string{"p1": "a"}, Match: &jobs.Match{Game: "submarine", P1: jobs.Seat{Name: "a"}, P2: jobs.Seat{Name: "b"}}}
	}
	return out
}

// startWorkers runs n workers until the test ends (or stop is called).
func startWorkers(t *testing.T, h *queue.Handles, n int, play queue.Play) (stop func()) {
	return startLogged(t, h, n, play, quiet)
}

func startLogged(t *testing.T, h *queue.Handles, n int, play queue.Play, log *slog.Logger) (stop func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			w := &queue.Worker{Q: h, Play: play, Name: string(rune('A' + i)), Workers: 1, Log: log, Poll: 200 * time.Millisecond}
			_ = w.Run(ctx)
		})
	}
	var once sync.Once
	stop = func() { once.Do(func() { cancel(); wg.Wait() }) }
	t.Cleanup(stop)
	return stop
}

func gather(t *testing.T, h *queue.Handles, run string, n, games int) ([]shard.File, queue.Stats) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	files, stats, err := queue.Gather(ctx, h, []queue.Run{{Items: items(run, n, games), Expect: map[string]string{"p1": "a"}}}, quiet, nil)
	require.NoError(t, err)
	require.Len(t, files, 1)
	return files[0], stats
}

// TestGatherExactlyOnce: three workers play a run's items; every shard's
// result is gathered once and the files merge into the whole run.
func TestGatherExactlyOnce(t *testing.T) {
	_, h := startQueue(t, 5*time.Second)
	fp := &fakePlay{}
	startWorkers(t, h, 3, fp.play)
	files, stats := gather(t, h, "r1", 7, 50)
	got, err := shard.Check(files)
	require.NoError(t, err)
	require.Len(t, got, 7)
	require.Equal(t, 7, stats.Items)
	require.Equal(t, 0, stats.Reused)
	require.EqualValues(t, 7, fp.plays.Load(), "each item played once")
}

// TestResumeReplaysNothing: a second gather of a finished run (a restarted
// coordinator with the same run id) finds every result stored and
// publishes nothing.
func TestResumeReplaysNothing(t *testing.T) {
	_, h := startQueue(t, 5*time.Second)
	fp := &fakePlay{}
	stop := startWorkers(t, h, 2, fp.play)
	gather(t, h, "r2", 4, 20)
	stop()
	_, stats := gather(t, h, "r2", 4, 20) // no worker runs: only stored results can finish it
	require.Equal(t, 4, stats.Reused)
	require.EqualValues(t, 4, fp.plays.Load())
}

// TestResumeHalfDone: a coordinator stopped after some results resumes
// with the same run id and publishes only the missing items.
func TestResumeHalfDone(t *testing.T) {
	_, h := startQueue(t, 5*time.Second)
	fp := &fakePlay{}
	startWorkers(t, h, 1, fp.play)
	ctx, cancel := context.WithCancel(context.Background())
	_, _, err := queue.Gather(ctx, h, []queue.Run{{Items: items("r3", 6, 60), Expect: map[string]string{"p1": "a"}}}, quiet,
		func(games int) {
			if games >= 20 {
				cancel()
			}
		})
	require.ErrorIs(t, err, context.Canceled)
	// The first coordinator's items are still queued and get played; the
	// resumed one publishes the missing shards again: each result is still
	// counted once, and the merged run is whole.
	files, stats := gather(t, h, "r3", 6, 60)
	_, err = shard.Check(files)
	require.NoError(t, err)
	require.GreaterOrEqual(t, stats.Reused, 2)
}

// TestKilledWorkerItemRedelivered: a worker that takes an item and dies
// without acking it (no heartbeat either) loses it to another worker after
// the ack wait.
func TestKilledWorkerItemRedelivered(t *testing.T) {
	_, h := startQueue(t, time.Second)
	dead := &fakePlay{block: make(chan struct{})} // never unblocked: a hung or killed process
	took := make(chan struct{})
	ctx, kill := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Go(func() {
		w := &queue.Worker{Q: h, Name: "doomed", Workers: 1, Log: quiet, Poll: 200 * time.Millisecond,
			Heartbeat: time.Hour, // a killed process sends no heartbeat
			Play: func(ctx context.Context, it *queue.Item, n int) ([]byte, error) {
				close(took) // the one item it takes
				<-ctx.Done()
				// "killed": hang on until the test ends, never acking or naking
				<-dead.block
				return nil, ctx.Err()
			}}
		_ = w.Run(ctx)
	})
	t.Cleanup(func() { close(dead.block); wg.Wait() })
	go func() { <-took; kill() }()

	done := make(chan []shard.File, 1)
	go func() {
		files, _, err := queue.Gather(context.Background(), h, []queue.Run{{Items: items("r4", 1, 10), Expect: map[string]string{"p1": "a"}}}, quiet, nil)
		if err == nil {
			done <- files[0]
		}
		close(done)
	}()
	<-took
	fp := &fakePlay{}
	startWorkers(t, h, 1, fp.play)
	select {
	case files := <-done:
		require.Len(t, files, 1)
		require.EqualValues(t, 1, fp.plays.Load(), "the survivor played the dead worker's item")
	case <-time.After(15 * time.Second):
		t.Fatal("the item was not redelivered")
	}
}

// TestDuplicateResultDropped: an item published twice (a redelivery
// after a slow ack, or two coordinators) may be played twice at once, but
// only the first result is stored and gathered; a publish repeated with
// the same msg id is dropped by JetStream.
func TestDuplicateResultDropped(t *testing.T) {
	_, h := startQueue(t, 5*time.Second)
	ctx := context.Background()
	it := items("r5", 1, 10)[0]
	data, err := queue.Encode(&it)
	require.NoError(t, err)
	for _, id := range []string{"x", "y", "x"} { // "x" twice: dropped by the msg-id dedupe
		_, err := h.JS.PublishMsg(ctx, &nats.Msg{Subject: queue.WorkSubject + ".r5.1", Data: data}, jetstream.WithMsgID(id))
		require.NoError(t, err)
	}
	st, err := h.JS.Stream(ctx, queue.WorkStream)
	require.NoError(t, err)
	require.EqualValues(t, 2, st.CachedInfo().State.Msgs, "the msg id dedupe dropped one publish")
	fp := &fakePlay{block: make(chan struct{})}
	var logs syncBuffer
	startLogged(t, h, 2, fp.play, slog.New(slog.NewTextHandler(&logs, nil)))
	require.Eventually(t, func() bool { return fp.plays.Load() == 2 }, 10*time.Second, 20*time.Millisecond, "both copies taken")
	close(fp.block)
	files, _ := gather(t, h, "r5", 1, 10)
	require.Len(t, files, 1)
	require.Eventually(t, func() bool { return bytes.Contains([]byte(logs.String()), []byte("duplicate result dropped")) },
		10*time.Second, 20*time.Millisecond)
	hist, err := h.Results.History(ctx, "r5.1")
	require.NoError(t, err)
	require.Len(t, hist, 1, "one result stored for the shard")
}

// TestGarbageSkipped: malformed items and items of another version (a
// version-1 command line among them) are terminated and logged; the
// worker goes on with the next item.
func TestGarbageSkipped(t *testing.T) {
	_, h := startQueue(t, 5*time.Second)
	ctx := context.Background()
	for i, g := range []string{`not json`, `{"v":2,"run":"g"}`, `{"v":1,"run":"g","shard":1,"shards":1,"command":"match","games":1,"total":1}`,
		`{"v":2,"run":"g","shard":1,"shards":1,"kind":"serve","games":1,"total":1}`, ``} {
		_, err := h.JS.Publish(ctx, queue.WorkSubject+".g."+string(rune('0'+i)), []byte(g))
		require.NoError(t, err)
	}
	var logs syncBuffer
	fp := &fakePlay{}
	ctxW, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	wg.Go(func() {
		w := &queue.Worker{Q: h, Play: fp.play, Name: "w", Workers: 1, Log: slog.New(slog.NewTextHandler(&logs, nil)), Poll: 200 * time.Millisecond}
		_ = w.Run(ctxW)
	})
	defer func() { cancel(); wg.Wait() }()
	files, _ := gather(t, h, "r6", 2, 10)
	require.Len(t, files, 2)
	require.EqualValues(t, 2, fp.plays.Load(), "garbage is not played")
	out := logs.String()
	require.Contains(t, out, "bad work item")
	require.Contains(t, out, "unknown message version")
	require.Contains(t, out, "version 1, this kaisen reads version 2")
	require.Contains(t, out, `kind \"serve\"`)
}

// TestCheckpointStore: a tuning checkpoint saved in the bucket is loaded
// by another connection, and refused for another run's settings.
func TestCheckpointStore(t *testing.T) {
	b, h := startQueue(t, 5*time.Second)
	meta := map[string]string{"seed": "1", "player": "admiral"}
	ck := tune.Checkpoint{Meta: meta, State: tune.State{Seed: 1, Keys: []string{"a"}, Iter: 3, Theta: []float64{0.25}, Games: 600}}
	s := &queue.Checkpoints{KV: h.Tune, Run: "t1"}
	none, err := s.Load(meta)
	require.NoError(t, err)
	require.Nil(t, none)
	require.NoError(t, s.Save(ck))
	other := &queue.Checkpoints{KV: connect(t, b, 0).Tune, Run: "t1"}
	got, err := other.Load(meta)
	require.NoError(t, err)
	require.Equal(t, ck, *got)
	_, err = other.Load(map[string]string{"seed": "2", "player": "admiral"})
	require.ErrorIs(t, err, tune.ErrCheckpoint)
}

// TestBrokerRefusesOpenListenWithoutCredentials: beyond loopback a broker
// needs a user and password or an nkey.
func TestBrokerRefusesOpenListenWithoutCredentials(t *testing.T) {
	_, err := queue.StartBroker(queue.BrokerConfig{Listen: "0.0.0.0:0", StoreDir: t.TempDir()})
	require.ErrorIs(t, err, queue.ErrInsecure)
	_, err = queue.StartBroker(queue.BrokerConfig{Listen: "127.0.0.1:0", StoreDir: t.TempDir(), User: "u"})
	require.ErrorContains(t, err, "go together")
	_, err = queue.StartBroker(queue.BrokerConfig{Listen: "127.0.0.1:0", StoreDir: t.TempDir(), Nkey: "nope"})
	require.ErrorContains(t, err, "public nkey")
	for _, h := range []string{"127.0.0.1", "127.3.2.1", "::1", "localhost"} {
		require.True(t, queue.Loopback(h), h)
	}
	for _, h := range []string{"0.0.0.0", "192.0.2.1", "example.com", ""} {
		require.False(t, queue.Loopback(h), h)
	}
}

// TestBrokerPassword: with --user/--password a client must give them.
func TestBrokerPassword(t *testing.T) {
	b, err := queue.StartBroker(queue.BrokerConfig{Listen: "127.0.0.1:0", StoreDir: t.TempDir(), User: "kaisen", Password: "s3cret"})
	require.NoError(t, err)
	defer b.Close()
	_, _, err = queue.Connect(b.URL(), "anon", "")
	require.Error(t, err)
	u := "nats://kaisen:s3cret@" + b.URL()[len("nats://"):]
	nc, _, err := queue.Connect(u, "user", "")
	require.NoError(t, err)
	nc.Close()
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

var _ io.Writer = (*syncBuffer)(nil)

// TestWorkerFailureStopsTheRun: an item a worker cannot play is reported
// to its run, which stops with the worker's message.
func TestWorkerFailureStopsTheRun(t *testing.T) {
	_, h := startQueue(t, 5*time.Second)
	startWorkers(t, h, 1, func(context.Context, *queue.Item, int) ([]byte, error) {
		return nil, errors.New("weights.yaml: no such file")
	})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, _, err := queue.Gather(ctx, h, []queue.Run{{Items: items("r7", 2, 4)}}, quiet, nil)
	require.ErrorIs(t, err, queue.ErrWorker)
	require.ErrorContains(t, err, "weights.yaml: no such file")
}

// noLeak fails the test if goroutines started during it outlive it (the
// check runs after every other cleanup: broker, connections, workers).
func noLeak(t *testing.T) {
	t.Helper()
	before := runtime.NumGoroutine()
	t.Cleanup(func() {
		deadline := time.Now().Add(10 * time.Second)
		for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
		}
		if n := runtime.NumGoroutine(); n > before {
			buf := make([]byte, 1<<20)
			t.Errorf("goroutine leak: %d before, %d after\n%s", before, n, buf[:runtime.Stack(buf, true)])
		}
	})
}

// TestHeartbeatKeepsLongItem: an item that plays for longer than the ack
// wait stays with its worker while the worker sends in-progress acks; it
// is played once although another worker is idle.
func TestHeartbeatKeepsLongItem(t *testing.T) {
	// The play lasts more than twice the ack wait; the default heartbeat
	// (a third of it) leaves a loaded machine (-race, parallel packages)
	// most of a second of slack per beat.
	_, h := startQueue(t, 2*time.Second)
	var plays atomic.Int64
	slow := func(ctx context.Context, it *queue.Item, n int) ([]byte, error) {
		plays.Add(1)
		select {
		case <-time.After(4500 * time.Millisecond):
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		return (&fakePlay{}).play(ctx, it, n)
	}
	startWorkers(t, h, 2, slow)
	files, _ := gather(t, h, "r8", 1, 5)
	require.Len(t, files, 1)
	require.EqualValues(t, 1, plays.Load(), "not redelivered while its worker beats")
}

// TestBrokerNkey: with an nkey the broker accepts only a client holding
// the user's seed.
func TestBrokerNkey(t *testing.T) {
	user, err := nkeys.CreateUser()
	require.NoError(t, err)
	pub, err := user.PublicKey()
	require.NoError(t, err)
	seed, err := user.Seed()
	require.NoError(t, err)
	seedFile := filepath.Join(t.TempDir(), "user.nk")
	require.NoError(t, os.WriteFile(seedFile, seed, 0o600))
	b, err := queue.StartBroker(queue.BrokerConfig{Listen: "127.0.0.1:0", StoreDir: t.TempDir(), Nkey: pub})
	require.NoError(t, err)
	defer b.Close()
	_, _, err = queue.Connect(b.URL(), "anon", "")
	require.Error(t, err)
	nc, js, err := queue.Connect(b.URL(), "nkey", seedFile)
	require.NoError(t, err)
	defer nc.Close()
	_, err = queue.Setup(context.Background(), js, queue.Settings{})
	require.NoError(t, err)
	_, _, err = queue.Connect(b.URL(), "missing", filepath.Join(t.TempDir(), "none.nk"))
	require.ErrorContains(t, err, "nkey seed")
}
