package tune

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
)

// Checkpoint is what a run writes after every iteration so that a stopped
// run resumes: the settings that must match (Meta) and the optimiser State.
type Checkpoint struct {
	Meta  map[string]string `json:"meta"`
	State State             `json:"state"`
}

// ErrCheckpoint reports a checkpoint that belongs to a different run.
var ErrCheckpoint = errors.New("tune: checkpoint does not match this run")

// SaveCheckpoint writes c to path atomically (a temporary file renamed over
// the old one), so that a run killed while writing leaves the previous
// checkpoint intact.
func SaveCheckpoint(path string, c Checkpoint) error {
	data, err := json.MarshalIndent(c, "", " ")
	if err != nil {
		return fmt.Errorf("tune: checkpoint: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".tmp*")
	if err != nil {
		return fmt.Errorf("tune: checkpoint: %w", err)
	}
	if _, err := tmp.Write(append(data, '\n')); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return fmt.Errorf("tune: checkpoint: %w", err)
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("tune: checkpoint: %w", err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("tune: checkpoint: %w", err)
	}
	return nil
}

// LoadCheckpoint reads the checkpoint at path. A missing file returns
// (nil, nil): a fresh run. A checkpoint whose Meta differs from meta in any
// key is ErrCheckpoint, naming the first difference.
func LoadCheckpoint(path string, meta map[string]string) (*Checkpoint, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("tune: checkpoint: %w", err)
	}
	var c Checkpoint
	if err := json.Unmarshal(data, &c); err != nil {
		return nil, fmt.Errorf("tune: checkpoint %s: %w", path, err)
	}
	if err := c.Check(meta, path, "delete the file to start over"); err != nil {
		return nil, err
	}
	return &c, nil
}

// Check checks that c belongs to the run of meta (every key equal) and is
// whole; where names the checkpoint and restart tells how to start over,
// for the messages.
func (c *Checkpoint) Check(meta map[string]string, where, restart string) error {
	for _, k := range slices.Sorted(maps.Keys(meta)) {
		if v := meta[k]; c.Meta[k] != v {
			return fmt.Errorf("%w: %s is %q in %s, %q now (%s)", ErrCheckpoint, k, c.Meta[k], where, v, restart)
		}
	}
	if len(c.State.Theta) != len(c.State.Keys) {
		return fmt.Errorf("tune: checkpoint %s: %d values for %d keys", where, len(c.State.Theta), len(c.State.Keys))
	}
	return nil
}

// CheckpointStore keeps the checkpoint of a run somewhere else than a file
// (kaisen tune --nats keeps it in a JetStream key-value bucket, so that any
// machine resumes the run). Load returns (nil, nil) when there is none and
// ErrCheckpoint when the stored one belongs to another run (Check).
type CheckpointStore interface {
	Load(meta map[string]string) (*Checkpoint, error)
	Save(c Checkpoint) error
}

// fileStore is the checkpoint file of Tuning.Checkpoint.
type fileStore string

func (p fileStore) Load(meta map[string]string) (*Checkpoint, error) {
	return LoadCheckpoint(string(p), meta)
}
func (p fileStore) Save(c Checkpoint) error { return SaveCheckpoint(string(p), c) }
