package replay_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/game/submarine"
	subrecord "github.com/kaisen-ai/kaisen/game/submarine/record"
	"github.com/kaisen-ai/kaisen/internal/browsertest"
	"github.com/kaisen-ai/kaisen/replay"
)

// shownHeat is what the page shows of the heatmaps: per seat panel, per
// figure "side name", the data-v of every cell.
const shownHeat = `(() => {
  const out = {};
  for (const p of document.querySelectorAll("section.seat")) {
    for (const f of p.querySelectorAll(".heats figure")) {
      out[p.dataset.seat + " " + f.dataset.side + " " + f.dataset.name] =
        [...f.querySelectorAll("div[data-v]")].map(d => Number(d.dataset.v));
    }
  }
  return out;
})()`

// wantHeat is what shownHeat should return at frame i: each seat's latest
// recorded heatmaps at or before i and the exact exposure of its fleet,
// every usable cell.
func wantHeat(d *replay.HTMLData, i int) map[string][]int {
	out := map[string][]int{}
	usable := func(cells []int) []int {
		var u []int
		for c, v := range cells {
			if g := d.Frames[0].Boards[0].Cells[c]; g != '#' && g != '-' {
				u = append(u, v)
			}
		}
		return u
	}
	for s := range 2 {
		for k := i; k >= 1; k-- {
			if f := d.Frames[k]; f.Seat == s && len(f.Heat) > 0 {
				for _, h := range f.Heat {
					out[fmt.Sprintf("%d %s %s", s, h.Side, h.Name)] = usable(h.Cells)
				}
				break
			}
		}
		if known := d.Frames[i].Boards[s].Known; known != nil {
			out[fmt.Sprintf("%d exact known", s)] = usable(known)
		}
	}
	return out
}

// TestHTMLInBrowser opens HTML replays from disk in headless Chromium and
// steps through them with the keyboard: the boards render, the turn counter,
// the action text, the board cells and every heatmap value shown are the
// replay's, and the page makes no network request.
func TestHTMLInBrowser(t *testing.T) {
	for _, name := range []string{"html-hirota", "html-density", "scripted", "hirota-100"} {
		t.Run(name, func(t *testing.T) {
			var d *replay.HTMLData
			if name == "hirota-100" {
				d = hundredActions(t)
			} else {
				d = htmlData(t, name)
			}
			page := filepath.Join(t.TempDir(), name+".html")
			f, err := os.Create(page)
			require.NoError(t, err)
			require.NoError(t, replay.WriteHTML(f, d))
			require.NoError(t, f.Close())
			url := "file://" + page

			ctx := browsertest.Start(t, 90*time.Second)
			var mu sync.Mutex
			var requests []string
			require.NoError(t, chromedp.Listen(ctx, func(ev any) {
				if r, ok := ev.(*network.EventRequestWillBeSent); ok {
					mu.Lock()
					requests = append(requests, r.Request.URL)
					mu.Unlock()
				}
			}))
			require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(url), chromedp.WaitVisible(`body[data-ready="1"]`)))
			ready, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.body.dataset.readyMs`))
			require.NoError(t, err)
			t.Logf("%s: %d frames, %d bytes, first frame drawn %s ms after the navigation started (performance.now)", name, len(d.Frames), fileSize(t, page), ready)
			require.Less(t, fileSize(t, page), int64(300<<10), "the goal: a 100-action game under 300 KB")

			last := len(d.Frames) - 1
			check := func(i int) map[string][]int {
				t.Helper()
				counter, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById("counter").textContent`))
				require.NoError(t, err)
				require.Equal(t, fmt.Sprintf("turn %d / %d", d.Frames[i].N, d.Frames[last].N), counter)
				text, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById("text").textContent`))
				require.NoError(t, err)
				require.Equal(t, d.Frames[i].Text, text)
				boards, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll("section.seat")].map(p =>
					[...p.querySelectorAll(":scope > .board div[data-cell]")].map(d => d.textContent || ".").join(""))`))
				require.NoError(t, err)
				require.Len(t, boards, 2)
				for s := range 2 {
					require.Len(t, boards[s], d.W*d.H, "seat %d board cells", s)
					for c, g := range d.Frames[i].Boards[s].Cells {
						if strings.ContainsRune(".#-", g) {
							continue // drawn as colours only
						}
						require.Equal(t, string(g), boards[s][c:c+1], "frame %d seat %d cell %d", i, s, c)
					}
				}
				heat, err := chromedp.Run(ctx, chromedp.Evaluate[map[string][]int](shownHeat))
				require.NoError(t, err)
				want := wantHeat(d, i)
				require.Equal(t, len(want), len(heat), "heatmaps at frame %d: %v", i, keys(heat))
				for k, v := range want {
					require.Equal(t, v, heat[k], "frame %d heatmap %s", i, k)
				}
				return heat
			}
			first := check(0)
			changed := false
			for i := 1; i <= min(4, last); i++ {
				require.NoError(t, chromedp.Do(ctx, chromedp.KeyEvent(kb.ArrowRight)))
				if heat := check(i); fmt.Sprint(heat) != fmt.Sprint(first) {
					changed = true
				}
			}
			require.True(t, changed, "a heatmap changes in the first moves")
			require.NoError(t, chromedp.Do(ctx, chromedp.KeyEvent(kb.End)))
			check(last)
			require.NoError(t, chromedp.Do(ctx, chromedp.KeyEvent(kb.ArrowLeft)))
			check(last - 1)
			require.NoError(t, chromedp.Do(ctx, chromedp.KeyEvent(kb.Home)))
			check(0)

			png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
			require.NoError(t, err)
			require.Greater(t, len(png), 10_000, "a screenshot of a drawn page")
			browsertest.Screenshot(t, "replay-"+name, png)

			mu.Lock()
			defer mu.Unlock()
			require.NotEmpty(t, requests, "the page itself is requested")
			for _, r := range requests {
				require.Equal(t, url, r, "the only request is the page, from disk")
			}
		})
	}
}

// hundredActions is the HTML data of a 100-action game with heatmaps:
// hirota against stateplayer2 with --explain, game 0 of
// kaisen match --p1 hirota --p2 stateplayer2 --seed 1 under the default
// rules with a draw limit of 100.
func hundredActions(t *testing.T) *replay.HTMLData {
	t.Helper()
	r := submarine.DefaultRules()
	r.DrawLimit = 100
	rp := explainedGame(t, r, "hirota", "stateplayer2")
	require.Len(t, rp.Steps, 100)
	d, err := subrecord.HTML(rp)
	require.NoError(t, err)
	return d
}

func fileSize(t *testing.T, path string) int64 {
	st, err := os.Stat(path)
	require.NoError(t, err)
	return st.Size()
}

func keys(m map[string][]int) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}
