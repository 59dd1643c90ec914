package replay_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/belief"
	"github.com/kaisen-ai/kaisen/game/submarine"
	subrecord "github.com/kaisen-ai/kaisen/game/submarine/record"
	"github.com/kaisen-ai/kaisen/replay"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

func TestRoundTripRandomGames(t *testing.T) {
	for seed := range uint64(20) {
		data := randomGame(t, seed)
		rp, err := subrecord.Read(bytes.NewReader(data))
		require.NoError(t, err, "seed %d", seed)
		require.NoError(t, subrecord.Verify(rp), "seed %d", seed)
		require.Equal(t, subrecord.Name, rp.Header.Game)
		require.Equal(t, seed, rp.Header.Seed)
		require.Len(t, rp.Steps, rp.Result.Actions)

		var out bytes.Buffer
		n, err := rp.WriteTo(&out)
		require.NoError(t, err)
		require.Equal(t, int64(len(data)), n)
		require.Equal(t, string(data), out.String(), "a replay read and written back is unchanged")

		// Every recorded event decodes to the engine's event again.
		r, err := rp.Rules()
		require.NoError(t, err)
		for _, st := range rp.Steps {
			for _, ev := range []subrecord.Event{st.Actor, st.Other} {
				dec, err := ev.Decode(r)
				require.NoError(t, err)
				require.True(t, subrecord.EncodeEvent(r, dec).Equal(ev), "step %d: %+v", st.N, ev)
			}
		}
	}
}

func TestScriptedGame(t *testing.T) {
	rp, err := subrecord.Read(bytes.NewReader(scriptedGame(t, true)))
	require.NoError(t, err)
	require.NoError(t, subrecord.Verify(rp))
	require.Len(t, rp.Steps, 7)

	hit := rp.Steps[0]
	require.Equal(t, "w", hit.Actor.Hit)
	require.Equal(t, []string{"s"}, hit.Actor.Near)
	require.Equal(t, subrecord.Pos{1, 2}, *hit.Actor.At)
	require.True(t, hit.Actor.Mine)
	require.False(t, hit.Other.Mine)
	require.NotNil(t, hit.Decision, "seat 0 explains its actions")
	require.Equal(t, "scripted", hit.Decision.State)

	move := rp.Steps[1]
	require.Equal(t, subrecord.Action{Kind: "move", Ship: "w", To: &subrecord.Pos{1, 4}}, move.Action)
	require.Equal(t, &[2]int{0, 2}, move.Actor.D)
	require.Equal(t, &subrecord.Pos{1, 4}, move.Actor.To)
	require.Nil(t, move.Other.To, "the other side is not told where the ship went")
	require.Nil(t, move.Decision, "seat 1 does not explain")

	require.True(t, rp.Steps[2].Actor.Sunk)
	last := rp.Steps[6]
	require.True(t, last.Actor.Illegal)
	require.Contains(t, last.Error, "rock")
	require.Equal(t, subrecord.Result{Type: replay.TypeResult, Outcome: replay.OutcomeWin, Winner: 1, Actions: 7,
		Forfeits: []replay.Forfeit{{Seat: 0, Kind: replay.ForfeitIllegal, Reason: last.Error}}}, rp.Result)
	require.Equal(t, subrecord.Rules{Width: 6, Height: 5, Rocks: []subrecord.Pos{{0, 0}, {5, 0}, {3, 2}, {0, 4}, {5, 4}},
		Fleet: []subrecord.Ship{{Name: "w", HP: 3}, {Name: "c", HP: 2}, {Name: "s", HP: 1}}, DrawLimit: 100}, rp.Header.Rules)
}

// TestVerifyDetectsTampering changes one thing in a good replay and expects
// Verify to notice.
func TestVerifyDetectsTampering(t *testing.T) {
	good := scriptedGame(t, false)
	tests := []struct {
		name   string
		tamper func(rp *subrecord.Replay)
	}{
		{"hit on another ship", func(rp *subrecord.Replay) { rp.Steps[0].Actor.Hit = "c" }},
		{"hit hidden from the other side", func(rp *subrecord.Replay) { rp.Steps[0].Other.Hit = "" }},
		{"splash forgotten", func(rp *subrecord.Replay) { rp.Steps[0].Actor.Near = nil }},
		{"move told in full to the enemy", func(rp *subrecord.Replay) { rp.Steps[1].Other.To = &subrecord.Pos{1, 4} }},
		{"wrong displacement", func(rp *subrecord.Replay) { rp.Steps[1].Actor.D = &[2]int{0, 1} }},
		{"attack moved elsewhere", func(rp *subrecord.Replay) { rp.Steps[3].Action.To = &subrecord.Pos{2, 4} }},
		{"not sunk", func(rp *subrecord.Replay) { rp.Steps[2].Other.Sunk = false }},
		{"out of turn", func(rp *subrecord.Replay) { rp.Steps[2].Seat = 1 }},
		{"a step dropped", func(rp *subrecord.Replay) { rp.Steps = append(rp.Steps[:3:3], rp.Steps[4:]...) }},
		{"steps cut short", func(rp *subrecord.Replay) { rp.Steps = rp.Steps[:5] }},
		{"illegal step marked legal", func(rp *subrecord.Replay) { rp.Steps[6].Error = "" }},
		{"legal step marked illegal", func(rp *subrecord.Replay) { rp.Steps[0].Error = "made up" }},
		{"other winner", func(rp *subrecord.Replay) { rp.Result.Winner = 0 }},
		{"draw", func(rp *subrecord.Replay) { rp.Result.Outcome, rp.Result.Winner = replay.OutcomeDraw, -1 }},
		{"action count", func(rp *subrecord.Replay) { rp.Result.Actions = 8 }},
		{"forfeit forgotten", func(rp *subrecord.Replay) { rp.Result.Forfeits = nil }},
		{"forfeit of the wrong seat", func(rp *subrecord.Replay) { rp.Result.Forfeits[0].Seat = 1 }},
		{"placement moved", func(rp *subrecord.Replay) { rp.Placements[1].Cells[0] = subrecord.Pos{2, 2} }},
		{"other first seat", func(rp *subrecord.Replay) { rp.Header.First = 1 }},
		{"fleet changed", func(rp *subrecord.Replay) { rp.Header.Rules.Fleet[0].HP = 1 }},
		{"rock removed", func(rp *subrecord.Replay) { rp.Header.Rules.Rocks = rp.Header.Rules.Rocks[:2] }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rp, err := subrecord.Read(bytes.NewReader(good))
			require.NoError(t, err)
			require.NoError(t, subrecord.Verify(rp))
			tc.tamper(rp)
			err = subrecord.Verify(rp)
			require.Error(t, err)
			require.True(t, errors.Is(err, replay.ErrMismatch) || errors.Is(err, replay.ErrFormat), "got %v", err)
		})
	}
}

func TestVerifyForfeits(t *testing.T) {
	r := submarine.DefaultRules()
	valid := submarine.Placement{0, 1, 2}
	tests := []struct {
		name       string
		p0, p1     *script
		winner     int
		forfeits   []replay.Forfeit
		wantAction int
	}{
		{"seat 0 places two ships on one cell", &script{place: submarine.Placement{0, 0, 2}}, &script{place: valid},
			1, []replay.Forfeit{{Seat: 0, Kind: replay.ForfeitPlacement}}, 0},
		{"both place off the board", &script{place: submarine.Placement{0, 1, 99}}, &script{place: submarine.Placement{0}},
			-1, []replay.Forfeit{{Seat: 0, Kind: replay.ForfeitPlacement}, {Seat: 1, Kind: replay.ForfeitPlacement}}, 0},
		{"seat 1 panics on its second action", &script{place: valid, actions: []submarine.Action{
			submarine.AttackAt(0), submarine.AttackAt(0), submarine.AttackAt(0)}},
			&script{place: valid, actions: []submarine.Action{submarine.AttackAt(6)}, panicAt: 2},
			0, []replay.Forfeit{{Seat: 1, Kind: replay.ForfeitPanic}}, 3},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			_, err := arenaPlay(r, tc.p0, tc.p1, &buf)
			require.NoError(t, err)
			rp, err := subrecord.Read(&buf)
			require.NoError(t, err)
			require.NoError(t, subrecord.Verify(rp))
			require.Equal(t, tc.winner, rp.Result.Winner)
			require.Equal(t, tc.wantAction, rp.Result.Actions)
			require.Len(t, rp.Result.Forfeits, len(tc.forfeits))
			for i, f := range tc.forfeits {
				require.Equal(t, f.Seat, rp.Result.Forfeits[i].Seat)
				require.Equal(t, f.Kind, rp.Result.Forfeits[i].Kind)
				require.NotEmpty(t, rp.Result.Forfeits[i].Reason)
			}
			// Without its forfeit, a game cut short does not verify.
			rp.Result.Forfeits = nil
			require.ErrorIs(t, subrecord.Verify(rp), replay.ErrMismatch)
		})
	}
}

func TestReadErrors(t *testing.T) {
	good := string(scriptedGame(t, false))
	lines := strings.SplitAfter(strings.TrimSuffix(good, "\n"), "\n")
	join := func(ls ...string) string { return strings.Join(ls, "") }
	tests := []struct {
		name, in, want string
	}{
		{"empty", "", "no result line"},
		{"not json", "hello\n", "line 1"},
		{"no header", join(lines[1:]...), `"placement" line where a "header" line belongs`},
		{"other game", strings.Replace(good, `"game":"submarine"`, `"game":"chess"`, 1), `game "chess"`},
		{"placements swapped", join(append([]string{lines[0], lines[2], lines[1]}, lines[3:]...)...), "placement of seat 1, want seat 0"},
		{"step skipped", join(append(lines[:4:4], lines[5:]...)...), "step 3, want 2"},
		{"no result", join(lines[:len(lines)-1]...), "no result line"},
		{"after the result", good + lines[3], `"step" line after the result`},
		{"wrong type", strings.Replace(good, `"n":1,`, `"n":"one",`, 1), "line 4"},
		{"too long", good[:len(good)-1] + strings.Repeat(" ", replay.MaxLine) + "\n", "longer than"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := subrecord.Read(strings.NewReader(tc.in))
			require.ErrorIs(t, err, replay.ErrFormat)
			require.ErrorContains(t, err, tc.want)
		})
	}
	// Blank lines and unknown keys are fine.
	rp, err := subrecord.Read(strings.NewReader(strings.Replace(join(lines...), `"type":"result",`, `"type":"result","comment":"x",`, 1) + "\n\n"))
	require.NoError(t, err)
	require.NoError(t, subrecord.Verify(rp))
}

func TestDecodeErrors(t *testing.T) {
	r := submarine.DefaultRules()
	for _, a := range []subrecord.Action{{Kind: "attack"}, {Kind: "move", Ship: "w"}, {Kind: "move", Ship: "zz", To: &subrecord.Pos{}}, {Kind: "fly"}} {
		_, err := a.Decode(r)
		require.ErrorIs(t, err, replay.ErrFormat, "%+v", a)
	}
	for _, e := range []subrecord.Event{{Kind: "fly"}, {Kind: "attack", Hit: "zz"}, {Kind: "attack", Near: []string{"zz"}}, {Kind: "move", Ship: "zz"}} {
		_, err := e.Decode(r)
		require.ErrorIs(t, err, replay.ErrFormat, "%+v", e)
	}
	// Odd actions survive the round trip exactly.
	for _, a := range []submarine.Action{submarine.AttackAt(-1), submarine.AttackAt(1000), submarine.MoveTo(7, 3), submarine.MoveTo(submarine.NoShip, -7)} {
		got, err := subrecord.EncodeAction(r, a).Decode(r)
		require.NoError(t, err)
		require.Equal(t, a, got)
	}
}

func TestRulesBuild(t *testing.T) {
	r := roundedRules(t)
	got, err := subrecord.RulesOf(r).Build()
	require.NoError(t, err)
	require.Equal(t, r.Board.Shape(), got.Board.Shape())
	require.Equal(t, r.Fleet, got.Fleet)
	require.Equal(t, r.DrawLimit, got.DrawLimit)
	for _, bad := range []subrecord.Rules{
		{Width: 0, Height: 5},
		{Width: 5, Height: 5, Rocks: []subrecord.Pos{{5, 0}}, Fleet: []subrecord.Ship{{Name: "w", HP: 1}}, DrawLimit: 1},
		{Width: 5, Height: 5, Fleet: []subrecord.Ship{{Name: "w", HP: 0}}, DrawLimit: 1},
		{Width: 5, Height: 5, Fleet: []subrecord.Ship{{Name: "w", HP: 1}}, DrawLimit: 0},
	} {
		_, err := bad.Build()
		require.ErrorIs(t, err, replay.ErrFormat, "%+v", bad)
	}
}

// TestRenderGolden draws the fixtures under testdata/ and compares with the
// .txt golden files. With -update it re-records the fixtures and rewrites the
// golden files.
func TestRenderGolden(t *testing.T) {
	fixtures := map[string]func() []byte{
		"scripted": func() []byte { return scriptedGame(t, true) },
		"random":   func() []byte { return pinVersion(t, shortRandomGame(t)) },
		"panic":    func() []byte { return pinVersion(t, panicGame(t)) },
	}
	for name, make := range fixtures {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join("testdata", name+".jsonl")
			if *update {
				require.NoError(t, os.WriteFile(path, make(), 0o644))
			}
			rp, err := subrecord.ReadFile(path)
			require.NoError(t, err)
			require.NoError(t, subrecord.Verify(rp))
			variants := map[string]subrecord.RenderOptions{name + ".txt": {To: -1}}
			if name == "scripted" {
				variants[name+"-heatmap.txt"] = subrecord.RenderOptions{To: -1, Heatmap: true}
			}
			for file, opt := range variants {
				var got bytes.Buffer
				require.NoError(t, subrecord.Render(&got, rp, opt))
				golden := filepath.Join("testdata", file)
				if *update {
					require.NoError(t, os.WriteFile(golden, got.Bytes(), 0o644))
				}
				want, err := os.ReadFile(golden)
				require.NoError(t, err)
				require.Equal(t, string(want), got.String(), file)
			}
		})
	}
}

func TestRenderRange(t *testing.T) {
	rp, err := subrecord.Read(bytes.NewReader(scriptedGame(t, false)))
	require.NoError(t, err)
	var all bytes.Buffer
	require.NoError(t, subrecord.Render(&all, rp, subrecord.RenderOptions{To: -1}))

	var one bytes.Buffer
	require.NoError(t, subrecord.Render(&one, rp, subrecord.RenderOptions{From: 3, To: 3}))
	require.Contains(t, one.String(), "#3 seat 0 alice attacks A2: hit s, sunk")
	require.NotContains(t, one.String(), "#2 ")
	require.NotContains(t, one.String(), "#4 ")
	require.NotContains(t, one.String(), "result:")
	require.Contains(t, all.String(), strings.SplitN(one.String(), "\n#3", 2)[1], "frame 3 alone is drawn as in the whole game")

	var start bytes.Buffer
	require.NoError(t, subrecord.Render(&start, rp, subrecord.RenderOptions{From: 0, To: 0}))
	require.Contains(t, start.String(), "\nstart\n")

	for _, bad := range []subrecord.RenderOptions{{From: 8, To: -1}, {From: -1, To: 2}, {From: 3, To: 2}} {
		require.Error(t, subrecord.Render(&bytes.Buffer{}, rp, bad), "%+v", bad)
	}

	rp.Steps[0].Actor.Hit = "c"
	require.ErrorIs(t, subrecord.Render(&bytes.Buffer{}, rp, subrecord.RenderOptions{To: -1}), replay.ErrMismatch)
}

// FuzzRead feeds arbitrary bytes to Read; whatever it accepts must verify or
// fail cleanly, and render without panicking.
func FuzzRead(f *testing.F) {
	f.Add(scriptedGame(f, true))
	f.Add(randomGame(f, 1))
	f.Add([]byte(`{"type":"header","game":"submarine","rules":{"width":2,"height":1,"fleet":[{"name":"a","hp":1}],"draw_limit":3},"players":[{"seat":0},{"seat":1}]}
{"type":"placement","seat":0,"cells":[[0,0]]}
{"type":"placement","seat":1,"cells":[[1,0]]}
{"type":"step","n":1,"seat":0,"action":{"kind":"attack","to":[1,0]},"actor":{"mine":true,"kind":"attack","at":[1,0],"hit":"a","sunk":true},"other":{"kind":"attack","at":[1,0],"hit":"a","sunk":true}}
{"type":"result","outcome":"win","winner":0,"actions":1}
`))
	f.Fuzz(func(t *testing.T, data []byte) {
		rp, err := subrecord.Read(bytes.NewReader(data))
		if err != nil {
			require.ErrorIs(t, err, replay.ErrFormat)
			return
		}
		if err := subrecord.Verify(rp); err != nil {
			require.True(t, errors.Is(err, replay.ErrMismatch) || errors.Is(err, replay.ErrFormat), "%v", err)
			return
		}
		require.NoError(t, subrecord.Render(&bytes.Buffer{}, rp, subrecord.RenderOptions{To: -1}))
		if err := subrecord.Render(&bytes.Buffer{}, rp, subrecord.RenderOptions{To: -1, Heatmap: true}); err != nil {
			require.ErrorIs(t, err, belief.ErrTooLarge)
		}
		var out bytes.Buffer
		_, err = rp.WriteTo(&out)
		require.NoError(t, err)
		again, err := subrecord.Read(&out)
		require.NoError(t, err)
		require.NoError(t, subrecord.Verify(again))
	})
}

func TestEventJSON(t *testing.T) {
	r := submarine.DefaultRules()
	ev := submarine.Event{Kind: submarine.Attack, At: 7, Hit: 1, Near: submarine.ShipMask(0).With(0).With(2), Ship: submarine.NoShip, To: -1}
	b, err := json.Marshal(subrecord.EncodeEvent(r, ev))
	require.NoError(t, err)
	require.JSONEq(t, `{"kind":"attack","at":[2,1],"hit":"c","near":["w","s"]}`, string(b))
}

// TestVerifyWaitingForfeit: the turn server ends a game when the seat that
// is not to move breaks the protocol; the replay then stops early with a
// "waiting" forfeit.
func TestVerifyWaitingForfeit(t *testing.T) {
	rp, err := subrecord.Read(bytes.NewReader(scriptedGame(t, false)))
	require.NoError(t, err)
	rp.Steps = rp.Steps[:3]
	rp.Result = subrecord.Result{Type: replay.TypeResult, Outcome: replay.OutcomeWin, Winner: 0, Actions: 3,
		Forfeits: []replay.Forfeit{{Seat: 1, Kind: replay.ForfeitWaiting, Reason: "protocol: line while waiting"}}}
	require.NoError(t, subrecord.Verify(rp))
	for _, kind := range []string{replay.ForfeitIllegal, replay.ForfeitPlacement, "bored"} {
		rp.Result.Forfeits[0].Kind = kind
		require.ErrorIs(t, subrecord.Verify(rp), replay.ErrMismatch, kind)
	}
}

// TestRenderEscapesNames: names and forfeit reasons recorded from remote
// clients are drawn escaped when they hold anything unprintable (a
// terminal escape must not reach the terminal); printable ones unchanged.
func TestRenderEscapesNames(t *testing.T) {
	rp, err := subrecord.Read(bytes.NewReader(scriptedGame(t, false)))
	require.NoError(t, err)
	rp.Header.Players[0].Name = "remote 10.0.0.1:5 evil\x1b[2J\x07"
	rp.Header.Players[1].Name = "ボブ"
	require.NotEmpty(t, rp.Result.Forfeits)
	rp.Result.Forfeits[0].Reason = "illegal: \x1b]0;pwned\x07"
	var out bytes.Buffer
	require.NoError(t, subrecord.Render(&out, rp, subrecord.RenderOptions{To: -1}))
	text := out.String()
	for _, c := range []string{"\x1b", "\x07"} {
		require.NotContains(t, text, c)
	}
	require.Contains(t, text, `seat 0: "remote 10.0.0.1:5 evil\x1b[2J\a"`)
	require.Contains(t, text, "seat 1: ボブ")
	require.Contains(t, text, `"illegal: \x1b]0;pwned\a"`)
}

// TestVerifyAborted: a game the server stopped verifies with outcome
// aborted, winner -1, no forfeit and the actions really played; any other
// result for it, or aborted for a finished game, is a mismatch.
func TestVerifyAborted(t *testing.T) {
	load := func() *subrecord.Replay {
		rp, err := subrecord.Read(bytes.NewReader(scriptedGame(t, false)))
		require.NoError(t, err)
		return rp
	}
	aborted := func(rp *subrecord.Replay, steps int) *subrecord.Replay {
		rp.Steps = rp.Steps[:steps]
		rp.Result = subrecord.Result{Type: replay.TypeResult, Outcome: replay.OutcomeAborted, Winner: -1, Actions: steps}
		return rp
	}
	rp := aborted(load(), 3)
	require.NoError(t, subrecord.Verify(rp))
	var out bytes.Buffer
	require.NoError(t, subrecord.Render(&out, rp, subrecord.RenderOptions{To: -1}))
	require.Contains(t, out.String(), "result: aborted by the server after 3 actions")
	require.NoError(t, subrecord.Verify(aborted(load(), 0)))

	for name, bad := range map[string]func(rp *subrecord.Replay){
		"wrong count": func(rp *subrecord.Replay) { rp.Result.Actions = 2 },
		"a winner":    func(rp *subrecord.Replay) { rp.Result.Winner = 0 },
		"a forfeit": func(rp *subrecord.Replay) {
			rp.Result.Forfeits = []replay.Forfeit{{Seat: 0, Kind: replay.ForfeitWaiting}}
		},
	} {
		rp := aborted(load(), 3)
		bad(rp)
		require.ErrorIs(t, subrecord.Verify(rp), replay.ErrMismatch, name)
	}
	full := load()
	n := len(full.Steps)
	rp = aborted(full, n)
	require.ErrorIs(t, subrecord.Verify(rp), replay.ErrMismatch, "a finished game is not aborted")
}
