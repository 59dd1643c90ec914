package jsonrecord_test

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/game/sonar"
	"github.com/kaisen-ai/kaisen/replay"
	"github.com/kaisen-ai/kaisen/replay/jsonrecord"
)

// play plays game k of the test game between its AIs through a
// game.Table and returns its file.
func play(k uint64, explain bool) ([]byte, error) {
	rules := sonar.DefaultRules()
	var f [2]sonar.Factory
	for s, name := range []string{"sonar-hunter", "sonar-random"} {
		var err error
		if f[s], err = sonar.AIs.New(name, rules, nil); err != nil {
			return nil, err
		}
	}
	var buf bytes.Buffer
	start := replay.Start{Seed: k, First: int(k % 2), Players: [2]replay.SeatInfo{{Seat: 0, Name: "sonar-hunter"}, {Seat: 1, Name: "sonar-random"}}}
	rec := jsonrecord.NewRecorder[sonar.Placement, sonar.Action, sonar.Step](&buf, sonar.Name, rules, start)
	tab := game.NewTable[*sonar.Game, sonar.Placement, sonar.Action, sonar.Step, sonar.Told](rules, nil)
	tab.Play(&game.Setup[sonar.Placement, sonar.Action, sonar.Step, sonar.Told]{Factories: f,
		Rands: [2]*rand.Rand{rand.New(rand.NewPCG(k, 1)), rand.New(rand.NewPCG(k, 2))}, First: start.First, Record: rec, Explain: explain})
	err := rec.Flush()
	return buf.Bytes(), err
}

func record(t *testing.T, k uint64, explain bool) []byte {
	t.Helper()
	b, err := play(k, explain)
	require.NoError(t, err)
	return b
}

func read(t *testing.T, b []byte) *jsonrecord.Replay {
	t.Helper()
	rp, err := jsonrecord.Read(bytes.NewReader(b))
	require.NoError(t, err)
	return rp
}

func TestRoundTrip(t *testing.T) {
	for k := range uint64(20) {
		b := record(t, k, k%3 == 0)
		rp := read(t, b)
		require.NoError(t, jsonrecord.Verify(rp, sonar.DefaultRules()), "game %d", k)
		require.Equal(t, sonar.Name, rp.Header.Game)
		require.Equal(t, len(rp.Actions), rp.Result.Actions)
		if k%3 == 0 {
			require.Contains(t, string(b), `"decision":`, "explanations are recorded when asked")
		}
		var out bytes.Buffer
		require.NoError(t, jsonrecord.Render(&out, rp, sonar.DefaultRules(), 0, -1))
		require.Equal(t, len(rp.Actions), strings.Count(out.String(), "\n#"), "a line per action")
		require.True(t, strings.HasSuffix(out.String(), "result: "+jsonrecord.Summary(rp)+"\n"))
	}
}

func TestRenderRange(t *testing.T) {
	rp := read(t, record(t, 3, false))
	require.Greater(t, len(rp.Actions), 4)
	var out bytes.Buffer
	require.NoError(t, jsonrecord.Render(&out, rp, sonar.DefaultRules(), 2, 3))
	s := out.String()
	require.Contains(t, s, "\n#2 seat ")
	require.Contains(t, s, "\n#3 seat ")
	require.NotContains(t, s, "\n#1 seat ")
	require.NotContains(t, s, "\n#4 seat ")
	require.NotContains(t, s, "places", "the placements are the start")
	require.NotContains(t, s, "result:", "the game goes on after action 3")
}

// TestTampered changes one thing the rules decide at a time: each file is
// refused with a mismatch.
func TestTampered(t *testing.T) {
	b := record(t, 5, false)
	rp := read(t, b)
	other := sonar.DefaultRules()
	other.DrawLimit++
	require.ErrorIs(t, jsonrecord.Verify(rp, other), replay.ErrMismatch, "other rules")

	tamper := []struct {
		name string
		edit func(rp *jsonrecord.Replay)
	}{
		{"a step's answer", func(rp *jsonrecord.Replay) {
			rp.Actions[0].Step = bytes.Replace(rp.Actions[0].Step, []byte(`"Seat":`), []byte(`"Seat":9`), 1)
		}},
		{"the winner", func(rp *jsonrecord.Replay) { rp.Result.Winner = 1 - rp.Result.Winner }},
		{"the count", func(rp *jsonrecord.Replay) { rp.Result.Actions++ }},
		{"an action dropped", func(rp *jsonrecord.Replay) { rp.Actions = rp.Actions[:len(rp.Actions)-1] }},
		{"the seat of an action", func(rp *jsonrecord.Replay) { rp.Actions[1].Seat = 1 - rp.Actions[1].Seat }},
		{"an illegal mark", func(rp *jsonrecord.Replay) { rp.Actions[0].Illegal, rp.Actions[0].Step = "no", nil }},
	}
	for _, tc := range tamper {
		t.Run(tc.name, func(t *testing.T) {
			rp := read(t, b)
			tc.edit(rp)
			require.ErrorIs(t, jsonrecord.Verify(rp, sonar.DefaultRules()), replay.ErrMismatch)
		})
	}
}

func TestReadErrors(t *testing.T) {
	good := record(t, 2, false)
	lines := strings.SplitAfter(string(good), "\n")
	for _, tc := range []struct{ name, file string }{
		{"empty", ""},
		{"garbage", "garbage\n"},
		{"no result", strings.Join(lines[:len(lines)-2], "")},
		{"placements missing", lines[0] + lines[len(lines)-2]},
		{"an unknown key", strings.Replace(string(good), `"type":"result"`, `"type":"result","extra":1`, 1)},
		{"a line after the result", string(good) + lines[3]},
		{"placements swapped", lines[0] + lines[2] + lines[1] + strings.Join(lines[3:], "")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := jsonrecord.Read(strings.NewReader(tc.file))
			require.ErrorIs(t, err, replay.ErrFormat)
		})
	}
	_, err := jsonrecord.Read(strings.NewReader(string(good)))
	require.NoError(t, err)
}

// FuzzRead: no input makes Read panic, and what it reads either verifies
// or fails with a format or mismatch error.
func FuzzRead(f *testing.F) {
	b, err := play(1, true)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(string(b))
	f.Add("{\"type\":\"header\"}\n")
	f.Fuzz(func(t *testing.T, s string) {
		rp, err := jsonrecord.Read(strings.NewReader(s))
		if err != nil {
			require.ErrorIs(t, err, replay.ErrFormat)
			return
		}
		if err := jsonrecord.Verify(rp, sonar.DefaultRules()); err != nil {
			require.True(t, errors.Is(err, replay.ErrMismatch) || errors.Is(err, replay.ErrFormat), "%v", err)
		}
	})
}

// TestHTML draws a game's page from its public view: a frame per action
// and the start, every board as large as the sea, both fleets shown, each
// ping that hit marked on the other seat's board.
func TestHTML(t *testing.T) {
	rp := read(t, record(t, 4, true))
	d, err := jsonrecord.HTML(rp, sonar.DefaultRules(), sonar.NewPublicView)
	require.NoError(t, err)
	require.Equal(t, sonar.Name, d.Game)
	require.Equal(t, 4, d.W)
	require.Equal(t, 4, d.H)
	require.Len(t, d.Frames, len(rp.Actions)+1)
	require.Equal(t, "result: "+jsonrecord.Summary(rp), "result: "+d.Result)
	hits := 0
	for _, a := range rp.Actions {
		if strings.Contains(string(a.Step), `"Echo":2`) {
			hits++
		}
	}
	require.Positive(t, hits, "the game has hits to mark")
	last := d.Frames[len(d.Frames)-1]
	marked := 0
	for s, b := range last.Boards {
		require.Len(t, b.Cells, 16, "seat %d", s)
		marked += strings.Count(b.Cells, "x") + strings.Count(b.Cells, "#")
	}
	require.Equal(t, hits, marked, "every hit is on the board it hit")
	require.Contains(t, d.Frames[0].Boards[0].Cells, "O", "the fleets are shown")
	require.NotEmpty(t, d.Frames[1].Why, "the reasons of an AI asked for them")

	// A game that never started has nothing to draw.
	rp.Placements[0].Placement = []byte("[99]")
	rp.Actions, rp.Result = nil, jsonrecord.Result{Type: "result", Outcome: "win", Winner: 1,
		Forfeits: []replay.Forfeit{{Seat: 0, Kind: replay.ForfeitPlacement}}}
	_, err = jsonrecord.HTML(rp, sonar.DefaultRules(), sonar.NewPublicView)
	require.ErrorContains(t, err, "never started")
}
