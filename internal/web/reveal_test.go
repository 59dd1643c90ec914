package web_test

import (
	"context"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/client"
	"github.com/kaisen-ai/kaisen/game/submarine"
	subrecord "github.com/kaisen-ai/kaisen/game/submarine/record"
	"github.com/kaisen-ai/kaisen/internal/browsertest"
	"github.com/kaisen-ai/kaisen/internal/web"
	"github.com/kaisen-ai/kaisen/players"
	"github.com/kaisen-ai/kaisen/server"
	"github.com/kaisen-ai/kaisen/server/servertest"
)

// TestReveal plays a game of kaisen serve against the house AI and reads
// its whole event stream afterwards (every move as it was sent during the
// game): without Reveal no event names a fleet cell; with it, the info
// holds both placements of the replay and every move both fleets as the
// rules engine has them after that move.
func TestReveal(t *testing.T) {
	for _, reveal := range []bool{false, true} {
		t.Run(map[bool]string{false: "hidden", true: "revealed"}[reveal], func(t *testing.T) {
			s := servertest.Start(t, servertest.Config(t, 11, server.ListenerConfig{Opponent: "random"}))
			var opts []web.Option
			if reveal {
				opts = append(opts, web.Reveal())
			}
			hub := web.NewHub(s.Config.ReplayDir, opts...)
			s.Watch(hub)
			site := httptest.NewServer(hub.Handler())
			defer site.Close()

			conn, err := net.Dial("tcp", s.Addr(0))
			require.NoError(t, err)
			build := func(r *submarine.Rules) (players.Factory, error) { return players.New("random", r, nil) }
			_, err = client.PlaySubmarine(context.Background(), conn, build, func(g int) *rand.Rand { return rand.New(rand.NewPCG(5, uint64(g))) }, client.SubmarinePlayOptions{})
			conn.Close()
			require.NoError(t, err)
			res := s.WaitResults(t, 1)[0]

			resp, err := http.Get(site.URL + "/games/" + res.Game + "/events")
			require.NoError(t, err)
			raw, err := io.ReadAll(resp.Body)
			resp.Body.Close()
			require.NoError(t, err)
			info, moves, _ := stream(t, site.URL+"/games/"+res.Game+"/events")
			require.Len(t, moves, res.Actions)
			if !reveal {
				require.False(t, strings.Contains(string(raw), `"fleet"`), "a fleet in the stream")
				require.Equal(t, [2][]int{}, info.Fleet)
				return
			}

			rp, err := subrecord.ReadFile(filepath.Join(s.Config.ReplayDir, res.Game+".jsonl"))
			require.NoError(t, err)
			r, err := rp.Rules()
			require.NoError(t, err)
			place := [2]submarine.Placement{rp.Placement(r, 0), rp.Placement(r, 1)}
			cells := func(f submarine.Fleet) []int {
				out := make([]int, len(r.Fleet))
				for i := range out {
					out[i] = int(f.Pos[i])
				}
				return out
			}
			g, err := submarine.NewGame(r, place[0], place[1], rp.Steps[0].Seat)
			require.NoError(t, err)
			require.Equal(t, [2][]int{cells(g.Fleet(0)), cells(g.Fleet(1))}, info.Fleet)
			moved := false
			for i, st := range rp.Steps {
				a, err := st.Action.Decode(r)
				require.NoError(t, err)
				g.Apply(a)
				moved = moved || (a.Kind == submarine.Move && st.Error == "")
				require.Equal(t, [2][]int{cells(g.Fleet(0)), cells(g.Fleet(1))}, moves[i].Fleet, "after move %d", i+1)
			}
			require.True(t, moved, "the game has a move, or the test shows little")
		})
	}
}

// TestRevealInBrowser draws a running game's page in headless Chromium:
// the ships are outlined on both boards only when the hub reveals them.
func TestRevealInBrowser(t *testing.T) {
	r := submarine.DefaultRules()
	place := [2]submarine.Placement{{0, 6, 12}, {24, 18, 4}}
	ctx := browsertest.Start(t, time.Minute)
	for _, reveal := range []bool{false, true} {
		var opts []web.Option
		if reveal {
			opts = append(opts, web.Reveal())
		}
		hub := web.NewHub("", opts...)
		g, err := submarine.NewGame(r, place[0], place[1], 0)
		require.NoError(t, err)
		feed := server.NewFeed[submarine.Step](hub, "g", submarine.NewPublicView(g), [2]server.Peer{{Addr: "house", Name: "random"}, {Addr: "house", Name: "simple"}}, 0)
		st, err := g.Apply(submarine.Action{Kind: submarine.Move, Ship: 0, To: 1}) // w from [0,0] to [1,0]
		require.NoError(t, err)
		feed.Step(1, &st, nil)
		site := httptest.NewServer(hub.Handler())
		require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(site.URL+"/games/g"), chromedp.WaitVisible(`#log li`)))
		ships, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](
			`[...document.querySelectorAll("section.seat .ship")].map(d => d.closest("section").dataset.seat + ":" + d.dataset.cell + ":" + d.textContent)`))
		require.NoError(t, chromedp.Do(ctx, chromedp.Navigate("about:blank"))) // ends the page's open stream
		site.CloseClientConnections()
		site.Close()
		require.NoError(t, err)
		if !reveal {
			require.Empty(t, ships)
			continue
		}
		require.ElementsMatch(t, []string{"0:1:w", "0:6:c", "0:12:s", "1:24:w", "1:18:c", "1:4:s"}, ships, "seat 0's w has moved")
		png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
		require.NoError(t, err)
		browsertest.Screenshot(t, "spectator-reveal", png)
	}
}
