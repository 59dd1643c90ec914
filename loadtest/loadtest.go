package loadtest

import (
	"context"
	"errors"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"github.com/kaisen-ai/kaisen/client"
	"github.com/kaisen-ai/kaisen/games"
	"github.com/kaisen-ai/kaisen/protocol"
)

// Options configures Run.
type Options struct {
	// Addr is the server's host:port.
	Addr string
	// Games is how many games to finish in total (against a series server,
	// rounded up to whole series).
	Games int
	// Concurrency is how many games run at once: connections against a
	// server with a house AI, pairs of connections with Pairs.
	Concurrency int
	// Game is the game played ("" = the registry's default game, the
	// submarine game), by its kaisen play client (games.Game.NewClient):
	// one client loop, client.Play, for every game.
	Game string
	// Player is the AI of every client ("" = the game's PlayDefault, the
	// submarine game's random AI).
	Player string
	// Pairs: the server pairs its clients (opponent "pair"), so every game
	// is two of our connections; actions are counted once per game.
	Pairs bool
	// Seed derives every client's random stream.
	Seed uint64
	// Name is sent to submarine-py servers ("" = client.DefaultPlayName).
	Name string
	// ReadTimeout bounds each wait for a line from the server (0 = 30s).
	ReadTimeout time.Duration
	// Rate paces the clients to about this many actions per second over
	// all games (0 = as fast as the server answers). Below the server's
	// capacity the round trips show its latency rather than its queue.
	Rate float64
	// ServerPID, when not 0, is the server's process id on this machine
	// (Linux): Run reads its CPU time before and after the load and
	// reports the server's CPU per action (Report.ServerCPU,
	// ServerCPUPerAction), the figure that stays stable on a shared
	// machine where actions/s follows the other tenants.
	ServerPID int
}

// Report is what Run measured.
type Report struct {
	Games         int           // games finished
	Errors        int           // connections that failed (refused, broken, protocol error, own illegal action)
	FirstError    string        // the first error, if any
	Wins          int           // games won by our clients (pairs: every decided game)
	Losses        int           // games lost (pairs: every decided game)
	Draws         int           // drawn games
	Actions       int64         // actions played in the finished games (both sides)
	Elapsed       time.Duration // from the first connection to the last game's end
	ActionsPerSec float64
	GamesPerSec   float64
	RTT           Quantiles // action round trips
	// ServerCPU is the CPU time (user and system) the server process
	// used during the run, to 10 ms (Options.ServerPID; 0 without).
	ServerCPU time.Duration
	// ServerCPUPerAction is ServerCPU / Actions.
	ServerCPUPerAction time.Duration
}

// Quantiles of the action round trip.
type Quantiles struct {
	N                  int64
	P50, P90, P99, Max time.Duration
}

// ErrLoad is wrapped by Run's errors.
var ErrLoad = errors.New("loadtest")

// Run plays opts.Games games against the server at opts.Addr with
// opts.Concurrency games at once and reports throughput and round trips.
// Failed connections are counted, not fatal, unless every attempt fails.
func Run(ctx context.Context, opts Options) (Report, error) {
	var rep Report
	if opts.Games < 1 || opts.Concurrency < 1 || opts.Rate < 0 {
		return rep, fmt.Errorf("%w: games (%d) and concurrency (%d) must be at least 1, rate (%g) not negative", ErrLoad, opts.Games, opts.Concurrency, opts.Rate)
	}
	if opts.Game == "" {
		opts.Game = games.Default().Name
	}
	if opts.Name == "" {
		opts.Name = client.DefaultPlayName
	}
	if opts.ReadTimeout <= 0 {
		opts.ReadTimeout = 30 * time.Second
	}
	gc, err := gameClient(&opts)
	if err != nil {
		return rep, fmt.Errorf("%w: %w", ErrLoad, err)
	}
	workers, target := opts.Concurrency, int64(opts.Games)
	if opts.Pairs {
		workers, target = 2*workers, 2*target // each side counts its own games
	}
	lt := &loadRun{opts: opts, client: gc, target: target, maxErrors: int64(max(16, opts.Games))}
	var cpu0 time.Duration
	if opts.ServerPID != 0 {
		if cpu0, err = ProcessCPU(opts.ServerPID); err != nil {
			return rep, err
		}
	}
	start := time.Now()
	var wg sync.WaitGroup
	results := make([]loadWorker, workers)
	for i := range workers {
		w := &results[i]
		w.hist = new(histogram)
		w.rng = rand.New(rand.NewPCG(opts.Seed, uint64(i)))
		if opts.Rate > 0 {
			// Every game plays about Rate/Concurrency actions per second;
			// each of our clients makes every other action of its game.
			w.pace = time.Duration(2 * float64(opts.Concurrency) / opts.Rate * float64(time.Second))
		}
		wg.Go(func() { lt.work(ctx, w) })
	}
	wg.Wait()
	rep.Elapsed = time.Since(start)
	if opts.ServerPID != 0 {
		cpu1, err := ProcessCPU(opts.ServerPID)
		if err != nil {
			return rep, err
		}
		rep.ServerCPU = cpu1 - cpu0
	}
	lt.total(&rep, results)
	if err := ctx.Err(); err != nil {
		return rep, fmt.Errorf("%w: %w", ErrLoad, err)
	}
	if rep.Games == 0 {
		return rep, fmt.Errorf("%w: no game finished (%d errors, first: %s)", ErrLoad, rep.Errors, rep.FirstError)
	}
	return rep, nil
}

// total adds up the workers' counts and round trips into rep (whose
// Elapsed and ServerCPU are set) and derives its rates.
func (lt *loadRun) total(rep *Report, results []loadWorker) {
	total := new(histogram)
	for i := range results {
		w := &results[i]
		total.merge(w.hist)
		rep.Games += w.games
		rep.Wins += w.wins
		rep.Losses += w.losses
		rep.Draws += w.draws
		rep.Actions += w.actions
		rep.Errors += w.errors
	}
	if e := lt.firstErr.Load(); e != nil {
		rep.FirstError = e.(string)
	}
	if lt.opts.Pairs { // both sides of every game are ours: count each game once
		rep.Games /= 2
		rep.Actions /= 2
		rep.Draws /= 2
	}
	rep.RTT = total.quantiles()
	if s := rep.Elapsed.Seconds(); s > 0 {
		rep.ActionsPerSec = float64(rep.Actions) / s
		rep.GamesPerSec = float64(rep.Games) / s
	}
	if rep.Actions > 0 {
		rep.ServerCPUPerAction = rep.ServerCPU / time.Duration(rep.Actions)
	}
}

// loadRun is the state shared by the workers of one Run.
type loadRun struct {
	opts      Options
	client    games.Client // the game's kaisen play client
	target    int64        // client-side games to finish
	started   atomic.Int64
	finished  atomic.Int64
	errors    atomic.Int64
	maxErrors int64
	firstErr  atomic.Value
}

// loadWorker is one worker's tallies (one worker = one connection at a time).
type loadWorker struct {
	hist                       *histogram
	rng                        *rand.Rand
	games, wins, losses, draws int
	actions                    int64
	errors                     int
	pace                       time.Duration // time between own actions (Rate), 0 = none
	next                       time.Time     // when the next own action may be sent
}

// wait paces the worker's next action (Options.Rate).
func (w *loadWorker) wait() {
	if w.pace <= 0 {
		return
	}
	now := time.Now()
	if w.next.IsZero() { // a random phase, so that the clients do not send in bursts
		w.next = now.Add(time.Duration(w.rng.Int64N(int64(w.pace))))
	}
	if d := w.next.Sub(now); d > 0 {
		time.Sleep(d)
	} else {
		w.next = now // behind: do not catch up in a burst
	}
	w.next = w.next.Add(w.pace)
}

// work connects again and again until the run has enough games.
func (lt *loadRun) work(ctx context.Context, w *loadWorker) {
	for ctx.Err() == nil && lt.errors.Load() < lt.maxErrors {
		if lt.started.Add(1) > lt.target {
			return
		}
		before := w.games
		err := lt.connection(ctx, w)
		// The connection reserved one game and played w.games-before (a
		// series server plays several on one connection; a failed
		// connection's game is tried again).
		lt.started.Add(int64(w.games - before - 1))
		if err != nil && ctx.Err() == nil {
			w.errors++
			lt.errors.Add(1)
			lt.firstErr.CompareAndSwap(nil, err.Error())
			time.Sleep(10 * time.Millisecond)
		}
	}
}

// connection plays every game of one connection.
func (lt *loadRun) connection(ctx context.Context, w *loadWorker) error {
	var d net.Dialer
	nc, err := d.DialContext(ctx, "tcp", lt.opts.Addr)
	if err != nil {
		return err
	}
	defer nc.Close()
	stop := context.AfterFunc(ctx, func() { _ = nc.Close() })
	defer stop()
	return lt.playGame(nc, w)
}

// ended counts one finished game.
func (w *loadWorker) ended(e protocol.End, actions int) {
	w.games++
	w.actions += int64(actions)
	switch e {
	case protocol.EndWin:
		w.wins++
	case protocol.EndLose:
		w.losses++
	default:
		w.draws++
	}
}

// histogram counts durations in log-linear buckets: exact below 128 ns,
// then 64 buckets per power of two (under 1.6 % error).
type histogram struct {
	counts [128 + 64*40]uint64
	n      int64
	max    time.Duration
}

func bucketOf(d time.Duration) int {
	v := uint64(max(d, 0))
	if v < 128 {
		return int(v)
	}
	shift := bits.Len64(v) - 7
	return 128 + (shift-1)*64 + int(v>>uint(shift)) - 64
}

// bucketValue is the middle of bucket i.
func bucketValue(i int) time.Duration {
	if i < 128 {
		return time.Duration(i)
	}
	shift := (i-128)/64 + 1
	top := uint64((i-128)%64 + 64)
	return time.Duration(top<<uint(shift) + (uint64(1)<<uint(shift))/2)
}

func (h *histogram) add(d time.Duration) {
	i := min(bucketOf(d), len(h.counts)-1)
	h.counts[i]++
	h.n++
	h.max = max(h.max, d)
}

func (h *histogram) merge(o *histogram) {
	for i, c := range o.counts {
		h.counts[i] += c
	}
	h.n += o.n
	h.max = max(h.max, o.max)
}

// quantile returns the duration below which a fraction q of the samples lie.
func (h *histogram) quantile(q float64) time.Duration {
	if h.n == 0 {
		return 0
	}
	rank := uint64(q*float64(h.n-1)) + 1
	var seen uint64
	for i, c := range h.counts {
		seen += c
		if seen >= rank {
			return min(bucketValue(i), h.max)
		}
	}
	return h.max
}

func (h *histogram) quantiles() Quantiles {
	return Quantiles{N: h.n, P50: h.quantile(0.50), P90: h.quantile(0.90), P99: h.quantile(0.99), Max: h.max}
}
