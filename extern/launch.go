package extern

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"time"

	"github.com/kaisen-ai/kaisen/server"
)

// DefaultConnectTimeout bounds how long a started program has to connect
// to its port (Launcher.ConnectTimeout).
const DefaultConnectTimeout = 30 * time.Second

// ErrLaunch is wrapped by the errors of a program that did not connect:
// it exited first, or the connect timeout passed.
var ErrLaunch = errors.New("extern: the program did not connect")

// Launcher starts a program that plays one connection: it listens on a
// loopback port of its own, starts the command with {host}, {port} and
// {seed} filled in, in a process group of its own, and hands over the
// connection the program makes. kaisen serve --house exec: seats such a
// program as the house of every pairing (HouseDialer); kaisen play
// --player exec: relays a remote server's connection to it (Relay).
type Launcher struct {
	// Bot is the program.
	Bot Command
	// Limits bound its processes (zero: none).
	Limits Limits
	// ConnectTimeout bounds the wait for its connection (0:
	// DefaultConnectTimeout).
	ConnectTimeout time.Duration
	// LogDir, when set, keeps each start's output (stdout and stderr) in
	// LogDir/NAME.log (Start's name); "" keeps it in a temporary file,
	// removed by Session.Close after its last line is read.
	LogDir string
}

// ExitGrace is how long a program may take to exit by itself once its
// connection is over (Session.Close), before its group is killed.
const ExitGrace = exitGrace

// Validate checks the settings.
func (l *Launcher) Validate() error {
	var errs []error
	if l.Bot.Line == "" {
		errs = append(errs, fmt.Errorf("%w: no program", ErrFamily))
	}
	if l.ConnectTimeout < 0 {
		errs = append(errs, fmt.Errorf("%w: the connect timeout is negative", ErrFamily))
	}
	if err := l.Limits.Validate(); err != nil {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// Session is a started program and the connection it made.
type Session struct {
	// Conn is the program's connection.
	Conn net.Conn
	p    *proc
	out  *os.File
	temp bool // out is a temporary file
}

// Start starts the program with seed as {seed} and waits for its
// connection. name names its output file in LogDir (NAME.log). The error
// wraps ErrLaunch when the program exited first or did not connect within
// the connect timeout, with how it ended and its last line of output;
// ctx's end stops the wait and the program.
func (l *Launcher) Start(ctx context.Context, seed uint64, name string) (*Session, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("extern: listen: %w", err)
	}
	defer ln.Close() // one connection
	s := &Session{}
	if s.out, err = l.output(name); err != nil {
		return nil, err
	}
	s.temp = l.LogDir == ""
	addr := ln.Addr().(*net.TCPAddr)
	if s.p, err = startProc(l.Limits.argv(l.Bot.expand(addr.IP.String(), addr.Port, seed)), s.out); err != nil {
		s.discard()
		return nil, err
	}
	accepted := make(chan net.Conn, 1)
	go func() { // ends when ln closes, at the latest when Start returns
		if c, err := ln.Accept(); err == nil {
			accepted <- c
		}
		close(accepted)
	}()
	timeout := l.ConnectTimeout
	if timeout <= 0 {
		timeout = DefaultConnectTimeout
	}
	t := time.NewTimer(timeout)
	defer t.Stop()
	var why error
	select {
	case c := <-accepted:
		if c != nil {
			s.Conn = c
			return s, nil
		}
		why = fmt.Errorf("%w: the listener closed", ErrLaunch)
	case <-s.p.done:
		why = fmt.Errorf("%w: it exited first", ErrLaunch)
	case <-t.C:
		why = fmt.Errorf("%w within %v", ErrLaunch, timeout)
	case <-ctx.Done():
		why = fmt.Errorf("extern: %w", ctx.Err())
	}
	_ = ln.Close()
	if c := <-accepted; c != nil { // it connected at the last moment
		_ = c.Close()
	}
	return nil, fmt.Errorf("%w%s", why, s.Close(0).Describe("")) // why (how it ended)
}

// output opens the file that takes the output of a start named name.
func (l *Launcher) output(name string) (*os.File, error) {
	if l.LogDir == "" {
		f, err := os.CreateTemp("", "kaisen-bot-*.log")
		if err != nil {
			return nil, fmt.Errorf("extern: output: %w", err)
		}
		return f, nil
	}
	return openLog(l.LogDir, name+".log")
}

// Ended is how a program ended.
type Ended struct {
	// Status is its exit status when it exited by itself ("" when its
	// group was killed).
	Status string
	// Line is its last non-empty line of output ("" when none).
	Line string
}

// Describe is why followed by how the program ended, for an error or a
// log line.
func (e Ended) Describe(why string) string {
	return withOutput(why, output{status: e.Status, line: e.Line})
}

// Close closes the connection, gives the program up to grace to exit by
// itself (it may still be reading its last lines), then ends its whole
// process group and says how it ended. Safe to call more than once.
func (s *Session) Close(grace time.Duration) Ended {
	if s.Conn != nil {
		_ = s.Conn.Close()
	}
	if s.p == nil {
		s.discard()
		return Ended{}
	}
	if grace > 0 {
		t := time.NewTimer(grace)
		select {
		case <-s.p.done:
		case <-t.C:
		}
		t.Stop()
	}
	var e Ended
	select {
	case <-s.p.done:
		e.Status = s.p.status()
	default:
	}
	s.p.kill()
	if s.out != nil {
		e.Line = lastLine(s.out)
	}
	s.discard()
	return e
}

// Done is closed when the program has exited (its shell, for a command
// run by the shell).
func (s *Session) Done() <-chan struct{} { return s.p.done }

// discard closes the output file, and removes a temporary one.
func (s *Session) discard() {
	if s.out == nil {
		return
	}
	_ = s.out.Close()
	if s.temp {
		_ = os.Remove(s.out.Name())
	}
	s.out = nil
}

// HouseDialer is the house seat of a server listener whose house is the
// program (server.ListenerConfig.HouseSeat, kaisen serve --house exec:):
// each pairing starts it with the pairing's first seed as {seed}, its
// output in LogDir/house-PAIRING.log; once the pairing is over it has
// exitGrace to exit by itself before its group is killed. log, when set,
// gets a line for a program that ended other than by exiting with status
// 0.
func (l *Launcher) HouseDialer(log *slog.Logger) server.HouseDialer {
	return func(ctx context.Context, pairing string, seed uint64) (net.Conn, func(), error) {
		s, err := l.Start(ctx, seed, "house-"+pairing)
		if err != nil {
			return nil, nil, err
		}
		return s.Conn, func() {
			if e := s.Close(exitGrace); e.Status != "exit status 0" && log != nil {
				log.Warn("house program ended", "pairing", pairing, "how", e.Describe("ended"))
			}
		}, nil
	}
}
