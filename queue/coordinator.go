package queue

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"strconv"
	"strings"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/kaisen-ai/kaisen/shard"
)

// ErrWorker is wrapped by the error of an item a worker could not play.
var ErrWorker = errors.New("queue: a worker failed an item")

// Run is one run to spread: its items (one per shard, Shard 1..N in order)
// and the shard-file arguments its results must carry (Expect: the
// coordinator's game-deciding flags, which Gather copies into every item's
// Args for the worker to write in its shard file). An argument whose value
// is Inline names settings sent with the items (a tuning candidate's
// weights, which exist nowhere else): it is compared by its #sha256 only,
// as version-1 workers wrote a path of their own in its place.
type Run struct {
	Items  []Item
	Expect map[string]string
}

// Inline is the Expect value of an argument whose file travels in the
// items as text.
const Inline = "(sent with the item)"

// ID is the run's id.
func (r *Run) ID() string { return r.Items[0].Run }

// Stats describe a gathered set of runs.
type Stats struct {
	Items   int            // items of all the runs
	Reused  int            // results found stored when the coordinator started
	Workers map[string]int // worker name -> its games at once, over the results gathered
}

// Slots is the games played at once by all the workers that sent results.
func (s *Stats) Slots() int {
	n := 0
	for _, w := range s.Workers {
		n += w
	}
	return n
}

// Gather publishes the items of runs that have no stored result yet, waits
// until every item has one and returns, per run, the shard files in shard
// order. progress (when set) is called with the games done so far, stored
// results included. A result that does not belong to its run (another
// command, seed or arguments under the same run id) is an error, and so is
// an item a worker failed.
func Gather(ctx context.Context, q *Handles, runs []Run, log *slog.Logger, progress func(games int)) ([][]shard.File, Stats, error) {
	stats := Stats{Workers: map[string]int{}}
	if len(runs) == 0 {
		return nil, stats, nil
	}
	want, filters, err := prepare(runs)
	if err != nil {
		return nil, stats, err
	}
	for _, r := range want {
		stats.Items += len(r.Items)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	watch, err := q.Results.WatchFiltered(ctx, filters, jetstream.IgnoreDeletes())
	if err != nil {
		return nil, stats, fmt.Errorf("queue: watch results: %w", err)
	}
	defer func() { _ = watch.Stop() }()

	got := map[string]map[int]shard.File{}
	for id := range want {
		got[id] = map[int]shard.File{}
	}
	games, done := 0, 0
	caughtUp := false
	for done < stats.Items {
		var e jetstream.KeyValueEntry
		select {
		case <-ctx.Done():
			return nil, stats, ctx.Err()
		case en, ok := <-watch.Updates():
			if !ok {
				return nil, stats, fmt.Errorf("queue: the results watch stopped")
			}
			e = en
		}
		if e == nil { // the stored results are all read: publish the rest
			caughtUp = true
			stats.Reused = done
			if err := publish(ctx, q, runs, got, log); err != nil {
				return nil, stats, err
			}
			continue
		}
		run, rest, _ := strings.Cut(e.Key(), ".")
		r := want[run]
		if r == nil {
			continue
		}
		res, err := DecodeResult(e.Value())
		if err != nil {
			log.Warn("bad result ignored", "key", e.Key(), "err", err)
			continue
		}
		if strings.HasPrefix(rest, "error.") {
			if caughtUp {
				return nil, stats, fmt.Errorf("%w: run %s shard %d on %s: %s", ErrWorker, run, res.Shard, res.Worker, res.Error)
			}
			continue // an old failure: the item is published again
		}
		k, err := strconv.Atoi(rest)
		if err != nil || k < 1 || k > len(r.Items) || res.Run != run || res.Shard != k {
			log.Warn("result under a foreign key ignored", "key", e.Key())
			continue
		}
		if _, dup := got[run][k]; dup {
			continue // exactly once: the first result of a shard counts
		}
		f, err := res.ShardFile()
		if err == nil {
			err = check(r, &r.Items[k-1], &f)
		}
		if err != nil {
			return nil, stats, err
		}
		got[run][k] = f
		stats.Workers[res.Worker] = res.Workers
		games += f.Header.Count
		done++
		if progress != nil {
			progress(games)
		}
	}
	if !caughtUp {
		stats.Reused = done
	}
	out := make([][]shard.File, len(runs))
	for i := range runs {
		r := &runs[i]
		for k := 1; k <= len(r.Items); k++ {
			out[i] = append(out[i], got[r.ID()][k])
		}
	}
	return out, stats, nil
}

// prepare readies the items of runs for publishing (their version, and
// their Args the run's Expect), checks them and returns the runs by id and
// the results-bucket filters of their keys.
func prepare(runs []Run) (map[string]*Run, []string, error) {
	want := map[string]*Run{}
	var filters []string
	for i := range runs {
		r := &runs[i]
		if len(r.Items) == 0 {
			return nil, nil, fmt.Errorf("%w: a run without items", ErrMessage)
		}
		for k := range r.Items {
			it := &r.Items[k]
			it.V = ItemVersion
			it.Args = r.Expect
			if err := it.Validate(); err != nil {
				return nil, nil, err
			}
			if it.Run != r.ID() || it.Shard != k+1 || it.Shards != len(r.Items) {
				return nil, nil, fmt.Errorf("%w: item %d of run %s is %s shard %s", ErrMessage, k+1, r.ID(), it.Run, it.Spec())
			}
		}
		if _, dup := want[r.ID()]; dup {
			return nil, nil, fmt.Errorf("%w: run %s given twice", ErrMessage, r.ID())
		}
		want[r.ID()] = r
		filters = append(filters, r.ID()+".>")
	}
	return want, filters, nil
}

// check checks that a result's shard file is the shard of its item, with
// the arguments the run expects.
func check(r *Run, it *Item, f *shard.File) error {
	h := &f.Header
	var diff string
	switch {
	case h.Command != it.Kind:
		diff = fmt.Sprintf("command %q, not %q", h.Command, it.Kind)
	case h.Seed != it.Seed:
		diff = fmt.Sprintf("seed %d, not %d", h.Seed, it.Seed)
	case h.Games != it.Total:
		diff = fmt.Sprintf("%d games, not %d", h.Games, it.Total)
	case h.Shard != it.Shard || h.Shards != it.Shards:
		diff = fmt.Sprintf("shard %s, not %s", h.Spec(), it.Spec())
	default:
		got, want := maps.Clone(h.Args), maps.Clone(r.Expect)
		for name, v := range r.Expect {
			if v == Inline {
				delete(got, name)
				delete(want, name)
			}
		}
		if !maps.Equal(got, want) {
			diff = fmt.Sprintf("arguments %v, not %v (a run id used for another run?)", got, want)
		}
	}
	if diff != "" {
		return fmt.Errorf("%w: %s has %s", shard.ErrMismatch, f.Name, diff)
	}
	return nil
}

// publish publishes the items without a result. Each message carries a
// msg id of the shard and of this coordinator, so that JetStream drops a
// publish this coordinator retries; a restarted coordinator publishes the
// missing shards again under a new id (their results are still stored
// once).
func publish(ctx context.Context, q *Handles, runs []Run, got map[string]map[int]shard.File, log *slog.Logger) error {
	var b [6]byte
	if _, err := rand.Read(b[:]); err != nil {
		return fmt.Errorf("queue: %w", err)
	}
	nonce := hex.EncodeToString(b[:])
	n := 0
	for i := range runs {
		for k := range runs[i].Items {
			it := &runs[i].Items[k]
			if _, ok := got[it.Run][it.Shard]; ok {
				continue
			}
			data, err := Encode(it)
			if err != nil {
				return err
			}
			msg := &nats.Msg{Subject: WorkSubject + "." + it.Key(), Data: data}
			if err := publishItem(ctx, q, msg, it.Key()+"."+nonce, log); err != nil {
				return fmt.Errorf("queue: publish %s: %w", it.Key(), err)
			}
			n++
		}
	}
	log.Debug("items published", "items", n)
	return nil
}

// publishAttempts is how many times a coordinator publishes one item
// before it gives up: a publish whose acknowledgement is lost (the stream
// leader died, a new one is being elected) is sent again under the same
// msg id, which JetStream stores once.
const publishAttempts = 5

// publishItem publishes msg with msg id id, again after a failed attempt
// (publishAttempts in all, waiting longer each time), until ctx is done.
func publishItem(ctx context.Context, q *Handles, msg *nats.Msg, id string, log *slog.Logger) error {
	wait := 250 * time.Millisecond
	var err error
	for attempt := 1; ; attempt++ {
		pctx, cancel := context.WithTimeout(ctx, opTimeout)
		_, err = q.JS.PublishMsg(pctx, msg, jetstream.WithMsgID(id))
		cancel()
		if err == nil || ctx.Err() != nil || attempt == publishAttempts {
			return err
		}
		log.Warn("publish failed; sending it again", "item", id, "attempt", attempt, "err", err)
		select {
		case <-time.After(wait):
		case <-ctx.Done():
			return err
		}
		wait *= 2
	}
}
