package matrix_test

import (
	"bufio"
	"bytes"
	"context"
	"log/slog"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/games"
	"github.com/kaisen-ai/kaisen/protocol"
)

// netHumanGames is the number of games the network human seat plays.
const netHumanGames = 2

// networkHumanHost plays kaisen play --human --addr's library call
// (Game.HumanClient) with a scripted person: the game's DefaultPlayers[0]
// types the seat's placement and actions through the game's Text
// (HumanClientOptions.Typist) against a listener's house AI
// (PlayDefault), a series of two games on one connection. Twice, on two servers of the same seed: the
// same transcript, both games end decided by the rules, every typed line
// is taken (each placement at its first prompt), and the server's live
// view and replays are checkServed's.
func networkHumanHost(t *testing.T, g games.Game) {
	require.NotNil(t, g.HumanClient, "%s has no network human seat (games.Game.HumanClient: a games.Def with a Text and a Wire)", g.Name)
	got := playNetHuman(t, g)
	require.Equal(t, got, playNetHuman(t, g), "the same seed twice")
	require.Equal(t, netHumanGames, strings.Count(got, "placement> "), "each placement is taken at its first prompt")
	for _, refused := range []string{"end of input", "not sent", "not a ", "refused", "before (", "forfeit", "resign"} {
		require.NotContains(t, got, refused, "every line the typist types is taken and nobody forfeits")
	}
}

// playNetHuman plays netHumanGames games of the typed network human seat
// on a fresh house listener of g and returns the transcript: what the seat
// wrote, then each game's end as the client printed and counted it.
func playNetHuman(t *testing.T, g games.Game) string {
	t.Helper()
	w := &watcher{started: map[string]game.Public{}, steps: map[string]int{}}
	dir := t.TempDir()
	addr := serve(t, g, g.PlayDefault, netHumanGames, dir, w)
	var out bytes.Buffer
	c, err := g.HumanClient(games.HumanClientOptions{Name: "matrix-human", Typist: g.DefaultPlayers[0]}, bufio.NewReader(strings.NewReader("")), &out)
	require.NoError(t, err)
	var ends []protocol.End
	var printed []string
	opt := games.PlayOptions{Seed: 26, ReadTimeout: time.Minute, Log: slog.New(slog.DiscardHandler),
		OnEnd: func(e protocol.End) { ends = append(ends, e) },
		Print: func(line string) error { printed = append(printed, line); return nil }}
	conn, err := net.Dial("tcp", addr)
	require.NoError(t, err)
	n, err := c.Play(context.Background(), conn, 0, opt)
	require.NoError(t, conn.Close())
	require.NoError(t, err)
	require.Equal(t, netHumanGames, n, "the games of the series")
	require.Len(t, ends, netHumanGames, "both games end")
	for _, e := range ends {
		require.Contains(t, []protocol.End{protocol.EndWin, protocol.EndLose, protocol.EndDraw}, e)
	}
	checkServed(t, g, w, dir, netHumanGames)
	return out.String() + "\n" + strings.Join(printed, "\n")
}
