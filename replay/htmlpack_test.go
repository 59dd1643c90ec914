package replay_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/replay"
)

// packedPage is the data section of a page as WriteHTML writes it.
type packedPage struct {
	replay.HTMLData
	Vals   []json.RawMessage `json:"vals"`
	Frames []int             `json:"frames"`
	Events string            `json:"events"`
	Quiet  int               `json:"quiet"`
}

var dataSection = regexp.MustCompile(`(?s)<script>const DATA = (\{.*?\});</script>`)

// unpackPage reads a page's data section back into HTMLData, as the page's
// script (unpack in replay.js) does, and returns it with the packed form.
func unpackPage(t *testing.T, page []byte) (*replay.HTMLData, *packedPage) {
	t.Helper()
	m := dataSection.FindSubmatch(page)
	require.NotNil(t, m, "the page has a data section")
	var p packedPage
	require.NoError(t, json.Unmarshal(m[1], &p))
	require.Zero(t, len(p.Frames)%2, "two numbers a frame")
	var bad error
	val := func(i int, v any) {
		if i < 0 || i >= len(p.Vals) {
			bad = fmt.Errorf("value %d of %d", i, len(p.Vals))
		} else if err := json.Unmarshal(p.Vals[i], v); err != nil {
			bad = err
		}
	}
	opt := func(i int) []int {
		var out []int
		if i >= 0 {
			val(i, &out)
		}
		return out
	}
	d := p.HTMLData
	d.Frames = nil
	for k := 0; k < len(p.Frames); k += 2 {
		i := k / 2
		var tuple [6]int
		val(p.Frames[k], &tuple)
		f := replay.HTMLFrame{N: i + tuple[0], Seat: tuple[1]}
		if t := p.Frames[k+1]; t >= 0 {
			val(t, &f.Text)
		} else {
			val(-t-1, &f.Text)
			f.Text = "#" + strconv.Itoa(f.N) + f.Text
		}
		if tuple[2] >= 0 {
			val(tuple[2], &f.Why)
		}
		if tuple[3] >= 0 {
			for _, h := range opt(tuple[3]) {
				var ht [3]int
				val(h, &ht)
				var heat replay.HTMLHeat
				val(ht[0], &heat.Name)
				val(ht[1], &heat.Side)
				val(ht[2], &heat.Cells)
				f.Heat = append(f.Heat, heat)
			}
		}
		for s := range 2 {
			var bt [6]int
			val(tuple[4+s], &bt)
			b := &f.Boards[s]
			val(bt[0], &b.Cells)
			val(bt[1], &b.HP)
			b.Shot, b.Near, b.Moved, b.Known = bt[2], opt(bt[3]), opt(bt[4]), opt(bt[5])
		}
		d.Frames = append(d.Frames, f)
	}
	require.NoError(t, bad)
	return &d, &p
}

func writePage(t *testing.T, d *replay.HTMLData) []byte {
	t.Helper()
	var b bytes.Buffer
	require.NoError(t, replay.WriteHTML(&b, d))
	return b.Bytes()
}

// TestHTMLPacked: the page's packed data section rebuilds every frame of
// every fixture exactly, with one event digit per frame.
func TestHTMLPacked(t *testing.T) {
	for _, name := range append(htmlFixtures, "bs-gridbot", "random", "bs-placement", "panic") {
		t.Run(name, func(t *testing.T) {
			d := htmlData(t, name)
			got, p := unpackPage(t, writePage(t, d))
			require.Equal(t, goldenJSON(t, d), goldenJSON(t, got))
			require.Len(t, p.Events, len(d.Frames))
			require.Equal(t, replay.QuietRun, p.Quiet)
		})
	}
}
