package extern

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/kaisen-ai/kaisen/arena"
	"github.com/kaisen-ai/kaisen/server"
)

// DefaultGameTimeout bounds a whole game of a bot (Family.GameTimeout).
const DefaultGameTimeout = 10 * time.Minute

// ErrFamily is wrapped by the errors of an invalid Family.
var ErrFamily = errors.New("extern: invalid match")

// Family is a match of an external program against a built-in AI, played
// through a turn server per game (package doc). It implements
// arena.Family; its tables are arena.ContextTables.
type Family struct {
	// Name is the game played: one the server serves (server.Games()).
	Name string
	// Dialect is the submarine game's wire dialect, classic or
	// submarine-py ("" = classic); the other games have one.
	Dialect string
	// Bot is the external program.
	Bot Command
	// BotIsP2 seats the bot as P2 (else P1) and House as the other.
	BotIsP2 bool
	// Bot2, when set, is the other player, a program too (House is then
	// unused): the listener pairs the two bots, seat 0's first.
	Bot2 Command
	// House is the built-in AI (a name of kaisen players for Game) and
	// HouseWeights its YAML weights file ("" = its defaults).
	House, HouseWeights string
	// HouseLoad, when set, loads the house AI's settings instead of
	// HouseWeights: weights held in memory (kaisen tune's candidates).
	HouseLoad func(into any) error
	// Abilities are the abilities game's sides (seat 0's, seat 1's, as in
	// arena.AbilitiesConfig: default ai then humans) and options.
	Abilities arena.AbilitiesConfig
	// Limits bound the bot's processes (zero: none).
	Limits Limits
	// ActionTimeout and HandshakeTimeout are the listener's timeouts (0:
	// the server's defaults, server.DefaultActionTimeout and
	// server.DefaultHandshakeTimeout).
	ActionTimeout, HandshakeTimeout time.Duration
	// GameTimeout bounds each game from the bot's start (0:
	// DefaultGameTimeout): a bot that never connects forfeits after it.
	GameTimeout time.Duration
	// LogDir, when set, keeps each game's bot output (stdout and stderr)
	// in LogDir/game-000042.log; "" keeps only the last line, in the
	// forfeit reason.
	LogDir string
}

var _ arena.Family = (*Family)(nil)

// Game implements arena.Family.
func (f *Family) Game() string { return f.Name }

// Players implements arena.Family.
func (f *Family) Players() (p1, p2 string) {
	other := f.House
	if f.Bot2.Line != "" {
		other = f.Bot2.Name()
	}
	if f.BotIsP2 {
		return other, f.Bot.Name()
	}
	return f.Bot.Name(), other
}

// NewTable implements arena.Family.
func (f *Family) NewTable(log *slog.Logger) arena.Table {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	// The arena logs every forfeit; the server's own lines per game
	// (listening, game over, the forfeit again) would only repeat them.
	return &table{f: f, srvLog: slog.New(minLevel{h: log.Handler(), min: slog.LevelError})}
}

// Validate checks the settings, the server's listener among them (the
// game, dialect, house AI and its weights).
func (f *Family) Validate() error {
	var errs []error
	if f.Bot.Line == "" {
		errs = append(errs, fmt.Errorf("%w: no bot command", ErrFamily))
	}
	if err := f.Limits.Validate(); err != nil {
		errs = append(errs, err)
	}
	if f.GameTimeout < 0 || f.ActionTimeout < 0 || f.HandshakeTimeout < 0 {
		errs = append(errs, fmt.Errorf("%w: a timeout is negative", ErrFamily))
	}
	for s := range 2 { // the bot in each seat
		cfg := f.config(arena.Deal{P1Seat: s, Seed: 1}, "")
		if err := cfg.Validate(); err != nil {
			errs = append(errs, err)
			break
		}
	}
	return errors.Join(errs...)
}

// botSeat is the bot's seat in the arena's deal d.
func (f *Family) botSeat(d arena.Deal) int {
	if f.BotIsP2 {
		return 1 - d.P1Seat
	}
	return d.P1Seat
}

// firstSeat is the seat that acts first in d, as in the arena's own
// matches of the game: seat 0, or with the abilities game's
// AlternateFirst seat 1 when Index/2 is odd.
func (f *Family) firstSeat(d arena.Deal) int {
	if f.Name == server.GameAbilities && f.Abilities.AlternateFirst && d.Index/2%2 == 1 {
		return 1
	}
	return 0
}

// config is the server of the game d: one listener on a free loopback
// port whose first connection (seat 0) is the bot and whose opponent is
// the house AI, acting first when the arena's first seat is the house's;
// its seed is the game's, so the house AI plays the same game for the
// same deal. A pair of bots is a pair listener's, seated as in the arena
// (the gate connects seat 0's first). replayDir "" writes no replay.
func (f *Family) config(d arena.Deal, replayDir string) server.Config {
	cfg := server.DefaultConfig()
	bs := f.botSeat(d)
	if f.Bot2.Line != "" {
		bs = 0 // the listener's seats are the arena's
	}
	l := server.ListenerConfig{
		Name: "bot", Address: "127.0.0.1:0", Game: f.Name, Dialect: f.Dialect,
		Opponent: f.House, HouseConfig: f.HouseWeights, HouseLoad: f.HouseLoad, Games: 1, First: server.FirstConnected,
	}
	if f.firstSeat(d) != bs {
		l.First = server.FirstSecond
	}
	if f.Bot2.Line != "" {
		l.Opponent, l.HouseConfig, l.HouseLoad = server.OpponentPair, "", nil
	}
	if f.Name == server.GameAbilities {
		sides := f.Abilities.Sides
		if len(sides) == 0 {
			sides = []string{"ai", "humans"}
		}
		if len(sides) == 2 {
			sides = []string{sides[bs], sides[1-bs]}
		}
		l.Abilities = arena.AbilitiesConfig{Sides: sides, Options: f.Abilities.Options}
	}
	cfg.Listeners = []server.ListenerConfig{l.WithDefaults()}
	cfg.Limits.MaxConnections = 4
	cfg.Limits.MaxGames = 1
	if f.ActionTimeout > 0 {
		cfg.Limits.ActionTimeout = f.ActionTimeout
	}
	if f.HandshakeTimeout > 0 {
		cfg.Limits.HandshakeTimeout = f.HandshakeTimeout
	}
	cfg.Seed = max(d.Seed, 1) // 0 would draw a secret key
	cfg.ShutdownGrace = 0
	cfg.ReplayDir = replayDir
	return cfg
}

// gameTimeout is GameTimeout or its default.
func (f *Family) gameTimeout() time.Duration {
	if f.GameTimeout > 0 {
		return f.GameTimeout
	}
	return DefaultGameTimeout
}

// minLevel is a slog handler that passes on the records of h at min or
// above.
type minLevel struct {
	h   slog.Handler
	min slog.Level
}

func (m minLevel) Enabled(ctx context.Context, l slog.Level) bool {
	return l >= m.min && m.h.Enabled(ctx, l)
}
func (m minLevel) Handle(ctx context.Context, r slog.Record) error { return m.h.Handle(ctx, r) }
func (m minLevel) WithAttrs(as []slog.Attr) slog.Handler {
	return minLevel{h: m.h.WithAttrs(as), min: m.min}
}
func (m minLevel) WithGroup(name string) slog.Handler {
	return minLevel{h: m.h.WithGroup(name), min: m.min}
}
