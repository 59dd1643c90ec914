package server

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/internal/config"
	"github.com/kaisen-ai/kaisen/protocol"
)

func TestConfigFileIsDefault(t *testing.T) {
	var got Config // zero: the file must state every default itself
	require.NoError(t, config.Load("../configs/server.yaml", &got))
	require.Equal(t, DefaultConfig(), got)
}

func TestDefaultConfigValid(t *testing.T) {
	cfg := DefaultConfig()
	require.NoError(t, cfg.Validate())
	st, err := cfg.Listeners[0].compile()
	require.NoError(t, err)
	require.Equal(t, protocol.Classic, st.dialect)
	require.Equal(t, DefaultAddress, st.cfg.Name)
	require.Nil(t, subServed(t, st).house)
	require.Equal(t, 5, subRules(t, st).Board.Width())
}

func TestConfigValidate(t *testing.T) {
	tests := []struct {
		name    string
		edit    func(*Config)
		wantErr string
	}{
		{"no listeners", func(c *Config) { c.Listeners = nil }, "no listeners"},
		{"bad dialect", func(c *Config) { c.Listeners[0].Dialect = "ruby" }, `dialect "ruby"`},
		{"classic board", func(c *Config) { c.Listeners[0].Width = 6 }, "classic dialect plays on the plain 5x5 board"},
		{"classic rounded", func(c *Config) { c.Listeners[0].Rounded = true }, "classic dialect"},
		{"series py", func(c *Config) { c.Listeners[0].Dialect, c.Listeners[0].Games = "submarine-py", 3 }, "series (games > 1) needs the classic dialect"},
		{"negative games", func(c *Config) { c.Listeners[0].Games = -1 }, "games is -1"},
		{"bad first", func(c *Config) { c.Listeners[0].First = "loser" }, `first "loser"`},
		{"unknown house", func(c *Config) { c.Listeners[0].Opponent = "deepblue" }, `opponent "deepblue"`},
		{"house config on pair", func(c *Config) { c.Listeners[0].HouseConfig = "x.yaml" }, "house_config is set"},
		{"bad rocks", func(c *Config) { c.Listeners[0].Dialect, c.Listeners[0].Rocks = "submarine-py", "1;2" }, "rocks"},
		{"rock off board", func(c *Config) { c.Listeners[0].Dialect, c.Listeners[0].Rocks = "submarine-py", "5,0" }, "rock [5,0] is off the 5x5 board"},
		{"board too big", func(c *Config) { c.Listeners[0].Dialect, c.Listeners[0].Width = "submarine-py", 100 }, "board 100x5"},
		{"no room for the fleet", func(c *Config) {
			c.Listeners[0].Dialect, c.Listeners[0].Width, c.Listeners[0].Height = "submarine-py", 2, 1
		}, "do not fit"},
		{"bad address", func(c *Config) { c.Listeners[0].Address = "localhost" }, `address "localhost"`},
		{"abilities settings", func(c *Config) { c.Listeners[0].Abilities.AlternateFirst = true }, "abilities settings on a submarine listener"},
		{"same name twice", func(c *Config) { c.Listeners = append(c.Listeners, c.Listeners[0]) }, "used twice"},
		{"zero limit", func(c *Config) { c.Limits.MaxGames = 0 }, "limits.max_games is 0"},
		{"ipv4 prefix too long", func(c *Config) { c.Limits.IPv4Prefix = 33 }, "limits.ipv4_prefix is 33, want a prefix length from 8 to 32"},
		{"ipv4 prefix too short", func(c *Config) { c.Limits.IPv4Prefix = 0 }, "limits.ipv4_prefix is 0"},
		{"ipv6 prefix too long", func(c *Config) { c.Limits.IPv6Prefix = 129 }, "limits.ipv6_prefix is 129, want a prefix length from 16 to 128"},
		{"no metrics connection", func(c *Config) { c.Limits.MaxMetricsConnections = 0 }, "limits.max_metrics_connections is 0"},
		{"tiny line", func(c *Config) { c.Limits.MaxLineBytes = 10 }, "limits.max_line_bytes is 10"},
		{"no auth failure allowed", func(c *Config) { c.Rated.AuthMaxFailures = 0 }, "rated.auth_max_failures is 0, want 1 to 1000"},
		{"too few limiter keys", func(c *Config) { c.Rated.AuthMaxKeys = 10 }, "rated.auth_max_keys is 10, want 1024 to 16777216"},
		{"auth window too short", func(c *Config) { c.Rated.AuthWindow = time.Millisecond }, "rated.auth_window is 1ms, want a duration from 1s to 24h0m0s"},
		{"negative pair window", func(c *Config) { c.Rated.PairWindow = -1 }, "rated.pair_window is -1, want 0 to 10000 rating points"},
		{"pair widen zero", func(c *Config) { c.Rated.PairWiden = 0 }, "rated.pair_widen is 0, want 0.1 to 10000 rating points"},
		{"pair interval too long", func(c *Config) { c.Rated.PairInterval = time.Hour }, "rated.pair_interval is 1h0m0s, want a duration from 10ms to 1m0s"},
		{"zero timeout", func(c *Config) { c.Limits.ActionTimeout = 0 }, "limits.action_timeout"},
		{"negative grace", func(c *Config) { c.ShutdownGrace = -time.Second }, "shutdown_grace"},
		{"bad metrics", func(c *Config) { c.Metrics = "9090" }, `metrics address "9090"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := DefaultConfig()
			tt.edit(&cfg)
			err := cfg.Validate()
			require.ErrorContains(t, err, tt.wantErr)
			_, err = New(cfg, nil)
			require.ErrorContains(t, err, tt.wantErr)
		})
	}
}

func TestConfigValidateListsEveryProblem(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Listeners[0].First = "x"
	cfg.Limits.MaxConnections = 0
	err := cfg.Validate()
	require.ErrorIs(t, err, ErrConfig)
	require.ErrorContains(t, err, `first "x"`)
	require.ErrorContains(t, err, "max_connections")
}

func TestLoadListeners(t *testing.T) {
	yaml := `
listeners:
  - address: 127.0.0.1:2001
  - name: bots
    address: 127.0.0.1:2002
    dialect: submarine-py
    width: 6
    height: 5
    rounded: true
    rocks: "2,2"
    opponent: random
    first: random
limits:
  action_timeout: 2s
`
	cfg := DefaultConfig()
	require.NoError(t, config.LoadString("test.yaml", yaml, &cfg))
	require.Len(t, cfg.Listeners, 2)
	require.Equal(t, 2*time.Second, cfg.Limits.ActionTimeout)
	require.Equal(t, DefaultMaxGames, cfg.Limits.MaxGames)
	a, err := cfg.Listeners[0].compile()
	require.NoError(t, err)
	require.Equal(t, "127.0.0.1:2001", a.cfg.Name)
	require.Equal(t, 1, a.cfg.Games)
	require.Equal(t, FirstConnected, a.cfg.First)
	b, err := cfg.Listeners[1].compile()
	require.NoError(t, err)
	require.Equal(t, "bots", b.cfg.Name)
	require.Equal(t, protocol.SubmarinePy, b.dialect)
	require.NotNil(t, subServed(t, b).house)
	require.Equal(t, []string{".####.", "######", "##.###", "######", ".####."}, subRules(t, b).Board.Shape())
}

func TestLoadRejectsMisleadingValues(t *testing.T) {
	for _, tt := range []struct{ name, yaml, want string }{
		{"duration without unit", "limits:\n  action_timeout: 5\n", "config: test.yaml: limits.action_timeout: got 5, want a duration with a unit such as 5s"},
		{"negative duration", "shutdown_grace: -1s\n", "shutdown_grace -1s must not be negative"},
		{"float count", "limits:\n  max_games: 2.5\n", "limits.max_games: got 2.5, want an integer"},
		{"zero limit", "limits:\n  max_games: 0\n", "limits.max_games is 0, want at least 1"},
		{"prefix out of range", "limits:\n  ipv6_prefix: 200\n", "config: test.yaml: server: invalid config: limits.ipv6_prefix is 200, want a prefix length from 16 to 128"},
		{"prefix as text", "limits:\n  ipv4_prefix: /24\n", `limits.ipv4_prefix: got "/24", want an integer`},
		{"negative seed", "seed: -3\n", "seed: got -3, want a non-negative integer"},
		{"listener games as text", "listeners:\n  - games: many\n", `listeners[0].games: got "many", want an integer`},
		{"rounded as text", "listeners:\n  - rounded: yes please\n", `listeners[0].rounded: got "yes please", want true or false`},
		{"auth window without unit", "rated:\n  auth_window: 60\n", "rated.auth_window: got 60, want a duration with a unit such as 5s"},
		{"auth failures as float", "rated:\n  auth_max_failures: 2.5\n", "rated.auth_max_failures: got 2.5, want an integer"},
		{"pair window as text", "rated:\n  pair_window: wide\n", `rated.pair_window: got "wide", want a number`},
		{"pair widen out of range", "rated:\n  pair_widen: 0\n", "config: test.yaml: server: invalid config: rated.pair_widen is 0, want 0.1 to 10000 rating points"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			cfg := DefaultConfig()
			err := config.LoadString("test.yaml", tt.yaml, &cfg)
			require.ErrorContains(t, err, tt.want)
			require.NotContains(t, err.Error(), "\n")
		})
	}
}

func TestLoadRated(t *testing.T) {
	yaml := `
rated:
  auth_max_failures: 3
  auth_window: 5m
  pair_window: 250
  pair_widen: 12.5
  pair_interval: 1s
`
	cfg := DefaultConfig()
	require.NoError(t, config.LoadString("test.yaml", yaml, &cfg))
	want := DefaultRated()
	want.AuthMaxFailures, want.AuthWindow = 3, 5*time.Minute
	want.PairWindow, want.PairWiden, want.PairInterval = 250, 12.5, time.Second
	require.Equal(t, want, cfg.Rated)
	s, err := New(cfg, nil)
	require.NoError(t, err)
	require.Equal(t, 3, s.limiter.Max)
	require.Equal(t, 5*time.Minute, s.limiter.Window)
	require.Equal(t, DefaultAuthMaxKeys, s.limiter.MaxKeys)
}

func TestLoadRejectsUnknownKeys(t *testing.T) {
	for _, tt := range []struct{ yaml, key string }{
		{"listeners:\n  - adress: 127.0.0.1:1\n", "listeners[0].adress"},
		{"limits:\n  max_line: 10\n", "limits.max_line"},
		{"grace: 1s\n", "grace"},
		{"rated:\n  pair_windw: 200\n", "rated.pair_windw"},
	} {
		cfg := DefaultConfig()
		err := config.LoadString("test.yaml", tt.yaml, &cfg)
		require.ErrorIs(t, err, config.ErrUnknownKey)
		require.ErrorContains(t, err, tt.key)
	}
}

func TestParseCells(t *testing.T) {
	tests := []struct {
		in      string
		want    [][2]int
		wantErr string
	}{
		{"", nil, ""},
		{"  ", nil, ""},
		{"0,0", [][2]int{{0, 0}}, ""},
		{"0,0;4, 4", [][2]int{{0, 0}, {4, 4}}, ""},
		{" 1 , 2 ; 3,4 ", [][2]int{{1, 2}, {3, 4}}, ""},
		{"1", nil, `item 1 "1": want x,y`},
		{"1,2;", nil, `item 2 "": want x,y`},
		{"a,1", nil, "must be integers"},
		{"1.5,1", nil, "must be integers"},
		{"-1,0", nil, "coordinates must be 0 to 256"},
		{"1,2,3", nil, "must be integers"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParseCells(tt.in)
			if tt.wantErr != "" {
				require.ErrorIs(t, err, ErrCells)
				require.ErrorContains(t, err, tt.wantErr)
				return
			}
			require.NoError(t, err)
			require.Equal(t, tt.want, got)
		})
	}
}

func FuzzParseCells(f *testing.F) {
	for _, s := range []string{"", "0,0", "0,0;4,4", "1,2;3", "x", "-1,2", "1,2;;", "99999999999999999999,1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		cells, err := ParseCells(s)
		if err != nil {
			require.ErrorIs(t, err, ErrCells)
			return
		}
		parts := make([]string, len(cells))
		for i, c := range cells {
			require.True(t, c[0] >= 0 && c[1] >= 0)
			parts[i] = fmt.Sprintf("%d,%d", c[0], c[1])
		}
		again, err := ParseCells(strings.Join(parts, ";"))
		require.NoError(t, err)
		require.Equal(t, cells, again)
	})
}

func ExampleParseCells() {
	cells, err := ParseCells("0,0;5,4")
	fmt.Println(cells, err)
	_, err = ParseCells("0,0;5")
	fmt.Println(err)
	// Output:
	// [[0 0] [5 4]] <nil>
	// server: bad cell list: item 2 "5": want x,y
}

func ExampleDefaultConfig() {
	cfg := DefaultConfig()
	l := cfg.Listeners[0]
	fmt.Println(l.Address, l.Dialect, l.Opponent, l.Games, l.First)
	fmt.Println(cfg.Limits.ActionTimeout, cfg.Limits.MaxLineBytes)
	// Output:
	// 127.0.0.1:2000 classic pair 1 first-connected
	// 10s 65536
}
