package queue

import (
	"context"
	"errors"
	"fmt"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/kaisen-ai/kaisen/tune"
)

// checkpointMsg is a tuning checkpoint as stored in the TuneBucket.
type checkpointMsg struct {
	V          int             `json:"v"`
	Checkpoint tune.Checkpoint `json:"checkpoint"`
}

func (c *checkpointMsg) setVersion() { c.V = Version }

// DecodeCheckpoint reads a stored tuning checkpoint.
func DecodeCheckpoint(data []byte) (tune.Checkpoint, error) {
	var c checkpointMsg
	if err := decode(data, &c, Version); err != nil {
		return tune.Checkpoint{}, err
	}
	if len(c.Checkpoint.State.Theta) != len(c.Checkpoint.State.Keys) {
		return tune.Checkpoint{}, fmt.Errorf("%w: checkpoint with %d values for %d keys", ErrMessage,
			len(c.Checkpoint.State.Theta), len(c.Checkpoint.State.Keys))
	}
	return c.Checkpoint, nil
}

// Checkpoints keeps the checkpoint of tuning run Run in the TuneBucket
// (tune.CheckpointStore), so that a tuning run stopped on one machine is
// resumed by kaisen tune --run-id RUN on any other.
type Checkpoints struct {
	KV  jetstream.KeyValue
	Run string
	Ctx context.Context // bounds every call (nil = Background)
}

var _ tune.CheckpointStore = (*Checkpoints)(nil)

func (c *Checkpoints) ctx() (context.Context, context.CancelFunc) {
	ctx := c.Ctx
	if ctx == nil {
		ctx = context.Background()
	}
	return context.WithTimeout(context.WithoutCancel(ctx), opTimeout)
}

// Load implements tune.CheckpointStore.
func (c *Checkpoints) Load(meta map[string]string) (*tune.Checkpoint, error) {
	ctx, cancel := c.ctx()
	defer cancel()
	e, err := c.KV.Get(ctx, c.Run)
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("queue: checkpoint %s: %w", c.Run, err)
	}
	ck, err := DecodeCheckpoint(e.Value())
	if err != nil {
		return nil, fmt.Errorf("checkpoint %s: %w", c.Run, err)
	}
	where := fmt.Sprintf("the checkpoint of run %s (bucket %s)", c.Run, TuneBucket)
	if err := ck.Check(meta, where, "use another --run-id to start over"); err != nil {
		return nil, err
	}
	return &ck, nil
}

// Save implements tune.CheckpointStore.
func (c *Checkpoints) Save(ck tune.Checkpoint) error {
	data, err := Encode(&checkpointMsg{Checkpoint: ck})
	if err != nil {
		return err
	}
	ctx, cancel := c.ctx()
	defer cancel()
	if _, err := c.KV.Put(ctx, c.Run, data); err != nil {
		return fmt.Errorf("queue: checkpoint %s: %w", c.Run, err)
	}
	return nil
}
