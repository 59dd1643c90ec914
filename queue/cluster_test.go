package queue_test

import (
	"bytes"
	"context"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/jobs"
	"github.com/kaisen-ai/kaisen/queue"
	"github.com/kaisen-ai/kaisen/shard"
)

// startCluster starts a JetStream cluster of n brokers on loopback, every
// node routed to all of them (a clustered JetStream needs its routes
// configured from the start; a node ignores its route to itself).
func startCluster(t *testing.T, n int) []*queue.Broker {
	t.Helper()
	var routes, listen []string
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		require.NoError(t, err)
		listen = append(listen, l.Addr().String())
		routes = append(routes, "nats-route://"+l.Addr().String())
		require.NoError(t, l.Close())
	}
	var nodes []*queue.Broker
	t.Cleanup(func() {
		for _, b := range nodes {
			b.Close() // a node closed already returns at once
		}
	})
	for i := range n {
		b, err := queue.StartBroker(queue.BrokerConfig{Listen: "127.0.0.1:0", StoreDir: t.TempDir(),
			Cluster: queue.Cluster{Name: "kaisen-test", Node: "n" + string(rune('1'+i)), Listen: listen[i], Routes: routes}})
		require.NoError(t, err)
		require.Equal(t, routes[i], b.RouteURL())
		nodes = append(nodes, b)
	}
	return nodes
}

// matchItems are the n shards of a real match of games games: random
// against stateplayer2, seed 7.
func matchItems(run string, n, games int) []queue.Item {
	out := make([]queue.Item, n)
	for k := range out {
		out[k] = queue.Item{Run: run, Shard: k + 1, Shards: n, Seed: 7, Games: games, Total: games, Kind: jobs.CommandMatch,
			Args:  map[string]string{"p1": "random", "p2": "stateplayer2"},
			Match: &jobs.Match{Game: "submarine", P1: jobs.Seat{Name: "random"}, P2: jobs.Seat{Name: "stateplayer2"}}}
	}
	return out
}

// TestClusterSurvivesLeaderLoss: a sharded match runs through a three-node
// JetStream cluster (the work stream and the buckets on three replicas)
// while the node leading the work stream is killed mid-run. The gathered
// shards equal the shards played locally, and every item is played
// exactly once.
func TestClusterSurvivesLeaderLoss(t *testing.T) {
	noLeak(t)
	nodes := startCluster(t, 3)
	var urls []string
	for _, b := range nodes {
		urls = append(urls, b.URL())
	}
	nc, js, err := queue.Connect(strings.Join(urls, ","), t.Name(), "")
	require.NoError(t, err)
	t.Cleanup(nc.Close)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	var h *queue.Handles
	require.Eventually(t, func() bool { // until the cluster has elected its JetStream leader
		h, err = queue.Setup(ctx, js, queue.Settings{AckWait: 10 * time.Second, Replicas: 3})
		return err == nil
	}, 60*time.Second, 250*time.Millisecond, "setup on the cluster: %v", err)
	st, err := js.Stream(ctx, queue.WorkStream)
	require.NoError(t, err)
	require.Equal(t, 3, st.CachedInfo().Config.Replicas)

	// Shards 1 and 2 play at once; the others wait until the leader is
	// gone, so that the kill falls mid-run.
	const shards = 6
	var (
		mu      sync.Mutex
		plays   = map[int]int{}
		waiting = make(chan struct{}, shards)
		killed  = make(chan struct{})
	)
	play := func(ctx context.Context, it *queue.Item, workers int) ([]byte, error) {
		mu.Lock()
		plays[it.Shard]++
		mu.Unlock()
		if it.Shard > 2 {
			waiting <- struct{}{}
			select {
			case <-killed:
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		}
		return queue.PlayItem(ctx, it, workers)
	}
	startWorkers(t, h, 3, play)

	items := matchItems("c1", shards, 120)
	type gathered struct {
		files [][]shard.File
		err   error
	}
	out := make(chan gathered, 1)
	go func() {
		files, _, err := queue.Gather(ctx, h, []queue.Run{{Items: items, Expect: map[string]string{"p1": "random", "p2": "stateplayer2"}}}, quiet, nil)
		out <- gathered{files, err}
	}()
	select {
	case <-waiting:
	case <-ctx.Done():
		t.Fatal("no shard started")
	}
	leader := streamLeader(ctx, t, st)
	down := 0
	for _, b := range nodes {
		if b.Name() == leader {
			b.Close()
			down++
		}
	}
	require.Equal(t, 1, down, "leader %q is one of the nodes", leader)
	close(killed)
	g := <-out
	require.NoError(t, g.err)
	require.Len(t, g.files, 1)
	files, err := shard.Check(g.files[0])
	require.NoError(t, err)
	require.Len(t, files, shards)
	for k, f := range files {
		local, err := queue.PlayItem(ctx, &items[k], 1)
		require.NoError(t, err)
		want, err := shard.Read(bytes.NewReader(local), "local")
		require.NoError(t, err)
		require.JSONEq(t, string(want.Result), string(f.Result), "shard %d", k+1)
	}
	mu.Lock()
	defer mu.Unlock()
	for k := 1; k <= shards; k++ {
		require.Equal(t, 1, plays[k], "shard %d played once (leader %s killed)", k, leader)
	}
}

// streamLeader is the name of the node leading st.
func streamLeader(ctx context.Context, t *testing.T, st jetstream.Stream) string {
	t.Helper()
	info, err := st.Info(ctx)
	require.NoError(t, err)
	require.NotNil(t, info.Cluster)
	require.NotEmpty(t, info.Cluster.Leader)
	return info.Cluster.Leader
}
