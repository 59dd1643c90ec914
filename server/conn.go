package server

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"sync"
	"time"

	"github.com/kaisen-ai/kaisen/protocol"
)

// lingerTimeout bounds the lingering close: how long the server keeps reading
// (and discarding) what a client still sends after the server's last line, so
// that closing does not reset the connection before the client has read it.
const lingerTimeout = time.Second

// lingerBytes is the most the lingering close reads before closing anyway.
const lingerBytes = 256 << 10

// readBufSize is the read buffer of a connection. Longer lines (up to
// limits.max_line_bytes) are assembled in their line buffer.
const readBufSize = 4096

// maxPooledLine is the largest line buffer kept for reuse.
const maxPooledLine = 4096

// linePool recycles line buffers between a connection's reader goroutine
// (which fills them) and the goroutine that consumes the line.
var linePool = sync.Pool{New: func() any { b := make([]byte, 0, 512); return &b }}

func getLine() *[]byte { return linePool.Get().(*[]byte) }

// putLine gives a line buffer back (nil is allowed).
func putLine(b *[]byte) {
	if b == nil || cap(*b) > maxPooledLine {
		return
	}
	*b = (*b)[:0]
	linePool.Put(b)
}

// inMsg is what a connection's reader goroutine delivers: one line (without
// its end of line), or the error that ended reading (io.EOF when the client
// closed).
type inMsg struct {
	line *[]byte // from linePool: the consumer gives it back with putLine
	more bool    // bytes after this line had already arrived with it
	err  error
}

// conn is one client connection. A reader goroutine (readLoop) reads its
// lines and delivers them on in, so that its owner — the lobby watcher while
// the client waits for an opponent, then the match goroutine — can wait for
// both clients of a game, a timer and a shutdown at once: a client that
// sends a line or leaves while it is not its turn is noticed at once. Writes
// are queued by the owner and sent by flush, one write per connection.
type conn struct {
	nc      net.Conn
	addr    string // remote address
	ip      string // remote IP
	net     string // its network (netKey), for the per-IP limit; set by admit
	timeout time.Duration
	maxLine int

	in       chan inMsg    // lines from the reader goroutine (buffered: one line)
	done     chan struct{} // closed by the owner when it stops listening
	exited   chan struct{} // closed when the reader goroutine returns
	linger   bool          // set before done is closed: drain the input before closing
	stopOnce sync.Once

	house  bool    // a house program's (HouseDialer): not counted against the limits
	bot    string  // a rated listener's authenticated bot; set once, with rating
	rating float64 // its rating when it authenticated (pairing)

	early []inMsg // lines received before the game started (lobby), in order

	wbuf []byte    // queued lines
	wdl  time.Time // the write deadline in force
	werr error     // first write error: the client can no longer be told anything
}

// newConn wraps nc: TCP_NODELAY on, lines limited to maxLine bytes, writes
// bounded by timeout. The reader goroutine starts with start.
func newConn(nc net.Conn, maxLine int, timeout time.Duration) *conn {
	_ = setNoDelay(nc) // best effort: a failure here only costs latency
	addr := nc.RemoteAddr().String()
	ip := addr
	if host, _, err := net.SplitHostPort(addr); err == nil {
		ip = host
	}
	return &conn{
		nc:      nc,
		addr:    addr,
		ip:      ip,
		timeout: timeout,
		maxLine: maxLine,
		in:      make(chan inMsg, 1),
		done:    make(chan struct{}),
		exited:  make(chan struct{}),
		wbuf:    make([]byte, 0, 1024),
	}
}

// setNoDelay turns Nagle's algorithm off on TCP connections: every line is
// one small write that the peer waits for.
func setNoDelay(nc net.Conn) error {
	type noDelayer interface{ SetNoDelay(bool) error }
	if tc, ok := nc.(noDelayer); ok {
		if err := tc.SetNoDelay(true); err != nil {
			return fmt.Errorf("server: set TCP_NODELAY: %w", err)
		}
	}
	return nil
}

// start runs the reader goroutine, counted in wg.
func (c *conn) start(wg *sync.WaitGroup) {
	wg.Go(c.readLoop)
}

// readLoop reads lines until the connection fails or the owner stops
// listening. An error (io.EOF, a reset, an over-long line) is delivered once;
// then the goroutine waits for the owner, and drains the input if the owner
// asked for a lingering close.
func (c *conn) readLoop() {
	defer close(c.exited)
	br := bufio.NewReaderSize(c.nc, readBufSize)
	var err error
	for {
		var m inMsg
		m.line, m.more, m.err = readLineInto(br, c.maxLine)
		if m.err != nil {
			err = m.err
			select {
			case c.in <- m:
			case <-c.done:
			}
			break
		}
		select {
		case c.in <- m:
			continue
		case <-c.done:
			putLine(m.line)
		}
		break
	}
	<-c.done
	// A read error other than an over-long line means there is nothing
	// left to drain.
	if c.linger && (err == nil || errors.Is(err, protocol.ErrLineTooLong)) {
		_, _ = io.Copy(io.Discard, io.LimitReader(br, lingerBytes))
	}
}

// readLineInto reads one line of at most max bytes from br into a pooled
// buffer, without its "\n" or "\r\n". It never buffers more than max+2
// bytes of a line: an over-long line is a *protocol.ProtocolError wrapping
// protocol.ErrLineTooLong as soon as the limit is passed. A last line
// without "\n" before EOF counts as a line. more reports whether bytes
// after the line had already arrived.
func readLineInto(br *bufio.Reader, max int) (*[]byte, bool, error) {
	bp := getLine()
	b := (*bp)[:0]
	for {
		frag, err := br.ReadSlice('\n')
		if len(b)+len(frag) > max+2 {
			b = append(b, frag[:min(len(frag), 64)]...)
			perr := protocol.NewProtocolError(b, fmt.Errorf("%w: more than %d bytes", protocol.ErrLineTooLong, max))
			putLine(bp)
			return nil, false, perr
		}
		b = append(b, frag...)
		switch {
		case err == nil:
			b = b[:len(b)-1]
			if n := len(b); n > 0 && b[n-1] == '\r' {
				b = b[:n-1]
			}
			if len(b) > max {
				perr := protocol.NewProtocolError(b, fmt.Errorf("%w: more than %d bytes", protocol.ErrLineTooLong, max))
				putLine(bp)
				return nil, false, perr
			}
			*bp = b
			return bp, br.Buffered() > 0, nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF) && len(b) > 0:
			if n := len(b); b[n-1] == '\r' {
				b = b[:n-1]
			}
			if len(b) > max {
				perr := protocol.NewProtocolError(b, fmt.Errorf("%w: more than %d bytes", protocol.ErrLineTooLong, max))
				putLine(bp)
				return nil, false, perr
			}
			*bp = b
			return bp, false, nil
		default:
			*bp = b
			putLine(bp)
			return nil, false, err
		}
	}
}

// next returns the next message: a line kept from the lobby, else one from
// the reader goroutine (blocking).
func (c *conn) next() inMsg {
	if len(c.early) > 0 {
		m := c.early[0]
		c.early = c.early[1:]
		return m
	}
	return <-c.in
}

// poll returns a message that has already arrived, if any.
func (c *conn) poll() (inMsg, bool) {
	if len(c.early) > 0 {
		return c.next(), true
	}
	select {
	case m := <-c.in:
		return m, true
	default:
		return inMsg{}, false
	}
}

// stop tells the reader goroutine that nobody listens any more; with
// linger it drains the input (until EOF, the read deadline or lingerBytes)
// before returning. Lines kept from the lobby are released.
func (c *conn) stop(linger bool) {
	c.stopOnce.Do(func() {
		c.linger = linger
		close(c.done)
		for _, m := range c.early {
			putLine(m.line)
		}
		c.early = nil
	})
}

// abandon closes the connection at once (nothing more is sent).
func (c *conn) abandon() {
	c.stop(false)
	_ = c.nc.Close()
}

// queue adds one line to what the next flush sends.
func (c *conn) queue(line []byte) {
	if c.werr == nil {
		c.wbuf = append(append(c.wbuf, line...), '\n')
	}
}

// queueString is queue for a fixed line.
func (c *conn) queueString(line string) {
	if c.werr == nil {
		c.wbuf = append(append(c.wbuf, line...), '\n')
	}
}

// flush sends the queued lines in one write; a failure marks the connection
// dead. The write deadline is refreshed only when less than half of the
// timeout is left, so that a write blocked by a client that stops reading
// fails after between timeout/2 and timeout, without a deadline update on
// every write.
func (c *conn) flush() {
	if c.werr != nil || len(c.wbuf) == 0 {
		c.wbuf = c.wbuf[:0]
		return
	}
	now := time.Now()
	if c.wdl.Sub(now) < c.timeout/2 {
		c.wdl = now.Add(c.timeout)
		if err := c.nc.SetWriteDeadline(c.wdl); err != nil {
			c.werr = fmt.Errorf("write: %w", err)
			return
		}
	}
	_, err := c.nc.Write(c.wbuf)
	if cap(c.wbuf) > 16<<10 {
		c.wbuf = make([]byte, 0, 1024)
	} else {
		c.wbuf = c.wbuf[:0]
	}
	if err != nil {
		c.werr = fmt.Errorf("write: %w", err)
	}
}

// isTimeout reports whether err is a deadline error.
func isTimeout(err error) bool {
	var ne net.Error
	return errors.Is(err, os.ErrDeadlineExceeded) || (errors.As(err, &ne) && ne.Timeout())
}

// closeConns flushes and half-closes every connection, lets their reader
// goroutines drain what the clients still send until each closes too (all
// within one lingerTimeout), then closes them. Closing a socket with unread
// input would reset it and could destroy the last lines before the client
// reads them.
func closeConns(cs []*conn) {
	type closeWriter interface{ CloseWrite() error }
	deadline := time.Now().Add(lingerTimeout)
	for _, c := range cs {
		c.flush()
		linger := false
		if cw, ok := c.nc.(closeWriter); ok && c.werr == nil && cw.CloseWrite() == nil {
			linger = c.nc.SetReadDeadline(deadline) == nil
		}
		c.stop(linger)
		if !linger {
			_ = c.nc.Close()
		}
	}
	for _, c := range cs {
		<-c.exited
		_ = c.nc.Close()
	}
}
