package matrix_test

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/games"
	"github.com/kaisen-ai/kaisen/internal/web"
	"github.com/kaisen-ai/kaisen/server"
)

// stepCount is a server.Spectator that counts the public steps it
// passes on.
type stepCount struct {
	server.Spectator
	mu sync.Mutex
	n  int
}

func (c *stepCount) Step(id string, n int, e *game.Seen) {
	c.mu.Lock()
	c.n++
	c.mu.Unlock()
	c.Spectator.Step(id, n, e)
}

func (c *stepCount) steps() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n
}

// webSpectatorHost: kaisen serve --web's spectator (internal/web's hub,
// the server's live view) watches a game of g against its house AI,
// played by kaisen play: the list names the game, its event stream sends
// its info, every public step the server told (one per action both seats
// are told of) and its end, and its replay page is served once it is over.
func webSpectatorHost(t *testing.T, g games.Game) {
	dir := t.TempDir()
	lim := web.DefaultLimits
	lim.StreamInterval = time.Millisecond
	hub := web.NewHub(dir, web.WithLimits(lim))
	tee := &stepCount{Spectator: hub}
	addr := serve(t, g, g.PlayDefault, 1, dir, tee)
	kaisen(t, "play", "--game", g.Name, "--addr", addr, "--player", g.DefaultPlayers[0], "--seed", "26", "--timeout", "1m")
	ts := httptest.NewServer(hub.Handler())
	t.Cleanup(ts.Close)
	get := func(path string) string {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, ts.URL+path, nil)
		require.NoError(t, err)
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		defer resp.Body.Close()
		require.Equal(t, http.StatusOK, resp.StatusCode, path)
		body, err := io.ReadAll(resp.Body)
		require.NoError(t, err)
		return string(body)
	}
	var id string
	require.Eventually(t, func() bool { // the server tells the hub the result after the client's end line
		m := regexp.MustCompile(`<td><a href="/games/([^"]+)">[^<]*</a></td><td>` + regexp.QuoteMeta(g.Name) + `</td>.*replay</a>`).FindStringSubmatch(get("/"))
		if m != nil {
			id = m[1]
		}
		return m != nil
	}, 10*time.Second, 10*time.Millisecond, "the list shows the finished %s game with its replay", g.Name)
	events := map[string]int{}
	sc := bufio.NewScanner(strings.NewReader(get("/games/" + id + "/events")))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if kind, ok := strings.CutPrefix(sc.Text(), "event: "); ok {
			events[kind]++
		}
	}
	require.Equal(t, 1, events["info"], "%v", events)
	require.Equal(t, 1, events["end"], "%v", events)
	rp, err := g.OpenReplay(dir + "/" + id + ".jsonl")
	require.NoError(t, err)
	require.Positive(t, events["move"])
	require.LessOrEqual(t, events["move"], rp.Moves(), "no more public steps than actions")
	require.Equal(t, tee.steps(), events["move"], "one move event per public step the server told")
	require.Contains(t, get("/games/"+id+"/replay"), "<html")
}
