package queue_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/queue"
)

// BenchmarkBrokerItems measures what the broker itself can carry: b.N
// items of one run go round the whole path — publish, fetch by one of four
// workers, heartbeat-free play that returns a ready shard file at once,
// create-only result put, double ack, the coordinator's watch — on the
// embedded server with its file store. items/s is the broker's throughput
// in work items; docs/distributed.md turns it into how many workers it
// feeds.
func BenchmarkBrokerItems(b *testing.B) {
	br, err := queue.StartBroker(queue.BrokerConfig{Listen: "127.0.0.1:0", StoreDir: b.TempDir()})
	require.NoError(b, err)
	defer br.Close()
	nc, js, err := queue.Connect(br.URL(), "bench", "")
	require.NoError(b, err)
	defer nc.Close()
	h, err := queue.Setup(context.Background(), js, queue.Settings{AckWait: time.Minute})
	require.NoError(b, err)
	fp := &fakePlay{}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	const workers = 4
	for i := range workers {
		go func() {
			w := &queue.Worker{Q: h, Play: fp.play, Name: fmt.Sprint("w", i), Workers: 1, Log: quiet, Poll: 100 * time.Millisecond}
			_ = w.Run(ctx)
			done <- struct{}{}
		}()
	}
	defer func() {
		cancel()
		for range workers {
			<-done
		}
	}()
	n := max(b.N, 2)
	b.ResetTimer()
	start := time.Now()
	_, _, err = queue.Gather(context.Background(), h, []queue.Run{{Items: items(fmt.Sprint("bench", n), n, n), Expect: map[string]string{"p1": "a"}}}, quiet, nil)
	require.NoError(b, err)
	b.ReportMetric(float64(n)/time.Since(start).Seconds(), "items/s")
}
