package protocol_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/protocol"
)

func TestDialect(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want protocol.Dialect
	}{{"classic", protocol.Classic}, {"submarine-py", protocol.SubmarinePy}, {"submarine_py", protocol.SubmarinePy}, {" Classic ", protocol.Classic}} {
		got, err := protocol.ParseDialect(tc.in)
		require.NoError(t, err)
		require.Equal(t, tc.want, got)
	}
	_, err := protocol.ParseDialect("ruby")
	require.ErrorContains(t, err, `unknown dialect "ruby"`)
	require.Equal(t, "classic", protocol.Classic.String())
	require.Equal(t, "submarine-py", protocol.SubmarinePy.String())
	require.Equal(t, "you are connected. please send me initial state.", protocol.Classic.Greeting())
	require.Equal(t, "This is a submarine_py server.  Tell me your name.", protocol.SubmarinePy.Greeting())
	require.Equal(t, "even", protocol.Classic.DrawLine())
	require.Equal(t, "draw", protocol.SubmarinePy.DrawLine())
	require.Equal(t, "round12. please send me initial state.", protocol.SeriesRound(12))
}

func TestParseGreeting(t *testing.T) {
	for _, tc := range []struct {
		line    string
		dialect protocol.Dialect
		round   int
	}{
		{"you are connected. please send me initial state.", protocol.Classic, 0},
		{"you are connected. please send me initial state.\r", protocol.Classic, 0},
		{"round1. please send me initial state.", protocol.Classic, 1},
		{"round37. please send me initial state.", protocol.Classic, 37},
		{"This is a submarine_py server.  Tell me your name.", protocol.SubmarinePy, 0},
	} {
		d, n, err := protocol.ParseGreeting([]byte(tc.line))
		require.NoError(t, err, tc.line)
		require.Equal(t, tc.dialect, d, tc.line)
		require.Equal(t, tc.round, n, tc.line)
	}
	for _, bad := range []string{"", "hello", "round0. please send me initial state.", "round-1. please send me initial state.", "roundx. please send me initial state.", "round01. please send me initial state.", "This is a submarine_py server. Tell me your name."} {
		_, _, err := protocol.ParseGreeting([]byte(bad))
		require.ErrorIs(t, err, protocol.ErrUnexpected, bad)
		var pe *protocol.ProtocolError
		require.ErrorAs(t, err, &pe)
		require.Equal(t, bad, pe.Line)
	}
}

func TestEndLines(t *testing.T) {
	for _, tc := range []struct {
		line string
		end  protocol.End
		last bool
	}{
		{"you win", protocol.EndWin, false}, {"you lose", protocol.EndLose, false}, {"even", protocol.EndDraw, false},
		{"draw", protocol.EndDraw, false}, {"you win.", protocol.EndWin, true}, {"you lose.", protocol.EndLose, true},
		{"even.", protocol.EndDraw, true}, {"your turn", protocol.NotEnd, false}, {"you winner", protocol.NotEnd, false},
	} {
		e, last := protocol.ParseEnd([]byte(tc.line))
		require.Equal(t, tc.end, e, tc.line)
		require.Equal(t, tc.last, last, tc.line)
	}
	require.Equal(t, "you lose.", protocol.Classic.EndLine(protocol.EndLose, true))
	require.Equal(t, "even", protocol.Classic.EndLine(protocol.EndDraw, false))
	require.Equal(t, "draw", protocol.SubmarinePy.EndLine(protocol.EndDraw, false))
	require.Equal(t, "", protocol.Classic.EndLine(protocol.NotEnd, false))
}

func TestSeriesTrailer(t *testing.T) {
	lines := protocol.SeriesTrailer(protocol.Tally{Win: 3, Even: 1, Lose: 2})
	require.Equal(t, []string{"", "####################", "win 3", "even 1", "lose 2"}, lines)
	var bs [][]byte
	for _, l := range lines {
		bs = append(bs, []byte(l))
	}
	got, err := protocol.ParseTrailer(bs)
	require.NoError(t, err)
	require.Equal(t, protocol.Tally{Win: 3, Even: 1, Lose: 2}, got)

	for i, bad := range []string{"x", "###", "win three", "even -1", "loss 2"} {
		cp := append([][]byte(nil), bs...)
		cp[i] = []byte(bad)
		_, err := protocol.ParseTrailer(cp)
		require.ErrorIs(t, err, protocol.ErrUnexpected, bad)
		require.ErrorContains(t, err, bad)
	}
}

func TestProtocolErrorQuotesPrefix(t *testing.T) {
	// Cut on a rune boundary. (A decoder's error quoting a long line:
	// game/submarine/wire's TestDecodeActionQuotesPrefix.)
	pe := protocol.NewProtocolError([]byte(strings.Repeat("é", 100)), errors.New("x"))
	require.Len(t, pe.Line, 120)
	pe = protocol.NewProtocolError([]byte("a"+strings.Repeat("é", 100)), errors.New("x"))
	require.Len(t, pe.Line, 119)
	require.Equal(t, `protocol: invalid JSON: in line "hello"`, protocol.NewProtocolError([]byte("hello"), protocol.ErrSyntax).Error())
}

func TestParseTurn(t *testing.T) {
	for _, tt := range []struct {
		line     string
		mine, ok bool
	}{
		{protocol.YourTurn, true, true},
		{protocol.Waiting, false, true},
		{"your turn ", false, false},
		{"", false, false},
		{protocol.YouWin, false, false},
	} {
		mine, ok := protocol.ParseTurn([]byte(tt.line))
		require.Equal(t, tt.ok, ok, "%q", tt.line)
		require.Equal(t, tt.mine, mine, "%q", tt.line)
	}
}
