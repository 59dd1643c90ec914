package server

import (
	"context"
	"errors"
	"fmt"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/game/submarine"
	"github.com/kaisen-ai/kaisen/ladder"
	"github.com/kaisen-ai/kaisen/protocol"
)

// playRandomFrom is playRandom from local address from.
func playRandomFrom(from, addr string, seed uint64, o clientOpts) ([]protocol.End, error) {
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}}
	c, err := d.Dial("tcp", addr)
	if err != nil {
		return nil, err
	}
	defer c.Close()
	if o.conn != nil {
		o.conn(c)
	}
	_ = c.SetDeadline(time.Now().Add(60 * time.Second))
	return playRandomConn(c, protocol.Classic, submarine.DefaultRules(), seed, "", o)
}

// TestRatedThrownGames: through the rated listener, a sock puppet
// registered just before the target throws three games (it forfeits by
// disconnecting at its first turn). From another /24 the target gains at
// most ladder's bound (it gained 253 points before the damping); from the
// target's own /24 the games are stored unrated and it gains nothing.
func TestRatedThrownGames(t *testing.T) {
	const games = 3
	for _, tt := range []struct {
		name             string
		target, puppet   string // local addresses (loopback; 127.0.0.1 is not compared)
		unrated          string
		maxGain, minGain float64
	}{
		{"another network", "127.0.1.1", "127.0.2.1", "", 25, 0.1},
		{"the same /24", "127.0.3.1", "127.0.3.2", ladder.UnratedSameNetwork, 0, 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			st, tok := testLadder(t, "target", "puppet")
			cfg := testConfig(t)
			cfg.Ladder = st
			ts := startServer(t, cfg)
			for k := range games {
				var wg sync.WaitGroup
				var ends []protocol.End
				var terr, perr error
				wg.Go(func() {
					ends, terr = playRandomFrom(tt.target, ts.addr(0), uint64(k+1), authed("target", tok["target"]))
				})
				wg.Go(func() {
					o := authed("puppet", tok["puppet"])
					o.quitAfter = 1
					_, perr = playRandomFrom(tt.puppet, ts.addr(0), uint64(k+100), o)
				})
				wg.Wait()
				require.NoError(t, terr)
				require.True(t, errors.Is(perr, errQuit), "the puppet quits: %v", perr)
				require.Len(t, ends, 1)
				rs := ts.waitResults(t, k+1)
				require.Equal(t, "target", rs[k].Players[rs[k].Winner].Bot, "game %d: the puppet threw it", k+1)
			}
			ctx := context.Background()
			h, err := st.History(ctx, "target")
			require.NoError(t, err)
			require.Len(t, h, games)
			for _, p := range h {
				assert.Equal(t, "win", p.Result())
				assert.Equal(t, tt.unrated, p.Game.Unrated)
			}
			r, err := st.Rating(ctx, "target")
			require.NoError(t, err)
			gain := r.R - 1500
			t.Logf("%s: the target gained %.1f points in %d thrown games", tt.name, gain, games)
			assert.LessOrEqual(t, gain, tt.maxGain)
			assert.GreaterOrEqual(t, gain, tt.minGain)
			want, err := st.Recompute(ctx)
			require.NoError(t, err)
			assert.Equal(t, want["target"], r)
		})
	}
}

func TestRatedNetwork(t *testing.T) {
	for _, tt := range []struct{ addr, want string }{
		{"192.0.2.7:4000", "192.0.2.0/24"},
		{"192.0.2.200:1", "192.0.2.0/24"},
		{"[::ffff:192.0.2.7]:4000", "192.0.2.0/24"},
		{"[2001:db8:1:2::1]:4000", "2001:db8:1::/48"},
		{"[2001:db8:1:ffff::1]:4000", "2001:db8:1::/48"},
		{"127.0.0.1:4000", ""}, // a local tunnel: not compared
		{"[::1]:4000", ""},
		{"127.0.0.2:4000", "127.0.0.0/24"},
		{"house", ""},
		{"", ""},
	} {
		t.Run(fmt.Sprint(tt.addr), func(t *testing.T) {
			assert.Equal(t, tt.want, ratedNetwork(tt.addr))
		})
	}
}
