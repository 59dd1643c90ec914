package cli

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/kaisen-ai/kaisen/client"
	"github.com/kaisen-ai/kaisen/extern"
	"github.com/kaisen-ai/kaisen/protocol"
)

// playExecHelp is kaisen play's help on exec: programs.
const playExecHelp = `

A program of your own: --player exec:'COMMAND' plays every connection with
a program that knows only "connect to {host} {port} and play": for each
connection kaisen play connects to --addr (and sends the auth line of
--name --token), waits for the server's first line, then starts COMMAND
(through /bin/sh -c when it uses the shell) with {host} and {port} replaced
by a loopback port of kaisen play's own and {seed} by the connection's
seed (from --seed), and relays every byte both ways, unchanged, until
either side closes. So a one-game bot plays -c N games on a remote server
or the rated ladder. Each game's end line is printed (or counted for
--json) as it passes. The program runs in a process group of its own,
ended whole when its connection is over; it has --dial-timeout to connect;
--bot-memory and --bot-cpu set rlimits, --bot-logs DIR keeps each
connection's output (DIR/connection-000000.log). A program that exits or
closes before its game (or series) ended stops the run (exit 1) with how it
ended and its last line of output; the server decides what its game costs
it. Not with --human or --weights.`

// runPlayExec is kaisen play with an exec: program (playExecHelp).
func runPlayExec(ctx context.Context, e *env, f playFlags) error {
	if f.config != "" {
		return usageError("--weights is a built-in AI's: an exec: program reads its own settings")
	}
	cmd, err := extern.Parse(f.player)
	if err != nil {
		return &UsageError{Err: err}
	}
	la := &extern.Launcher{Bot: cmd, Limits: f.bot.limits(), ConnectTimeout: f.dialTimeout, LogDir: f.bot.logs}
	if err := la.Validate(); err != nil {
		return &UsageError{Err: err}
	}
	e.log.Info("play", "addr", f.addr, "player", f.player, "seed", f.seed, "connections", f.connections)
	for i := range f.connections {
		if err := playExecConn(ctx, e, f, la, i); err != nil {
			if f.connections > 1 {
				err = fmt.Errorf("connection %d of %d: %w", i+1, f.connections, err)
			}
			return finishPlay(e, f, err)
		}
		f.tally.Connections++
	}
	return finishPlay(e, f, nil)
}

// execSeed is the {seed} of connection i of a run with seed.
func execSeed(seed uint64, i int) uint64 { return rand.New(rand.NewPCG(seed, uint64(i))).Uint64() }

// playExecConn plays connection i with the program of la.
func playExecConn(ctx context.Context, e *env, f playFlags, la *extern.Launcher, i int) error {
	conn, err := connect(ctx, f)
	if err != nil {
		return err
	}
	defer conn.Close()
	wn := newWaitNotice(conn, f.stderr, waitingFor(f))
	defer wn.stop()
	in := bufio.NewReader(wn)
	_ = conn.SetReadDeadline(time.Now().Add(f.timeout))
	first, err := in.ReadSlice('\n')
	if err != nil && !errors.Is(err, bufio.ErrBufferFull) {
		return fmt.Errorf("read the server's first line: %w", err)
	}
	if r, ok := strings.CutPrefix(string(bytes.TrimSpace(first)), protocol.RefusedPrefix); ok {
		return &client.RefusedError{Reason: r}
	}
	_, round, _ := protocol.ParseGreeting(first) // an unknown greeting is the program's to judge
	s, err := la.Start(ctx, execSeed(f.seed, i), fmt.Sprintf("connection-%06d", i))
	if err != nil {
		return err
	}
	var ended, final bool // an end line passed; the last one ended the series (or the game)
	tap := func(line []byte) {
		if end, last := protocol.ParseEnd(line); end != protocol.NotEnd {
			f.tally.add(end)
			if !f.json {
				fmt.Fprintln(e.stdout, string(line))
			}
			ended, final = true, last || round == 0
		}
	}
	if _, err := s.Conn.Write(first); err != nil {
		return fmt.Errorf("the program's connection: %w%s", err, s.Close(0).Describe(""))
	}
	rerr := extern.Relay(ctx, conn, in, s.Conn, f.timeout, tap)
	how := s.Close(extern.ExitGrace)
	switch {
	case rerr != nil:
		return fmt.Errorf("%w%s", rerr, how.Describe(""))
	case !ended || !final:
		return fmt.Errorf("the connection closed before its game ended%s", how.Describe(""))
	}
	return nil
}
