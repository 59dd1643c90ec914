package protocol_test

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/protocol"
)

// readAll reads every line; an over-long line shows up as "<too long>".
func readAll(t testing.TB, lr *protocol.LineReader) []string {
	t.Helper()
	var out []string
	for {
		line, err := lr.ReadLine()
		if errors.Is(err, io.EOF) {
			return out
		}
		if errors.Is(err, protocol.ErrLineTooLong) {
			out = append(out, "<too long>")
			continue
		}
		require.NoError(t, err)
		out = append(out, string(line))
	}
}

func TestLineReader(t *testing.T) {
	for _, tc := range []struct {
		name  string
		in    string
		max   int
		lines []string
	}{
		{"plain", "your turn\nwaiting\n", 100, []string{"your turn", "waiting"}},
		{"crlf", "your turn\r\nwaiting\r\n", 100, []string{"your turn", "waiting"}},
		{"one cr only", "a\r\r\n", 100, []string{"a\r"}},
		{"no final newline", "you win", 100, []string{"you win"}},
		{"blank lines", "\n\nx\n", 100, []string{"", "", "x"}},
		{"exactly max", "12345\n", 5, []string{"12345"}},
		{"exactly max with crlf", "12345\r\n", 5, []string{"12345"}},
		{"over max", "123456\nok\n", 5, []string{"<too long>", "ok"}},
		{"over max unterminated", "ok\n123456", 5, []string{"ok", "<too long>"}},
		{"far over max", strings.Repeat("x", 100000) + "\nafter\n", 20, []string{"<too long>", "after"}},
		{"far over max at eof", strings.Repeat("x", 100000), 20, []string{"<too long>"}},
		{"large limit", strings.Repeat("y", 70000) + "\n" + strings.Repeat("z", 200000) + "\nend", 100000, []string{strings.Repeat("y", 70000), "<too long>", "end"}},
		{"invalid utf8 passes through", "\xff\xfe\n", 10, []string{"\xff\xfe"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			require.Equal(t, tc.lines, readAll(t, protocol.NewLineReader(strings.NewReader(tc.in), tc.max)))
			require.Equal(t, tc.lines, readAll(t, protocol.NewLineReader(iotest.OneByteReader(strings.NewReader(tc.in)), tc.max)), "one byte at a time")
		})
	}
}

func TestLineReaderTooLongError(t *testing.T) {
	lr := protocol.NewLineReader(strings.NewReader(strings.Repeat("a", 500)+"\n"), 200)
	_, err := lr.ReadLine()
	require.ErrorIs(t, err, protocol.ErrLineTooLong)
	var pe *protocol.ProtocolError
	require.ErrorAs(t, err, &pe)
	require.Equal(t, strings.Repeat("a", protocol.MaxQuote), pe.Line)
	require.Contains(t, err.Error(), "more than 200 bytes")
}

func TestLineReaderDoesNotBufferLongLines(t *testing.T) {
	// An endless line: the reader must give up after about max bytes instead
	// of reading (and buffering) it all.
	src := &countingReader{}
	lr := protocol.NewLineReader(src, 1000)
	_, err := lr.ReadLine()
	require.ErrorIs(t, err, protocol.ErrLineTooLong)
	require.Less(t, src.n, 5000)
}

type countingReader struct{ n int }

func (c *countingReader) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 'x'
	}
	c.n += len(p)
	return len(p), nil
}

func TestLineReaderReadError(t *testing.T) {
	boom := errors.New("boom")
	lr := protocol.NewLineReader(io.MultiReader(strings.NewReader("ok\npart"), iotest.ErrReader(boom)), 0)
	line, err := lr.ReadLine()
	require.NoError(t, err)
	require.Equal(t, "ok", string(line))
	_, err = lr.ReadLine()
	require.ErrorIs(t, err, boom)
}

func TestLineReaderReturnsCopies(t *testing.T) {
	lr := protocol.NewLineReader(bytes.NewReader([]byte("first\nsecond\n")), 0)
	a, err := lr.ReadLine()
	require.NoError(t, err)
	b, err := lr.ReadLine()
	require.NoError(t, err)
	require.Equal(t, "first", string(a))
	require.Equal(t, "second", string(b))
}
