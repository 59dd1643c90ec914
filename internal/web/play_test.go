package web_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	subrecord "github.com/kaisen-ai/kaisen/game/submarine/record"
	"github.com/kaisen-ai/kaisen/internal/browsertest"
	"github.com/kaisen-ai/kaisen/internal/keystream"
	"github.com/kaisen-ai/kaisen/internal/web"
	"github.com/kaisen-ai/kaisen/server"
	"github.com/kaisen-ai/kaisen/server/servertest"
)

// TestPlayHouseInBrowser plays a whole game against the house random AI in
// headless Chromium, by clicking: the button of the list starts it, then
// each turn a click on a green cell of the house's waters attacks it, or
// (every fourth turn) a click on one of the person's ships and then on a
// green cell of its row or column moves it, until the game is over. The
// game is then listed as finished, with as many moves as the page logged.
func TestPlayHouseInBrowser(t *testing.T) {
	s := servertest.Start(t, servertest.Config(t, 4))
	hub := web.NewHub(s.Config.ReplayDir, web.Play(web.PlayOptions{House: "random", Timeout: time.Minute, Key: keystream.FromSeed(4), Record: s}))
	ctx, site, rng := playInBrowser(t, hub, 4)
	url, err := chromedp.Run(ctx, chromedp.Evaluate[string](`location.pathname`))
	require.NoError(t, err)
	require.Regexp(t, `^/play/web-[A-Z2-7]{26}$`, url)

	turns, moves := 0, 0
	for ; turns < 2000; turns++ {
		if gameOver(t, ctx) {
			break
		}
		if turns == 0 {
			status, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById("status").textContent`))
			require.NoError(t, err)
			require.Regexp(t, `^your turn: (60|59|58|57|56|55) s left \(1m0s per action\)$`, status, "whose turn, and the time left")
		}
		if turns%4 == 3 {
			ships, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll("#mine .mine-ship")].map(d => d.dataset.cell)`))
			require.NoError(t, err)
			require.NotEmpty(t, ships, "a living ship to move")
			require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#mine div[data-cell="`+ships[rng.IntN(len(ships))]+`"]`))))
			dest, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll("#mine .dest")].map(d => d.dataset.cell)`))
			require.NoError(t, err)
			if len(dest) > 0 {
				require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#mine div[data-cell="`+dest[rng.IntN(len(dest))]+`"]`))))
				moves++
				continue
			}
			require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#mine .sel`)))) // nowhere to go: attack instead
		}
		targets, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll("#enemy .target")].map(d => d.dataset.cell)`))
		require.NoError(t, err)
		require.NotEmpty(t, targets, "a cell to attack")
		require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#enemy div[data-cell="`+targets[rng.IntN(len(targets))]+`"]`))))
	}
	require.Less(t, turns, 2000, "the game ends")
	require.Positive(t, moves, "the person moved a ship")
	status, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById("status").textContent`))
	require.NoError(t, err)
	require.Regexp(t, `^over: (seat \d (you \(browser\)|random \(house AI\)) wins|draw) after \d+ moves`, status)
	logged, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll("#log li").length`))
	require.NoError(t, err)
	text, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.body.innerText`))
	require.NoError(t, err)
	require.NotContains(t, strings.ToLower(text), "your turn", "the page of a finished game says nothing of a turn")
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	require.NoError(t, err)
	browsertest.Screenshot(t, "play-house-ai", png)
	t.Logf("%d turns of the person (%d moves), %d moves in all: %s", turns, moves, logged, status)

	// The game is listed as finished, and its spectator stream agrees.
	id := strings.TrimPrefix(url, "/play/")
	_, evs, end := stream(t, site.URL+"/games/"+id+"/events")
	require.Len(t, evs, logged)
	require.Equal(t, strings.TrimPrefix(status, "over: "), end.Result)
	for i, e := range evs {
		require.Equal(t, i%2, e.Seat, "the person moves first, then turns alternate")
	}

	// The game is in the server's result log and replays, as a server
	// game: its replay opens from the list.
	rs := s.WaitResults(t, 1)
	require.Equal(t, id, rs[0].Game)
	require.Equal(t, web.WebListener, rs[0].Listener)
	require.Equal(t, logged, rs[0].Actions)
	require.Equal(t, id+".jsonl", rs[0].Replay)
	require.Equal(t, [2]server.Peer{{Addr: "browser", Name: "you (browser)"}, {Addr: "house", Name: "random"}}, rs[0].Players)
	require.False(t, rs[0].Start.IsZero() || rs[0].End.Before(rs[0].Start), "start and end times")
	rp, err := subrecord.ReadFile(filepath.Join(s.Config.ReplayDir, rs[0].Replay))
	require.NoError(t, err)
	require.NoError(t, subrecord.Verify(rp), "the replay is the engine's game")
	require.Len(t, rp.Steps, logged)
	require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(site.URL+"/"), chromedp.Click(chromedp.CSS(`#finished a[href="/games/`+id+`/replay"]`)),
		chromedp.WaitVisible(chromedp.CSS(`body[data-ready="1"]`))))
	require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(site.URL+url), chromedp.WaitVisible(chromedp.CSS(`body[data-over="1"]`))))

	// Play again starts a new game on its own page.
	require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#playagain`)),
		chromedp.WaitVisible(chromedp.CSS(`body[data-turn="1"]`))))
	again, err := chromedp.Run(ctx, chromedp.Evaluate[string](`location.pathname`))
	require.NoError(t, err)
	require.Regexp(t, `^/play/web-[A-Z2-7]{26}$`, again)
	require.NotEqual(t, url, again, "a new game")

	// Starting needs JSON (no form post from another site), and an action
	// without the browser's session cookie is refused.
	resp, err := http.Post(site.URL+"/play", "application/x-www-form-urlencoded", strings.NewReader(""))
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, http.StatusUnsupportedMediaType, resp.StatusCode)
	resp, err = http.Post(site.URL+"/play/"+id+"/act", "application/json", strings.NewReader(`{"kind":"attack","to":0}`))
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, http.StatusForbidden, resp.StatusCode, "not the person's browser")
}

// TestPlayRefusesAndTimesOut: an illegal action is refused (400) and the
// game goes on; no action within the timeout loses it.
func TestPlayRefusesAndTimesOut(t *testing.T) {
	hub := web.NewHub("", web.Play(web.PlayOptions{House: "random", Timeout: 300 * time.Millisecond, Key: keystream.FromSeed(1)}))
	site := httptest.NewServer(hub.Handler())
	defer site.Close()
	resp, err := http.Post(site.URL+"/play", "application/json", strings.NewReader("{}"))
	require.NoError(t, err)
	var started struct{ ID, Page string }
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&started))
	resp.Body.Close()
	require.Equal(t, "/play/"+started.ID, started.Page)
	cookies := resp.Cookies()
	require.Len(t, cookies, 1, "the session cookie")
	post := func(body string) int {
		req, err := http.NewRequest(http.MethodPost, site.URL+"/play/"+started.ID+"/act", strings.NewReader(body))
		require.NoError(t, err)
		req.Header.Set("Content-Type", "application/json")
		req.AddCookie(cookies[0])
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		resp.Body.Close()
		return resp.StatusCode
	}
	// The person's ships are not known here: a move of ship 9 is never legal.
	require.Eventually(t, func() bool { return post(`{"kind":"move","ship":9,"to":0}`) == http.StatusBadRequest }, 5*time.Second, 5*time.Millisecond)
	require.Equal(t, http.StatusBadRequest, post(`{"kind":"attack","to":99}`))
	require.Equal(t, http.StatusBadRequest, post(`{"kind":"fire"}`))
	require.Equal(t, http.StatusBadRequest, post(`not json`))
	_, evs, end := stream(t, site.URL+"/games/"+started.ID+"/events")
	require.Len(t, evs, 1, "refused actions are not played: the one move is the late action, taken as invalid (as the server takes a late client's)")
	require.Equal(t, "#1 seat 0 you (browser) makes an illegal invalid and forfeits", evs[0].Text)
	require.Equal(t, "seat 1 random (house AI) wins after 1 moves (timeout: no action within 300ms)", end.Result)
}
