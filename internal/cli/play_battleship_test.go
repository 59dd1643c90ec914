package cli

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/protocol"
	"github.com/kaisen-ai/kaisen/server"
)

func TestPlayBattleshipAgainstHouse(t *testing.T) {
	for _, house := range []string{"bs-random"} /* density is too slow under -race for a CLI test */ {
		t.Run(house, func(t *testing.T) {
			addr, results := playServer(t, server.ListenerConfig{Game: server.GameBattleship, Opponent: house})
			code, stdout, stderr := playRun(t, "play", "--game", "battleship", "--addr", addr, "--player", "gridbot", "--seed", "5", "--connections", "2")
			require.Equal(t, 0, code, stderr)
			rs := playResults(t, results, 2)
			var want []string
			for _, r := range rs {
				require.Equal(t, server.DialectBattleship, r.Dialect)
				require.Empty(t, r.Forfeits, "the client must never forfeit: %+v", r)
				require.Equal(t, server.ReasonSunk, r.Reason)
				want = append(want, playEndFor(r, protocol.Classic, false))
			}
			require.Equal(t, strings.Join(want, "\n")+"\n", stdout)
			require.Contains(t, stderr, "player=gridbot")
		})
	}
}

func TestPlayBattleshipDefaultPlayerAndErrors(t *testing.T) {
	addr, results := playServer(t, server.ListenerConfig{Game: server.GameBattleship, Opponent: "bs-random"})
	code, _, stderr := playRun(t, "play", "--game", "battleship", "--addr", addr, "--seed", "1")
	require.Equal(t, 0, code, stderr)
	require.Contains(t, stderr, "player=gridbot", "gridbot is the default battleship player")
	playResults(t, results, 1)

	code, _, stderr = playRun(t, "play", "--game", "battleship", "--addr", addr, "--player", "stateplayer2")
	require.Equal(t, ExitUsage, code)
	require.Contains(t, stderr, "unknown player")

	// A battleship client on a submarine server: the greetings are equal;
	// the server refuses the placement and the client reports the loss.
	subAddr, subResults := playServer(t, server.ListenerConfig{Opponent: "random"})
	code, stdout, stderr := playRun(t, "play", "--game", "battleship", "--addr", subAddr, "--seed", "1")
	require.Equal(t, 0, code, stderr)
	require.Equal(t, "you lose\n", stdout)
	require.Equal(t, server.ReasonPlacement, playResults(t, subResults, 1)[0].Reason)
}

func TestServeBattleshipFlags(t *testing.T) {
	code, _, stderr := playRun(t, "serve", "--game", "battleship", "--house", "random", "--listen", "127.0.0.1:0")
	require.Equal(t, 2, code)
	require.Contains(t, stderr, `opponent "random"`)
	code, _, stderr = playRun(t, "serve", "--game", "checkers", "--listen", "127.0.0.1:0")
	require.Equal(t, 2, code)
	require.Contains(t, stderr, `game "checkers"`)
}
