package server

import (
	"bufio"
	"context"
	"errors"
	"io"
	"math"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/game/submarine"
	"github.com/kaisen-ai/kaisen/ladder"
	"github.com/kaisen-ai/kaisen/protocol"
)

// testLadder opens a ladder in a temp dir with the bots registered and
// returns it with their tokens.
func testLadder(t *testing.T, bots ...string) (*ladder.Store, map[string]string) {
	t.Helper()
	st, err := ladder.Open(context.Background(), filepath.Join(t.TempDir(), "ladder.db"))
	require.NoError(t, err)
	t.Cleanup(func() { _ = st.Close() })
	tokens := map[string]string{}
	for _, b := range bots {
		tok, err := st.Register(context.Background(), b)
		require.NoError(t, err)
		tokens[b] = tok
	}
	return st, tokens
}

// firstLine connects, sends line and returns the first line the server
// answers ("" when it closes without one).
func firstLine(t *testing.T, addr, line string) string {
	t.Helper()
	return firstLineFrom(t, nil, addr, line)
}

// firstLineFrom is firstLine from local address from (nil: any).
func firstLineFrom(t *testing.T, from net.Addr, addr, line string) string {
	t.Helper()
	d := net.Dialer{LocalAddr: from}
	c, err := d.Dial("tcp", addr)
	require.NoError(t, err)
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(10 * time.Second))
	_, err = c.Write([]byte(line + "\n"))
	require.NoError(t, err)
	got, _ := bufio.NewReader(c).ReadString('\n')
	return strings.TrimSuffix(got, "\n")
}

// authed returns a clientOpts that sends bot's auth line first.
func authed(name, token string) clientOpts {
	return clientOpts{conn: func(c net.Conn) { _, _ = c.Write([]byte("auth " + name + " " + token + "\n")) }}
}

func TestRatedRefusals(t *testing.T) {
	st, tok := testLadder(t, "alpha", "beta")
	cfg := testConfig(t)
	cfg.Ladder = st
	ts := startServer(t, cfg)
	addr := ts.addr(0)
	fake := ladder.TokenPrefix + strings.Repeat("A", len(tok["alpha"])-len(ladder.TokenPrefix))
	tests := []struct {
		name, line, want string
	}{
		{"classic client without auth", "0,0 1,1 2,2 3,3", "refused: bad_auth_line: "},
		{"auth without token", "auth alpha", "refused: bad_auth_line: "},
		{"wrong token", "auth alpha " + fake, "refused: auth_failed: wrong bot name or token"},
		{"another bot's token", "auth alpha " + tok["beta"], "refused: auth_failed: wrong bot name or token"},
		{"unknown bot", "auth gamma " + tok["alpha"], "refused: auth_failed: wrong bot name or token"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := firstLine(t, addr, tt.line)
			assert.True(t, strings.HasPrefix(got, tt.want), "got %q, want %q...", got, tt.want)
		})
	}
	t.Run("impersonation", func(t *testing.T) {
		c, err := net.Dial("tcp", addr)
		require.NoError(t, err)
		defer c.Close()
		_, err = c.Write([]byte("auth alpha " + tok["alpha"] + "\n"))
		require.NoError(t, err)
		require.Eventually(t, func() bool { return ts.Server.waitingBots() == 1 }, 5*time.Second, 5*time.Millisecond)
		assert.Equal(t, "refused: already_connected: bot alpha is connected already", firstLine(t, addr, "auth alpha "+tok["alpha"]))
	})
	for _, secret := range []string{tok["alpha"], tok["beta"], fake} { // right and wrong tokens alike
		assert.NotContains(t, ts.logs.String(), secret, "a token reached the log")
		assert.NotContains(t, ts.logs.String(), secret[len(ladder.TokenPrefix):])
	}
}

// waitingBots is the number of bots in the lobbies (tests).
func (s *Server) waitingBots() int {
	n := 0
	for _, l := range s.lns {
		l.lobby.mu.Lock()
		n += len(l.lobby.waiting)
		l.lobby.mu.Unlock()
	}
	return n
}

func TestRatedBruteForceLimited(t *testing.T) {
	st, tok := testLadder(t, "alpha")
	cfg := testConfig(t)
	cfg.Ladder = st
	cfg.Rated.AuthMaxFailures = 4 // rated.auth_max_failures
	ts := startServer(t, cfg)
	wrong := ladder.TokenPrefix + strings.Repeat("B", len(tok["alpha"])-len(ladder.TokenPrefix))
	for range cfg.Rated.AuthMaxFailures {
		require.Equal(t, "refused: auth_failed: wrong bot name or token", firstLine(t, ts.addr(0), "auth alpha "+wrong))
	}
	// Now even the right token is refused without a check: the network is
	// locked out for the window.
	got := firstLine(t, ts.addr(0), "auth alpha "+tok["alpha"])
	assert.True(t, strings.HasPrefix(got, "refused: auth_rate_limited: "), got)
	// So is another address of the same /24: the guesser cannot walk
	// around the limit.
	got = firstLineFrom(t, &net.TCPAddr{IP: net.ParseIP("127.0.0.2")}, ts.addr(0), "auth alpha "+tok["alpha"])
	assert.True(t, strings.HasPrefix(got, "refused: auth_rate_limited: "), got)
	assert.NotContains(t, ts.logs.String(), wrong, "a wrong token reached the log")
}

func TestRatedGamesCommittedAndLinked(t *testing.T) {
	st, tok := testLadder(t, "alpha", "beta", "gamma", "delta")
	cfg := testConfig(t)
	cfg.Ladder = st
	ts := startServer(t, cfg)
	rules := submarine.DefaultRules()
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for round := range 2 {
		for i, b := range []string{"alpha", "beta", "gamma", "delta"} {
			wg.Go(func() {
				ends, err := playRandom(ts.addr(0), protocol.Classic, rules, uint64(10*round+i+1), "", authed(b, tok[b]))
				if err == nil && len(ends) != 1 {
					err = errors.New("no end line")
				}
				errs <- err
			})
		}
		wg.Wait()
	}
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}
	ts.stop(t)
	rs := ts.results(t)
	require.Len(t, rs, 4)
	ctx := context.Background()
	seen := map[string]bool{}
	for _, b := range []string{"alpha", "beta", "gamma", "delta"} {
		h, err := st.History(ctx, b)
		require.NoError(t, err)
		assert.Len(t, h, 2, b)
		for _, p := range h {
			seen[p.Game.ID] = true
			assert.Equal(t, b, p.Game.Bots[p.Seat])
			assert.FileExists(t, filepath.Join(cfg.ReplayDir, p.Game.Replay), "the replay of %s", p.Game.ID)
		}
	}
	for _, r := range rs { // the result log and the ladder name the same games
		assert.True(t, seen[r.Game], "game %s of the result log is not in the ladder", r.Game)
		assert.NotEmpty(t, r.Players[0].Bot)
		assert.Equal(t, r.Game+".jsonl", r.Replay)
		rp, err := os.ReadFile(filepath.Join(cfg.ReplayDir, r.Replay))
		require.NoError(t, err)
		for _, p := range r.Players { // a bot that sent no name: its ladder name, in the log and the replay
			assert.Equal(t, p.Bot, p.Name)
			assert.Contains(t, string(rp), `"name":"remote `+p.Addr+" "+p.Bot+`"`)
		}
	}
	want, err := st.Recompute(ctx)
	require.NoError(t, err)
	table, err := st.Table(ctx)
	require.NoError(t, err)
	for _, b := range table {
		assert.Equal(t, want[b.Name], b.Rating, b.Name)
		assert.Equal(t, 2, b.Games)
	}
}

// failingLadder authenticates through a real store but never commits.
type failingLadder struct{ *ladder.Store }

var errDiskFull = errors.New("disk full")

func (failingLadder) RecordGame(context.Context, ladder.Game) (bool, error) {
	return false, errDiskFull
}

func TestRatedResultNotToldWhenNotCommitted(t *testing.T) {
	st, tok := testLadder(t, "alpha", "beta")
	cfg := testConfig(t)
	cfg.Ladder = failingLadder{st}
	ts := startServer(t, cfg)
	rules := submarine.DefaultRules()
	var wg sync.WaitGroup
	var ends [2][]protocol.End
	var errs [2]error
	for i, b := range []string{"alpha", "beta"} {
		wg.Go(func() {
			ends[i], errs[i] = playRandom(ts.addr(0), protocol.Classic, rules, uint64(i+1), "", authed(b, tok[b]))
		})
	}
	wg.Wait()
	for _, err := range errs { // the connection closed where the last result line was due
		assert.ErrorIs(t, err, io.EOF)
	}
	assert.Empty(t, ends[0], "told a result the ladder does not have")
	assert.Empty(t, ends[1], "told a result the ladder does not have")
	rs := ts.waitResults(t, 1)
	assert.Contains(t, rs[0].Detail, "not rated: ")
	assert.Contains(t, rs[0].Detail, errDiskFull.Error())
	_, err := os.Stat(filepath.Join(cfg.ReplayDir, rs[0].Game+".jsonl"))
	assert.NoError(t, err, "the replay is kept")
}

func TestPairByRating(t *testing.T) {
	s := time.Second
	wide := DefaultRated()
	wide.PairWindow, wide.PairWiden = 350, 1 // rated.pair_window, rated.pair_widen
	tests := []struct {
		name string
		r    RatedConfig
		cs   []candidate
		want [][2]int
	}{
		{"one bot waits", DefaultRated(), []candidate{{1500, 0}}, nil},
		{"close ratings pair at once", DefaultRated(), []candidate{{1500, 0}, {1560, 0}}, [][2]int{{0, 1}}},
		{"far ratings wait", DefaultRated(), []candidate{{1500, 0}, {1800, 0}}, nil},
		{"the window widens with waiting", DefaultRated(), []candidate{{1500, 4 * s}, {1800, 0}}, [][2]int{{0, 1}}},
		{"closest rating first", DefaultRated(), []candidate{{1500, 0}, {1700, 0}, {1550, 0}, {1690, 0}}, [][2]int{{0, 2}, {1, 3}}},
		{"the oldest chooses first", DefaultRated(), []candidate{{1600, 10 * s}, {1500, 0}, {1590, 0}}, [][2]int{{0, 2}}},
		{"a wider configured window pairs far ratings", wide, []candidate{{1500, 0}, {1800, 0}}, [][2]int{{0, 1}}},
		{"a slower configured widening keeps them waiting", wide, []candidate{{1500, 40 * s}, {1900, 0}}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, tt.r.pairByRating(tt.cs, nil))
		})
	}
}

// TestPairWhenNoBetterOnline: two bots far apart pair at once when
// neither has a closer opponent connected (a ladder of two plays at the
// speed of its bots); a bot with a closer opponent playing keeps waiting
// for it, within its window.
func TestPairWhenNoBetterOnline(t *testing.T) {
	inf := math.Inf(1)
	tests := []struct {
		name    string
		cs      []candidate
		nearest []float64
		want    [][2]int
	}{
		{"two alone", []candidate{{1500, 0}, {1800, 0}}, []float64{300, 300}, [][2]int{{0, 1}}},
		{"a closer bot is playing", []candidate{{1500, 0}, {1800, 0}}, []float64{20, 300}, nil},
		{"one bot alone waits", []candidate{{1500, 0}}, []float64{inf}, nil},
		{"three: the mutual nearest pair", []candidate{{1500, 0}, {1800, 0}, {2400, 0}}, []float64{300, 300, 600}, [][2]int{{0, 1}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, DefaultRated().pairByRating(tt.cs, tt.nearest))
		})
	}
}

// TestNearestOther: the nearest other rating, the bot itself skipped once.
func TestNearestOther(t *testing.T) {
	sorted := []float64{1400, 1500, 1500, 1800}
	assert.Equal(t, 0.0, nearestOther(sorted, 1500))
	assert.Equal(t, 300.0, nearestOther(sorted, 1800))
	assert.Equal(t, 100.0, nearestOther(sorted, 1400))
	assert.True(t, math.IsInf(nearestOther([]float64{1500}, 1500), 1))
}

func TestRatedConfigNeedsPairing(t *testing.T) {
	st, _ := testLadder(t)
	cfg := testConfig(t)
	cfg.Ladder = st
	cfg.Listeners[0].Opponent = "random"
	_, err := New(cfg, nil)
	require.ErrorIs(t, err, ErrConfig)
	assert.Contains(t, err.Error(), "rated listener pairs bots")
}

// TestRatedShutdownClosesWaitingBots: a bot waiting for an opponent does
// not hold the shutdown up (its idle timeout is 10 minutes).
func TestRatedShutdownClosesWaitingBots(t *testing.T) {
	st, tok := testLadder(t, "alpha")
	cfg := testConfig(t)
	cfg.Ladder = st
	ts := startServer(t, cfg)
	c, err := net.Dial("tcp", ts.addr(0))
	require.NoError(t, err)
	defer c.Close()
	_, err = c.Write([]byte("auth alpha " + tok["alpha"] + "\n"))
	require.NoError(t, err)
	require.Eventually(t, func() bool { return ts.Server.waitingBots() == 1 }, 5*time.Second, 5*time.Millisecond)
	start := time.Now()
	ts.stop(t)
	assert.Less(t, time.Since(start), 5*time.Second)
	_ = c.SetReadDeadline(time.Now().Add(5 * time.Second))
	_, err = bufio.NewReader(c).ReadString('\n')
	assert.ErrorIs(t, err, io.EOF, "the waiting bot's connection is closed")
}
