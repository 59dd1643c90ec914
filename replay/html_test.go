package replay_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	bsrecord "github.com/kaisen-ai/kaisen/game/battleship/record"
	subrecord "github.com/kaisen-ai/kaisen/game/submarine/record"
	"github.com/kaisen-ai/kaisen/replay"
)

// htmlFixtures are the replays drawn as HTML pages by the golden tests:
// two without recorded beliefs (scripted games, one with rocks) and two
// recorded with explanations (heatmaps), made with
//
//	kaisen match --p1 hirota --p2 stateplayer2 -n 1 --seed 2 --replays DIR --explain
//	kaisen match --rules R --p1 density --p2 bs-random -n 1 --seed 1 --replays DIR --explain
//
// where R is a 6x6 rounded Battleship board with a rock at [3,3] and the
// fleet 3, 2, 1.
var htmlFixtures = []string{"scripted", "html-hirota", "bs-scripted", "html-density"}

func htmlData(t *testing.T, name string) *replay.HTMLData {
	t.Helper()
	path := filepath.Join("testdata", name+".jsonl")
	game, err := replay.GameOfFile(path)
	require.NoError(t, err)
	var d *replay.HTMLData
	if game == bsrecord.Name {
		rp, err := bsrecord.ReadFile(path)
		require.NoError(t, err)
		d, err = bsrecord.HTML(rp)
		require.NoError(t, err)
	} else {
		rp, err := subrecord.ReadFile(path)
		require.NoError(t, err)
		d, err = subrecord.HTML(rp)
		require.NoError(t, err)
	}
	return d
}

// TestHTMLGolden compares the data section of each fixture's HTML page with
// testdata/NAME.html.jsonl (rewritten with -update).
func TestHTMLGolden(t *testing.T) {
	for _, name := range htmlFixtures {
		t.Run(name, func(t *testing.T) {
			got := goldenJSON(t, htmlData(t, name))
			golden := filepath.Join("testdata", name+".html.jsonl")
			if *update {
				require.NoError(t, os.WriteFile(golden, append(got, '\n'), 0o644))
			}
			want, err := os.ReadFile(golden)
			require.NoError(t, err)
			require.Equal(t, string(want), string(got)+"\n")
		})
	}
}

// goldenJSON is d as JSON lines: everything but the frames, then one line
// per frame.
func goldenJSON(t *testing.T, d *replay.HTMLData) []byte {
	top := *d
	top.Frames = nil
	b, err := json.Marshal(top)
	require.NoError(t, err)
	for _, f := range d.Frames {
		fb, err := json.Marshal(f)
		require.NoError(t, err)
		b = append(append(b, '\n'), fb...)
	}
	return b
}

// TestHTMLFrames checks the frames against the replays they come from: one
// frame per action plus the start, hp that only falls, heatmaps exactly
// where the replay recorded them, in thousandths.
func TestHTMLFrames(t *testing.T) {
	for _, name := range htmlFixtures {
		t.Run(name, func(t *testing.T) {
			d := htmlData(t, name)
			type move struct {
				Type     string `json:"type"`
				Seat     int    `json:"seat"`
				Decision *struct {
					Heatmaps []struct {
						Cells []float64 `json:"cells"`
					} `json:"heatmaps"`
				} `json:"decision"`
			}
			var moves []move
			raw, err := os.ReadFile(filepath.Join("testdata", name+".jsonl"))
			require.NoError(t, err)
			for _, l := range strings.Split(strings.TrimSpace(string(raw)), "\n")[3:] {
				var m move
				require.NoError(t, json.Unmarshal([]byte(l), &m))
				if m.Type != replay.TypeResult {
					moves = append(moves, m)
				}
			}
			require.Len(t, d.Frames, len(moves)+1)
			require.Equal(t, -1, d.Frames[0].Seat)
			heats := 0
			for i, f := range d.Frames[1:] {
				require.Equal(t, i+1, f.N)
				require.Equal(t, moves[i].Seat, f.Seat)
				prev := d.Frames[i]
				for s := range 2 {
					require.Len(t, f.Boards[s].Cells, d.W*d.H)
					for k, hp := range f.Boards[s].HP {
						require.LessOrEqual(t, hp[1], prev.Boards[s].HP[k][1], "frame %d seat %d ship %d", f.N, s, k)
					}
				}
				var want int
				if dec := moves[i].Decision; dec != nil {
					want = len(dec.Heatmaps)
					for k, h := range dec.Heatmaps {
						for c, v := range h.Cells {
							require.InDelta(t, v*1000, f.Heat[k].Cells[c], 0.5)
						}
					}
				}
				require.Len(t, f.Heat, want)
				heats += want
			}
			if strings.HasPrefix(name, "html-") {
				require.Positive(t, heats, "a replay recorded with --explain has heatmaps")
			} else {
				require.Zero(t, heats)
			}
		})
	}
}

// TestWriteHTMLSelfContained checks that the page carries its data, script
// and style inline and refers to nothing outside itself.
func TestWriteHTMLSelfContained(t *testing.T) {
	d := htmlData(t, "html-hirota")
	var b bytes.Buffer
	require.NoError(t, replay.WriteHTML(&b, d))
	page := b.String()
	got, _ := unpackPage(t, b.Bytes())
	require.Equal(t, goldenJSON(t, d), goldenJSON(t, got), "the page's data section is the game's, packed")
	require.Contains(t, page, "<title>submarine: hirota (p1) vs stateplayer2 (p2)</title>")
	for _, ref := range []string{"http:", "https:", "src=", "href=", "@import", "url(", "fetch("} {
		require.NotContains(t, page, ref)
	}
	require.Less(t, b.Len(), 300<<10)

	// Names from the file cannot break out of the script.
	d.Players[0] = "</script><script>alert(1)</script>"
	b.Reset()
	require.NoError(t, replay.WriteHTML(&b, d))
	require.NotContains(t, b.String(), "</script><script>alert")
}
