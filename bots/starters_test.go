// Package bots_test plays Kaisen's starter bots (bots/python, in Python
// with the standard library only) against Kaisen's server, as a bot author
// would: docs/bots.md.
package bots_test

import (
	"context"
	"net"
	"os/exec"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/server"
	"github.com/kaisen-ai/kaisen/server/servertest"
)

// python3 is the interpreter the starters need; scripts/install-test-deps.sh
// installs Debian's when it is missing, so a missing one fails the test.
func python3(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("python3")
	require.NoError(t, err, "python3 is missing: scripts/install-test-deps.sh installs it (Debian's python3)")
	return p
}

// TestPythonStarters: every Python starter bot finishes 100 games against
// the random house AI of a Kaisen server, in each dialect and shape it
// claims (a series on one connection, a game per connection), without a
// forfeit on either side.
func TestPythonStarters(t *testing.T) {
	py := python3(t)
	const games = 100
	for _, tc := range []struct {
		name     string
		listener server.ListenerConfig
		script   string
		args     []string
	}{
		{"submarine classic series", server.ListenerConfig{Opponent: "random", Games: games}, "python/submarine.py", nil},
		{"submarine classic game per connection", server.ListenerConfig{Opponent: "random"}, "python/submarine.py", []string{"-c", "100"}},
		{"submarine-py rounded 6x5", server.ListenerConfig{Dialect: "submarine-py", Width: 6, Height: 5, Rounded: true, Opponent: "random"},
			"python/submarine.py", []string{"-c", "100", "--name", "starter"}},
		{"battleship series", server.ListenerConfig{Game: server.GameBattleship, Opponent: "bs-random", Games: games}, "python/battleship.py", nil},
		{"battleship game per connection", server.ListenerConfig{Game: server.GameBattleship, Opponent: "bs-random"}, "python/battleship.py", []string{"-c", "100"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := servertest.Start(t, servertest.Config(t, 7, tc.listener))
			host, port, err := net.SplitHostPort(s.Addr(0))
			require.NoError(t, err)
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			args := append([]string{tc.script, host, port, "--seed", "1"}, tc.args...)
			out, err := exec.CommandContext(ctx, py, args...).CombinedOutput()
			require.NoError(t, err, "%s", out)
			rs := s.WaitResults(t, games)
			require.Len(t, rs, games)
			for _, r := range rs {
				require.Empty(t, r.Forfeits, "game %s: %s %s", r.Game, r.Reason, r.Detail)
				require.NotEqual(t, server.OutcomeAborted, r.Outcome, "game %s", r.Game)
			}
			require.Regexp(t, `you win \d+`, string(out), "the bot's tally")
		})
	}
}
