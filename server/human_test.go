package server

import (
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/internal/config"
)

// TestHumanActionTimeout: on a listener for people a client that places
// its fleet or thinks for minutes plays on, and forfeits only at the listener's
// human_action_timeout, not at limits.action_timeout.
func TestHumanActionTimeout(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := testConfig(t)
		cfg.Limits.ActionTimeout = 10 * time.Second
		cfg.Listeners[0].Humans = true
		cfg.Listeners[0].HumanActionTimeout = 20 * time.Minute
		pl, stop := startPipeServer(t, cfg)
		defer stop()
		p1, p2 := pl.dial(), pl.dial()
		p1.expect(t, greet)
		p2.expect(t, greet)
		time.Sleep(3 * time.Minute) // placing by hand, far over limits.handshake_timeout
		p1.send(t, p1Place)
		p2.send(t, p2Place)
		p1.expect(t, "your turn")
		p2.expect(t, "waiting")
		time.Sleep(5 * time.Minute) // thinking, far over limits.action_timeout
		p1.send(t, `{"attack":{"to":[0,1]}}`)
		for _, p := range []*pipeClient{p1, p2} { // the answers, then whose turn
			line, err := p.r.ReadString('\n')
			require.NoError(t, err)
			require.Contains(t, line, `"result"`, "the attack is answered")
			require.NotContains(t, line, `"outcome"`, "the game goes on")
		}
		p1.expect(t, "waiting")
		p2.expect(t, "your turn")
		start := time.Now()
		p2.expect(t, `{"outcome":false,"condition":`+p2Cond+`}`)
		require.Equal(t, 20*time.Minute, time.Since(start), "the forfeit comes exactly at the human action timeout")
		p1.expect(t, `{"outcome":true,"condition":`+p1Cond+`}`, "you win")
		p2.expect(t, "you lose")
		p1.expectEOF(t)
		p2.expectEOF(t)
	})
}

func TestHumanActionTimeoutConfig(t *testing.T) {
	for _, tt := range []struct {
		name string
		yaml string
		want time.Duration // the action timeout of the first listener; 0: an error
		err  string
	}{
		{"bots", "listeners:\n  - human_action_timeout: 1h\n", DefaultActionTimeout, ""},
		{"people, default", "listeners:\n  - humans: true\n", DefaultHumanActionTimeout, ""},
		{"people", "listeners:\n  - humans: true\n    human_action_timeout: 90s\n", 90 * time.Second, ""},
		{"no unit", "listeners:\n  - human_action_timeout: 600\n", 0, "listeners[0].human_action_timeout: got 600, want a duration with a unit such as 5s"},
		{"too short", "listeners:\n  - humans: true\n    human_action_timeout: 500ms\n", 0, "human_action_timeout is 500ms, want a duration from 1s to 24h0m0s"},
		{"too long", "listeners:\n  - human_action_timeout: 48h\n", 0, "human_action_timeout is 48h0m0s, want a duration from 1s to 24h0m0s"},
		{"negative", "listeners:\n  - human_action_timeout: -1m\n", 0, "human_action_timeout is -1m0s"},
		{"as text", "listeners:\n  - humans: sure\n", 0, `listeners[0].humans: got "sure", want true or false`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			cfg := DefaultConfig()
			err := config.LoadString("test.yaml", tt.yaml, &cfg)
			if tt.err != "" {
				require.ErrorContains(t, err, tt.err)
				require.NotContains(t, err.Error(), "\n")
				return
			}
			require.NoError(t, err)
			l := cfg.Listeners[0].WithDefaults()
			require.Equal(t, tt.want, l.ActionTimeout(cfg.Limits))
		})
	}
}
