package queue_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/queue"
	"github.com/kaisen-ai/kaisen/tune"
)

func TestOwns(t *testing.T) {
	for _, tc := range []struct {
		id, run string
		want    bool
	}{
		{"t1", "t1", true},
		{"t1", "t1-0123456789abcdef", true},
		{"t1", "t1-0123456789abcde", false},  // 15 digits
		{"t1", "t1-0123456789abcdeF", false}, // not lower-case hex
		{"t1", "t10", false},
		{"t1", "t1-x-0123456789abcdef", false},
		{"t1-x", "t1-x-0123456789abcdef", true},
		{"t", "t1", false},
	} {
		require.Equal(t, tc.want, queue.Owns(tc.id, tc.run), "%s owns %s", tc.id, tc.run)
	}
}

// TestStatusAndPurge: Status reports each run's pending items, results and
// checkpoint; Purge removes a run's and its tuning evaluations' (pending
// items that no worker then plays, results, checkpoint) and nothing else.
func TestStatusAndPurge(t *testing.T) {
	_, h := startQueue(t, 5*time.Second)
	ctx := context.Background()
	status := func() []queue.RunStatus {
		s, err := queue.Status(ctx, h)
		require.NoError(t, err)
		return s
	}
	require.Empty(t, status(), "a new queue holds nothing")

	fp := &fakePlay{}
	stop := startWorkers(t, h, 1, fp.play)
	gather(t, h, "done", 3, 10)
	stop()

	// Two runs left on the queue by coordinators that stopped: no worker
	// takes their items.
	for _, r := range []struct {
		run string
		n   int
	}{{"left", 4}, {"tun-0123456789abcdef", 2}} {
		gctx, cancel := context.WithCancel(ctx)
		done := make(chan struct{})
		go func() {
			defer close(done)
			_, _, _ = queue.Gather(gctx, h, []queue.Run{{Items: items(r.run, r.n, 10), Expect: map[string]string{"p1": "a"}}}, quiet, nil)
		}()
		require.Eventually(t, func() bool {
			for _, s := range status() {
				if s.Run == r.run && s.Pending == uint64(r.n) {
					return true
				}
			}
			return false
		}, 10*time.Second, 20*time.Millisecond)
		cancel()
		<-done
	}
	ck := tune.Checkpoint{Meta: map[string]string{"seed": "1"}, State: tune.State{Seed: 1, Keys: []string{"a"}, Theta: []float64{0.5}}}
	require.NoError(t, (&queue.Checkpoints{KV: h.Tune, Run: "tun"}).Save(ck))

	require.Equal(t, []queue.RunStatus{
		{Run: "done", Results: 3},
		{Run: "left", Pending: 4},
		{Run: "tun", Checkpoint: true},
		{Run: "tun-0123456789abcdef", Pending: 2},
	}, status())

	removed, err := queue.Purge(ctx, h, "tun")
	require.NoError(t, err)
	require.Equal(t, []queue.RunStatus{{Run: "tun", Checkpoint: true}, {Run: "tun-0123456789abcdef", Pending: 2}}, removed)
	require.Equal(t, []queue.RunStatus{{Run: "done", Results: 3}, {Run: "left", Pending: 4}}, status())

	_, err = queue.Purge(ctx, h, "left")
	require.NoError(t, err)
	_, err = queue.Purge(ctx, h, "done")
	require.NoError(t, err)
	require.Empty(t, status())
	// A worker started now finds nothing to play.
	before := fp.plays.Load()
	stop = startWorkers(t, h, 1, fp.play)
	time.Sleep(500 * time.Millisecond)
	stop()
	require.Equal(t, before, fp.plays.Load(), "the purged items are gone")

	removed, err = queue.Purge(ctx, h, "nothing")
	require.NoError(t, err)
	require.Empty(t, removed)
	_, err = queue.Purge(ctx, h, "a.b")
	require.ErrorIs(t, err, queue.ErrMessage)
}
