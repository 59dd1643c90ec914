package server

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strconv"
	"strings"
	"time"

	"github.com/kaisen-ai/kaisen/arena"
	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/protocol"
)

// Defaults of the listener and limit settings. configs/server.yaml restates
// them; a test checks that the file decodes to exactly DefaultConfig().
const (
	DefaultAddress          = "127.0.0.1:2000"
	DefaultDialect          = "classic"
	DefaultOpponent         = OpponentPair
	DefaultFirst            = FirstConnected
	DefaultMaxConnections   = 1024
	DefaultMaxConnsPerIP    = 64
	DefaultIPv4Prefix       = 24
	DefaultIPv6Prefix       = 64
	DefaultMaxMetricsConns  = 16
	DefaultMaxGames         = 512
	DefaultHandshakeTimeout = 30 * time.Second
	DefaultActionTimeout    = 10 * time.Second
	DefaultIdleTimeout      = 10 * time.Minute
	DefaultMaxLineBytes     = 64 << 10
	DefaultShutdownGrace    = 30 * time.Second
	// DefaultHumanActionTimeout is the time a person has for each action
	// on a listener for people (ListenerConfig.Humans).
	DefaultHumanActionTimeout = 10 * time.Minute
	// MinHumanActionTimeout and MaxHumanActionTimeout bound
	// ListenerConfig.HumanActionTimeout.
	MinHumanActionTimeout = time.Second
	MaxHumanActionTimeout = 24 * time.Hour

	// Defaults of the rated listeners' settings (RatedConfig). Ten wrong
	// tokens a minute from one network make guessing a 256-bit token
	// hopeless and a typo harmless.
	DefaultAuthMaxFailures = 10
	DefaultAuthWindow      = time.Minute
	DefaultAuthMaxKeys     = 1 << 16
	DefaultPairWindow      = 100.0
	DefaultPairWiden       = 50.0
	DefaultPairInterval    = 250 * time.Millisecond
)

// OpponentPair is the listener opponent that pairs clients in arrival order.
const OpponentPair = "pair"

// First-player policies: who moves first in each game of a pairing. Seat 0 is
// the first accepted connection (the client, against a house AI).
const (
	FirstConnected = "first-connected" // seat 0 in every game (the reference server)
	FirstAlternate = "alternate"       // seat 0 in odd games, seat 1 in even games
	FirstHalves    = "halves"          // seat 0 in the first half of a series, seat 1 in the second
	FirstRandom    = "random"          // a coin per game, drawn from the game's seed
	// FirstSecond is seat 1 in every game: the house AI, against a client
	// (package extern seats an external program second with it).
	FirstSecond = "second-connected"
)

// ErrConfig is wrapped by every configuration error.
var ErrConfig = errors.New("server: invalid config")

// Config is the whole server configuration (configs/server.yaml).
type Config struct {
	// Listeners to open; each is one address with its own game settings.
	// Default: one classic pair listener on 127.0.0.1:2000.
	Listeners []ListenerConfig `mapstructure:"listeners"`
	// Limits protect the server from slow, broken or hostile clients.
	Limits Limits `mapstructure:"limits"`
	// ShutdownGrace is how long running games may go on after a shutdown
	// signal before their connections are closed. Default 30s.
	ShutdownGrace time.Duration `mapstructure:"shutdown_grace"`
	// Seed, when set, is the secret every game's seed derives from
	// (keystream.FromSeed: the key is its SHA-256), for tests and
	// reproducible runs: the same seed gives the same games, and whoever
	// knows it (or guesses a small one) can predict them. 0 = a 256-bit key
	// from crypto/rand, never printed nor logged. Either way a game's seed
	// (first-player coin, house AIs) is published in its replay and result
	// line and predicts no other game. Default 0.
	Seed uint64 `mapstructure:"seed"`
	// ResultLog is the JSON-lines file that gets one line per finished game
	// (appended, fsynced). "" = none. Default none (kaisen serve defaults it
	// to results.jsonl in the user's data directory).
	ResultLog string `mapstructure:"result_log"`
	// ReplayDir is the directory that gets one replay file per finished game.
	// "" = none. Default none (kaisen serve defaults it to replays/ in the
	// user's data directory).
	ReplayDir string `mapstructure:"replay_dir"`
	// Metrics is the address of the HTTP endpoint serving /healthz and
	// /metrics (Prometheus text). "" = off. Default off.
	Metrics string `mapstructure:"metrics"`
	// Rated holds the settings of rated listeners (the auth limiter and
	// the pairing by rating); used only with Ladder.
	Rated RatedConfig `mapstructure:"rated"`
	// Ladder, when set, makes every listener a rated one: each client
	// first authenticates with the auth line, bots are paired by rating
	// and every decided game is committed to the ladder before its players
	// are told the result (see rated.go, docs/ladder.md). Every listener
	// must then pair clients (no house opponent). Set by kaisen serve
	// --ladder; not in the YAML file.
	Ladder Ladder `mapstructure:"-"`
}

// ListenerConfig is one listening address. Zero values mean the default.
type ListenerConfig struct {
	// Name labels the listener in logs and the result log. Default: the address.
	Name string `mapstructure:"name"`
	// Address is host:port; port 0 picks a free port. Default 127.0.0.1:2000.
	// Binding anything but a loopback address logs a warning.
	Address string `mapstructure:"address"`
	// Game is the game served: submarine, battleship (the Kaisen battleship
	// protocol on the classic 10x10 board; dialect, board settings and games
	// stay unset), abilities (its abilities variant, the same constraints)
	// or a game registered with Register (dialect, board settings and
	// abilities unset; Games lists them). Default "" = submarine.
	Game string `mapstructure:"game"`
	// Dialect is the wire dialect: classic or submarine-py. Default classic.
	Dialect string `mapstructure:"dialect"`
	// Width and Height of the board (submarine-py only; classic is 5x5).
	// Default 5 x 5.
	Width  int `mapstructure:"width"`
	Height int `mapstructure:"height"`
	// Rocks lists rock cells as "x,y;x,y" (submarine-py only). Default none.
	Rocks string `mapstructure:"rocks"`
	// Rounded makes the four corner cells rocks (submarine-py only). Default false.
	Rounded bool `mapstructure:"rounded"`
	// Opponent is "pair" (clients are paired in arrival order) or the name of
	// a house AI (`kaisen players`) that every client plays in-process.
	// Default pair.
	Opponent string `mapstructure:"opponent"`
	// HouseConfig is the YAML weights file of the house AI. Default "" (the
	// AI's built-in defaults).
	HouseConfig string `mapstructure:"house_config"`
	// HouseLoad, when set, loads the house AI's settings instead of
	// HouseConfig: weights held in memory (kaisen tune's candidates
	// against an exec: program). Set by code, not in the YAML file.
	HouseLoad func(into any) error `mapstructure:"-"`
	// HouseSeat, when set, makes the house of every pairing a program
	// instead of an AI (kaisen serve --house exec:, package extern): seat
	// 1 is then the connection it returns, played as a client's, started
	// for each pairing (a series plays on it). Opponent only names it in
	// logs and replays; not with HouseConfig or a ladder. Set by code, not
	// in the YAML file.
	HouseSeat HouseDialer `mapstructure:"-"`
	// Games per pairing. More than 1 plays a series on the same connections
	// (every game; the submarine game in its classic dialect only): "roundN.
	// please send me initial state." starts each game (followed by the
	// game's hello for a game.RoundHello codec: abilities) and a summary
	// follows the last. Default 1.
	Games int `mapstructure:"games"`
	// First is the first-player policy: first-connected, alternate, halves or
	// random. Default first-connected.
	First string `mapstructure:"first"`
	// Humans makes the listener one for people (kaisen play --human): each
	// client has HumanActionTimeout for every action instead of
	// limits.action_timeout, and at least as long for its placement.
	// Default false.
	Humans bool `mapstructure:"humans"`
	// HumanActionTimeout is the time a person has for each action on this
	// listener when Humans is set, from 1s to 24h. Default 10m.
	HumanActionTimeout time.Duration `mapstructure:"human_action_timeout"`
	// Abilities are the sides and rules options of an abilities listener
	// (game: abilities; docs/abilities.md): sides [seat 0, seat 1], seat 0
	// being the first connection (the client, against a house AI); default
	// [ai, humans], every option off. alternate_first is refused (first
	// says who acts first). Other games leave it unset.
	Abilities arena.AbilitiesConfig `mapstructure:"abilities"`
}

// ActionTimeout is the time a client of l (with defaults applied) has for
// each action under the limits lim.
func (l ListenerConfig) ActionTimeout(lim Limits) time.Duration {
	if l.Humans {
		return l.HumanActionTimeout
	}
	return lim.ActionTimeout
}

// HandshakeTimeout is the time a client of l (with defaults applied) has
// for its greeting, name and placement under the limits lim: a person
// placing a fleet by hand has at least HumanActionTimeout.
func (l ListenerConfig) HandshakeTimeout(lim Limits) time.Duration {
	if l.Humans {
		return max(lim.HandshakeTimeout, l.HumanActionTimeout)
	}
	return lim.HandshakeTimeout
}

// Limits are the server's protections. Every value must be positive.
type Limits struct {
	// MaxConnections is the number of open client connections over all
	// listeners; more are closed at once. Default 1024.
	MaxConnections int `mapstructure:"max_connections"`
	// MaxConnectionsPerIP is the same per remote network: the remote
	// address's IPv4 /IPv4Prefix or IPv6 /IPv6Prefix (another address of
	// the same /24 or /64 does not get more). Default 64.
	MaxConnectionsPerIP int `mapstructure:"max_connections_per_ip"`
	// IPv4Prefix is the prefix length (8 to 32) of the networks that
	// MaxConnectionsPerIP counts for IPv4 clients; 32 counts per address.
	// Default 24.
	IPv4Prefix int `mapstructure:"ipv4_prefix"`
	// IPv6Prefix is the same for IPv6 clients (16 to 128). Default 64.
	IPv6Prefix int `mapstructure:"ipv6_prefix"`
	// MaxMetricsConnections is the number of open connections to the
	// metrics endpoint; more are closed at once. Default 16.
	MaxMetricsConnections int `mapstructure:"max_metrics_connections"`
	// MaxGames is the number of games (pairings) running at once; a
	// connection that would start one more is closed. Default 512.
	MaxGames int `mapstructure:"max_games"`
	// HandshakeTimeout bounds greeting, name and placement of each game.
	// Default 30s.
	HandshakeTimeout time.Duration `mapstructure:"handshake_timeout"`
	// ActionTimeout bounds each action read and each write. Default 10s.
	ActionTimeout time.Duration `mapstructure:"action_timeout"`
	// IdleTimeout bounds how long a connection waits for an opponent.
	// Default 10m.
	IdleTimeout time.Duration `mapstructure:"idle_timeout"`
	// MaxLineBytes is the longest line a client may send. Default 65536.
	MaxLineBytes int `mapstructure:"max_line_bytes"`
}

// RatedConfig are the settings of rated listeners (kaisen serve --ladder,
// docs/ladder.md): the limiter of failed authentications and the pairing
// by rating.
type RatedConfig struct {
	// AuthMaxFailures failed authentications from one network (the per-IP
	// limit's /ipv4_prefix or /ipv6_prefix) within AuthWindow lock that
	// network out until the oldest of them is AuthWindow old (1 to 1000).
	// Default 10.
	AuthMaxFailures int `mapstructure:"auth_max_failures"`
	// AuthWindow is the limiter's window (1s to 24h). Default 1m.
	AuthWindow time.Duration `mapstructure:"auth_window"`
	// AuthMaxKeys is how many networks the limiter tracks at most (1024
	// to 16777216). Default 65536.
	AuthMaxKeys int `mapstructure:"auth_max_keys"`
	// PairWindow is the rating difference within which two bots that just
	// arrived are paired (0 to 10000 rating points). Default 100.
	PairWindow float64 `mapstructure:"pair_window"`
	// PairWiden widens a waiting bot's window per second waited (0.1 to
	// 10000 points), so that any two bots meet after at most
	// (difference - PairWindow) / PairWiden seconds. Default 50.
	PairWiden float64 `mapstructure:"pair_widen"`
	// PairInterval is how often the pairing loop looks at the waiting bots
	// besides every arrival (10ms to 1m). Default 250ms.
	PairInterval time.Duration `mapstructure:"pair_interval"`
}

// DefaultRated returns the built-in rated-listener settings.
func DefaultRated() RatedConfig {
	return RatedConfig{
		AuthMaxFailures: DefaultAuthMaxFailures,
		AuthWindow:      DefaultAuthWindow,
		AuthMaxKeys:     DefaultAuthMaxKeys,
		PairWindow:      DefaultPairWindow,
		PairWiden:       DefaultPairWiden,
		PairInterval:    DefaultPairInterval,
	}
}

// validate checks every rated setting against its range.
func (r RatedConfig) validate() []error {
	var errs []error
	for _, p := range []struct {
		name      string
		v, lo, hi int
	}{
		{"auth_max_failures", r.AuthMaxFailures, 1, 1000},
		{"auth_max_keys", r.AuthMaxKeys, 1 << 10, 1 << 24},
	} {
		if p.v < p.lo || p.v > p.hi {
			errs = append(errs, fmt.Errorf("%w: rated.%s is %d, want %d to %d", ErrConfig, p.name, p.v, p.lo, p.hi))
		}
	}
	for _, p := range []struct {
		name      string
		v, lo, hi float64
	}{
		{"pair_window", r.PairWindow, 0, 10000},
		{"pair_widen", r.PairWiden, 0.1, 10000},
	} {
		if !(p.v >= p.lo && p.v <= p.hi) { // NaN is out of range too
			errs = append(errs, fmt.Errorf("%w: rated.%s is %g, want %g to %g rating points", ErrConfig, p.name, p.v, p.lo, p.hi))
		}
	}
	for _, d := range []struct {
		name      string
		v, lo, hi time.Duration
	}{
		{"auth_window", r.AuthWindow, time.Second, 24 * time.Hour},
		{"pair_interval", r.PairInterval, 10 * time.Millisecond, time.Minute},
	} {
		if d.v < d.lo || d.v > d.hi {
			errs = append(errs, fmt.Errorf("%w: rated.%s is %v, want a duration from %v to %v", ErrConfig, d.name, d.v, d.lo, d.hi))
		}
	}
	return errs
}

// DefaultLimits returns the built-in limits.
func DefaultLimits() Limits {
	return Limits{
		MaxConnections:        DefaultMaxConnections,
		MaxConnectionsPerIP:   DefaultMaxConnsPerIP,
		IPv4Prefix:            DefaultIPv4Prefix,
		IPv6Prefix:            DefaultIPv6Prefix,
		MaxMetricsConnections: DefaultMaxMetricsConns,
		MaxGames:              DefaultMaxGames,
		HandshakeTimeout:      DefaultHandshakeTimeout,
		ActionTimeout:         DefaultActionTimeout,
		IdleTimeout:           DefaultIdleTimeout,
		MaxLineBytes:          DefaultMaxLineBytes,
	}
}

// DefaultListener returns a listener with every field at its default (the
// name stays empty: it defaults to the address).
func DefaultListener() ListenerConfig {
	return ListenerConfig{
		Address:  DefaultAddress,
		Dialect:  DefaultDialect,
		Width:    5,
		Height:   5,
		Opponent: DefaultOpponent,
		Games:    1,
		First:    DefaultFirst,

		HumanActionTimeout: DefaultHumanActionTimeout,
	}
}

// DefaultConfig returns the built-in configuration: one classic pair listener
// on 127.0.0.1:2000 with the default limits.
func DefaultConfig() Config {
	return Config{
		Listeners:     []ListenerConfig{DefaultListener()},
		Limits:        DefaultLimits(),
		Rated:         DefaultRated(),
		ShutdownGrace: DefaultShutdownGrace,
	}
}

// WithDefaults returns l with every zero field set to its default.
func (l ListenerConfig) WithDefaults() ListenerConfig {
	d := DefaultListener()
	if l.Address == "" {
		l.Address = d.Address
	}
	if l.Name == "" {
		l.Name = l.Address
	}
	if l.Dialect == "" {
		l.Dialect = d.Dialect
	}
	if l.Width == 0 {
		l.Width = d.Width
	}
	if l.Height == 0 {
		l.Height = d.Height
	}
	if l.Opponent == "" {
		l.Opponent = d.Opponent
		if g, ok := gameOf(l.Game); ok && g.house != "" {
			l.Opponent = g.house
		}
	}
	if l.Games == 0 {
		l.Games = d.Games
	}
	if l.First == "" {
		l.First = d.First
	}
	if l.HumanActionTimeout == 0 {
		l.HumanActionTimeout = d.HumanActionTimeout
	}
	return l
}

// Validate checks every setting and lists all problems at once.
func (c *Config) Validate() error {
	var errs []error
	if len(c.Listeners) == 0 {
		errs = append(errs, fmt.Errorf("%w: no listeners", ErrConfig))
	}
	names := map[string]bool{}
	for i, l := range c.Listeners {
		l = l.WithDefaults()
		if names[l.Name] {
			errs = append(errs, fmt.Errorf("%w: listener %d: name %q used twice", ErrConfig, i, l.Name))
		}
		names[l.Name] = true
		if _, err := l.compile(); err != nil {
			errs = append(errs, fmt.Errorf("listener %d (%s): %w", i, l.Name, err))
		}
		if t := l.HumanActionTimeout; t < MinHumanActionTimeout || t > MaxHumanActionTimeout {
			errs = append(errs, fmt.Errorf("%w: listener %d (%s): human_action_timeout is %v, want a duration from %v to %v",
				ErrConfig, i, l.Name, t, MinHumanActionTimeout, MaxHumanActionTimeout))
		}
		if c.Ladder != nil && (l.Opponent != OpponentPair || l.HouseSeat != nil) {
			errs = append(errs, fmt.Errorf("%w: listener %d (%s): a rated listener pairs bots: opponent %q, want %q", ErrConfig, i, l.Name, l.Opponent, OpponentPair))
		}
	}
	errs = append(errs, c.Limits.validate()...)
	errs = append(errs, c.Rated.validate()...)
	if c.ShutdownGrace < 0 {
		errs = append(errs, fmt.Errorf("%w: shutdown_grace %v must not be negative", ErrConfig, c.ShutdownGrace))
	}
	if c.Metrics != "" {
		if _, _, err := net.SplitHostPort(c.Metrics); err != nil {
			errs = append(errs, fmt.Errorf("%w: metrics address %q: %w", ErrConfig, c.Metrics, err))
		}
	}
	return errors.Join(errs...)
}

func (l Limits) validate() []error {
	var errs []error
	positive := func(name string, v int) {
		if v < 1 {
			errs = append(errs, fmt.Errorf("%w: limits.%s is %d, want at least 1", ErrConfig, name, v))
		}
	}
	positive("max_connections", l.MaxConnections)
	positive("max_connections_per_ip", l.MaxConnectionsPerIP)
	positive("max_games", l.MaxGames)
	positive("max_metrics_connections", l.MaxMetricsConnections)
	for _, p := range []struct {
		name      string
		v, lo, hi int
	}{
		{"ipv4_prefix", l.IPv4Prefix, 8, 32},
		{"ipv6_prefix", l.IPv6Prefix, 16, 128},
	} {
		if p.v < p.lo || p.v > p.hi {
			errs = append(errs, fmt.Errorf("%w: limits.%s is %d, want a prefix length from %d to %d", ErrConfig, p.name, p.v, p.lo, p.hi))
		}
	}
	if l.MaxLineBytes < 256 {
		errs = append(errs, fmt.Errorf("%w: limits.max_line_bytes is %d, want at least 256", ErrConfig, l.MaxLineBytes))
	}
	for _, d := range []struct {
		name string
		v    time.Duration
	}{
		{"handshake_timeout", l.HandshakeTimeout},
		{"action_timeout", l.ActionTimeout},
		{"idle_timeout", l.IdleTimeout},
	} {
		if d.v <= 0 {
			errs = append(errs, fmt.Errorf("%w: limits.%s is %v, want a positive duration like 10s", ErrConfig, d.name, d.v))
		}
	}
	return errs
}

// setup is a listener's validated, ready-to-use form.
type setup struct {
	cfg     ListenerConfig
	dialect protocol.Dialect // the wire dialect: end lines, the log line
	// hasHouse: clients of the listener play a house AI.
	hasHouse bool
	// served is the game the listener's pairings play (a *served: its
	// rules, house AI, view and record), built by NewGame's compile step.
	served any
	// play is the game's play step of one pairing, which NewGame's compile
	// step built.
	play func(m *match) func(ctx context.Context, k int) (*Result, []byte)
}

// compile validates l (with defaults applied) and builds its rules and
// house AI with its game's compile step (Game, server/games.go).
func (l ListenerConfig) compile() (*setup, error) {
	l = l.WithDefaults()
	g, ok := gameOf(l.Game)
	if !ok {
		return nil, fmt.Errorf("%w: game %q: want %s", ErrConfig, l.Game, strings.Join(Games(), " or "))
	}
	return g.compile(l)
}

// PlainBoard reports whether the listener's board settings (width,
// height, rocks, rounded; with defaults applied) are those of the plain
// 5x5 board, the settings of a listener of a game that has no board
// settings of its own.
func (l ListenerConfig) PlainBoard() bool {
	return l.Width == 5 && l.Height == 5 && l.Rocks == "" && !l.Rounded
}

// Board builds the listener's board from width, height, rocks and rounded
// (with defaults applied), for a game with its own listener settings
// (Contract.Listen).
func (l ListenerConfig) Board() (*grid.Board, error) {
	cells, err := ParseCells(l.Rocks)
	if err != nil {
		return nil, fmt.Errorf("rocks: %w", err)
	}
	if l.Width < 1 || l.Height < 1 || l.Width*l.Height > grid.MaxCells {
		return nil, fmt.Errorf("board %dx%d: want 1 to %d cells", l.Width, l.Height, grid.MaxCells)
	}
	var rocks []grid.Cell
	if l.Rounded {
		w, h := l.Width, l.Height
		if w < 2 || h < 2 {
			return nil, fmt.Errorf("a rounded board needs at least 2x2, got %dx%d", w, h)
		}
		rocks = append(rocks, 0, grid.Cell(w-1), grid.Cell((h-1)*w), grid.Cell(h*w-1))
	}
	for _, xy := range cells {
		if xy[0] >= l.Width || xy[1] >= l.Height {
			return nil, fmt.Errorf("rock [%d,%d] is off the %dx%d board", xy[0], xy[1], l.Width, l.Height)
		}
		rocks = append(rocks, grid.Cell(xy[1]*l.Width+xy[0]))
	}
	return grid.NewBoard(l.Width, l.Height, rocks)
}

// ErrCells reports a malformed cell list.
var ErrCells = errors.New("server: bad cell list")

// ParseCells parses a cell list "x,y;x,y" (spaces allowed around numbers,
// empty string = no cells) into [x, y] pairs with non-negative coordinates.
func ParseCells(s string) ([][2]int, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	var out [][2]int
	for i, item := range strings.Split(s, ";") {
		xs, ys, ok := strings.Cut(item, ",")
		if !ok {
			return nil, fmt.Errorf("%w: item %d %q: want x,y", ErrCells, i+1, item)
		}
		x, errx := strconv.Atoi(strings.TrimSpace(xs))
		y, erry := strconv.Atoi(strings.TrimSpace(ys))
		if errx != nil || erry != nil {
			return nil, fmt.Errorf("%w: item %d %q: x and y must be integers", ErrCells, i+1, item)
		}
		if x < 0 || y < 0 || x > grid.MaxCells || y > grid.MaxCells {
			return nil, fmt.Errorf("%w: item %d %q: coordinates must be 0 to %d", ErrCells, i+1, item, grid.MaxCells)
		}
		out = append(out, [2]int{x, y})
	}
	return out, nil
}

// firstProblem says what is wrong with a first-player policy ("" when
// nothing is).
func firstProblem(first string) string {
	switch first {
	case FirstConnected, FirstAlternate, FirstHalves, FirstRandom, FirstSecond:
		return ""
	}
	return fmt.Sprintf("first %q: want %s, %s, %s, %s or %s", first,
		FirstConnected, FirstAlternate, FirstHalves, FirstRandom, FirstSecond)
}
