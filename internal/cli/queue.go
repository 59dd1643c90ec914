package cli

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/spf13/cobra"

	"github.com/kaisen-ai/kaisen/jobs"
	"github.com/kaisen-ai/kaisen/queue"
	"github.com/kaisen-ai/kaisen/shard"
	"github.com/kaisen-ai/kaisen/tune"
)

// defaultTuneShardGames is the games of a work item of kaisen tune --nats:
// tuning games are slow and an evaluation has only --batch of them.
const defaultTuneShardGames = 50

// queueFlags are --nats, --run-id, --shard-games and --nats-nkey: play the
// command's games on kaisen workers through a NATS JetStream queue.
type queueFlags struct {
	url        string
	runID      string
	shardGames int
	nkey       string
}

// maxRunID is the longest --run-id: tune's sub-runs add 17 characters and
// a run id of the queue may have 96.
const maxRunID = 64

// queueFlagNames are the flags of queueFlags (not game-deciding).
var queueFlagNames = []string{"nats", "run-id", "shard-games", "nats-nkey"}

// addQueueFlags registers the queue flags with shardGames as the default
// size of a work item.
func addQueueFlags(cmd *cobra.Command, q *queueFlags, shardGames int) {
	fl := cmd.Flags()
	fl.StringVar(&q.url, "nats", "", "play the games on kaisen workers through this NATS JetStream server (nats://HOST:PORT; docs/distributed.md)")
	fl.StringVar(&q.runID, "run-id", "", "with --nats: the run's id; the same id resumes a stopped run (default: drawn and printed)")
	fl.IntVar(&q.shardGames, "shard-games", shardGames, "with --nats: games per work item")
	fl.StringVar(&q.nkey, "nats-nkey", "", "with --nats: file of the nkey seed to authenticate with")
}

// check refuses the queue flags without --nats and bad values.
func (q *queueFlags) check(cmd *cobra.Command) error {
	if q.url == "" {
		for _, name := range queueFlagNames[1:] {
			if cmd.Flags().Changed(name) {
				return usageError("--%s goes with --nats", name)
			}
		}
		return nil
	}
	if q.shardGames < 1 {
		return usageError("--shard-games %d: want at least 1", q.shardGames)
	}
	if q.runID != "" {
		if err := queue.CheckRunID(q.runID); err != nil || len(q.runID) > maxRunID {
			return usageError("--run-id %q: want 1 to %d letters, digits, '-' or '_'", q.runID, maxRunID)
		}
	}
	return nil
}

// id is the run id: --run-id, else a drawn one, printed so that the run can
// be resumed.
func (q *queueFlags) id(e *env, cmd string) (string, error) {
	if q.runID == "" {
		s, err := randomSeed()
		if err != nil {
			return "", err
		}
		q.runID = fmt.Sprintf("%s-%x", cmd, s)
		fmt.Fprintf(e.stderr, "kaisen %s: run id %s (add --run-id %s to resume it if it stops)\n", cmd, q.runID, q.runID)
	}
	return q.runID, nil
}

// shards is the number of work items of a run of games games.
func (q *queueFlags) shards(games int) int {
	return min(games, (games+q.shardGames-1)/q.shardGames)
}

// connect connects to --nats and sets the queue up (what is missing of it).
func (q *queueFlags) connect(ctx context.Context, name string) (*queue.Handles, *nats.Conn, error) {
	nc, js, err := queue.Connect(q.url, name, q.nkey)
	if err != nil {
		return nil, nil, err
	}
	h, err := queue.Setup(ctx, js, queue.Settings{})
	if err != nil {
		nc.Close()
		return nil, nil, err
	}
	return h, nc, nil
}

// items cuts a run of total games (-n games) into its work items, each a
// copy of it (its kind and settings) with its shard, seed and games.
func (q *queueFlags) items(run string, it queue.Item, seed uint64, games, total int) []queue.Item {
	n := q.shards(total)
	out := make([]queue.Item, n)
	for k := range out {
		out[k] = it
		out[k].Run, out[k].Shard, out[k].Shards, out[k].Seed, out[k].Games, out[k].Total = run, k+1, n, seed, games, total
	}
	return out
}

// runQueued plays the run whose kind and settings it holds (-n games,
// total games in all, with seed; the game-deciding flags of f are its
// identity) on the workers of --nats and prints its result as the command would:
// kaisen merge's printing of the gathered shards.
func (f *shardFlags) runQueued(ctx context.Context, e *env, it queue.Item, seed uint64, games, total int, progressMode string, asJSON bool) error {
	q := &f.queue
	command := it.Kind
	run, err := q.id(e, command)
	if err != nil {
		return err
	}
	h, nc, err := q.connect(ctx, "kaisen "+command+" "+run)
	if err != nil {
		return err
	}
	defer nc.Close()
	bar := newProgress(e, progressMode, total, "games")
	var onProgress func(int)
	if bar != nil {
		onProgress = bar.Set
	}
	start := time.Now()
	runs := []queue.Run{{Items: q.items(run, it, seed, games, total), Expect: f.args}}
	files, stats, err := queue.Gather(ctx, h, runs, e.log, onProgress)
	if bar != nil {
		bar.Done(total)
	}
	if err != nil {
		return queueError(command, run, err)
	}
	e.log.Info("run gathered", "run", run, "items", stats.Items, "reused", stats.Reused, "worker_processes", len(stats.Workers), "games_at_once", stats.Slots())
	return printMerged(e, files[0], time.Since(start), stats.Slots(), asJSON)
}

// readText is the content of the weights or rules file at path ("" for
// no path): the settings of a work item carry them as text.
func readText(path string) (string, error) {
	if path == "" {
		return "", nil
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return "", &UsageError{Err: err}
	}
	return string(data), nil
}

// queueError turns an interrupted queued run into exit code 130 with the
// way to resume it.
func queueError(command, run string, err error) error {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return &ExitError{Code: ExitInterrupted, Err: fmt.Errorf("%s: interrupted; the results so far are kept: run the same command with --run-id %s to resume", command, run)}
	}
	if errors.Is(err, shard.ErrMismatch) {
		return &UsageError{Err: fmt.Errorf("%s: run %s: %w", command, run, err)}
	}
	return fmt.Errorf("%s: run %s: %w", command, run, err)
}

// queuedTuning is what a tuning run (kaisen tune, kaisen exploit) needs to
// play its games on the workers of --nats: the queue flags, the
// opponents as NAME[@WEIGHTS] in the order of the objective's Opponents,
// the flags that decide the games (--game, --rules) and the game they
// chose.
type queuedTuning struct {
	command     string // "tune" or "exploit", for errors and the run id
	q           queueFlags
	against     []string
	game        string // --game as given ("" = the --rules config's)
	matchConfig string
	gameName    string // the game played
	// set by useQueue: the text of --rules and of each opponent's weights
	rules   string
	weights []string
}

// useQueue makes t play its evaluations on the workers of qt.q and keep
// its checkpoint in the queue under the run id, and returns how the
// checkpoint is named for people and the function that closes the
// connection.
func (qt queuedTuning) useQueue(ctx context.Context, e *env, t *tune.Tuning) (checkpoint string, closeConn func(), err error) {
	if qt.rules, err = readText(qt.matchConfig); err != nil {
		return "", nil, err
	}
	for _, a := range qt.against {
		_, path, _ := strings.Cut(a, "@")
		text, err := readText(path)
		if err != nil {
			return "", nil, err
		}
		qt.weights = append(qt.weights, text)
	}
	run, err := qt.q.id(e, qt.command)
	if err != nil {
		return "", nil, err
	}
	h, nc, err := qt.q.connect(ctx, "kaisen "+qt.command+" "+run)
	if err != nil {
		return "", nil, err
	}
	checkpoint = "the queue (--run-id " + run + ")"
	t.Checkpoint = checkpoint
	t.Store = &queue.Checkpoints{KV: h.Tune, Run: run, Ctx: ctx}
	t.Evaluate = queuedEvaluate(h, e, qt, run)
	return checkpoint, nc.Close, nil
}

// queuedEvaluate plays the games of tuning evaluations on the workers of
// --nats: each opponent's share of an evaluation is a match of the
// candidate weights (sent with the item) against the opponent, cut into
// items of --shard-games games; the shares' tallies make the very Sample
// GameObjective.Evaluate would.
func queuedEvaluate(h *queue.Handles, e *env, qt queuedTuning, run string) func(context.Context, *tune.GameObjective, []float64, uint64) (tune.Sample, error) {
	return func(ctx context.Context, g *tune.GameObjective, x []float64, seed uint64) (tune.Sample, error) {
		text, err := g.Config(x)
		if err != nil {
			return tune.Sample{}, err
		}
		shares := g.Shares(seed)
		runs := make([]queue.Run, len(shares))
		for i, sh := range shares {
			runs[i] = qt.shareRun(run, g.Player, text, sh)
		}
		got, _, err := queue.Gather(ctx, h, runs, e.log, nil)
		if err != nil {
			return tune.Sample{}, queueError(qt.command, run, err)
		}
		s := tune.Sample{Parts: make([]tune.Sample, len(g.Opponents))}
		for i, sh := range shares {
			sum, err := mergeParts(got[i], shard.MergeMatch)
			if err != nil {
				return tune.Sample{}, err
			}
			g.Add(&s, sh, sum.P1Wins, sum.Draws)
		}
		return s, nil
	}
}

// shareRun is the run of one opponent's share sh of an evaluation of
// tuning run run: a match of player with the candidate weights text
// against the opponent. Its id and identity (Expect)
// are those of the flags kaisen match would be given, as before items
// were typed, so that a tuning run stopped under an older kaisen resumes
// on its stored results.
func (qt queuedTuning) shareRun(run, player, text string, sh tune.Share) queue.Run {
	name, weights, _ := strings.Cut(qt.against[sh.Opponent], "@")
	args := []string{"--p1=" + player, "--p2=" + name}
	if weights != "" {
		args = append(args, "--p2-weights="+weights)
	}
	if qt.game != "" { // else the --rules config's game, as in kaisen tune
		args = append(args, "--game="+qt.game)
	}
	if qt.matchConfig != "" {
		args = append(args, "--rules="+qt.matchConfig)
	}
	spec := &jobs.Match{Game: qt.gameName, P1: jobs.Seat{Name: player, Weights: text},
		P2: jobs.Seat{Name: name, Weights: qt.weights[sh.Opponent]}, Rules: qt.rules}
	files := map[string]string{"p1-weights": text}
	sum := sha256.Sum256([]byte(fmt.Sprintf("%s\x00%d\x00%d\x00%d\x00%d\x00%s", text, sh.Seed, sh.Opponent, sh.Games, qt.q.shardGames, strings.Join(args, " "))))
	id := run + "-" + hex.EncodeToString(sum[:8])
	items := qt.q.items(id, queue.Item{Kind: jobs.CommandMatch, Match: spec}, sh.Seed, sh.Games, sh.Games)
	return queue.Run{Items: items, Expect: expectArgs(args, files)}
}

// expectArgs are the shard-file arguments of a match run with args
// (--NAME=VALUE) and files (inline weights): each value by name, and the
// SHA-256 of each weights or rules file (shardFlags.hashFiles); an inline
// file's value is queue.Inline.
func expectArgs(args []string, files map[string]string) map[string]string {
	out := map[string]string{}
	hash := func(name string, data []byte) { out[name+"#sha256"] = fmt.Sprintf("%x", sha256.Sum256(data)) }
	for _, a := range args {
		name, value, _ := strings.Cut(strings.TrimPrefix(a, "--"), "=")
		out[name] = value
		if name == "rules" || strings.HasSuffix(name, "weights") {
			if data, err := os.ReadFile(value); err == nil {
				hash(name, data)
			}
		}
	}
	for name, text := range files {
		out[name] = queue.Inline
		hash(name, []byte(text))
	}
	return out
}

type workerFlags struct {
	queue   queueFlags
	workers int
	name    string
}

func newWorkerCmd(e *env) *cobra.Command {
	var f workerFlags
	cmd := &cobra.Command{
		Use:   "worker --nats URL [--workers K]",
		Short: "Play the work items of queued runs (match, tournament, shots, tune, exploit --nats)",
		Long: `Pull work items from the NATS JetStream queue at --nats, one at a time, and
play each with --workers games at once (default: one per CPU): a shard of a
kaisen match, tournament or shots run, or the games of one opponent in a
tuning evaluation. The shard's result is stored once (a duplicate is
dropped) and the item acked; while an item plays the worker tells the
server every few seconds that it is alive, and an item whose worker dies is
given to another after the queue's ack wait.

An item is a typed call, not a command line: the run's players, weights
and rules travel in it as data (the weights and rules files' text), and
the worker plays its shard in this process with the code of kaisen match,
tournament or shots --shard, so no file is needed on this machine.

A malformed item, or one of another message version, is logged and dropped.
An item that cannot be played here (an AI this kaisen does not know, bad
weights) is reported to its run, which stops with the worker's message.

Ctrl-C or SIGTERM gives the item back to the queue and stops.`,
		Example: `  kaisen broker &                                         (a queue on 127.0.0.1:4222)
  kaisen worker --nats nats://127.0.0.1:4222               (as many as you have machines)
  kaisen match --p1 random --p2 random -n 100000 --seed 1 --nats nats://127.0.0.1:4222`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if f.queue.url == "" {
				return usageError("--nats URL is required")
			}
			return runWorker(cmd.Context(), e, &f)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.queue.url, "nats", "", "the NATS JetStream server of the queue (nats://[USER:PASS@]HOST:PORT)")
	fl.StringVar(&f.queue.nkey, "nats-nkey", "", "file of the nkey seed to authenticate with")
	fl.StringVar(&f.name, "name", "", "the worker's name in results and logs (default: HOST-PID)")
	addWorkersFlag(cmd, &f.workers, 0)
	return cmd
}

func runWorker(ctx context.Context, e *env, f *workerFlags) error {
	name := f.name
	if name == "" {
		host, _ := os.Hostname()
		name = fmt.Sprintf("%s-%d", host, os.Getpid())
	}
	// A worker may start before its server (a pod before the broker's):
	// it keeps trying until the queue answers or it is stopped.
	nc, js, err := queue.Connect(f.queue.url, "kaisen worker "+name, f.queue.nkey, nats.RetryOnFailedConnect(true))
	if err != nil {
		return err
	}
	defer nc.Close()
	var h *queue.Handles
	for {
		if h, err = queue.Setup(ctx, js, queue.Settings{}); err == nil {
			break
		}
		if ctx.Err() != nil {
			return nil
		}
		e.log.Warn("waiting for the queue", "err", err)
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(2 * time.Second):
		}
	}
	w := &queue.Worker{Q: h, Name: name, Workers: workersOf(f.workers), Log: e.log.With("worker", name)}
	e.log.Info("worker ready", "worker", name, "workers", w.Workers, "ack_wait", h.AckWait())
	return w.Run(ctx)
}

// defaultClusterListen is where a cluster node's routes listen by default.
const defaultClusterListen = "127.0.0.1:6222"

type brokerFlags struct {
	listen, store  string
	user, password string
	nkey           string
	ackWait        time.Duration
	cluster        queue.Cluster
	replicas       int
}

func newBrokerCmd(e *env) *cobra.Command {
	var f brokerFlags
	cmd := &cobra.Command{
		Use:   "broker [--listen HOST:PORT] [--store DIR]",
		Short: "Run an embedded NATS JetStream server for queued runs",
		Long: `Run a NATS JetStream server in this process, with its file store in --store
(default: kaisen's data directory, broker/), and create the work queue, the
results bucket and the tuning-checkpoint bucket. Workers (kaisen worker) and
runs (kaisen match|tournament|shots|tune|exploit --nats) connect to it; any other
JetStream server (a cluster in production) works the same way.

It listens on loopback by default. Listening beyond loopback needs
credentials: --user and --password (or the KAISEN_NATS_PASSWORD
environment variable), or --nkey with a user's public nkey (the clients
then pass --nats-nkey SEEDFILE). Clients give the user and password in
the URL: nats://USER:PASS@HOST:PORT.

--ack-wait is how long an item may go without news of its worker before it
is given to another (workers send news every third of it); it applies when
the broker creates the queue in a new store. With --nkey alone the broker
cannot log in to itself: the first client creates the queue, with the
default 30s.

A cluster: run one broker per machine with the same --cluster name, a
--node name of its own, the address its routes listen on (--cluster-listen)
and the route URLs of the nodes (--routes, all of them: a node ignores its
own). The work stream and the buckets are then kept on --replicas nodes
(default 3 in a cluster, 1 alone), so the queue survives the loss of a
minority of the nodes; clients list several nodes in --nats
(nats://A:4222,nats://B:4222) and fail over. The first broker to see the
cluster elect its JetStream leader creates the queue. Routes beyond
loopback authenticate with --user and --password.`,
		Example: `  kaisen broker
  kaisen broker --listen 127.0.0.1:4222 --store /var/lib/kaisen/broker
  KAISEN_NATS_PASSWORD=s3cret kaisen broker --listen 0.0.0.0:4222 --user kaisen
  kaisen broker --listen 127.0.0.1:4222 --store b1 --cluster q --node n1 --cluster-listen 127.0.0.1:6222 \
    --routes nats-route://127.0.0.1:6222,nats-route://127.0.0.1:6223,nats-route://127.0.0.1:6224   (and n2, n3)`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runBroker(cmd.Context(), e, &f)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.listen, "listen", "127.0.0.1:4222", "HOST:PORT to listen on (port 0: a free port, printed)")
	fl.StringVar(&f.store, "store", "", "JetStream file store directory (default: DATA/broker)")
	fl.StringVar(&f.user, "user", "", "user name clients must give (with --password)")
	fl.StringVar(&f.password, "password", "", "password clients must give (default: $KAISEN_NATS_PASSWORD)")
	fl.StringVar(&f.nkey, "nkey", "", "public nkey (U...) of the user clients authenticate as")
	fl.DurationVar(&f.ackWait, "ack-wait", queue.DefaultAckWait, "an item is given to another worker after this long without news")
	fl.StringVar(&f.cluster.Name, "cluster", "", "name of the JetStream cluster this broker joins (the same on every node)")
	fl.StringVar(&f.cluster.Node, "node", "", "this node's name, unique in the cluster (with --cluster)")
	fl.StringVar(&f.cluster.Listen, "cluster-listen", defaultClusterListen, "HOST:PORT the cluster's routes listen on (with --cluster)")
	fl.StringSliceVar(&f.cluster.Routes, "routes", nil, "comma-separated nats-route://HOST:PORT of the cluster's nodes (with --cluster)")
	fl.IntVar(&f.replicas, "replicas", 0, "nodes that keep the queue (0 = 3 in a cluster, 1 alone)")
	return cmd
}

func runBroker(ctx context.Context, e *env, f *brokerFlags) error {
	if f.ackWait < time.Second {
		return usageError("--ack-wait %s: want at least 1s", f.ackWait)
	}
	store := f.store
	if store == "" {
		d, err := dataDir()
		if err != nil {
			return err
		}
		store = filepath.Join(d, "broker")
	}
	password := f.password
	if password == "" {
		password = os.Getenv("KAISEN_NATS_PASSWORD")
	}
	cluster := f.cluster
	if cluster.Name == "" {
		if cluster.Node != "" || len(cluster.Routes) > 0 || cluster.Listen != defaultClusterListen {
			return usageError("--node, --routes and --cluster-listen need --cluster NAME")
		}
		cluster = queue.Cluster{} // --cluster-listen's default means nothing alone
	} else if cluster.Node == "" {
		return usageError("--cluster %s: give this node a name of its own with --node", cluster.Name)
	}
	replicas := f.replicas
	if replicas == 0 {
		replicas = 1
		if cluster.Name != "" {
			replicas = 3
		}
	}
	if replicas < 1 || replicas > 5 || (cluster.Name == "" && replicas > 1) {
		return usageError("--replicas %d: want 1 to 5, and more than 1 only with --cluster", f.replicas)
	}
	b, err := queue.StartBroker(queue.BrokerConfig{Listen: f.listen, StoreDir: store, User: f.user, Password: password, Nkey: f.nkey,
		Cluster: cluster})
	if err != nil {
		if errors.Is(err, queue.ErrInsecure) {
			return &UsageError{Err: err}
		}
		return err
	}
	defer b.Close()
	opts := []nats.Option{nats.Name("kaisen broker")}
	if f.user != "" {
		opts = append(opts, nats.UserInfo(f.user, password))
	}
	if f.nkey == "" {
		nc, err := nats.Connect(b.URL(), opts...)
		if err != nil {
			return fmt.Errorf("broker: %w", err)
		}
		defer nc.Close()
		if err := setupOn(ctx, e, nc, queue.Settings{AckWait: f.ackWait, Replicas: replicas}, cluster.Name != ""); err != nil {
			return err
		}
	}
	e.log.Info("broker ready", "url", b.URL(), "store", store, "ack_wait", f.ackWait)
	fmt.Fprintf(e.stderr, "kaisen broker: listening on %s (store %s)\n", b.URL(), store)
	<-ctx.Done()
	e.log.Info("broker stopping")
	return nil
}

// setupOn creates the queue on the broker's own connection with its
// settings. A node of a cluster waits (logging) until the cluster has
// elected its JetStream leader and has the nodes for the replicas.
func setupOn(ctx context.Context, e *env, nc *nats.Conn, s queue.Settings, clustered bool) error {
	js, err := jetstream.New(nc)
	if err != nil {
		return fmt.Errorf("broker: %w", err)
	}
	for {
		_, err = queue.Setup(ctx, js, s)
		if err == nil || !clustered || ctx.Err() != nil {
			return err
		}
		e.log.Info("broker: waiting for the cluster", "err", err)
		select {
		case <-ctx.Done():
			return nil // stopped while waiting: nothing was created
		case <-time.After(time.Second):
		}
	}
}
