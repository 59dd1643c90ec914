// Package queuetest starts a work queue for tests: a broker on a free
// loopback port with a temporary store and workers as goroutines, playing
// their items as kaisen worker does (queue.PlayItem). Everything stops
// when the test ends.
package queuetest

import (
	"context"
	"log/slog"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/kaisen-ai/kaisen/queue"
)

// Start starts the broker and n workers and returns the broker's URL
// (for --nats).
func Start(t testing.TB, n int) string {
	t.Helper()
	b, err := queue.StartBroker(queue.BrokerConfig{Listen: "127.0.0.1:0", StoreDir: t.TempDir()})
	if err != nil {
		t.Fatalf("broker: %v", err)
	}
	nc, js, err := queue.Connect(b.URL(), "test", "")
	if err != nil {
		b.Close()
		t.Fatalf("connect: %v", err)
	}
	h, err := queue.Setup(context.Background(), js, queue.Settings{AckWait: 5 * time.Second})
	if err != nil {
		nc.Close()
		b.Close()
		t.Fatalf("setup: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			w := &queue.Worker{Q: h, Play: queue.PlayItem, Name: "w" + strconv.Itoa(i+1), Workers: 1,
				Log: slog.New(slog.DiscardHandler), Poll: 200 * time.Millisecond}
			_ = w.Run(ctx)
		})
	}
	t.Cleanup(func() {
		cancel()
		wg.Wait()
		nc.Close()
		b.Close()
	})
	return b.URL()
}
