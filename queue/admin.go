package queue

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/nats-io/nats.go/jetstream"
)

// RunStatus is what the queue holds of one run.
type RunStatus struct {
	Run        string `json:"run"`
	Pending    uint64 `json:"pending"`    // items on the work stream: waiting, or being played
	Results    int    `json:"results"`    // results stored (shards played)
	Errors     int    `json:"errors"`     // items a worker could not play
	Checkpoint bool   `json:"checkpoint"` // a tuning checkpoint under the run id
}

// subRun matches the run id of a tuning evaluation: its run id, a dash and
// 16 hex digits (kaisen tune and exploit with --nats).
var subRun = regexp.MustCompile(`^(.+)-[0-9a-f]{16}$`)

// Status lists every run the queue holds something of (pending items,
// results, errors or a tuning checkpoint), sorted by run id.
func Status(ctx context.Context, h *Handles) ([]RunStatus, error) {
	runs, _, err := scan(ctx, h)
	return runs, err
}

// scan is Status, with the keys of the results bucket it read (for Purge).
func scan(ctx context.Context, h *Handles) (_ []RunStatus, resultKeys []string, _ error) {
	ctx, cancel := context.WithTimeout(ctx, opTimeout)
	defer cancel()
	runs := map[string]*RunStatus{}
	at := func(run string) *RunStatus {
		if runs[run] == nil {
			runs[run] = &RunStatus{Run: run}
		}
		return runs[run]
	}
	st, err := h.JS.Stream(ctx, WorkStream)
	if err != nil {
		return nil, nil, fmt.Errorf("queue: work stream: %w", err)
	}
	info, err := st.Info(ctx, jetstream.WithSubjectFilter(WorkSubject+".>"))
	if err != nil {
		return nil, nil, fmt.Errorf("queue: work stream: %w", err)
	}
	for subject, n := range info.State.Subjects {
		// kaisen.work.RUN.SHARD
		rest, ok := strings.CutPrefix(subject, WorkSubject+".")
		if i := strings.LastIndexByte(rest, '.'); ok && i > 0 {
			at(rest[:i]).Pending += n
		}
	}
	resultKeys, err = keysOf(ctx, h.Results)
	if err != nil {
		return nil, nil, fmt.Errorf("queue: results: %w", err)
	}
	for _, k := range resultKeys {
		// RUN.SHARD or RUN.error.SHARD
		run, rest, ok := strings.Cut(k, ".")
		switch {
		case !ok:
		case strings.HasPrefix(rest, "error."):
			at(run).Errors++
		default:
			at(run).Results++
		}
	}
	keys, err := keysOf(ctx, h.Tune)
	if err != nil {
		return nil, nil, fmt.Errorf("queue: tuning checkpoints: %w", err)
	}
	for _, k := range keys {
		at(k).Checkpoint = true
	}
	out := make([]RunStatus, 0, len(runs))
	for _, r := range runs {
		out = append(out, *r)
	}
	slices.SortFunc(out, func(a, b RunStatus) int { return strings.Compare(a.Run, b.Run) })
	return out, resultKeys, nil
}

// keysOf lists a bucket's keys (none for an empty bucket).
func keysOf(ctx context.Context, kv jetstream.KeyValue) ([]string, error) {
	keys, err := kv.Keys(ctx)
	if errors.Is(err, jetstream.ErrNoKeysFound) {
		return nil, nil
	}
	return keys, err
}

// Owns reports whether run is id or one of its tuning evaluations (id-
// and 16 hex digits).
func Owns(id, run string) bool {
	if run == id {
		return true
	}
	m := subRun.FindStringSubmatch(run)
	return m != nil && m[1] == id
}

// Purge removes what the queue holds of run id and of its tuning
// evaluations (Owns): the items still on the work stream (workers will not
// play them), the results and errors, and the tuning checkpoint. It
// returns what it removed, run by run. A worker playing one of the items
// at that moment still stores its result when it is done; purge again
// then. The run id is checked first (CheckRunID).
func Purge(ctx context.Context, h *Handles, id string) ([]RunStatus, error) {
	if err := CheckRunID(id); err != nil {
		return nil, err
	}
	all, results, err := scan(ctx, h)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, opTimeout)
	defer cancel()
	st, err := h.JS.Stream(ctx, WorkStream)
	if err != nil {
		return nil, fmt.Errorf("queue: work stream: %w", err)
	}
	var out []RunStatus
	for _, r := range all {
		if !Owns(id, r.Run) {
			continue
		}
		if r.Pending > 0 {
			if err := st.Purge(ctx, jetstream.WithPurgeSubject(WorkSubject+"."+r.Run+".>")); err != nil {
				return out, fmt.Errorf("queue: purge the items of %s: %w", r.Run, err)
			}
		}
		for _, k := range results {
			if run, _, _ := strings.Cut(k, "."); run == r.Run {
				if err := h.Results.Purge(ctx, k); err != nil {
					return out, fmt.Errorf("queue: purge result %s: %w", k, err)
				}
			}
		}
		if r.Checkpoint {
			if err := h.Tune.Purge(ctx, r.Run); err != nil {
				return out, fmt.Errorf("queue: purge the checkpoint of %s: %w", r.Run, err)
			}
		}
		out = append(out, r)
	}
	return out, nil
}
