package server

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/kaisen-ai/kaisen/game/submarine"
	subwire "github.com/kaisen-ai/kaisen/game/submarine/wire"
	"github.com/kaisen-ai/kaisen/protocol"
)

// FuzzActionLine sends any line as the first action and checks that the
// server answers both sides with well-formed lines: a result line each, and
// when the game ended on it, the end lines.
func FuzzActionLine(f *testing.F) {
	for _, s := range []string{
		`{"attack":{"to":[1,1]}}`, `{"move":{"ship":"w","to":[0,1]}}`, `{}`, `hello`, ``,
		`{"attack":{"to":[0,1.5]}}`, `{"attack":{"to":[4,4]}}`, `{"move":{"ship":"x","to":[0,1]}}`,
		`{"attack":{"to":[1,1]},"move":{"ship":"w","to":[0,3]}}`, `[1,2]`, `{"attack":{"to":["1",1]}}`,
		"\xff\xfe", `{"attack":{"to":[99999999999999999999,1]}}`, `{"attack":{"to":[1,1]}} trailing`,
	} {
		f.Add(s)
	}
	cfg := DefaultConfig()
	cfg.Listeners[0].Address = "127.0.0.1:0"
	cfg.ResultLog, cfg.ReplayDir = "", ""
	cfg.Limits.MaxConnectionsPerIP = 1024
	cfg.Limits.ActionTimeout = 5 * time.Second
	s, err := New(cfg, nil)
	if err != nil {
		f.Fatal(err)
	}
	if err := s.Listen(); err != nil {
		f.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Serve(ctx) }()
	f.Cleanup(func() {
		cancel()
		<-done
	})
	addr := s.Addrs()[0].String()
	rules := submarine.DefaultRules()
	f.Fuzz(func(t *testing.T, line string) {
		line, _, _ = strings.Cut(line, "\n")
		var cs [2]net.Conn
		var rs [2]*bufio.Reader
		for p := range 2 {
			c, err := net.Dial("tcp", addr)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			_ = c.SetDeadline(time.Now().Add(10 * time.Second))
			cs[p], rs[p] = c, bufio.NewReader(c)
		}
		expect := func(p int, want string) string {
			t.Helper()
			got, err := rs[p].ReadString('\n')
			if err != nil {
				t.Fatalf("P%d: want %q, got %q, %v", p+1, want, got, err)
			}
			got = strings.TrimSuffix(got, "\n")
			if want != "" && got != want {
				t.Fatalf("P%d: got %q, want %q", p+1, got, want)
			}
			return got
		}
		for p, pl := range []string{p1Place, p2Place} {
			expect(p, greet)
			io.WriteString(cs[p], pl+"\n")
		}
		expect(0, protocol.YourTurn)
		expect(1, protocol.Waiting)
		io.WriteString(cs[0], line+"\n")
		var outcome [2]int
		for p := range 2 {
			res, err := subwire.DecodeResult(protocol.Classic, []byte(expect(p, "")), rules, p == 0)
			if err != nil {
				t.Fatalf("P%d: %v", p+1, err)
			}
			outcome[p] = res.Outcome
		}
		switch {
		case outcome == [2]int{protocol.Lost, protocol.Won}:
			expect(0, protocol.YouLose)
			expect(1, protocol.YouWin)
		case outcome == [2]int{protocol.NoOutcome, protocol.NoOutcome}:
			expect(1, protocol.YourTurn)
			expect(0, protocol.Waiting)
			return // a legal action: the game goes on
		default:
			t.Fatalf("outcomes %v after %q", outcome, line)
		}
		for p := range 2 {
			b, err := io.ReadAll(rs[p])
			if err != nil || len(bytes.TrimSpace(b)) > 0 {
				t.Fatalf("P%d: after the end line: %q, %v", p+1, b, err)
			}
		}
	})
}

// FuzzReadLine checks the server's line reader against protocol.LineReader:
// the same lines until the first error, which is of the same kind; no line
// is longer than the limit.
func FuzzReadLine(f *testing.F) {
	f.Add([]byte("one\ntwo\r\nthree"), uint16(300))
	f.Add([]byte("a\n\n\nb\r\r\n"), uint16(256))
	f.Add(bytes.Repeat([]byte("x"), 5000), uint16(4000))
	f.Add(append(bytes.Repeat([]byte("y"), 300), '\n'), uint16(299))
	f.Add(append(bytes.Repeat([]byte("y"), 300), '\r', '\n'), uint16(300))
	f.Fuzz(func(t *testing.T, in []byte, limit uint16) {
		max := int(limit%8192) + 1
		br := bufio.NewReaderSize(bytes.NewReader(in), readBufSize)
		lr := protocol.NewLineReader(bytes.NewReader(in), max)
		for {
			want, werr := lr.ReadLine()
			got, more, err := readLineInto(br, max)
			if (err == nil) != (werr == nil) {
				t.Fatalf("server reader %v, protocol %v", err, werr)
			}
			if err != nil {
				if errors.Is(err, protocol.ErrLineTooLong) != errors.Is(werr, protocol.ErrLineTooLong) {
					t.Fatalf("server reader %v, protocol %v", err, werr)
				}
				return
			}
			if !bytes.Equal(*got, want) {
				t.Fatalf("server reader %q, protocol %q", *got, want)
			}
			if len(*got) > max {
				t.Fatalf("a line of %d bytes with a limit of %d", len(*got), max)
			}
			if more && br.Buffered() == 0 {
				t.Fatal("more without buffered input")
			}
			putLine(got)
		}
	})
}

// FuzzSession feeds arbitrary bytes, as one client, to a game against an
// honest random client over net.Pipe (in a synctest bubble, so timeouts
// cost nothing) and checks that the server does not panic, that the game
// ends, that the honest client gets only well-formed lines and is told it
// won — unless the fuzzed client really sank its whole fleet.
func FuzzSession(f *testing.F) {
	for _, s := range []string{
		p2Place + "\n",
		p2Place + "\n" + `{"attack":{"to":[0,0]}}` + "\n",
		p2Place + "\n" + `{"attack":{"to":[0,0]}}` + "\n" + `{"attack":{"to":[0,0]}}` + "\n",
		"garbage\n", "\xff\xfe\n", `{"w":[0,0.5],"c":[2,0],"s":[4,0]}` + "\n", "",
		p2Place + "\n" + strings.Repeat("x", 70000) + "\n",
		p2Place, p2Place + "\n{\"move\":{\"ship\":\"w\",\"to\":[1,4]}}\n",
	} {
		f.Add([]byte(s), uint8(0))
		f.Add([]byte(s), uint8(3))
	}
	rules := submarine.DefaultRules()
	f.Fuzz(func(t *testing.T, in []byte, mode uint8) {
		fuzzSession(t, DefaultConfig(), in, mode, func(t *testing.T, c net.Conn) {
			var last subwire.Result
			ends, err := playRandomConn(c, protocol.Classic, rules, 5, "", clientOpts{last: &last})
			if err != nil {
				t.Fatalf("honest client: %v (ends %v)", err, ends)
			}
			if len(ends) != 1 {
				t.Fatalf("honest client: ends %v", ends)
			}
			if ends[0] != protocol.EndWin && !(ends[0] == protocol.EndLose && last.View.Me.Alive == 0) {
				t.Fatalf("honest client: %v with ships %v left", ends[0], last.View.Me.Alive)
			}
		})
	})
}

// fuzzSession runs one game of a server with cfg's first listener over
// net.Pipe in a synctest bubble (timeouts cost nothing): a fuzzed client
// reads everything the server sends and writes in once greeted, then
// closes (mode&2) or stays silent; it connects first when mode&1. honest
// plays the other client on its connection and checks how it went (t is
// the bubble's).
func fuzzSession(t *testing.T, cfg Config, in []byte, mode uint8, honest func(t *testing.T, c net.Conn)) {
	synctest.Test(t, func(t *testing.T) {
		cfg.ResultLog, cfg.ReplayDir = "", ""
		cfg.Seed = 1
		pl := newPipeListener()
		s, err := New(cfg, nil)
		if err != nil {
			t.Fatal(err)
		}
		s.listen = func(string, string) (net.Listener, error) { return pl, nil }
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() { done <- s.Serve(ctx) }()
		defer func() {
			cancel()
			if err := <-done; err != nil {
				t.Error(err)
			}
		}()
		fuzzFirst, closeAfter := mode&1 != 0, mode&2 != 0
		var fz, hc *pipeClient
		if fuzzFirst {
			fz, hc = pl.dial(), pl.dial()
		} else {
			hc, fz = pl.dial(), pl.dial()
		}
		fuzzDone := make(chan struct{})
		go func() {
			defer close(fuzzDone)
			greeted := make(chan struct{})
			go func() {
				line, _ := fz.r.ReadString('\n')
				close(greeted)
				if line != "" {
					_, _ = io.Copy(io.Discard, fz.r)
				}
			}()
			<-greeted
			_, _ = fz.c.Write(in)
			if closeAfter {
				fz.c.Close()
			}
		}()
		honest(t, hc.c)
		hc.c.Close()
		fz.c.Close()
		<-fuzzDone
	})
}
