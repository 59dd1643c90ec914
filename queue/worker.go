package queue

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"sync"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// Play plays an item with workers games at once and returns the shard file
// it wrote (PlayItem, or a test's stand-in).
type Play func(ctx context.Context, it *Item, workers int) ([]byte, error)

// Worker pulls items one at a time and plays them.
type Worker struct {
	Q       *Handles
	Play    Play   // nil = PlayItem
	Name    string // in results and logs
	Workers int    // games at once, passed to Play
	Log     *slog.Logger
	// Heartbeat is the interval of in-progress acks while an item plays
	// (0 = a third of the consumer's ack wait).
	Heartbeat time.Duration
	// Poll is how long one fetch waits for an item (0 = 2s); a stop waits
	// for the fetch under way.
	Poll time.Duration
	// OnItem, when set, is called with each decoded item before it plays
	// (tests use it to stop a worker mid-item).
	OnItem func(*Item)
}

// Run pulls and plays items until ctx is done. An item being played when
// ctx ends is given back (nak) for another worker.
func (w *Worker) Run(ctx context.Context) error {
	poll := w.Poll
	if poll <= 0 {
		poll = 2 * time.Second
	}
	for ctx.Err() == nil {
		// The wait is the server's (FetchMaxWait), not a context's: a pull
		// request the client gives up on early may still be handed an
		// item by the server, which would then sit unseen until its ack
		// wait runs out. So a stop waits for the poll to end.
		batch, err := w.Q.Work.Fetch(1, jetstream.FetchMaxWait(poll))
		if err != nil {
			if ctx.Err() != nil {
				break
			}
			w.Log.Warn("fetch", "err", err)
			sleep(ctx, time.Second)
			continue
		}
		for msg := range batch.Messages() {
			w.handle(ctx, msg)
		}
		if err := batch.Error(); err != nil && ctx.Err() == nil && !errors.Is(err, jetstream.ErrNoMessages) &&
			!errors.Is(err, context.DeadlineExceeded) {
			w.Log.Warn("fetch", "err", err)
		}
	}
	return nil
}

func sleep(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
}

// handle plays one message: a bad one is logged and terminated (never
// redelivered), a good one played under heartbeats, its result stored once
// and the message acked.
func (w *Worker) handle(ctx context.Context, msg jetstream.Msg) {
	it, err := DecodeItem(msg.Data())
	if err != nil {
		w.Log.Error("bad work item: terminated", "subject", msg.Subject(), "err", err)
		if terr := msg.TermWithReason(err.Error()); terr != nil {
			w.Log.Warn("terminate", "err", terr)
		}
		return
	}
	log := w.Log.With("run", it.Run, "shard", it.Spec().String())
	// The ack wait runs from delivery: claim the item at once, before the
	// lookups below, so a slow store cannot hand it to a second worker.
	if err := msg.InProgress(); err != nil {
		log.Warn("heartbeat", "err", err)
	}
	if w.OnItem != nil {
		w.OnItem(&it)
	}
	if w.done(ctx, it.Key(), log) {
		log.Info("item already done: skipped")
		w.ack(ctx, msg, log)
		return
	}
	start := time.Now()
	log.Info("playing", "games", gamesOf(&it))
	file, err := w.playBeating(ctx, msg, &it)
	if ctx.Err() != nil {
		log.Info("stopped: item given back")
		_ = msg.Nak()
		return
	}
	res := Result{Run: it.Run, Shard: it.Shard, Worker: w.Name, Workers: w.Workers}
	key := it.Key()
	if err != nil {
		log.Error("item failed", "err", err)
		res.Error = err.Error()
		key = fmt.Sprintf("%s.error.%d", it.Run, it.Shard)
	} else {
		res.File = string(file)
	}
	data, err := Encode(&res)
	if err != nil {
		log.Error("encode result", "err", err)
		return
	}
	err = w.store(ctx, key, data, res.Error != "", log)
	switch {
	case errors.Is(err, jetstream.ErrKeyExists):
		log.Info("duplicate result dropped: the shard was already done")
	case err != nil:
		log.Error("store result: item left for redelivery", "err", err)
		return // not acked: redelivered after the ack wait
	default:
		log.Info("done", "seconds", time.Since(start).Seconds())
	}
	w.ack(ctx, msg, log)
}

// storeTries is how many times a worker tries a call on the results
// bucket: a clustered bucket elects a new leader within seconds of losing
// one, and a result not found or given up on is played again.
const storeTries = 8

// retry calls f until it returns nil or an error final accepts, the tries
// run out or ctx ends, with a growing pause (0.25 s, 0.5 s, ... up to 2 s)
// through a clustered broker's failover; it returns f's last error.
func retry(ctx context.Context, log *slog.Logger, what string, final func(error) bool, f func() error) error {
	pause := 250 * time.Millisecond
	for try := 1; ; try++ {
		err := f()
		if err == nil || final(err) || try == storeTries || ctx.Err() != nil {
			return err
		}
		log.Warn(what+": retrying", "try", try, "err", err)
		sleep(ctx, pause)
		pause = min(2*pause, 2*time.Second)
	}
}

// done reports whether the result of key is stored already. A lookup that
// keeps failing counts as not done: the item is played (and its result
// then refused as a duplicate if it was).
func (w *Worker) done(ctx context.Context, key string, log *slog.Logger) bool {
	err := retry(ctx, log, "look up result", func(err error) bool { return errors.Is(err, jetstream.ErrKeyNotFound) },
		func() error { _, err := w.Q.Results.Get(ctx, key); return err })
	return err == nil
}

// store writes an item's result under key (put: overwrite, for an error
// report; else create, once). A create whose first try was stored
// although its answer was lost fails with jetstream.ErrKeyExists, as a
// duplicate does.
func (w *Worker) store(ctx context.Context, key string, data []byte, put bool, log *slog.Logger) error {
	return retry(ctx, log, "store result", func(err error) bool { return errors.Is(err, jetstream.ErrKeyExists) }, func() error {
		var err error
		if put {
			_, err = w.Q.Results.Put(ctx, key, data)
		} else {
			_, err = w.Q.Results.Create(ctx, key, data)
		}
		return err
	})
}

func (w *Worker) ack(ctx context.Context, msg jetstream.Msg, log *slog.Logger) {
	actx, cancel := context.WithTimeout(context.WithoutCancel(ctx), opTimeout)
	defer cancel()
	if err := msg.DoubleAck(actx); err != nil {
		log.Warn("ack", "err", err)
	}
}

// playBeating plays it while telling the server, every heartbeat, that the
// item is still in progress.
func (w *Worker) playBeating(ctx context.Context, msg jetstream.Msg, it *Item) ([]byte, error) {
	beat := w.Heartbeat
	if beat <= 0 {
		beat = w.Q.AckWait() / 3
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		t := time.NewTicker(beat)
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case <-ctx.Done():
				return
			case <-t.C:
				if err := msg.InProgress(); err != nil {
					w.Log.Warn("heartbeat", "err", err)
				}
			}
		}
	})
	defer wg.Wait()
	defer close(stop)
	play := w.Play
	if play == nil {
		play = PlayItem
	}
	return play(ctx, it, w.Workers)
}

func gamesOf(it *Item) string {
	lo, hi := it.Spec().Range(it.Total)
	return strconv.Itoa(lo) + ".." + strconv.Itoa(hi-1)
}
