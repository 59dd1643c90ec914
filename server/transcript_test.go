package server

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	subrecord "github.com/kaisen-ai/kaisen/game/submarine/record"
)

const (
	referenceTranscript = "../game/submarine/wire/testdata/reference/classic-reference-transcript.txt" // the byte-exact capture (shared/spec/testdata)
	kaisenTranscripts   = "testdata/kaisen-transcripts.txt"
)

// verifyReplay reads the replay of r and checks it against the rules engine.
func verifyReplay(t *testing.T, ts *testServer, r Result) *subrecord.Replay {
	t.Helper()
	require.NotEmpty(t, r.Replay, "game %s has no replay", r.Game)
	rp, err := subrecord.ReadFile(filepath.Join(ts.cfg.ReplayDir, r.Replay))
	require.NoError(t, err)
	require.NoError(t, subrecord.Verify(rp))
	require.Equal(t, r.Seed, rp.Header.Seed)
	require.Equal(t, r.First, rp.Header.First)
	require.Equal(t, r.Actions, rp.Result.Actions)
	require.Equal(t, r.Winner, rp.Result.Winner)
	return rp
}

// TestReferenceTranscript plays every section of the reference capture in
// which the reference server behaves as the protocol intends, with two
// scripted clients, and checks every line each client receives byte for byte.
func TestReferenceTranscript(t *testing.T) {
	secs := loadTranscript(t, referenceTranscript)
	tests := []struct {
		section string
		winner  int
		reason  string
		actions int
	}{
		{"1. SCRIPTED GAME", 0, ReasonSunk, 17},
		{"2. REAL GAME", 0, ReasonSunk, -1},
		{"3. ill_move_diag", 1, ReasonIllegal, 1},
		{"3. ill_move_occupied", 1, ReasonIllegal, 1},
		{"3. ill_move_same", 1, ReasonIllegal, 1},
		{"3. ill_move_oob", 1, ReasonIllegal, 1},
		{"3. ill_move_unknown_ship", 1, ReasonIllegal, 1},
		{"3. ill_empty", 1, ReasonIllegal, 1},
		{"4. SAME ILLEGAL ATTACK", 1, ReasonIllegal, 1},
	}
	for _, tt := range tests {
		t.Run(tt.section, func(t *testing.T) {
			checkLeaks(t)
			sec := findSection(t, secs, tt.section)
			require.False(t, sec.elided)
			ts := startServer(t, testConfig(t))
			require.NoError(t, runSection(ts.addr(0), sec, nil))
			rs := ts.waitResults(t, 1)
			require.Len(t, rs, 1)
			r := rs[0]
			require.Equal(t, OutcomeWin, r.Outcome)
			require.Equal(t, tt.winner, r.Winner)
			require.Equal(t, tt.reason, r.Reason)
			if tt.actions >= 0 {
				require.Equal(t, tt.actions, r.Actions)
			}
			require.Equal(t, 0, r.First)
			require.Equal(t, "classic", r.Dialect)
			require.True(t, strings.HasPrefix(r.Players[0].Addr, "127.0.0.1:"), r.Players[0].Addr)
			require.False(t, r.End.Before(r.Start))
			verifyReplay(t, ts, r)
		})
	}
}

// TestReferenceDraw plays section 5 of the capture (two clients shuttle one
// ship each for 10000 actions) and checks the lines the capture shows: the
// start and the end of each connection, "even" to both.
func TestReferenceDraw(t *testing.T) {
	checkLeaks(t)
	sec := findSection(t, loadTranscript(t, referenceTranscript), "5. DRAW")
	require.True(t, sec.elided)
	ts := startServer(t, testConfig(t))
	// Expand the capture: the shown lines are the first and the last ones of
	// each connection; the clients play the same shuttle all along.
	errs := make(chan error, 2)
	conns := dialPair(t, ts.addr(0))
	for p := range 2 {
		go func() { errs <- shuttle(conns[p], p, sec, sec.events[p]) }()
	}
	require.NoError(t, <-errs)
	require.NoError(t, <-errs)
	r := ts.waitResults(t, 1)[0]
	require.Equal(t, OutcomeDraw, r.Outcome)
	require.Equal(t, -1, r.Winner)
	require.Equal(t, ReasonDrawLimit, r.Reason)
	require.Equal(t, 10000, r.Actions)
	verifyReplay(t, ts, r)
}

// TestKaisenTranscripts plays the hand-derived transcripts: forfeits (each
// while another game on the same server waits in its handshake and then
// finishes normally), a series and the submarine-py dialect.
func TestKaisenTranscripts(t *testing.T) {
	secs := loadTranscript(t, kaisenTranscripts)
	background := findSection(t, loadTranscript(t, referenceTranscript), "1. SCRIPTED GAME")
	type want struct {
		outcome  string
		winner   int
		reason   string
		forfeits []int
		games    int
	}
	p1Forfeit := func(reason string) want { return want{OutcomeWin, 1, reason, []int{0}, 1} }
	tests := []struct {
		name       string
		listener   func(*ListenerConfig)
		want       want
		background bool
	}{
		{name: "badjson", want: p1Forfeit(ReasonProtocol), background: true},
		{name: "float", want: p1Forfeit(ReasonProtocol), background: true},
		{name: "float_whole", want: p1Forfeit(ReasonProtocol), background: true},
		{name: "string_coord", want: p1Forfeit(ReasonProtocol), background: true},
		{name: "arity", want: p1Forfeit(ReasonProtocol), background: true},
		{name: "long_line", want: p1Forfeit(ReasonLineTooLong), background: true},
		{name: "silent", want: p1Forfeit(ReasonTimeout), background: true},
		{name: "disconnect_turn", want: p1Forfeit(ReasonDisconnect), background: true},
		{name: "disconnect_waiting", want: want{OutcomeWin, 0, ReasonDisconnect, []int{1}, 1}, background: true},
		{name: "out_of_turn", want: want{OutcomeWin, 0, ReasonOutOfTurn, []int{1}, 1}, background: true},
		{name: "both_keys", want: want{OutcomeWin, 0, ReasonDisconnect, []int{1}, 1}, background: true},
		{name: "attack_oob", want: p1Forfeit(ReasonIllegal), background: true},
		{name: "place_overlap", want: p1Forfeit(ReasonPlacement), background: true},
		{name: "place_oob", want: p1Forfeit(ReasonPlacement), background: true},
		{name: "place_extra", want: p1Forfeit(ReasonPlacement), background: true},
		{name: "place_only_w", want: p1Forfeit(ReasonPlacement), background: true},
		{name: "place_float", want: p1Forfeit(ReasonProtocol), background: true},
		{name: "place_garbage", want: p1Forfeit(ReasonProtocol), background: true},
		{name: "place_p2", want: want{OutcomeWin, 0, ReasonPlacement, []int{1}, 1}, background: true},
		{name: "place_both", want: want{OutcomeDraw, -1, ReasonPlacement, []int{0, 1}, 1}, background: true},
		{
			name:     "series3_alternate",
			listener: func(l *ListenerConfig) { l.Games, l.First = 3, FirstAlternate },
			want:     want{OutcomeWin, 1, ReasonIllegal, []int{0}, 3},
		},
		{
			name: "py_rounded_6x5",
			listener: func(l *ListenerConfig) {
				l.Dialect, l.Width, l.Height, l.Rounded = "submarine-py", 6, 5, true
			},
			want: want{OutcomeWin, 0, ReasonSunk, nil, 1},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkLeaks(t)
			sec := findSection(t, secs, tt.name)
			cfg := testConfig(t)
			cfg.Limits.ActionTimeout = time.Second // the "silent" case waits for it
			cfg.Limits.MaxLineBytes = 65536
			if tt.listener != nil {
				tt.listener(&cfg.Listeners[0])
			}
			ts := startServer(t, cfg)
			// A normal game connects first and waits in its handshake (P1's
			// placement is held back) while the case plays.
			gate := make(chan struct{})
			bgDone := make(chan error, 2)
			if tt.background {
				bgConns := dialPair(t, ts.addr(0))
				for p := range 2 {
					var g <-chan struct{}
					if p == 0 {
						g = gate
					}
					go func() { bgDone <- script(bgConns[p], background.events[p], g) }()
				}
			}
			require.NoError(t, runSection(ts.addr(0), sec, nil))
			rs := ts.waitResults(t, tt.want.games)
			if tt.background {
				close(gate)
				for range 2 {
					select {
					case err := <-bgDone:
						require.NoError(t, err, "the concurrent game")
					case <-time.After(10 * time.Second):
						t.Fatal("the concurrent game did not finish")
					}
				}
				rs = ts.waitResults(t, 2)
				require.Equal(t, ReasonSunk, rs[1].Reason, "the concurrent game")
				require.Equal(t, 0, rs[1].Winner)
				verifyReplay(t, ts, rs[1])
			}
			require.Len(t, rs, tt.want.games+boolInt(tt.background))
			r := rs[len(rs)-1-boolInt(tt.background)]
			require.Equal(t, tt.want.outcome, r.Outcome)
			if tt.want.winner >= 0 {
				require.Equal(t, tt.want.winner, r.Winner)
			}
			require.Equal(t, tt.want.reason, r.Reason, r.Detail)
			require.Equal(t, tt.want.forfeits, r.Forfeits)
			for _, r := range rs {
				verifyReplay(t, ts, r)
			}
			if len(tt.want.forfeits) > 0 {
				logs := ts.logs.String()
				require.Contains(t, logs, `"msg":"forfeit"`)
				require.Contains(t, logs, `"reason":"`+tt.want.reason+`"`)
				require.Contains(t, logs, `"game":"`+r.Game+`"`)
			}
		})
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// dialPair connects two clients in order (P1 first).
func dialPair(t *testing.T, addr string) [2]net.Conn {
	t.Helper()
	var cs [2]net.Conn
	for p := range 2 {
		c, err := net.Dial("tcp", addr)
		require.NoError(t, err)
		t.Cleanup(func() { c.Close() })
		cs[p] = c
	}
	return cs
}

// shuttle plays section 5's clients: seat 0 moves w between [0,1] and [0,0],
// seat 1 moves s between [4,3] and [4,4], until the game ends. Everything it
// sends and receives must start with the section's lines before "..." and end
// with those after it.
func shuttle(c net.Conn, seat int, sec *section, evs []tevent) error {
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(60 * time.Second))
	r := bufio.NewReader(c)
	var got []tevent
	sendLine := func(s string) error {
		got = append(got, tevent{line: s})
		_, err := io.WriteString(c, s+"\n")
		return err
	}
	ship, targets := "w", [2]string{"[0,1]", "[0,0]"}
	if seat == 1 {
		ship, targets = "s", [2]string{"[4,3]", "[4,4]"}
	}
	moves := 0
	for {
		line, err := r.ReadString('\n')
		if errors.Is(err, io.EOF) && line == "" {
			got = append(got, tevent{fromServer: true, eof: true})
			break
		}
		if err != nil {
			return err
		}
		line = strings.TrimSuffix(line, "\n")
		got = append(got, tevent{fromServer: true, line: line})
		switch {
		case strings.HasSuffix(line, "please send me initial state."):
			pl := `{"w":[0,0],"c":[2,0],"s":[4,0]}`
			if seat == 1 {
				pl = `{"w":[0,4],"c":[2,4],"s":[4,4]}`
			}
			if err := sendLine(pl); err != nil {
				return err
			}
		case line == "your turn":
			if err := sendLine(`{"move":{"ship":"` + ship + `","to":` + targets[moves%2] + `}}`); err != nil {
				return err
			}
			moves++
		}
	}
	got = append(got, tevent{eof: true})
	head, tail := evs[:sec.cut[seat]], evs[sec.cut[seat]:]
	if len(got) < len(head)+len(tail) {
		return fmt.Errorf("seat %d: %d events, want at least %d", seat, len(got), len(head)+len(tail))
	}
	for i, ev := range head {
		if got[i] != ev {
			return fmt.Errorf("seat %d: event %d: got %+v, want %+v", seat, i, got[i], ev)
		}
	}
	off := len(got) - len(tail)
	for i, ev := range tail {
		if got[off+i] != ev {
			return fmt.Errorf("seat %d: event %d from the end: got %+v, want %+v", seat, len(tail)-i, got[off+i], ev)
		}
	}
	if moves != 5000 {
		return fmt.Errorf("seat %d: %d moves, want 5000", seat, moves)
	}
	return nil
}
