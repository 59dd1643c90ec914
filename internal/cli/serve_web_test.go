package cli

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/internal/web"
	"github.com/kaisen-ai/kaisen/server"
)

func TestServeWebFlags(t *testing.T) {
	t.Setenv("XDG_DATA_HOME", t.TempDir())
	for _, tt := range []struct {
		name string
		args []string
		want string
	}{
		{"reveal without web", []string{"--web-reveal"}, "--web-reveal shows the fleets on the spectator pages: it needs --web"},
		{"human timeout too short", []string{"--humans", "--human-timeout", "500ms"}, "--human-timeout 500ms: want a duration from 1s to 24h0m0s"},
		{"human timeout zero", []string{"--human-timeout", "0s"}, "--human-timeout 0s: want a duration from 1s"},
		{"human timeout too long", []string{"--human-timeout", "25h"}, "--human-timeout 25h0m0s"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			code, _, stderr := playRun(t, append([]string{"serve", "--listen", "127.0.0.1:0"}, tt.args...)...)
			assert.Equal(t, ExitUsage, code, stderr)
			assert.Contains(t, stderr, tt.want)
		})
	}
}

// TestServeHumanTimeout: --humans and --human-timeout set the listener's
// action timeout for people; without --humans, clients keep
// --action-timeout.
func TestServeHumanTimeout(t *testing.T) {
	for _, tt := range []struct {
		name string
		args []string
		want time.Duration
	}{
		{"bots", nil, server.DefaultActionTimeout},
		{"bots, human timeout unused", []string{"--human-timeout", "1h"}, server.DefaultActionTimeout},
		{"people", []string{"--humans"}, server.DefaultHumanActionTimeout},
		{"people, 90s", []string{"--humans", "--human-timeout", "90s"}, 90 * time.Second},
	} {
		t.Run(tt.name, func(t *testing.T) {
			cmd := newServeCmd(&env{})
			require.NoError(t, cmd.ParseFlags(tt.args))
			var f serveFlags
			f.humans, _ = cmd.Flags().GetBool("humans")
			f.humanTimeout, _ = cmd.Flags().GetDuration("human-timeout")
			cfg, err := serveConfig(cmd.Flags(), f, "")
			require.NoError(t, err)
			require.NoError(t, cfg.Validate())
			require.Equal(t, tt.want, cfg.Listeners[0].WithDefaults().ActionTimeout(cfg.Limits))
		})
	}
}

func TestServeWebPlay(t *testing.T) {
	for _, tt := range []struct {
		name  string
		args  []string
		house string // "": off
		game  string
	}{
		{"pair listener", nil, "random", "submarine"},
		{"house AI", []string{"--house", "simple", "--human-timeout", "2m"}, "simple", "submarine"},
		{"battleship", []string{"--game", "battleship"}, server.DefaultBattleshipHouse, "battleship"},
		{"battleship house AI", []string{"--game", "battleship", "--house", "bs-random"}, "bs-random", "battleship"},
		{"battleship pair", []string{"--game", "battleship", "--house", "pair"}, "gridbot", "battleship"},
		{"abilities", []string{"--game", "abilities"}, server.DefaultAbilitiesHouse, "abilities"},
		{"a program as the house", []string{"--house", "exec:true {host} {port}"}, "random", "submarine"},
		{"off", []string{"--web-play=false"}, "", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			cmd := newServeCmd(&env{})
			require.NoError(t, cmd.ParseFlags(tt.args))
			var f serveFlags
			f.webPlay, _ = cmd.Flags().GetBool("web-play")
			f.house, _ = cmd.Flags().GetString("house")
			f.game, _ = cmd.Flags().GetString("game")
			f.humanTimeout, _ = cmd.Flags().GetDuration("human-timeout")
			cfg, err := serveConfig(cmd.Flags(), f, "")
			require.NoError(t, err)
			p := webPlay(f, cfg)
			if tt.house == "" {
				require.Nil(t, p)
				return
			}
			require.NotNil(t, p)
			require.Equal(t, tt.house, p.House)
			require.Equal(t, tt.game, p.Game)
			require.Len(t, p.Games, 1, "one game per listener game")
			require.Equal(t, web.PlayGame{Game: tt.game, House: tt.house, Listener: p.Games[0].Listener}, p.Games[0])
			require.NotNil(t, p.Games[0].Listener, "the listener's settings give the rules")
			if tt.game != "submarine" {
				require.Equal(t, tt.game, p.Games[0].Listener.Game)
			}
			require.Equal(t, cfg.Listeners[0].WithDefaults().HumanActionTimeout, p.Timeout)
		})
	}
}

// TestServeWebLimits: the --web-* limit flags reach the web port's limits
// and the browser tables' cap per address.
func TestServeWebLimits(t *testing.T) {
	cmd := newServeCmd(&env{})
	require.NoError(t, cmd.ParseFlags([]string{"--web-max-connections", "10", "--web-max-connections-per-ip", "3",
		"--web-rate", "-1", "--web-burst", "7", "--web-max-streams", "20", "--web-play-per-ip", "1"}))
	// newServeCmd binds the flags to its own serveFlags: read them back.
	get := func(name string) string { return cmd.Flags().Lookup(name).Value.String() }
	require.Equal(t, "10", get("web-max-connections"))
	require.Equal(t, "-1", get("web-rate"))
	require.Equal(t, "1", get("web-play-per-ip"))

	var f serveFlags
	f.webPlay = true
	f.webTablesPerIP, _ = cmd.Flags().GetInt("web-play-per-ip")
	cfg, err := serveConfig(cmd.Flags(), f, "")
	require.NoError(t, err)
	require.Equal(t, 1, webPlay(f, cfg).MaxPerAddr)

	d := newServeCmd(&env{})
	require.NoError(t, d.ParseFlags(nil))
	require.Equal(t, "1024", d.Flags().Lookup("web-max-connections").Value.String(), "web.DefaultLimits")
	require.Equal(t, "10", d.Flags().Lookup("web-rate").Value.String())
	require.Equal(t, "2", d.Flags().Lookup("web-play-per-ip").Value.String())
}
