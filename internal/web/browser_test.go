package web_test

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/client"
	"github.com/kaisen-ai/kaisen/game/submarine"
	"github.com/kaisen-ai/kaisen/games"
	"github.com/kaisen-ai/kaisen/internal/browsertest"
	"github.com/kaisen-ai/kaisen/internal/keystream"
	"github.com/kaisen-ai/kaisen/internal/web"
	"github.com/kaisen-ai/kaisen/players"
	"github.com/kaisen-ai/kaisen/server"
	"github.com/kaisen-ai/kaisen/server/servertest"
)

// slow thinks for a while before each action, so that a browser can watch
// the game live, and makes no action until gate is closed, so that the
// game is still running when the browser first looks at it, however
// loaded the machine is.
type slow struct {
	players.Player
	gate <-chan struct{}
}

func (p slow) Act() submarine.Action {
	<-p.gate
	time.Sleep(60 * time.Millisecond)
	return p.Player.Act()
}

// TestLiveInBrowser watches a game of kaisen serve in headless Chromium: the
// list shows it running, its page follows it move by move to the end, then
// links to its replay, which plays.
func TestLiveInBrowser(t *testing.T) {
	cfg := servertest.Config(t, 7, server.ListenerConfig{Opponent: "simple"})
	cfg.Limits.ActionTimeout = time.Minute // the client waits at its gate while the browser looks
	s := servertest.Start(t, cfg)
	hub := web.NewHub(s.Config.ReplayDir)
	s.Watch(hub)
	site := httptest.NewServer(hub.Handler())
	defer site.Close()
	ctx := browsertest.Start(t, 2*time.Minute)

	require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(site.URL+"/")))
	text, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.body.innerText`))
	require.NoError(t, err)
	require.Contains(t, text, "no game is running")

	played := make(chan error, 1)
	gate := make(chan struct{})
	open := sync.OnceFunc(func() { close(gate) })
	defer open() // the client's game ends even when the test fails early
	go func() {
		conn, err := net.Dial("tcp", s.Addr(0))
		if err != nil {
			played <- err
			return
		}
		defer conn.Close()
		build := func(r *submarine.Rules) (players.Factory, error) {
			f, err := players.New("random", r, nil)
			return func(rng *rand.Rand) players.Player { return slow{f(rng), gate} }, err
		}
		_, err = client.PlaySubmarine(context.Background(), conn, build, func(g int) *rand.Rand { return rand.New(rand.NewPCG(3, uint64(g))) }, client.SubmarinePlayOptions{})
		played <- err
	}()

	// The list names the running game.
	var id string
	require.Eventually(t, func() bool {
		resp, err := http.Get(site.URL + "/")
		if err != nil {
			return false
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		if m := regexp.MustCompile(`<table id="running">[\s\S]*?href="/games/([^"]+)"`).FindSubmatch(b); m != nil {
			id = string(m[1])
		}
		return id != ""
	}, 10*time.Second, 20*time.Millisecond)

	require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(site.URL+"/games/"+id), chromedp.WaitVisible(`section.seat`)))
	status, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById("status").textContent`))
	require.NoError(t, err)
	require.Regexp(t, `^running`, status, "the game is watched while it is played")
	// The client waits at its gate on its turn: the page says whose turn
	// it is and the time left of its minute.
	var turn string
	require.Eventually(t, func() bool {
		turn, err = chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById("status").textContent`))
		return err == nil && regexp.MustCompile(`; seat \d 127\.0\.0\.1:\d+ to act: (60|59|58|57|56|55) s left$`).MatchString(turn)
	}, 20*time.Second, 50*time.Millisecond, "whose turn and the time left: %q", turn)
	open()
	require.NoError(t, chromedp.Do(ctx, chromedp.WaitVisible(`body[data-over="1"]`)))
	require.NoError(t, <-played)

	rs := s.WaitResults(t, 1)
	status, err = chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById("status").textContent`))
	require.NoError(t, err)
	require.Contains(t, status, "over: seat ")
	moves, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll("#log li").length`))
	require.NoError(t, err)
	require.Equal(t, rs[0].Actions, moves, "every move shown")
	cells, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll("section.seat .board div[data-cell]").length`))
	require.NoError(t, err)
	require.Equal(t, 2*25, cells)
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	require.NoError(t, err)
	browsertest.Screenshot(t, "spectator-live", png)

	require.NoError(t, chromedp.Do(ctx, chromedp.Click(`#replay`), chromedp.WaitVisible(`body[data-ready="1"]`)))
	counter, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById("counter").textContent`))
	require.NoError(t, err)
	require.Regexp(t, `^turn 0 / \d+$`, counter)
}

// TestPlayBattleshipInBrowser plays a whole game of Battleship against its
// house AI in headless Chromium through the same page as the submarine
// game's: the person's fleet is drawn on their waters, each turn a click
// on a green cell of the house's waters not shot yet fires at it (a hit
// earns another shot), until the game is over; the game is then in the
// server's result log with a replay that verifies.
func TestPlayBattleshipInBrowser(t *testing.T) {
	s := servertest.Start(t, servertest.Config(t, 5))
	hub := web.NewHub(s.Config.ReplayDir, web.Play(web.PlayOptions{Game: "battleship", House: "bs-random", Timeout: time.Minute, Key: keystream.FromSeed(5), Record: s}))
	ctx, _, rng := playInBrowser(t, hub, 5)
	title, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById("title").textContent`))
	require.NoError(t, err)
	require.Equal(t, "you against the house AI bs-random (battleship)", title)
	ships, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll("#mine div[data-ship]").length`))
	require.NoError(t, err)
	require.Equal(t, 20, ships, "the classic fleet's 20 cells on the person's waters")
	cols, err := chromedp.Run(ctx, chromedp.Evaluate[string](`[...document.querySelectorAll("#enemy .lbl")].slice(1, 11).map(d => d.textContent).join("")`))
	require.NoError(t, err)
	require.Equal(t, "ABCDEFGHIJ", cols, "the game's own column names")

	turns := 0
	for ; turns < 300; turns++ {
		if gameOver(t, ctx) {
			break
		}
		targets, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](huntTargets(10)))
		require.NoError(t, err)
		require.NotEmpty(t, targets, "a cell not shot yet")
		require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#enemy div[data-cell="`+targets[rng.IntN(len(targets))]+`"]`))))
	}
	require.Less(t, turns, 300, "the game ends")
	status, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById("status").textContent`))
	require.NoError(t, err)
	require.Regexp(t, `^over: seat \d (you \(browser\)|bs-random \(house AI\)) wins after \d+ moves \(sunk\)$`, status)
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	require.NoError(t, err)
	browsertest.Screenshot(t, "play-battleship", png)

	rs := s.WaitResults(t, 1)
	require.Equal(t, web.WebListener, rs[0].Listener)
	require.NotEmpty(t, rs[0].Replay)
	g, err := games.Lookup("battleship")
	require.NoError(t, err)
	rp, err := g.OpenReplay(filepath.Join(s.Config.ReplayDir, rs[0].Replay))
	require.NoError(t, err)
	require.NoError(t, rp.Verify(), "the replay is the rules' game")
	logged, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll("#log li").length`))
	require.NoError(t, err)
	require.Equal(t, rs[0].Actions, logged, "every shot logged")
	t.Logf("%d turns of the person, %d shots in all: %s", turns, logged, status)
}

// playInBrowser serves hub on a test site and, in headless Chromium,
// starts a game from the first button of the list, up to the person's
// fleet drawn on their page; it returns the browser, the site and the
// stream the test's clicks draw from (seed).
func playInBrowser(t *testing.T, hub *web.Hub, seed uint64) (context.Context, *httptest.Server, *rand.Rand) {
	t.Helper()
	site := httptest.NewServer(hub.Handler())
	t.Cleanup(site.Close)
	ctx := browsertest.Start(t, 3*time.Minute)
	require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(site.URL+"/"), chromedp.Click(chromedp.CSS(`#play`)),
		chromedp.WaitVisible(chromedp.CSS(`#mine div[data-ship]`))))
	return ctx, site, rand.New(rand.NewPCG(seed, 0))
}

// TestPlayAbilitiesInBrowser plays the abilities game against ab-random in
// headless Chromium on the same page: a cell of the house's waters that
// several actions share (a shot, a special shot, salvos) offers them as
// buttons, and the defender's answers to the house's questions are
// buttons too, until the game is over.
func TestPlayAbilitiesInBrowser(t *testing.T) {
	hub := web.NewHub("", web.Play(web.PlayOptions{Game: "abilities", House: "ab-random", Timeout: time.Minute, Key: keystream.FromSeed(6)}))
	ctx, _, rng := playInBrowser(t, hub, 6)
	pick := func(list []string) string { return list[rng.IntN(len(list))] }
	strs := func(js string) []string {
		v, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](js))
		require.NoError(t, err)
		return v
	}
	turns, chose, answered := 0, 0, 0
	for ; turns < 400; turns++ {
		if gameOver(t, ctx) {
			break
		}
		targets := strs(huntTargets(10))
		if len(targets) == 0 { // a question: its answers are buttons
			answers := strs(`[...document.querySelectorAll("#actions button")].map(b => b.dataset.label)`)
			require.NotEmpty(t, answers, "the answers to the house's question")
			require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#actions button[data-label="`+pick(answers)+`"]`))))
			answered++
			continue
		}
		require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#enemy div[data-cell="`+pick(targets)+`"]`))))
		choices := strs(`[...document.querySelectorAll("#choices button")].map(b => b.dataset.label)`)
		if len(choices) > 0 { // several actions on the cell
			require.GreaterOrEqual(t, len(choices), 2)
			require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#choices button[data-label="`+pick(choices)+`"]`))))
			chose++
		}
	}
	require.Less(t, turns, 400, "the game ends")
	require.Positive(t, chose, "a cell offered several actions")
	status, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById("status").textContent`))
	require.NoError(t, err)
	require.Regexp(t, `^over: seat \d (you \(browser\)|ab-random \(house AI\)) wins after \d+ moves`, status)
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	require.NoError(t, err)
	browsertest.Screenshot(t, "play-abilities", png)
	t.Logf("%d turns of the person (%d chosen among a cell's actions, %d answers): %s", turns, chose, answered, status)
}

// huntTargets is a JavaScript expression: the cells of the house's waters
// (w columns) the person may fire at and has not shot yet, as a player
// hunting by hand would narrow them: those next to a hit of a ship not sunk
// yet ("X"), else those that touch no sunk ship ("#") and lie on no
// diagonal of a hit (no ship is there under the classic rules); all of
// them when the narrowing leaves none. The games take fewer of the
// browser's turns than uniformly random clicks, each of which costs
// Chromium's CPU in CI.
func huntTargets(w int) string {
	return fmt.Sprintf(`(() => {
  const w = %d, mark = {};
  document.querySelectorAll("#enemy div[data-cell]").forEach(d => { mark[d.dataset.cell] = d.textContent; });
  const free = [...document.querySelectorAll("#enemy .target")].filter(d => d.textContent === "").map(d => Number(d.dataset.cell));
  const at = (c, dx, dy) => { const x = c %% w + dx; return x < 0 || x >= w ? undefined : mark[c + dy * w + dx]; };
  const orth = [[1, 0], [-1, 0], [0, 1], [0, -1]], diag = [[1, 1], [1, -1], [-1, 1], [-1, -1]];
  const near = free.filter(c => orth.some(([dx, dy]) => at(c, dx, dy) === "X"));
  const open = free.filter(c => ![...orth, ...diag].some(([dx, dy]) => at(c, dx, dy) === "#") && !diag.some(([dx, dy]) => at(c, dx, dy) === "X"));
  return (near.length ? near : open.length ? open : free).map(String);
})()`, w)
}

// gameOver waits for the person's turn or the end of the game on the play
// page and reports whether the game is over.
func gameOver(t *testing.T, ctx context.Context) bool {
	t.Helper()
	require.NoError(t, chromedp.Do(ctx, chromedp.WaitVisible(chromedp.CSS(`body[data-turn="1"], body[data-over="1"]`))))
	over, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.body.dataset.over === "1"`))
	require.NoError(t, err)
	return over
}
