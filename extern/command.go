package extern

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Prefix marks a player name that is an external program.
const Prefix = "exec:"

// ErrCommand is wrapped by the errors of a malformed exec: player.
var ErrCommand = errors.New("extern: bad exec command")

// Placeholders filled in when a bot is started.
const (
	PlaceHost = "{host}" // the loopback address the bot connects to
	PlacePort = "{port}" // its port
	PlaceSeed = "{seed}" // the game's seed, for a bot that wants to be reproducible
)

// Is reports whether name is an external player (it starts with Prefix).
func Is(name string) bool { return strings.HasPrefix(name, Prefix) }

// Command is a bot's command line, run by /bin/sh -c with its
// placeholders filled in.
type Command struct {
	// Line is the shell command line, e.g. "python3 bot.py {host} {port}".
	Line string
}

// Parse reads an exec: player: Prefix followed by a shell command line
// that names where to connect with {host} and {port} (or {host}:{port}).
func Parse(spec string) (Command, error) {
	line, ok := strings.CutPrefix(spec, Prefix)
	if !ok {
		return Command{}, fmt.Errorf("%w: %q does not start with %q", ErrCommand, spec, Prefix)
	}
	line = strings.TrimSpace(line)
	switch {
	case line == "":
		return Command{}, fmt.Errorf("%w: %q has no command", ErrCommand, spec)
	case !strings.Contains(line, PlacePort):
		return Command{}, fmt.Errorf("%w: %q never says %s: the bot would not know where to connect (e.g. exec:'./bot {host} {port}')",
			ErrCommand, spec, PlacePort)
	}
	return Command{Line: line}, nil
}

// Name is the player's name in match tables: the spec as given.
func (c Command) Name() string { return Prefix + c.Line }

// expand fills in the placeholders.
func (c Command) expand(host string, port int, seed uint64) string {
	return strings.NewReplacer(PlaceHost, host, PlacePort, strconv.Itoa(port), PlaceSeed, strconv.FormatUint(seed, 10)).Replace(c.Line)
}

// Limits are optional resource limits of a bot's processes (each process
// of its group gets them: they are rlimits, set by the shell's ulimit).
// Zero means no limit.
type Limits struct {
	// MemoryBytes bounds each process's data memory: its heap and every
	// private writable mapping (RLIMIT_DATA, ulimit -d; Linux counts mmap
	// since 4.7). Not ulimit -v: the Go runtime reserves gigabytes of
	// address space it never touches. A Go program starts under 128 MiB.
	MemoryBytes int64
	// CPUSeconds bounds each process's CPU time (ulimit -t); past it the
	// kernel kills the process and the bot forfeits its game.
	CPUSeconds int
}

// Validate checks the limits.
func (l Limits) Validate() error {
	var errs []error
	if l.MemoryBytes < 0 || (l.MemoryBytes > 0 && l.MemoryBytes < 1<<20) {
		errs = append(errs, fmt.Errorf("%w: memory limit %d bytes: want 0 (none) or at least 1 MiB", ErrCommand, l.MemoryBytes))
	}
	if l.CPUSeconds < 0 {
		errs = append(errs, fmt.Errorf("%w: CPU limit %d s: want 0 (none) or more", ErrCommand, l.CPUSeconds))
	}
	return errors.Join(errs...)
}

// argv is the command that runs line under the limits: the line's words
// themselves when it is a plain command (no limits, nothing the shell
// would interpret: saves starting a shell per game), else the shell with
// the script.
func (l Limits) argv(line string) []string {
	if w := strings.Fields(line); l == (Limits{}) && !strings.ContainsAny(line, shellSpecial) && !strings.Contains(w[0], "=") {
		return w // not VAR=value cmd either
	}
	return []string{shell, "-c", l.script(line)}
}

// shellSpecial are the characters that make a command line the shell's
// to run (quotes, expansions, redirections, lists, globs, comments).
const shellSpecial = "\\'\"\x60$|&;<>()*?[]{}~#!\n"

// script is the shell script that runs line under the limits.
func (l Limits) script(line string) string {
	var b strings.Builder
	if l.MemoryBytes > 0 {
		fmt.Fprintf(&b, "ulimit -d %d || exit 125; ", l.MemoryBytes>>10)
	}
	if l.CPUSeconds > 0 {
		fmt.Fprintf(&b, "ulimit -t %d || exit 125; ", l.CPUSeconds)
	}
	b.WriteString(line)
	return b.String()
}
