package cli

import (
	"time"

	"github.com/spf13/cobra"

	"github.com/kaisen-ai/kaisen/arena"
	"github.com/kaisen-ai/kaisen/bot"
	"github.com/kaisen-ai/kaisen/games"
	"github.com/kaisen-ai/kaisen/server"
)

// botFlags are match's settings of exec: players (package bot).
type botFlags struct {
	dialect          string
	actionTimeout    time.Duration
	handshakeTimeout time.Duration
	gameTimeout      time.Duration
	memoryMiB        int64
	cpuSeconds       int
	logs             string
}

// botHelp is match's help on exec: players.
const botHelp = `

External players: --p1 or --p2 exec:'COMMAND' plays a program of your own
against the built-in AI on the other side (docs/cli.md#external-players).
For every game Kaisen starts a turn server on a free loopback port (the
server of kaisen serve, one listener whose opponent is the built-in AI),
then runs COMMAND (through /bin/sh -c when it uses the shell), {host} and {port} replaced by where to
connect and {seed} by the game's seed; the program plays one game over TCP
in the game's protocol (--game; --dialect for the submarine game) and
exits. Seats alternate as above: the program acts first in the games where
it sits in seat 0. A crash, a hang (--action-timeout, --handshake-timeout,
--game-timeout), a garbage or over-long line, a line out of turn or an
early exit forfeits the program's game, with the reason and its last line
of output in the log; --bot-logs DIR keeps each game's output
(DIR/game-000042.log). The program runs in a process group of its own,
killed whole when its game ends; --bot-memory and --bot-cpu set rlimits
(ulimit -d, ulimit -t) on each of its processes. Both players may be programs: the
listener then pairs them, seated as above. Not with --rules, --series,
--audit, --explain, --shard or --nats.`

// addBotFlags registers match's exec: player flags.
func addBotFlags(cmd *cobra.Command, f *botFlags) {
	fl := cmd.Flags()
	lim := server.DefaultLimits()
	fl.StringVar(&f.dialect, "dialect", server.DefaultDialect, "exec: players, submarine game: the wire dialect, classic or submarine-py")
	fl.DurationVar(&f.actionTimeout, "action-timeout", lim.ActionTimeout, "exec: players: time the program has for each action")
	fl.DurationVar(&f.handshakeTimeout, "handshake-timeout", lim.HandshakeTimeout, "exec: players: time the program has for its name and placement")
	fl.DurationVar(&f.gameTimeout, "game-timeout", bot.DefaultGameTimeout, "exec: players: time the program has for a whole game, from its start")
	fl.Int64Var(&f.memoryMiB, "bot-memory", 0, "exec: players: data memory limit (heap, ulimit -d) of each of the program's processes in MiB (0: none)")
	fl.IntVar(&f.cpuSeconds, "bot-cpu", 0, "exec: players: CPU seconds limit of each of the program's processes (0: none)")
	fl.StringVar(&f.logs, "bot-logs", "", "exec: players: keep each game's program output in this directory (game-000000.log, ...)")
	must(cmd.MarkFlagDirname("bot-logs"))
}

// hasBot reports whether a player of the match is an exec: program.
func (f *matchFlags) hasBot() bool { return bot.Is(f.p1) || bot.Is(f.p2) }

// botFamily is the family of a match with an exec: player.
func botFamily(g games.Game, cfg arena.Config, f *matchFlags) (arena.Family, error) {
	switch {
	case f.config != "":
		return nil, usageError("exec: players play the served rules of --game and --dialect, not --rules")
	case f.series > 0 || f.audit || f.explain || f.shard.on || f.shard.queued:
		return nil, usageError("exec: players do not take --series, --audit, --explain, --shard or --nats")
	case f.bot.dialect != server.DefaultDialect && g.Name != server.GameSubmarine:
		return nil, usageError("--dialect is the submarine game's; %s has one wire format", g.Name)
	}
	spec, house, weights, isP2 := f.p1, f.p2, f.p2Config, false
	if bot.Is(f.p2) {
		spec, house, weights, isP2 = f.p2, f.p1, f.p1Config, true
	}
	cmd, err := bot.Parse(spec)
	if err != nil {
		return nil, &UsageError{Err: err}
	}
	var cmd2 bot.Command
	if bot.Is(house) {
		if cmd2, err = bot.Parse(house); err != nil {
			return nil, &UsageError{Err: err}
		}
		house = ""
	} else if err := g.CheckPlayer(house); err != nil {
		return nil, &UsageError{Err: err}
	}
	b := f.bot
	fam := &bot.Family{
		Name: g.Name, Dialect: b.dialect, Bot: cmd, Bot2: cmd2, BotIsP2: isP2, House: house, HouseWeights: weights,
		Abilities: cfg.Abilities, Limits: bot.Limits{MemoryBytes: b.memoryMiB << 20, CPUSeconds: b.cpuSeconds},
		ActionTimeout: b.actionTimeout, HandshakeTimeout: b.handshakeTimeout, GameTimeout: b.gameTimeout, LogDir: b.logs,
	}
	if g.Name != server.GameSubmarine {
		fam.Dialect = ""
	}
	if err := fam.Validate(); err != nil {
		return nil, &UsageError{Err: err}
	}
	return fam, nil
}

// dialect is the --dialect value.
