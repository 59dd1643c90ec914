package matrix_test

import (
	"math/rand/v2"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/games"
	"github.com/kaisen-ai/kaisen/internal/keystream"
	"github.com/kaisen-ai/kaisen/internal/web"
	"github.com/kaisen-ai/kaisen/internal/web/webtest"
)

// browserHost plays browser play (internal/web: kaisen serve --web
// --web-play, one page and one HTTP flow for every game, games.Game.Browse):
// a person plays a whole game against DefaultPlayers[1] through the HTTP
// API (internal/web/webtest), choosing each action from the state the
// server sends; the hub's live view lists the game with its public moves,
// the game is recorded, and its replay verifies.
func browserHost(t *testing.T, g games.Game) {
	require.NotNil(t, g.Browse, "every game has browser play")
	rec := &webtest.Recorder{}
	hub := web.NewHub("", web.Play(web.PlayOptions{Game: g.Name, House: g.DefaultPlayers[1], Timeout: time.Minute, Key: keystream.FromSeed(26), Record: rec}))
	site := httptest.NewServer(hub.Handler())
	defer site.Close()
	p := webtest.Start(t, site.URL, g.Name, rand.New(rand.NewPCG(26, 0)))
	states := p.Play()
	last := states[len(states)-1]
	require.Equal(t, g.Name, last.Game)
	require.Regexp(t, `^(seat \d .* wins|draw) after \d+ moves`, last.Result)
	require.Eventually(t, func() bool { return hub.Playing() == 0 }, 10*time.Second, 5*time.Millisecond)
	require.Equal(t, len(last.Log), last.N, "every public move logged")

	rs := rec.Results()
	require.Len(t, rs, 1)
	require.Equal(t, p.ID, rs[0].Game)
	require.Equal(t, web.WebListener, rs[0].Listener)
	require.Positive(t, rs[0].Actions)
	path := filepath.Join(t.TempDir(), p.ID+".jsonl")
	require.Equal(t, p.ID+".jsonl", rs[0].Replay, "every game writes replays")
	require.NoError(t, os.WriteFile(path, rec.Replay(rs[0].Replay), 0o600))
	rp, err := g.OpenReplay(path)
	require.NoError(t, err)
	require.NoError(t, rp.Verify())
	t.Logf("%s: %d public moves, %d actions by button, %s", g.Name, last.N, p.Buttons, rp.Summary())
}
