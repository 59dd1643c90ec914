package replay_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/internal/browsertest"
	"github.com/kaisen-ai/kaisen/internal/race"
	"github.com/kaisen-ai/kaisen/replay"
)

// openPage writes d's page to a file and opens it in Chromium at #frag
// ("" for none); it returns the browser and the page's address.
func openPage(t *testing.T, d *replay.HTMLData, frag string) (context.Context, string) {
	t.Helper()
	page := filepath.Join(t.TempDir(), "page.html")
	require.NoError(t, os.WriteFile(page, writePage(t, d), 0o644))
	url := "file://" + page
	ctx := browsertest.Start(t, 120*time.Second)
	require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(url+frag), chromedp.WaitVisible(`body[data-ready="1"]`)))
	return ctx, url
}

func eval[T any](t *testing.T, ctx context.Context, expr string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr))
	require.NoError(t, err, expr)
	return v
}

// shows checks that the page shows frame i of d and that the address ends in #i.
func shows(t *testing.T, ctx context.Context, d *replay.HTMLData, i int, what string) {
	t.Helper()
	last := len(d.Frames) - 1
	require.Equal(t, fmt.Sprintf("turn %d / %d", d.Frames[i].N, d.Frames[last].N), eval[string](t, ctx, `document.getElementById("counter").textContent`), what)
	require.Equal(t, d.Frames[i].Text, eval[string](t, ctx, `document.getElementById("text").textContent`), what)
	require.Equal(t, fmt.Sprintf("#%d", i), eval[string](t, ctx, `location.hash`), what+": the address follows")
}

// nextWith is the first frame after i (dir 1) or before it (dir -1) whose
// events have bit, or -1.
func nextWith(ev []replay.Event, i, dir int, bit replay.Event) int {
	for k := i + dir; k >= 0 && k < len(ev); k += dir {
		if ev[k]&bit != 0 {
			return k
		}
	}
	return -1
}

// TestHTMLJumpsInBrowserFullSize opens the page of a 10,000-action draw at #N and
// walks it with the jump keys and buttons: each lands on the frame the
// events say, the address follows every step, the timeline folds exactly
// the quiet stretches and opens one on demand.
func TestHTMLJumpsInBrowserFullSize(t *testing.T) {
	race.SkipFullSize(t)
	_, d := longDrawReplay(t)
	ev := d.Events()
	ctx, url := openPage(t, d, "#5000")
	t.Logf("10,000-action draw: first frame drawn %s ms after the navigation started (performance.now; a timing, not asserted)",
		eval[string](t, ctx, `document.body.dataset.readyMs`))
	shows(t, ctx, d, 5000, "opened at #5000")

	cur := 5000
	jump := func(key string, dir int, bit replay.Event, what string) {
		t.Helper()
		want := nextWith(ev, cur, dir, bit)
		require.GreaterOrEqual(t, want, 0, what)
		require.NoError(t, chromedp.Do(ctx, chromedp.KeyEvent(key)))
		shows(t, ctx, d, want, fmt.Sprintf("%s from %d", what, cur))
		cur = want
	}
	jump("H", -1, replay.EventHit, "H: the previous hit")
	require.NotZero(t, ev[cur]&replay.EventSunk, "the last hit of the game sinks a ship")
	jump("S", -1, replay.EventSunk, "S: the previous sinking")
	require.NoError(t, chromedp.Do(ctx, chromedp.KeyEvent(kb.Home)))
	shows(t, ctx, d, 0, "Home")
	cur = 0
	for range 4 {
		jump("h", 1, replay.EventHit, "h: the next hit")
	}
	jump("s", 1, replay.EventSunk, "s: the next sinking")
	jump("m", 1, replay.EventMove, "m: the next move")
	jump("m", 1, replay.EventMove, "m: the next move")
	jump("M", -1, replay.EventMove, "M: the previous move")
	require.NoError(t, chromedp.Do(ctx, chromedp.KeyEvent(kb.ArrowRight)))
	cur++
	shows(t, ctx, d, cur, "ArrowRight")

	// The timeline folds every quiet stretch, and only them.
	want := replay.QuietStretches(ev, replay.QuietRun)
	require.NotEmpty(t, want)
	folds := eval[[][2]int](t, ctx, `[...document.querySelectorAll("#timeline > li.fold")].map(li => [Number(li.dataset.from), Number(li.dataset.to)])`)
	require.Equal(t, want, folds)
	rows := eval[int](t, ctx, `document.querySelectorAll("#timeline > li[data-frame]").length`)
	folded := 0
	for _, s := range want {
		folded += s[1] - s[0] + 1
	}
	require.Equal(t, len(d.Frames)-folded, rows, "one row per frame outside the folds")

	// Skip the quiet stretch: past the end of the one at or after the
	// current frame.
	skip := -1
	for _, s := range want {
		if s[1] > cur {
			skip = min(s[1]+1, len(d.Frames)-1)
			break
		}
	}
	require.Positive(t, skip)
	require.NoError(t, chromedp.Do(ctx, chromedp.KeyEvent("q")))
	shows(t, ctx, d, skip, "q: skip the quiet stretch")
	require.True(t, eval[bool](t, ctx, `document.getElementById("next-hit").disabled`), "no hit after the last quiet stretch of a draw")
	require.True(t, eval[bool](t, ctx, `document.getElementById("skip-quiet").disabled`))

	// A fold opens on a click, its rows are the stretch's frames, and a
	// click on one shows it.
	last := want[len(want)-1]
	require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#timeline > li.fold:last-child summary`)),
		chromedp.WaitVisible(chromedp.CSS(`#timeline > li.fold:last-child li[data-frame]`)))) // drawn on the toggle event
	inner := eval[[]string](t, ctx, `[...document.querySelectorAll("#timeline > li.fold:last-child li[data-frame]")].map(li => li.dataset.frame)`)
	require.Len(t, inner, last[1]-last[0]+1)
	require.Equal(t, fmt.Sprint(last[0]), inner[0])
	pick := last[0] + 7
	require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.CSS(fmt.Sprintf(`#timeline li[data-frame="%d"]`, pick)))))
	shows(t, ctx, d, pick, "a click on a folded row")
	require.Equal(t, fmt.Sprint(pick), eval[string](t, ctx, `document.querySelector("#timeline .cur").dataset.frame`), "the row shown is marked")

	// The jump buttons do what the keys do.
	require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#prev-hit`))))
	shows(t, ctx, d, nextWith(ev, pick, -1, replay.EventHit), "the ◀ hit button")

	// Editing the address's #N goes there; a reload keeps the frame.
	counter, err := chromedp.Run(ctx, chromedp.Evaluate[string](`new Promise((done) => {
	  addEventListener("hashchange", () => setTimeout(() => done(document.getElementById("counter").textContent)), { once: true });
	  location.hash = "#42";
	})`, chromedp.EvalAwaitPromise))
	require.NoError(t, err)
	require.Equal(t, "turn 42 / 10000", counter, "after the page's own hashchange handler")
	require.NoError(t, chromedp.Do(ctx, chromedp.Reload(), chromedp.WaitVisible(`body[data-ready="1"]`)))
	shows(t, ctx, d, 42, "reloaded")
	require.Equal(t, url+"#42", eval[string](t, ctx, `location.href`))
}

// TestHTMLColoursInBrowser: on a Battleship page, hits, sunk ships and
// ships are drawn in three colours, the legend draws each glyph in the
// colour of its cells, gridbot's panel says what it records, and the
// heatmaps' key gives the colours of the percentages the cells show.
func TestHTMLColoursInBrowser(t *testing.T) {
	d := htmlData(t, "bs-gridbot")
	frame := -1
	for i, f := range d.Frames {
		for _, b := range f.Boards {
			if strings.Contains(b.Cells, "x") && strings.Contains(b.Cells, "#") && strings.Contains(b.Cells, "O") {
				frame = i
			}
		}
		if frame >= 0 {
			break
		}
	}
	require.Positive(t, frame, "a frame with a hit and a sunk ship on one board")
	ctx, _ := openPage(t, d, fmt.Sprintf("#%d", frame))
	shows(t, ctx, d, frame, "opened")
	colour := func(sel string) string {
		t.Helper()
		c := eval[string](t, ctx, `(() => { const e = document.querySelector(`+"`"+sel+"`"+`); return e ? getComputedStyle(e).backgroundColor : ""; })()`)
		require.NotEmpty(t, c, sel)
		return c
	}
	hit, sunk, ship := colour(`section.seat .board div.hit`), colour(`section.seat .board div.sunk`), colour(`section.seat .board div.ship`)
	require.NotEqual(t, hit, sunk, "hit and sunk")
	require.NotEqual(t, hit, ship)
	require.NotEqual(t, sunk, ship)
	require.Equal(t, hit, colour(`#legend div[data-glyph="x"]`), "the legend's hit")
	require.Equal(t, sunk, colour(`#legend div[data-glyph="#"]`), "the legend's sunk ship")
	require.Equal(t, ship, colour(`#legend div[data-glyph="O"]`), "the legend's ship")
	marks := eval[[]string](t, ctx, `["hit", "sunk"].map(c => document.querySelector("section.seat .board div." + c).textContent)`)
	require.Equal(t, []string{"x", "#"}, marks, "told apart without colour too")

	notes := eval[map[string]string](t, ctx, `Object.fromEntries([...document.querySelectorAll("section.seat")].map(p => [p.dataset.seat, p.querySelector(".none") ? p.querySelector(".none").textContent : ""]))`)
	gridbot := "0"
	if d.Players[1] == "gridbot (p1)" {
		gridbot = "1"
	}
	require.Contains(t, notes[gridbot], "gridbot (p1) recorded its reasons")
	require.Contains(t, notes[gridbot], "no beliefs")
	require.Contains(t, notes[map[string]string{"0": "1", "1": "0"}[gridbot]], "no recorded beliefs or reasons")
	require.Empty(t, eval[string](t, ctx, `document.getElementById("heatkey").textContent`), "no heatmap, no key")

	// The heatmaps' key (a game with heatmaps): percent, as the cells.
	hd := htmlData(t, "html-hirota")
	ctx, _ = openPage(t, hd, "#3")
	key := eval[string](t, ctx, `document.getElementById("heatkey").textContent`)
	require.Contains(t, key, "in percent")
	swatches := eval[map[string]string](t, ctx, `Object.fromEntries([...document.querySelectorAll("#heatkey .swatch")].map(s => [s.dataset.v, s.textContent + " " + getComputedStyle(s).backgroundColor]))`)
	require.Equal(t, 6, len(swatches))
	cells := eval[[][3]string](t, ctx, `[...document.querySelectorAll(".heats div[data-v]")].map(d => [d.dataset.v, d.textContent, getComputedStyle(d).backgroundColor])`)
	require.NotEmpty(t, cells)
	matched := map[string]bool{}
	for _, c := range cells {
		var v int
		_, err := fmt.Sscan(c[0], &v)
		require.NoError(t, err)
		switch {
		case v >= 5:
			require.Equal(t, fmt.Sprint((v+5)/10), c[1], "a cell of %d thousandths shows its percent", v)
		case v > 0:
			require.Equal(t, "·", c[1])
		default:
			require.Empty(t, c[1])
		}
		if sw, ok := swatches[c[0]]; ok {
			require.Equal(t, fmt.Sprintf("%d %s", v/10, c[2]), sw, "the key's %d %% is the cells' colour", v/10)
			matched[c[0]] = true
		}
	}
	require.True(t, matched["0"] && matched["1000"], "the key's 0 and 100 are seen on cells: %v", matched)
}
