package web_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/client"
	"github.com/kaisen-ai/kaisen/game/submarine"
	"github.com/kaisen-ai/kaisen/internal/browsertest"
	"github.com/kaisen-ai/kaisen/internal/web"
	"github.com/kaisen-ai/kaisen/ladder"
	"github.com/kaisen-ai/kaisen/players"
	"github.com/kaisen-ai/kaisen/server/servertest"
)

// playRated plays one rated game between bots a and b (their tokens in
// tok) on the rated listener at addr.
func playRated(t *testing.T, addr string, tok map[string]string, seed uint64, bots ...string) {
	t.Helper()
	var wg sync.WaitGroup
	errs := make(chan error, len(bots))
	for i, b := range bots {
		wg.Go(func() {
			conn, err := net.Dial("tcp", addr)
			if err != nil {
				errs <- err
				return
			}
			defer conn.Close()
			if err := client.Authenticate(conn, b, tok[b], 10*time.Second); err != nil {
				errs <- err
				return
			}
			build := func(r *submarine.Rules) (players.Factory, error) { return players.New("random", r, nil) }
			_, err = client.PlaySubmarine(context.Background(), conn, build,
				func(g int) *rand.Rand { return rand.New(rand.NewPCG(seed, uint64(10*i+g))) }, client.SubmarinePlayOptions{})
			errs <- err
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}
}

// cells reads the text of every cell of the table's rows but the header.
const cells = `Array.from(document.querySelectorAll("%s tr")).slice(1).map(r => Array.from(r.cells).map(c => c.textContent))`

// TestLadderInBrowser: with the ladder, the spectator pages link to the
// table of bots, which shows what kaisen ladder table prints, and each
// bot's page its games as kaisen ladder history prints them, with the
// replay of each game; all read in headless Chromium from a rated server
// whose bots really played.
func TestLadderInBrowser(t *testing.T) {
	ctx := context.Background()
	store, err := ladder.Open(ctx, filepath.Join(t.TempDir(), "ladder.db"))
	require.NoError(t, err)
	defer store.Close()
	tok := map[string]string{}
	for _, b := range []string{"alpha", "beta", "gamma"} {
		tok[b], err = store.Register(ctx, b)
		require.NoError(t, err)
	}
	cfg := servertest.Config(t, 5)
	cfg.Ladder = store
	s := servertest.Start(t, cfg)
	hub := web.NewHub(cfg.ReplayDir, web.Ladder(store))
	s.Watch(hub)
	site := httptest.NewServer(hub.Handler())
	defer site.Close()
	for seed := range uint64(3) {
		playRated(t, s.Addr(0), tok, seed+1, "alpha", "beta")
	}

	b := browsertest.Start(t, 2*time.Minute)
	// The list names the rated bots by their ladder names, their
	// addresses in a title, with when each game started and ended.
	require.NoError(t, chromedp.Do(b, chromedp.Navigate(site.URL+"/"), chromedp.WaitVisible(`#finished`)))
	listed, err := chromedp.Run(b, chromedp.Evaluate[[][]string](fmt.Sprintf(cells, "#finished")))
	require.NoError(t, err)
	require.Len(t, listed, 3)
	for _, row := range listed {
		require.ElementsMatch(t, []string{"alpha", "beta"}, row[2:4], "the bots by name, not address")
		require.Regexp(t, `^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$`, row[4], "started")
		require.Regexp(t, `s$`, row[5], "took")
		require.Regexp(t, `^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$`, row[6], "ended")
	}
	titles, err := chromedp.Run(b, chromedp.Evaluate[[]string](`Array.from(document.querySelectorAll("#finished td.player")).map(c => c.title)`))
	require.NoError(t, err)
	for _, a := range titles {
		require.Regexp(t, `^127\.0\.0\.1:\d+$`, a, "the address in a title")
	}
	require.NoError(t, chromedp.Do(b, chromedp.Click(`#ladderlink`), chromedp.WaitVisible(`#ladder`)))
	table, err := store.Table(ctx)
	require.NoError(t, err)
	var want [][]string
	for i, bot := range table {
		want = append(want, []string{fmt.Sprint(i + 1), bot.Name, fmt.Sprintf("%.0f", bot.Rating.R), fmt.Sprintf("%.0f", bot.Rating.RD),
			fmt.Sprintf("%.4f", bot.Rating.Vol), fmt.Sprint(bot.Games), fmt.Sprint(bot.Wins), fmt.Sprint(bot.Draws), fmt.Sprint(bot.Losses),
			map[bool]string{true: "provisional"}[bot.Provisional()]})
	}
	got, err := chromedp.Run(b, chromedp.Evaluate[[][]string](fmt.Sprintf(cells, "#ladder")))
	require.NoError(t, err)
	require.Equal(t, want, got, "the table of kaisen ladder table")
	png, err := chromedp.Run(b, chromedp.FullScreenshot(100))
	require.NoError(t, err)
	browsertest.Screenshot(t, "ladder-table", png)
	require.Len(t, got, 3)
	for _, row := range got {
		if row[1] == "gamma" {
			require.Equal(t, []string{"gamma", "1500", "350", "0.0600", "0", "0", "0", "0", "provisional"}, row[1:], "gamma has played no game")
		}
		if row[1] == "alpha" {
			w, d, l := atoi(t, row[6]), atoi(t, row[7]), atoi(t, row[8])
			require.Equal(t, 3, w+d+l, "alpha's W/D/L count its 3 games")
		}
	}

	// A bot's history, reached from the table.
	require.NoError(t, chromedp.Do(b, chromedp.Click(`#ladder a[href="/ladder/alpha"]`), chromedp.WaitVisible(`#history`)))
	played, err := store.History(ctx, "alpha")
	require.NoError(t, err)
	require.Len(t, played, 3)
	want = nil
	for _, p := range played {
		g := p.Game
		want = append(want, []string{g.ID, p.Opponent(), p.Result(), g.Reason, fmt.Sprint(g.Actions),
			fmt.Sprintf("%.0f -> %.0f", p.Before.R, p.After.R), g.End.UTC().Format(time.DateTime), "replay"})
	}
	got, err = chromedp.Run(b, chromedp.Evaluate[[][]string](fmt.Sprintf(cells, "#history")))
	require.NoError(t, err)
	require.Equal(t, want, got, "the games of kaisen ladder history")
	rating, err := chromedp.Run(b, chromedp.Evaluate[string](`document.getElementById("rating").textContent`))
	require.NoError(t, err)
	require.Equal(t, fmt.Sprintf("rating %.0f, RD %.0f", played[2].After.R, played[2].After.RD), rating)
	// The rating chart: the start and a point per game, each titled with
	// its game and rating, drawn by Chromium (a box of the SVG's size).
	titles, err = chromedp.Run(b, chromedp.Evaluate[[]string](`Array.from(document.querySelectorAll("#chart circle.game title")).map(e => e.textContent)`))
	require.NoError(t, err)
	wantTitles := []string{fmt.Sprintf("start: rating %.0f, RD %.0f", played[0].Before.R, played[0].Before.RD)}
	for _, p := range played {
		wantTitles = append(wantTitles, fmt.Sprintf("%s: %s: rating %.0f, RD %.0f", p.Game.ID, p.Result(), p.After.R, p.After.RD))
	}
	require.Equal(t, wantTitles, titles, "one point per rated game, after the start")
	box, err := chromedp.Run(b, chromedp.Evaluate[[]float64](`(() => { const r = document.querySelector("#chart polyline.rating").getBoundingClientRect(); return [r.width, r.height]; })()`))
	require.NoError(t, err)
	require.Greater(t, box[0], 100.0, "the rating line is drawn across the chart")
	png, err = chromedp.Run(b, chromedp.FullScreenshot(100))
	require.NoError(t, err)
	browsertest.Screenshot(t, "ladder-history", png)

	// Its first game's replay plays.
	require.NoError(t, chromedp.Do(b, chromedp.Click(`#history a[href$="/replay"]`), chromedp.WaitVisible(`body[data-ready="1"]`)))
	png, err = chromedp.Run(b, chromedp.FullScreenshot(100))
	require.NoError(t, err)
	browsertest.Screenshot(t, "ladder-replay", png)

	// gamma's page has no game, and no chart; unknown bots, bad names and another bot's
	// game are not found.
	require.NoError(t, chromedp.Do(b, chromedp.Navigate(site.URL+"/ladder/gamma")))
	text, err := chromedp.Run(b, chromedp.Evaluate[string](`document.body.innerText`))
	require.NoError(t, err)
	require.Contains(t, text, "no rated game yet")
	charts, err := chromedp.Run(b, chromedp.Evaluate[int](`document.querySelectorAll("#chart").length`))
	require.NoError(t, err)
	require.Zero(t, charts)
	for _, path := range []string{
		"/ladder/zed", "/ladder/..%2f..%2fetc", "/ladder/gamma/games/" + played[0].Game.ID + "/replay",
		"/ladder/alpha/games/nosuchgame/replay",
	} {
		resp, err := http.Get(site.URL + path)
		require.NoError(t, err)
		resp.Body.Close()
		require.Equal(t, http.StatusNotFound, resp.StatusCode, path)
	}
	resp, err := http.Get(site.URL + "/ladder/alpha/games/" + played[0].Game.ID + "/replay")
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
}

func atoi(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
	require.NoError(t, err, s)
	return n
}

// TestNoLadderPages: without the ladder there are no ladder pages and no
// link to them.
func TestNoLadderPages(t *testing.T) {
	site := httptest.NewServer(web.NewHub("").Handler())
	defer site.Close()
	resp, err := http.Get(site.URL + "/ladder")
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, http.StatusNotFound, resp.StatusCode)
}
