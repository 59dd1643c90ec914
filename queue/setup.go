package queue

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// The JetStream names kaisen uses.
const (
	WorkStream     = "KAISEN_WORK"      // work-queue stream of Items
	WorkSubject    = "kaisen.work"      // Items go to kaisen.work.RUN.SHARD
	WorkConsumer   = "kaisen-workers"   // the durable pull consumer all workers share
	ResultsBucket  = "kaisen-results"   // Results under RUN.SHARD, errors under RUN.error.SHARD
	TuneBucket     = "kaisen-tune"      // tuning checkpoints under the run id
	DefaultAckWait = 30 * time.Second   // an unacked item is redelivered after this
	ResultsTTL     = 7 * 24 * time.Hour // how long results are kept for resuming
	dupWindow      = 2 * time.Hour      // msg-id dedupe window of the work stream
	opTimeout      = 10 * time.Second   // one JetStream call
)

// Settings are the settings of the stream and consumer when Setup creates
// them (an existing stream or consumer is used as it is).
type Settings struct {
	AckWait time.Duration // 0 = DefaultAckWait
	Memory  bool          // memory storage instead of files (tests)
	// Replicas is how many nodes of a clustered broker keep the work
	// stream and the buckets (0 = 1; at most 5, and the cluster's size).
	Replicas int
}

// Setup creates what is missing of the work stream, its consumer and the
// two buckets, and returns them. Several processes may call it at once.
func Setup(ctx context.Context, js jetstream.JetStream, s Settings) (*Handles, error) {
	ack := s.AckWait
	if ack <= 0 {
		ack = DefaultAckWait
	}
	replicas := max(s.Replicas, 1)
	if replicas > 5 {
		return nil, fmt.Errorf("queue: %d replicas: JetStream keeps at most 5", replicas)
	}
	storage := jetstream.FileStorage
	if s.Memory {
		storage = jetstream.MemoryStorage
	}
	ctx, cancel := context.WithTimeout(ctx, opTimeout)
	defer cancel()
	st, err := js.Stream(ctx, WorkStream)
	if errors.Is(err, jetstream.ErrStreamNotFound) {
		st, err = js.CreateStream(ctx, jetstream.StreamConfig{
			Name: WorkStream, Subjects: []string{WorkSubject + ".>"}, Retention: jetstream.WorkQueuePolicy,
			Storage: storage, Duplicates: dupWindow, MaxMsgSize: int32(maxMessage), Replicas: replicas,
		})
	}
	if err != nil {
		return nil, fmt.Errorf("queue: work stream: %w", err)
	}
	cons, err := st.Consumer(ctx, WorkConsumer)
	if errors.Is(err, jetstream.ErrConsumerNotFound) {
		cons, err = st.CreateConsumer(ctx, jetstream.ConsumerConfig{
			Durable: WorkConsumer, AckPolicy: jetstream.AckExplicitPolicy, AckWait: ack, MaxDeliver: -1,
			MaxAckPending: -1, Description: "kaisen workers: one item at a time each",
		})
	}
	if err != nil {
		return nil, fmt.Errorf("queue: work consumer: %w", err)
	}
	results, err := bucket(ctx, js, jetstream.KeyValueConfig{Bucket: ResultsBucket, TTL: ResultsTTL, Storage: storage, Replicas: replicas,
		Description: "kaisen results: RUN.SHARD, written once"})
	if err != nil {
		return nil, err
	}
	tuneKV, err := bucket(ctx, js, jetstream.KeyValueConfig{Bucket: TuneBucket, Storage: storage, Replicas: replicas,
		Description: "kaisen tune checkpoints by run id"})
	if err != nil {
		return nil, err
	}
	return &Handles{JS: js, Work: cons, Results: results, Tune: tuneKV}, nil
}

func bucket(ctx context.Context, js jetstream.JetStream, cfg jetstream.KeyValueConfig) (jetstream.KeyValue, error) {
	kv, err := js.KeyValue(ctx, cfg.Bucket)
	if errors.Is(err, jetstream.ErrBucketNotFound) {
		kv, err = js.CreateKeyValue(ctx, cfg)
	}
	if err != nil {
		return nil, fmt.Errorf("queue: bucket %s: %w", cfg.Bucket, err)
	}
	return kv, nil
}

// Handles are the JetStream objects of kaisen's queue.
type Handles struct {
	JS      jetstream.JetStream
	Work    jetstream.Consumer
	Results jetstream.KeyValue
	Tune    jetstream.KeyValue
}

// AckWait is the work consumer's ack wait (the time an item may go without
// a heartbeat before it is redelivered).
func (h *Handles) AckWait() time.Duration {
	if info := h.Work.CachedInfo(); info != nil && info.Config.AckWait > 0 {
		return info.Config.AckWait
	}
	return DefaultAckWait
}

// Connect connects to the NATS server at url (user and password may be in
// it: nats://USER:PASS@HOST:PORT) and opens JetStream. nkeySeed, when not
// empty, is the file of an nkey seed to authenticate with; more are
// further connection options (a worker adds nats.RetryOnFailedConnect, so
// that it may start before its server).
func Connect(url, name, nkeySeed string, more ...nats.Option) (*nats.Conn, jetstream.JetStream, error) {
	opts := []nats.Option{nats.Name(name), nats.MaxReconnects(-1), nats.ReconnectWait(500 * time.Millisecond)}
	opts = append(opts, more...)
	if nkeySeed != "" {
		if _, err := os.Stat(nkeySeed); err != nil {
			return nil, nil, fmt.Errorf("queue: nkey seed: %w", err)
		}
		opt, err := nats.NkeyOptionFromSeed(nkeySeed)
		if err != nil {
			return nil, nil, fmt.Errorf("queue: nkey seed %s: %w", nkeySeed, err)
		}
		opts = append(opts, opt)
	}
	nc, err := nats.Connect(url, opts...)
	if err != nil {
		return nil, nil, fmt.Errorf("queue: connect %s: %w", redact(url), err)
	}
	js, err := jetstream.New(nc)
	if err != nil {
		nc.Close()
		return nil, nil, fmt.Errorf("queue: jetstream: %w", err)
	}
	return nc, js, nil
}
