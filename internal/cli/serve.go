package cli

import (
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/kaisen-ai/kaisen/extern"
	"github.com/kaisen-ai/kaisen/internal/config"
	"github.com/kaisen-ai/kaisen/internal/keystream"
	"github.com/kaisen-ai/kaisen/internal/web"
	"github.com/kaisen-ai/kaisen/ladder"
	"github.com/kaisen-ai/kaisen/server"
)

// serveFlags are the flags of kaisen serve.
type serveFlags struct {
	config string
	// The single listener.
	listen, dialect, house, houseConfig, first, rocks string
	game                                              string
	games, width, height                              int
	rounded                                           bool
	// Server-wide.
	seed                      uint64
	resultLog, replayDir      string
	metrics                   string
	web                       string
	cpuProfile                string
	webReveal, webPlay        bool
	webLimits                 web.Limits
	webTablesPerIP            int
	humans                    bool
	humanTimeout              time.Duration
	actionTimeout, grace      time.Duration
	handshakeTimeout, idleOut time.Duration
	maxConns, maxPerIP        int
	maxGames, maxLine         int
	// The rated ladder.
	ladder bool
	db     string
	// A house program (--house exec:).
	bot launchFlags
	log *slog.Logger // its failures
}

// listenerFlags are the flags that describe the single listener.
var listenerFlags = []string{"listen", "game", "dialect", "house", "house-weights", "series", "first", "width", "height", "rocks", "rounded", "humans", "human-timeout"}

// serveLong is kaisen serve's --help text.
const serveLong = `Run Kaisen's turn server for the submarine game. Existing Ruby and Python
clients, and kaisen play, connect over TCP and play each other (clients are
paired in arrival order) or a house AI, byte for byte as on the reference
servers. Many games run at once; a client that sends garbage, a float
coordinate, an over-long line, an invalid placement or action, or that times
out or disconnects loses its game (logged with the game id and the reason)
and only its game.

The flags describe one listener; a YAML file (--config, see
configs/server.yaml) can declare several, plus limits and durations. Flags
override the file when it has a single listener. Every game is appended to
the result log (--result-log, JSON lines) and written as a replay
(--replay-dir; read it with kaisen replay). SIGINT/SIGTERM stop accepting,
let running games finish for --shutdown-grace, then close.

Dialects:
  classic        the 2016 reference server: 5x5, compact JSON, "even" on a draw
  submarine-py   the 2025 servers: the client sends its name, then gets the
                 field {"height": H, "width": W, "rock": [...]}; any board

Data: unless --result-log and --replay-dir (or the file) say otherwise,
the result log is results.jsonl and the replays go to replays/ in kaisen's
data directory ($XDG_DATA_HOME/kaisen, else ~/.local/share/kaisen); both
paths are printed at start, never the current directory by default.

Seed: with --seed (or the file's seed) every game's seed derives from it,
and the same seed replays the same games; whoever knows it can predict
them, so keep it secret on a public server. Without one, the games' seeds
derive from a 256-bit key drawn at start and never printed: a replay's
seed reproduces its own game and predicts no other (docs/server.md).

People: --humans makes the listener one for people (kaisen play --human):
each client has --human-timeout (default 10m) per action instead of
--action-timeout, and at least as long for its placement; in the config file, humans and human_action_timeout per
listener.

Spectators: --web ADDR serves read-only pages over HTTP: the running and
finished games with their players and results, a live view of any running
game (server-sent events: every attack and its answer, the displacement of
moves, hp, and what each side can know of the other's fleet from that
public record; never a fleet before the game is over) and the HTML replay
of every finished one, and a button to play the house AI in the browser
(--web-play, on by default): the listener's house AI, else random, on the
classic 5x5 board, with --human-timeout per action (at most 8 such games at
once). Use a loopback address (the default of no flag is
off); another address is logged as a warning. --web-reveal also shows both
hidden fleets during the games (for a show or a debugging session: a player
who watches sees the other's ships).

Ladder: --ladder --db DSN makes the listeners rated (docs/ladder.md): a bot
registered with kaisen ladder register first sends "auth NAME TOKEN", then
speaks the classic protocol; bots are paired by rating, and every decided
game is committed to the database (a SQLite file, or PostgreSQL with
--db postgres://...) with both rating changes
before its players are told the result.

House program: --house exec:'CMD {host} {port}' (opponent: "exec:..." in
the config file) makes a program of your own the house
(docs/cli.md#external-players-exec): for every pairing kaisen serve starts
it (through /bin/sh -c when it uses the shell) with {host} and {port}
replaced by a loopback port of its own and {seed} by the pairing's first
seed; it has --handshake-timeout to connect, then plays seat 1 through the
same code as any client (a series on that one connection). A program that
crashes, hangs, sends garbage or never connects forfeits its own game only,
and the server serves on; its process group is ended when the pairing is
over. --bot-memory and --bot-cpu set rlimits, --bot-logs DIR keeps each
pairing's output (DIR/house-PAIRING.log). Not with --house-weights or
--ladder.`

func newServeCmd(e *env) *cobra.Command {
	var f serveFlags
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Run the turn server (submarine game, both dialects; battleship; abilities)",
		Long:  serveLong,
		Example: `  kaisen serve                                          classic, pairs clients, 127.0.0.1:2000
  kaisen serve --house stateplayer2                      every client plays the house AI
  kaisen serve --series 10 --first alternate             series of 10 games per pair
  kaisen serve --dialect submarine-py --width 6 --height 5 --rounded --listen 127.0.0.1:8000
  kaisen serve --dialect submarine-py --rocks "2,2;3,1" --house random
  kaisen serve --config configs/server.yaml --metrics 127.0.0.1:9100
  kaisen serve --game battleship --house gridbot        battleship (docs/protocol.md)
  kaisen serve --game battleship --house adaptive --series 50   a house AI that learns your fleets
  kaisen serve --game abilities --house ab-density      the abilities variant (docs/protocol.md)
  kaisen serve --house admiral --web 127.0.0.1:8080      watch the games at http://127.0.0.1:8080/
  kaisen serve --house admiral --humans --listen 127.0.0.1:2001   people play it (kaisen play --human)
  kaisen serve --house random --max-connections-per-ip 2000   for kaisen loadtest
  kaisen serve --ladder --db ladder.db                   the rated ladder (kaisen ladder register)
  kaisen serve --house exec:'python3 bot.py {host} {port}'   your program is the house, one per pairing
  kaisen play --addr 127.0.0.1:2000 --player random      a client for any of them`,
		Annotations: map[string]string{settingsFileKey: "configs/server.yaml"},
		Args:        cobra.NoArgs,
		RunE:        func(cmd *cobra.Command, _ []string) error { return runServe(cmd, e, &f) },
	}
	fl := cmd.Flags()
	d := server.DefaultListener()
	lim := server.DefaultLimits()
	fl.StringVar(&f.config, "config", "", "YAML config file (see configs/server.yaml); flags override it")
	fl.StringVar(&f.listen, "listen", d.Address, "address to listen on, host:port (port 0 = any free port)")
	fl.StringVar(&f.game, "game", server.GameSubmarine, gameFlagHelp("game")+" (battleship: 10x10, house AIs gridbot, density, bs-random; abilities: house AIs ab-density, ab-plain, ab-random)")
	_ = cmd.RegisterFlagCompletionFunc("game", completeGames)
	fl.StringVar(&f.dialect, "dialect", d.Dialect, "wire dialect: classic or submarine-py")
	fl.StringVar(&f.house, "house", "", "house AI every client plays (see kaisen players), a program exec:'CMD {host} {port}' started per pairing, or pair; default: pair clients (submarine), gridbot (battleship)")
	addWeightsFlag(cmd, &f.houseConfig, "house-weights", "YAML weights of the house AI", "house-config")
	fl.IntVar(&f.games, "series", d.Games, "games per pairing; more than 1 plays a series on each connection (every game; the submarine game in its classic dialect)")
	alias(cmd, "games", "series")
	fl.StringVar(&f.first, "first", d.First, "who moves first: first-connected, alternate, halves, random or second-connected")
	fl.IntVar(&f.width, "width", d.Width, "board width (submarine-py only)")
	fl.IntVar(&f.height, "height", d.Height, "board height (submarine-py only)")
	fl.StringVar(&f.rocks, "rocks", "", `rock cells "x,y;x,y" (submarine-py only)`)
	fl.BoolVar(&f.rounded, "rounded", false, "make the four corners rocks (submarine-py only)")
	addSeedFlag(cmd, &f.seed, "seed every game's seed derives from (else the file's seed, else a secret key drawn at start)")
	fl.StringVar(&f.resultLog, "result-log", "", `JSON-lines result log ("" = none; default: results.jsonl in the data directory)`)
	fl.StringVar(&f.replayDir, "replay-dir", "", `directory of replay files ("" = none; default: replays/ in the data directory)`)
	fl.StringVar(&f.metrics, "metrics", "", "HTTP address for /healthz and /metrics (off by default)")
	fl.StringVar(&f.cpuProfile, "cpuprofile", "", "write a CPU profile of the server to this file until it stops (go tool pprof)")
	fl.StringVar(&f.web, "web", "", "HTTP address of the read-only spectator pages, e.g. 127.0.0.1:8080 (off by default)")
	fl.BoolVar(&f.humans, "humans", false, "the listener is for people (kaisen play --human): each client has --human-timeout per action instead of --action-timeout")
	fl.DurationVar(&f.humanTimeout, "human-timeout", d.HumanActionTimeout, "time a person has for each action on a listener for people (1s to 24h)")
	fl.BoolVar(&f.webPlay, "web-play", true, "offer \"play the house AI\" on the spectator pages (a person plays it by clicking, with --human-timeout per action)")
	fl.IntVar(&f.webLimits.MaxConns, "web-max-connections", web.DefaultLimits.MaxConns, "open connections to the --web pages in total (past it a connection is answered 503)")
	fl.IntVar(&f.webLimits.MaxConnsPerAddr, "web-max-connections-per-ip", web.DefaultLimits.MaxConnsPerAddr, "open connections to the --web pages per remote IP")
	fl.Float64Var(&f.webLimits.Rate, "web-rate", web.DefaultLimits.Rate, "requests per second per remote IP to the --web pages (bursts of --web-burst; over it a request waits up to 2s, then 429; -1: no limit)")
	fl.IntVar(&f.webLimits.Burst, "web-burst", web.DefaultLimits.Burst, "burst of --web-rate")
	fl.IntVar(&f.webLimits.MaxStreams, "web-max-streams", web.DefaultLimits.MaxStreams, "event streams of the --web pages open at once (spectators and players)")
	fl.IntVar(&f.webTablesPerIP, "web-play-per-ip", 2, "games against the house AI (--web-play) per remote IP at once (past it 429)")
	fl.BoolVar(&f.webReveal, "web-reveal", false, "show both hidden fleets on the spectator pages during the games (default: only after the end, in the replay)")
	fl.DurationVar(&f.actionTimeout, "action-timeout", lim.ActionTimeout, "time a client has for each action")
	fl.DurationVar(&f.handshakeTimeout, "handshake-timeout", lim.HandshakeTimeout, "time a client has for its name and placement")
	fl.DurationVar(&f.idleOut, "idle-timeout", lim.IdleTimeout, "time a client may wait for an opponent")
	fl.DurationVar(&f.grace, "shutdown-grace", server.DefaultShutdownGrace, "time running games get to finish after SIGINT/SIGTERM")
	fl.IntVar(&f.maxConns, "max-connections", lim.MaxConnections, "open client connections in total")
	fl.IntVar(&f.maxPerIP, "max-connections-per-ip", lim.MaxConnectionsPerIP, "open client connections per remote IP")
	fl.IntVar(&f.maxGames, "max-games", lim.MaxGames, "games (pairings) running at once")
	fl.IntVar(&f.maxLine, "max-line-bytes", lim.MaxLineBytes, "longest line a client may send")
	fl.BoolVar(&f.ladder, "ladder", false, `rated listener: bots authenticate ("auth NAME TOKEN"), are paired by rating and rated (needs --db; docs/ladder.md)`)
	addDBFlag(cmd, &f.db)
	addLaunchFlags(cmd, &f.bot, "each pairing's house program output (house-PAIRING.log)")
	completeWords(cmd, "dialect", "classic", "submarine-py")
	completeWords(cmd, "first", server.FirstConnected, server.FirstAlternate, server.FirstHalves, server.FirstRandom)
	completePlayers(cmd, "house", false, anyGame)
	completeYAML(cmd, "config", "house-weights")
	return cmd
}

// runServe is kaisen serve: the server of the flags f until ctx's end.
func runServe(cmd *cobra.Command, e *env, f *serveFlags) error {
	data, dataErr := dataDir()
	f.log = e.log
	cfg, err := serveConfig(cmd.Flags(), *f, data)
	if err != nil {
		return &UsageError{Err: err}
	}
	if f.webReveal && f.web == "" {
		return usageError("--web-reveal shows the fleets on the spectator pages: it needs --web")
	}
	if dataErr != nil {
		e.log.Warn("no data directory: results and replays are not written unless --result-log and --replay-dir are given", "err", dataErr)
	}
	if err := makeDataDir(cfg, data); err != nil {
		return err
	}
	var rated web.LadderReader // the ladder pages of --web
	if f.ladder {
		store, err := openLadder(cmd, f.db)
		if err != nil {
			return err
		}
		defer store.Close()
		cfg.Ladder, rated = store, store
	} else if f.db != "" {
		return usageError("--db is the rated ladder's database: it needs --ladder")
	}
	s, err := server.New(cfg, e.log)
	if err != nil {
		return &UsageError{Err: err}
	}
	if err := s.Listen(); err != nil {
		return err
	}
	for i, a := range s.Addrs() {
		l := cfg.Listeners[i].WithDefaults()
		fmt.Fprintf(e.stdout, "listening on %s (%s, opponent %s, %d game(s) per pairing)\n", a, l.Dialect, l.Opponent, l.Games)
	}
	if a := s.MetricsAddr(); a != nil {
		fmt.Fprintf(e.stdout, "metrics on http://%s/metrics\n", a)
	}
	fmt.Fprintf(e.stdout, "result log: %s\nreplays: %s\n", orNone(cfg.ResultLog), orNone(cfg.ReplayDir))
	if f.ladder {
		fmt.Fprintf(e.stdout, "rated ladder: %s (bots send \"auth NAME TOKEN\" first)\n", ladder.Redact(f.db))
	}
	if f.web != "" {
		stop, err := startWeb(e, s, f.web, cfg.ReplayDir, f.webReveal, webPlay(*f, cfg), rated, f.webLimits)
		if err != nil {
			_ = s.Close()
			return err
		}
		defer stop()
	}
	stopProfile, err := startCPUProfile(f.cpuProfile)
	if err != nil {
		_ = s.Close()
		return err
	}
	defer stopProfile()
	if err := s.Serve(cmd.Context()); err != nil && !errors.Is(err, server.ErrServerClosed) {
		return err
	}
	return nil
}

// serveConfig builds the server config: defaults (the result log and the
// replays under the data directory data, when known), then --config, then
// the flags that were given.
func serveConfig(fl *pflag.FlagSet, f serveFlags, data string) (server.Config, error) {
	cfg := server.DefaultConfig()
	if data != "" {
		cfg.ResultLog = filepath.Join(data, dataResultLog)
		cfg.ReplayDir = filepath.Join(data, dataReplayDir)
	}
	if f.config != "" {
		if err := config.Load(f.config, &cfg); err != nil {
			return cfg, err
		}
	}
	if fl.Changed("game") {
		if _, err := lookupGame(f.game); err != nil {
			return cfg, err
		}
	}
	var set []string
	for _, name := range listenerFlags {
		if fl.Changed(name) {
			set = append(set, "--"+name)
		}
	}
	if len(set) > 0 {
		if len(cfg.Listeners) != 1 {
			return cfg, fmt.Errorf("%s describe one listener, but the config has %d", strings.Join(set, ", "), len(cfg.Listeners))
		}
		l := &cfg.Listeners[0]
		apply := map[string]func(){
			"listen":        func() { l.Address = f.listen },
			"game":          func() { l.Game = f.game },
			"dialect":       func() { l.Dialect = f.dialect },
			"house":         func() { l.Opponent = f.house },
			"house-weights": func() { l.HouseConfig = f.houseConfig },
			"series":        func() { l.Games = f.games },
			"first":         func() { l.First = f.first },
			"width":         func() { l.Width = f.width },
			"height":        func() { l.Height = f.height },
			"rocks":         func() { l.Rocks = f.rocks },
			"rounded":       func() { l.Rounded = f.rounded },
			"humans":        func() { l.Humans = f.humans },
			"human-timeout": func() { l.HumanActionTimeout = f.humanTimeout },
		}
		for _, name := range listenerFlags {
			if fl.Changed(name) {
				apply[name]()
			}
		}
		if t := f.humanTimeout; fl.Changed("human-timeout") && (t < server.MinHumanActionTimeout || t > server.MaxHumanActionTimeout) {
			return cfg, fmt.Errorf("--human-timeout %v: want a duration from %v to %v", t, server.MinHumanActionTimeout, server.MaxHumanActionTimeout)
		}
		if fl.Changed("house") && f.house == "" {
			l.Opponent = server.OpponentPair
		}
		// A listener of a game with a default house AI (battleship: gridbot)
		// plays it unless told otherwise (--house pair pairs clients).
		if h := server.DefaultHouse(f.game); fl.Changed("game") && !fl.Changed("house") && h != "" {
			l.Opponent = h
		}
		// Zero means "default" in the config; on the command line it is a mistake.
		for _, v := range []struct {
			name string
			val  int
		}{{"series", f.games}, {"width", f.width}, {"height", f.height}} {
			if fl.Changed(v.name) && v.val < 1 {
				return cfg, fmt.Errorf("--%s %d: want at least 1", v.name, v.val)
			}
		}
	}
	serverFlags(fl, f, &cfg)
	if err := houseSeats(&cfg, f); err != nil {
		return cfg, err
	}
	return cfg, cfg.Validate()
}

// serverFlags applies the server-wide flags that were given to cfg.
func serverFlags(fl *pflag.FlagSet, f serveFlags, cfg *server.Config) {
	if fl.Changed("seed") {
		cfg.Seed = f.seed
	}
	if fl.Changed("result-log") {
		cfg.ResultLog = f.resultLog
	}
	if fl.Changed("replay-dir") {
		cfg.ReplayDir = f.replayDir
	}
	if fl.Changed("metrics") {
		cfg.Metrics = f.metrics
	}
	if fl.Changed("action-timeout") {
		cfg.Limits.ActionTimeout = f.actionTimeout
	}
	if fl.Changed("handshake-timeout") {
		cfg.Limits.HandshakeTimeout = f.handshakeTimeout
	}
	if fl.Changed("idle-timeout") {
		cfg.Limits.IdleTimeout = f.idleOut
	}
	if fl.Changed("shutdown-grace") {
		cfg.ShutdownGrace = f.grace
	}
	for _, v := range []struct {
		name string
		val  int
		dst  *int
	}{
		{"max-connections", f.maxConns, &cfg.Limits.MaxConnections},
		{"max-connections-per-ip", f.maxPerIP, &cfg.Limits.MaxConnectionsPerIP},
		{"max-games", f.maxGames, &cfg.Limits.MaxGames},
		{"max-line-bytes", f.maxLine, &cfg.Limits.MaxLineBytes},
	} {
		if fl.Changed(v.name) {
			*v.dst = v.val
		}
	}
}

// houseSeats makes the house of every listener whose opponent is an
// exec: program that program (server.ListenerConfig.HouseSeat), started
// for each pairing with the limits of f; it has the handshake timeout to
// connect.
func houseSeats(cfg *server.Config, f serveFlags) error {
	for i, l := range cfg.Listeners {
		if !extern.Is(l.Opponent) {
			continue
		}
		cmd, err := extern.Parse(l.Opponent)
		if err != nil {
			return fmt.Errorf("listener %d: %w", i, err)
		}
		la := &extern.Launcher{Bot: cmd, Limits: f.bot.limits(), ConnectTimeout: cfg.Limits.HandshakeTimeout, LogDir: f.bot.logs}
		if err := la.Validate(); err != nil {
			return fmt.Errorf("listener %d: %w", i, err)
		}
		cfg.Listeners[i].HouseSeat = la.HouseDialer(f.log)
	}
	return nil
}

// Names of kaisen serve's default outputs inside the data directory.
const (
	dataResultLog = "results.jsonl"
	dataReplayDir = "replays"
)

// dataDir is where kaisen keeps data it writes by default:
// $XDG_DATA_HOME/kaisen, else ~/.local/share/kaisen.
func dataDir() (string, error) {
	if d := os.Getenv("XDG_DATA_HOME"); filepath.IsAbs(d) {
		return filepath.Join(d, "kaisen"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("no data directory (set XDG_DATA_HOME or HOME, or give --result-log and --replay-dir): %w", err)
	}
	return filepath.Join(home, ".local", "share", "kaisen"), nil
}

// makeDataDir creates the data directory data when the config writes into
// it ("" = none known: nothing is written by default).
func makeDataDir(cfg server.Config, data string) error {
	inData := func(p string) bool { return data != "" && strings.HasPrefix(p, data+string(filepath.Separator)) }
	if !inData(cfg.ResultLog) && !inData(cfg.ReplayDir) {
		return nil
	}
	if err := os.MkdirAll(data, 0o755); err != nil {
		return fmt.Errorf("serve: data directory: %w", err)
	}
	return nil
}

func orNone(path string) string {
	if path == "" {
		return "none"
	}
	return path
}

// webKey is the key of the browser tables (--web-play): derived from the
// configured seed (reproducible), else the zero Key, for which web.Play
// draws a secret one.
func webKey(seed uint64) keystream.Key {
	if seed == 0 {
		return keystream.Key{}
	}
	return keystream.FromSeed(seed)
}
