package server

import (
	"bufio"
	"io"
	"net"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	bsrecord "github.com/kaisen-ai/kaisen/game/battleship/record"
	bswire "github.com/kaisen-ai/kaisen/game/battleship/wire"
	"github.com/kaisen-ai/kaisen/protocol"
	"github.com/kaisen-ai/kaisen/replay"
)

// verifyBSReplay reads the replay of battleship game r, checks it against
// the rules engine and against the result log line, and returns it.
func verifyBSReplay(t *testing.T, ts *testServer, r Result) *bsrecord.Replay {
	t.Helper()
	require.NotEmpty(t, r.Replay, "game %s has no replay", r.Game)
	require.Equal(t, r.Game+".jsonl", r.Replay)
	path := filepath.Join(ts.cfg.ReplayDir, r.Replay)
	game, err := replay.GameOfFile(path)
	require.NoError(t, err)
	require.Equal(t, bsrecord.Name, game)
	rp, err := bsrecord.ReadFile(path)
	require.NoError(t, err)
	require.NoError(t, bsrecord.Verify(rp))
	require.Equal(t, r.Seed, rp.Header.Seed)
	require.Equal(t, r.First, rp.Header.First)
	require.Equal(t, r.Actions, rp.Result.Shots[0]+rp.Result.Shots[1])
	require.Equal(t, r.Actions, len(rp.Shots))
	require.Equal(t, r.Winner, rp.Result.Winner)
	var seats []int
	for _, f := range rp.Result.Forfeits {
		seats = append(seats, f.Seat)
		require.Contains(t, f.Reason, r.Reason, "the forfeit's reason starts with the result log's")
	}
	require.Equal(t, r.Forfeits, seats)
	return rp
}

// forfeitKinds lists the replay's forfeits as "seat:kind".
func forfeitKinds(rp *bsrecord.Replay) []string {
	var out []string
	for _, f := range rp.Result.Forfeits {
		out = append(out, string(rune('0'+f.Seat))+":"+f.Kind)
	}
	return out
}

// TestBattleshipHouseReplay: a game against an explaining house AI records
// its reasons; the replay directory holds the replay and nothing else (no
// temporary file is left behind).
func TestBattleshipHouseReplay(t *testing.T) {
	checkLeaks(t)
	ts := startServer(t, bsConfig(t, "gridbot"))
	g, err := bsClient(ts.addr(0), "bs-random", 5)
	require.NoError(t, err)
	r := ts.waitResults(t, 1)[0]
	rp := verifyBSReplay(t, ts, r)
	require.Equal(t, g.Shots, rp.Result.Shots)
	require.Equal(t, "gridbot", rp.Header.Players[1].Name)
	for _, s := range rp.Shots {
		require.Equal(t, s.Seat == 1, s.Decision != nil, "shot %d: only the house AI explains its shots", s.N)
	}
	entries, err := os.ReadDir(ts.cfg.ReplayDir)
	require.NoError(t, err)
	require.Len(t, entries, 1)
	require.Equal(t, r.Replay, entries[0].Name())
}

// TestBattleshipAbortedReplay: a battleship game still running when the
// shutdown grace is over is logged with the shots really played and gets a
// partial replay marked aborted, which verifies.
func TestBattleshipAbortedReplay(t *testing.T) {
	checkLeaks(t)
	cfg := bsConfig(t, "gridbot")
	cfg.ShutdownGrace = 100 * time.Millisecond
	ts := startServer(t, cfg)
	c, err := net.Dial("tcp", ts.addr(0))
	require.NoError(t, err)
	defer c.Close()
	br := bufio.NewReader(c)
	require.Equal(t, bswire.Greeting, readLine(t, br, c))
	_, err = io.WriteString(c, bsValidFleet+"\n")
	require.NoError(t, err)
	require.Equal(t, protocol.YourTurn, readLine(t, br, c))
	_, err = io.WriteString(c, `{"shoot":{"to":[0,0]}}`+"\n")
	require.NoError(t, err)
	for line := ""; line != protocol.YourTurn; { // the house shoots meanwhile
		line = readLine(t, br, c)
		require.NotEqual(t, protocol.YouLose, line)
	}
	ts.stop(t) // the client thinks past the grace
	requireEOF(t, c)
	r := ts.results(t)[0]
	require.Equal(t, OutcomeAborted, r.Outcome)
	require.Equal(t, ReasonShutdown, r.Reason)
	require.GreaterOrEqual(t, r.Actions, 2, "the client's shot and the house's")
	rp := verifyBSReplay(t, ts, r)
	require.Equal(t, replay.OutcomeAborted, rp.Result.Outcome)
	require.Empty(t, rp.Result.Forfeits)
}
