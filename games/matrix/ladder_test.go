package matrix_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/games"
	"github.com/kaisen-ai/kaisen/internal/cli"
	"github.com/kaisen-ai/kaisen/ladder"
	"github.com/kaisen-ai/kaisen/server"
)

// ladderHost plays the rated ladder (kaisen ladder, kaisen serve --ladder,
// kaisen play --token) on a game: two bots registered in a SQLite ladder
// authenticate on a rated listener of g, are paired and play a series of
// two with the game's default AIs; the ladder then counts both games for
// each bot, with a rating that moved off the start for the winner of any
// decided game, and the server's replays verify.
func ladderHost(t *testing.T, g games.Game) {
	db := filepath.Join(t.TempDir(), "ladder.db")
	kaisen(t, "ladder", "init", "--db", db)
	bots := [2]string{"alice", "bob"}
	var tokens [2]string
	for i, b := range bots {
		lines := strings.Split(strings.TrimSpace(kaisen(t, "ladder", "register", b, "--db", db)), "\n")
		tokens[i] = lines[len(lines)-1]
	}
	store, err := ladder.Open(context.Background(), db)
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, store.Close()) })
	dir := t.TempDir()
	cfg := server.DefaultConfig()
	cfg.Seed, cfg.ReplayDir, cfg.Ladder = 26, dir, store
	l := &cfg.Listeners[0]
	l.Game, l.Address, l.Opponent, l.Games = g.Name, "127.0.0.1:0", server.OpponentPair, 2
	w := &watcher{started: map[string]game.Public{}, steps: map[string]int{}}
	addr := start(t, g, cfg, w)
	var wg sync.WaitGroup
	var codes [2]int
	var errOut [2]bytes.Buffer
	for i, b := range bots {
		wg.Go(func() {
			args := []string{"play", "--game", g.Name, "--addr", addr, "--player", g.DefaultPlayers[i], "--name", b, "--token", tokens[i],
				"--seed", "26", "--timeout", "1m"}
			codes[i] = cli.Run(context.Background(), args, strings.NewReader(""), io.Discard, &errOut[i])
		})
	}
	wg.Wait()
	for i, b := range bots {
		require.Zero(t, codes[i], "%s: %s", b, errOut[i].String())
	}
	var table []struct {
		Name                       string
		Rating                     float64
		Games, Wins, Draws, Losses int
	}
	require.NoError(t, json.Unmarshal([]byte(kaisen(t, "ladder", "table", "--db", db, "--json")), &table))
	require.Len(t, table, 2)
	for _, row := range table {
		require.Equal(t, 2, row.Games, "%s: both games of the series are rated", row.Name)
		require.Equal(t, 2, row.Wins+row.Draws+row.Losses)
		if row.Wins > row.Losses {
			require.Greater(t, row.Rating, 1500.0, "%s won more than it lost", row.Name)
		}
	}
	checkServed(t, g, w, dir, 2)
}
