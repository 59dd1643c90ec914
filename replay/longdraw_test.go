package replay_test

import (
	"bytes"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/arena"
	"github.com/kaisen-ai/kaisen/game/submarine"
	subrecord "github.com/kaisen-ai/kaisen/game/submarine/record"
	"github.com/kaisen-ai/kaisen/internal/race"
	"github.com/kaisen-ai/kaisen/players"
	"github.com/kaisen-ai/kaisen/replay"
)

// explainedGame is the replay of game 0 of kaisen match --p1 p1 --p2 p2
// --seed 1 --explain under rules r.
func explainedGame(t *testing.T, r *submarine.Rules, p1, p2 string) *subrecord.Replay {
	t.Helper()
	names := [2]string{p1, p2}
	var f [2]players.Factory
	for s, name := range names {
		var err error
		f[s], err = players.New(name, r, nil)
		require.NoError(t, err)
	}
	var buf bytes.Buffer
	_, err := arena.PlayGame(r, f[0], f[1], arena.GameSeed(1, 0), &arena.GameOptions{Names: names, Replay: &buf, Explain: true})
	require.NoError(t, err)
	rp, err := subrecord.Read(&buf)
	require.NoError(t, err)
	return rp
}

// longDraw holds the long draw once it is played: two tests read it, and a
// 10,000-action game of hirota with every decision explained takes seconds
// (tens under the race detector).
var longDraw struct {
	sync.Mutex
	rp *subrecord.Replay
	d  *replay.HTMLData
}

// longDrawReplay is the 10,000-action draw of game 0 of
//
//	kaisen match --p1 hirota --p2 hirota -n 1 --seed 1 --explain
//
// and its HTML data, played by the first test that asks; callers must not
// modify them.
func longDrawReplay(t *testing.T) (*subrecord.Replay, *replay.HTMLData) {
	t.Helper()
	longDraw.Lock()
	defer longDraw.Unlock()
	if longDraw.rp == nil {
		rp := explainedGame(t, submarine.DefaultRules(), "hirota", "hirota")
		require.Len(t, rp.Steps, submarine.DefaultDrawLimit)
		require.Equal(t, replay.OutcomeDraw, rp.Result.Outcome)
		d, err := subrecord.HTML(rp)
		require.NoError(t, err)
		longDraw.rp, longDraw.d = rp, d
	}
	return longDraw.rp, longDraw.d
}

// TestLongDrawStaysSmallFullSize: the page of a 10,000-action draw with every
// decision and heatmap recorded is under 1 MB (it was 9.7 MB with every
// frame written whole), and its text view folds the quiet stretch.
func TestLongDrawStaysSmallFullSize(t *testing.T) {
	race.SkipFullSize(t)
	rp, d := longDrawReplay(t)
	page := writePage(t, d)
	t.Logf("10,000-action draw: %d-byte page (%d frames)", len(page), len(d.Frames))
	require.Less(t, len(page), 1<<20)
	got, _ := unpackPage(t, page)
	require.Equal(t, len(d.Frames), len(got.Frames))
	for _, i := range []int{0, 1, 26, 27, 5000, 9999, 10000} {
		require.Equal(t, d.Frames[i], got.Frames[i], "frame %d", i)
	}

	lines := func(fold int) (int, string) {
		var b strings.Builder
		require.NoError(t, subrecord.Render(&b, rp, subrecord.RenderOptions{To: -1, Fold: fold}))
		return strings.Count(b.String(), "\n"), b.String()
	}
	all, _ := lines(0)
	folded, text := lines(50)
	t.Logf("text: %d lines, %d folded", all, folded)
	require.Greater(t, all, 100_000)
	require.Less(t, folded, 1000)
	stretches := subrecord.FoldStretches(rp, 50, 0, len(rp.Steps))
	require.NotEmpty(t, stretches)
	last := stretches[len(stretches)-1]
	require.Equal(t, len(rp.Steps), last[1], "the draw ends in a quiet stretch")
	require.Equal(t, [][2]int{{last[0], 5000}}, subrecord.FoldStretches(rp, 50, last[0]-3, 5000), "cut to the range shown")
	require.Equal(t, [][2]int{{9951, 10000}}, subrecord.FoldStretches(rp, 50, 9951, 10000))
	require.Empty(t, subrecord.FoldStretches(rp, 50, 9952, 10000), "49 actions are not folded")
	require.Empty(t, subrecord.FoldStretches(rp, 1, 0, 10000), "a run of one is no fold")
	require.Contains(t, text, "#"+strconv.Itoa(last[0])+" to #9999: ")
	require.Contains(t, text, "\n#10000 seat ", "the last position is drawn")
	require.Contains(t, text, "result: draw after 10000 actions")
}
