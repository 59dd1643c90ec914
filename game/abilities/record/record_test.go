package record_test

import (
	"bytes"
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/arena"
	"github.com/kaisen-ai/kaisen/arena/arenatest"
	"github.com/kaisen-ai/kaisen/explain"
	"github.com/kaisen-ai/kaisen/game/abilities"
	abrecord "github.com/kaisen-ai/kaisen/game/abilities/record"
	"github.com/kaisen-ai/kaisen/game/battleship"
	"github.com/kaisen-ai/kaisen/game/grid"
	abplayers "github.com/kaisen-ai/kaisen/players/abilities"
	"github.com/kaisen-ai/kaisen/replay"
)

// TestAbilitiesReplayVerifies plays a short match of the abilities variant
// with replays, reads, verifies and renders each, then checks that a
// tampered action or result is caught.
func TestAbilitiesReplayVerifies(t *testing.T) {
	base, err := battleship.NewRules(grid.MustBoard(7, 7, nil), []int{4, 3, 2, 1, 1})
	require.NoError(t, err)
	r, err := abilities.NewRules(base, abilities.Humans, abilities.AI, abilities.Options{})
	require.NoError(t, err)
	f1, err := abplayers.New("ab-density", r, nil)
	require.NoError(t, err)
	f2, err := abplayers.New("ab-random", r, nil)
	require.NoError(t, err)
	fam := arenatest.Abilities(r, true, "ab-density", f1, "ab-random", f2)
	dir := t.TempDir()
	_, err = (&arena.Match{Family: fam, Games: 4, Seed: 4, Workers: 1, Replays: dir}).Run(context.Background(), nil)
	require.NoError(t, err)
	for i := range 4 {
		path := filepath.Join(dir, arena.ReplayName(i))
		game, err := replay.GameOfFile(path)
		require.NoError(t, err)
		require.Equal(t, abrecord.Name, game)
		rp, err := abrecord.ReadFile(path)
		require.NoError(t, err)
		require.NoError(t, abrecord.Verify(rp))
		require.Equal(t, [2]string{"humans", "ai"}, rp.Header.Sides)
		require.Equal(t, i/2, rp.Header.First, "AlternateFirst: seat 1 first in games 2 and 3")
		require.Equal(t, i/2, rp.Actions[0].Seat)
		checkAbilitiesHTML(t, rp)
		var buf bytes.Buffer
		require.NoError(t, abrecord.Render(&buf, rp, 0, -1))
		require.Contains(t, buf.String(), "seat 0 fleet:")
		require.Contains(t, buf.String(), "result: win")

		bad := *rp
		bad.Result.Winner = 1 - rp.Result.Winner
		require.ErrorIs(t, abrecord.Verify(&bad), replay.ErrMismatch)
		bad = *rp
		bad.Actions = append([]abrecord.Action(nil), rp.Actions...)
		bad.Actions[0].Seat = 1 - bad.Actions[0].Seat
		require.ErrorIs(t, abrecord.Verify(&bad), replay.ErrMismatch)

		data, err := os.ReadFile(path)
		require.NoError(t, err)
		var again bytes.Buffer
		_, err = rp.WriteTo(&again)
		require.NoError(t, err)
		require.Equal(t, string(data), again.String(), "written back byte for byte")
		_, err = abrecord.Read(strings.NewReader(strings.Replace(string(data), `"type":"action"`, `"type":"action","bogus":1`, 1)))
		require.ErrorIs(t, err, replay.ErrFormat)
	}
}

const tinyAbilities = `{"type":"header","game":"abilities","version":"test","seed":1,"rules":{"width":3,"height":1,"rocks":[],"fleet":[1],"draw_limit":12},"sides":["ai","humans"],"options":{},"players":[{"seat":0,"name":"a"},{"seat":1,"name":"b"}],"first":0}
{"type":"placement","seat":0,"ships":[[[0,0]]]}
{"type":"placement","seat":1,"ships":[[[0,2]]]}
{"type":"action","n":1,"seat":0,"kind":"shoot","at":[0,2]}
{"type":"result","outcome":"win","winner":0,"shots":[1,0]}
`

// FuzzReadAbilities: any input is read or refused with ErrFormat, never a
// panic, and whatever is read verifies or fails cleanly.
func FuzzReadAbilities(f *testing.F) {
	f.Add(tinyAbilities)
	f.Add(strings.Replace(tinyAbilities, `"kind":"shoot"`, `"kind":"salvo","to":[0,1]`, 1))
	f.Add(strings.Replace(tinyAbilities, `"at":[0,2]`, `"cell":7`, 1))
	f.Fuzz(func(t *testing.T, data string) {
		rp, err := abrecord.Read(strings.NewReader(data))
		if err != nil {
			return
		}
		if err := abrecord.Verify(rp); err == nil {
			var buf bytes.Buffer
			require.NoError(t, abrecord.Render(&buf, rp, 0, -1))
		}
	})
}

func TestTinyAbilitiesReplay(t *testing.T) {
	rp, err := abrecord.Read(strings.NewReader(tinyAbilities))
	require.NoError(t, err)
	require.NoError(t, abrecord.Verify(rp))
	var buf bytes.Buffer
	require.NoError(t, abrecord.Render(&buf, rp, 0, -1))
	require.Contains(t, buf.String(), "   1 seat 0 shoot [0,2] | [0,2] kill\n")
	_, err = abrecord.Read(strings.NewReader(strings.Replace(tinyAbilities, `"game":"abilities"`, `"game":"battleship"`, 1)))
	require.ErrorIs(t, err, replay.ErrFormat)
	// An over-long line is named by its number, not called the first.
	long := strings.Replace(tinyAbilities, "\n", "\n"+strings.Repeat(" ", replay.MaxLine+1)+"\n", 1)
	_, err = abrecord.Read(strings.NewReader(long))
	require.ErrorIs(t, err, replay.ErrFormat)
	require.ErrorContains(t, err, "line 2 is longer than")
}

// checkAbilitiesHTML checks the HTML view of rp, a game won by sinking:
// one frame per action after the start, each move drawn on the mover's
// board, the loser's fleet all sunk at the end, every frame's ships
// where its HP says, and the page written.
func checkAbilitiesHTML(t *testing.T, rp *abrecord.Replay) {
	t.Helper()
	d, err := abrecord.HTML(rp)
	require.NoError(t, err)
	require.Len(t, d.Frames, len(rp.Actions)+1)
	moves := 0
	for i, f := range d.Frames {
		for s, b := range f.Boards {
			require.Len(t, b.Cells, d.W*d.H)
			left := 0
			for _, hp := range b.HP {
				left += hp[1]
			}
			require.Equal(t, left, strings.Count(b.Cells, "O"), "frame %d seat %d: the ships left are drawn", i, s)
		}
		if i > 0 && rp.Actions[i-1].Kind == "move" {
			require.Len(t, f.Boards[f.Seat].Moved, 2, "frame %d: the move is drawn", i)
			moves++
		}
	}
	last := d.Frames[len(d.Frames)-1]
	require.NotContains(t, last.Boards[1-rp.Result.Winner].Cells, "O", "the loser's fleet is sunk")
	require.NotContains(t, last.Boards[1-rp.Result.Winner].Cells, "x")
	var page bytes.Buffer
	require.NoError(t, replay.WriteHTML(&page, d))
	require.Contains(t, page.String(), `"game":"abilities"`)
}

// abExplainer adds Explain to an abilities player.
type abExplainer struct{ abplayers.Player }

func (abExplainer) Explain() explain.Decision {
	return explain.Decision{State: "hunt", Reason: "test reason"}
}

// TestAbilitiesReplayDecisions: with explanations asked, every action of an
// explaining player carries its decision, the replay still verifies and
// its renderings show the reason; without, no line has one.
func TestAbilitiesReplayDecisions(t *testing.T) {
	base, err := battleship.NewRules(grid.MustBoard(5, 5, nil), []int{2, 1})
	require.NoError(t, err)
	r, err := abilities.NewRules(base, abilities.AI, abilities.Humans, abilities.Options{})
	require.NoError(t, err)
	plain, err := abplayers.New("ab-random", r, nil)
	require.NoError(t, err)
	explaining := func(rng *rand.Rand, seat int) abplayers.Player { return abExplainer{plain(rng, seat)} }
	fam := arenatest.Abilities(r, false, "why", explaining, "plain", plain)
	for _, tc := range []struct {
		name    string
		explain bool
	}{{"explained", true}, {"not explained", false}} {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			_, err := fam.NewTable(nil).Play(arena.Deal{Seed: 5, MatchSeed: 5, Replay: &buf, Explain: tc.explain})
			require.NoError(t, err)
			require.Equal(t, tc.explain, strings.Contains(buf.String(), `"decision":{`))
			rp, err := abrecord.Read(bytes.NewReader(buf.Bytes()))
			require.NoError(t, err)
			require.NoError(t, abrecord.Verify(rp))
			explained := 0
			for _, a := range rp.Actions {
				if a.Decision != nil {
					require.Equal(t, 0, a.Seat, "only P1 explains")
					require.Equal(t, "test reason", a.Decision.Reason)
					explained++
				}
			}
			require.Equal(t, tc.explain, explained > 0)
			var text bytes.Buffer
			require.NoError(t, abrecord.Render(&text, rp, 0, -1))
			require.Equal(t, tc.explain, strings.Contains(text.String(), "why: state hunt; test reason"))
			d, err := abrecord.HTML(rp)
			require.NoError(t, err)
			why := 0
			for _, f := range d.Frames {
				if f.Why != "" {
					why++
				}
			}
			require.Equal(t, explained, why)
		})
	}
}
