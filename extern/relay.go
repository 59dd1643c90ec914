package extern

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"sync"
	"sync/atomic"
	"time"
)

// maxTapLine is the most of a relayed line that Relay's tap sees.
const maxTapLine = 64 << 10

// Relay plays a remote server's connection with a started program (kaisen
// play --player exec:): what remote sends (read from in, which reads
// remote, a bufio.Reader that may hold bytes already read) goes to local,
// the program's connection, and what the program sends goes to remote,
// unchanged, until either side closes or ctx ends; then both are closed.
// tap, when set, sees each line from remote (without its end of line, at
// most maxTapLine bytes of it) after it was forwarded. idle > 0 bounds
// the wait for each read from remote. The error is remote's, not its
// end: a read that timed out or failed; nil when remote closed, or when
// the program did (it left: the server decides what that costs it).
func Relay(ctx context.Context, remote net.Conn, in io.Reader, local net.Conn, idle time.Duration, tap func(line []byte)) error {
	var closing atomic.Bool // we closed the connections: their errors are ours
	var once sync.Once
	closeBoth := func() {
		once.Do(func() {
			closing.Store(true)
			_ = remote.Close()
			_ = local.Close()
		})
	}
	stop := context.AfterFunc(ctx, closeBoth)
	defer stop()
	var wg sync.WaitGroup
	wg.Go(func() {
		_, _ = io.Copy(remote, local) // the program's lines
		closeBoth()
	})
	err := relayIn(remote, in, local, idle, tap)
	closing.Store(true) // what follows is closeBoth's doing
	closeBoth()
	wg.Wait()
	switch {
	case ctx.Err() != nil:
		return fmt.Errorf("extern: relay: %w", ctx.Err())
	case err == nil, errors.Is(err, io.EOF), errors.Is(err, net.ErrClosed) && closing.Load():
		return nil
	case errors.Is(err, os.ErrDeadlineExceeded):
		return fmt.Errorf("extern: relay: no line from the server within %v: %w", idle, err)
	}
	return fmt.Errorf("extern: relay: %w", err)
}

// relayIn copies in to local, each read bounded by idle on remote, and
// shows tap every line; it returns the read's error (io.EOF at the end)
// or nil when local no longer takes bytes.
func relayIn(remote net.Conn, in io.Reader, local net.Conn, idle time.Duration, tap func([]byte)) error {
	buf := make([]byte, 32<<10)
	var line lineTap
	for {
		if idle > 0 {
			_ = remote.SetReadDeadline(time.Now().Add(idle))
		}
		n, err := in.Read(buf)
		if n > 0 {
			if _, werr := local.Write(buf[:n]); werr != nil {
				return nil // the program left
			}
			if tap != nil {
				line.feed(buf[:n], tap)
			}
		}
		if err != nil {
			return err
		}
	}
}

// lineTap splits a byte stream into lines for Relay's tap.
type lineTap struct {
	pending []byte // the line so far, cut at maxTapLine
}

// feed adds b and calls tap for every line it completes.
func (l *lineTap) feed(b []byte, tap func([]byte)) {
	for len(b) > 0 {
		i := bytes.IndexByte(b, '\n')
		chunk := b
		if i >= 0 {
			chunk = b[:i]
		}
		if room := maxTapLine - len(l.pending); len(chunk) > room {
			chunk = chunk[:max(room, 0)]
		}
		l.pending = append(l.pending, chunk...)
		if i < 0 {
			return
		}
		tap(bytes.TrimSuffix(l.pending, []byte("\r")))
		l.pending = l.pending[:0]
		b = b[i+1:]
	}
}
