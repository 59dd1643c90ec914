package cli

import (
	"fmt"
	"path/filepath"
	"slices"
	"time"

	"github.com/spf13/cobra"

	"github.com/kaisen-ai/kaisen/arena"
	"github.com/kaisen-ai/kaisen/extern"
	"github.com/kaisen-ai/kaisen/games"
	"github.com/kaisen-ai/kaisen/server"
	"github.com/kaisen-ai/kaisen/tournament"
)

// launchFlags are the settings of an exec: program's processes: its
// limits and where its output is kept.
type launchFlags struct {
	memoryMiB  int64
	cpuSeconds int
	logs       string
}

// limits are the program's rlimits.
func (l launchFlags) limits() extern.Limits {
	return extern.Limits{MemoryBytes: l.memoryMiB << 20, CPUSeconds: l.cpuSeconds}
}

// addLaunchFlags registers the flags of launchFlags; logs says what a
// file of --bot-logs holds.
func addLaunchFlags(cmd *cobra.Command, f *launchFlags, logs string) {
	fl := cmd.Flags()
	fl.Int64Var(&f.memoryMiB, "bot-memory", 0, "exec: players: data memory limit (heap, ulimit -d) of each of the program's processes in MiB (0: none)")
	fl.IntVar(&f.cpuSeconds, "bot-cpu", 0, "exec: players: CPU seconds limit of each of the program's processes (0: none)")
	fl.StringVar(&f.logs, "bot-logs", "", "exec: players: keep "+logs+" in this directory")
	must(cmd.MarkFlagDirname("bot-logs"))
}

// botFlags are match's settings of exec: players (package extern).
type botFlags struct {
	dialect          string
	actionTimeout    time.Duration
	handshakeTimeout time.Duration
	gameTimeout      time.Duration
	launchFlags
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
	fl.DurationVar(&f.gameTimeout, "game-timeout", extern.DefaultGameTimeout, "exec: players: time the program has for a whole game, from its start")
	addLaunchFlags(cmd, &f.launchFlags, "each game's program output (game-000000.p1.log, ...)")
}

// hasBot reports whether a player of the match is an exec: program.
func (f *matchFlags) hasBot() bool { return extern.Is(f.p1) || extern.Is(f.p2) }

// botFamily is the family of a match with an exec: player.
func botFamily(g games.Game, cfg arena.Config, f *matchFlags) (arena.Family, error) {
	switch {
	case f.config != "":
		return nil, usageError("exec: players play the served rules of --game and --dialect, not --rules")
	case f.series > 0 || f.audit || f.explain || f.shard.on || f.shard.queued:
		return nil, usageError("exec: players do not take --series, --audit, --explain, --shard or --nats")
	}
	return f.bot.family(g, cfg, [2]games.Entrant{{Name: f.p1}, {Name: f.p2}}, [2]string{f.p1Config, f.p2Config})
}

// family is the family of a match of p1 against p2, one of them at least
// an exec: program (weights: the YAML files of the built-in ones; an
// entrant's Load, when set, loads its weights instead).
func (b *botFlags) family(g games.Game, cfg arena.Config, p [2]games.Entrant, weights [2]string) (arena.Family, error) {
	if b.dialect != server.DefaultDialect && g.Name != server.GameSubmarine {
		return nil, usageError("--dialect is the submarine game's; %s has one wire format", g.Name)
	}
	me, other := 0, 1
	if extern.Is(p[1].Name) {
		me, other = 1, 0
	}
	cmd, err := extern.Parse(p[me].Name)
	if err != nil {
		return nil, &UsageError{Err: err}
	}
	house := p[other].Name
	var cmd2 extern.Command
	if extern.Is(house) {
		if cmd2, err = extern.Parse(house); err != nil {
			return nil, &UsageError{Err: err}
		}
		house = ""
	} else if err := g.CheckPlayer(house); err != nil {
		return nil, &UsageError{Err: err}
	}
	fam := &extern.Family{
		Name: g.Name, Dialect: b.dialect, Bot: cmd, Bot2: cmd2, BotIsP2: me == 1, House: house, HouseWeights: weights[other], HouseLoad: p[other].Load,
		Abilities: cfg.Abilities, Limits: b.limits(),
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

// botTournament makes the pairs of tc with an exec: program bot families
// (names: the entries; exec: entries take no weights).
func (b *botFlags) botTournament(g games.Game, cfg arena.Config, f *tournamentFlags, tc *tournament.Config, weights map[string]string) error {
	if !slices.ContainsFunc(tc.Players, extern.Is) {
		return nil
	}
	switch {
	case f.config != "":
		return usageError("exec: players play the served rules of --game and --dialect, not --rules")
	case f.timing || f.shard.on || f.shard.queued:
		return usageError("exec: players do not take --timing, --shard or --nats")
	}
	names, base := tc.Players, tc.Family
	tc.Family = func(i, j int) (arena.Family, error) {
		if !extern.Is(names[i]) && !extern.Is(names[j]) {
			return base(i, j)
		}
		pb := *b
		if pb.logs != "" { // each pair's games are numbered from 0
			pb.logs = filepath.Join(pb.logs, fmt.Sprintf("pair-%d-%d", i, j))
		}
		return pb.family(g, cfg, [2]games.Entrant{{Name: names[i]}, {Name: names[j]}}, [2]string{weights[names[i]], weights[names[j]]})
	}
	for i := range names { // a bad command or house fails before any game
		if extern.Is(names[i]) {
			if _, err := tc.Family(i, (i+1)%len(names)); err != nil {
				return err
			}
		}
	}
	return nil
}
