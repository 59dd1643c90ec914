package extern_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os/exec"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/extern"
	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/server"
)

// results collects the games a server records.
type results struct {
	mu  sync.Mutex
	all []server.Result
}

func (r *results) Started(string, game.Public, [2]server.Peer, int) {}
func (r *results) Step(string, int, *game.Seen)                     {}
func (r *results) Finished(res server.Result) {
	r.mu.Lock()
	r.all = append(r.all, res)
	r.mu.Unlock()
}

// serveHouse runs a server whose house is the program spec (its clients:
// kaisen play, connections in a row, series games per connection) and
// returns its results and the clients' tally, the server stopped.
func serveHouse(t *testing.T, spec string, series, connections int) ([]server.Result, map[string]any) {
	t.Helper()
	l := &extern.Launcher{Bot: mustParse(t, spec), ConnectTimeout: time.Second, LogDir: t.TempDir()}
	require.NoError(t, l.Validate())
	cfg := server.DefaultConfig()
	cfg.Listeners = []server.ListenerConfig{{Address: "127.0.0.1:0", Opponent: spec, Games: series, HouseSeat: l.HouseDialer(nil)}}
	cfg.Limits.ActionTimeout, cfg.Limits.HandshakeTimeout = time.Second, time.Second
	cfg.Seed, cfg.ShutdownGrace = 5, 0
	srv, err := server.New(cfg, slog.New(slog.DiscardHandler))
	require.NoError(t, err)
	rs := &results{}
	srv.Watch(rs)
	require.NoError(t, srv.Listen())
	ctx, stop := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ctx) }()
	out, err := exec.Command(kaisenBin, "play", "--addr", srv.Addrs()[0].String(), "--player", "random",
		"-c", fmt.Sprint(connections), "--seed", "1", "--json").Output()
	require.NoError(t, err, "%s", out)
	stop()
	<-served
	var tally map[string]any
	require.NoError(t, json.Unmarshal(out, &tally), "%s", out)
	rs.mu.Lock()
	defer rs.mu.Unlock()
	return rs.all, tally
}

// TestHouseProgram: a listener whose house is a program (kaisen serve
// --house exec:) plays every client with a fresh program per pairing; a
// house that crashes, prints garbage or never connects forfeits its own
// games only, the server serves on, and no process is left.
func TestHouseProgram(t *testing.T) {
	hostile := func(mode string) string { return fmt.Sprintf("exec:%s %s {host} {port}", hostileBin, mode) }
	tests := []struct {
		name           string
		spec           string
		series, conns  int
		houseForfeits  bool
		reasonContains string
	}{
		{"well-behaved", player("submarine", "random"), 1, 6, false, ""},
		{"a series per pairing", player("submarine", "random"), 3, 2, false, ""},
		{"crash", hostile("crash"), 1, 4, true, "disconnect"},
		{"garbage", hostile("garbage"), 1, 4, true, "protocol"},
		{"never connects", "exec:sleep 3600 # {port}", 1, 2, true, "disconnect"},
		{"exits at once", hostile("exit"), 1, 3, true, "disconnect"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, tally := serveHouse(t, tt.spec, tt.series, tt.conns)
			games := tt.series * tt.conns
			if tt.houseForfeits {
				games = tt.conns // a forfeit for a client that left ends the series
			}
			require.Len(t, res, games)
			require.EqualValues(t, games, tally["games"], "the clients completed every game")
			for _, r := range res {
				require.Contains(t, r.Players[1].Name, "exec:", "the house seat is named by the listener's opponent")
				if !tt.houseForfeits {
					require.Empty(t, r.Forfeits, r.Reason)
					continue
				}
				require.Equal(t, []int{1}, r.Forfeits, "only the house forfeits")
				require.Equal(t, 0, r.Winner)
				require.Contains(t, r.Reason, tt.reasonContains)
			}
			if tt.houseForfeits {
				require.EqualValues(t, games, tally["wins"])
			}
			requireNoSurvivor(t)
		})
	}
}
