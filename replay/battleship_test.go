package replay_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/arena"
	"github.com/kaisen-ai/kaisen/game/battleship"
	bsrecord "github.com/kaisen-ai/kaisen/game/battleship/record"
	"github.com/kaisen-ai/kaisen/game/grid"
	subrecord "github.com/kaisen-ai/kaisen/game/submarine/record"
	bsplayers "github.com/kaisen-ai/kaisen/players/battleship"
	"github.com/kaisen-ai/kaisen/replay"
)

// TestBattleshipGolden re-records the Battleship fixtures under testdata/
// (they must come out byte for byte as stored: the writer is stable), reads
// and verifies them, and draws them as the .txt golden files. With -update
// it rewrites the fixtures and the golden files.
func TestBattleshipGolden(t *testing.T) {
	type variant struct {
		file string
		opt  bsrecord.RenderOptions
	}
	all := bsrecord.RenderOptions{To: -1}
	fixtures := []struct {
		name     string
		make     func() []byte
		variants []variant
	}{
		{"bs-scripted", func() []byte { return bsScriptedGame(t) }, []variant{
			{"bs-scripted.txt", all},
			{"bs-scripted-turns.txt", bsrecord.RenderOptions{To: -1, Boards: bsrecord.BoardsTurn}},
			{"bs-scripted-shots.txt", bsrecord.RenderOptions{To: -1, Boards: bsrecord.BoardsShot, Cyrillic: true}},
			{"bs-scripted-shot5.txt", bsrecord.RenderOptions{From: 5, To: 5}},
		}},
		{"bs-rock", func() []byte { return bsRockGame(t) }, []variant{{"bs-rock.txt", all}}},
		{"bs-placement", func() []byte { return bsPlacementGame(t) }, []variant{{"bs-placement.txt", all}}},
		{"bs-gridbot", func() []byte { return bsBotGame(t, 3) }, []variant{
			{"bs-gridbot.txt", all},
			{"bs-gridbot-cyrillic.txt", bsrecord.RenderOptions{To: -1, Cyrillic: true}},
		}},
	}
	for _, fx := range fixtures {
		t.Run(fx.name, func(t *testing.T) {
			path := filepath.Join("testdata", fx.name+".jsonl")
			recorded := fx.make()
			if *update {
				require.NoError(t, os.WriteFile(path, recorded, 0o644))
			}
			stored, err := os.ReadFile(path)
			require.NoError(t, err)
			require.Equal(t, string(stored), string(recorded), "the arena records the fixture game byte for byte as stored")
			rp, err := bsrecord.ReadFile(path)
			require.NoError(t, err)
			require.NoError(t, bsrecord.Verify(rp))
			var again bytes.Buffer
			_, err = rp.WriteTo(&again)
			require.NoError(t, err)
			require.Equal(t, string(stored), again.String(), "read and written back: the same bytes")
			for _, v := range fx.variants {
				var got bytes.Buffer
				require.NoError(t, bsrecord.Render(&got, rp, v.opt))
				golden := filepath.Join("testdata", v.file)
				if *update {
					require.NoError(t, os.WriteFile(golden, got.Bytes(), 0o644))
				}
				want, err := os.ReadFile(golden)
				require.NoError(t, err)
				require.Equal(t, string(want), got.String(), v.file)
			}
		})
	}
}

// TestBattleshipArenaGamesVerify plays arena games of every bot pairing on
// two boards (with forfeits mixed in) and verifies every replay.
func TestBattleshipArenaGamesVerify(t *testing.T) {
	small, err := battleship.NewRules(grid.MustBoard(7, 6, []grid.Cell{0, 20}), []int{3, 2, 2, 1})
	require.NoError(t, err)
	n := 20
	if testing.Short() {
		n = 4
	}
	for _, tc := range []struct {
		rules  *battleship.Rules
		p1, p2 string
		games  int
	}{
		{battleship.DefaultRules(), "gridbot", "bs-random", n},
		{small, "density", "gridbot", n},
		{small, "bs-random", "bs-random", n},
	} {
		fam := bsFamily(t, tc.rules, tc.p1, tc.p2)
		tab := fam.NewTable(nil)
		for i := range tc.games {
			var buf bytes.Buffer
			res, err := tab.Play(arena.Deal{Index: i, Seed: arena.GameSeed(5, i), MatchSeed: 5, P1Seat: i % 2, Replay: &buf, Explain: i%3 == 0})
			require.NoError(t, err)
			rp, err := bsrecord.Read(&buf)
			require.NoError(t, err)
			require.NoError(t, bsrecord.Verify(rp), "%s vs %s game %d", tc.p1, tc.p2, i)
			require.Equal(t, res.Shots, rp.Result.Shots)
			require.Equal(t, res.Winner, rp.Result.Winner)
			require.Len(t, rp.Shots, res.Actions)
			require.NoError(t, bsrecord.Render(&bytes.Buffer{}, rp, bsrecord.RenderOptions{To: -1, Boards: bsrecord.BoardsTurn}))
		}
	}
}

// TestBattleshipForfeitsVerify records games that end by a forfeit in the
// arena: each verifies, and a wrong forfeit kind or seat does not.
func TestBattleshipForfeitsVerify(t *testing.T) {
	r := bsRules(t)
	sweep := func() []grid.Cell {
		var cs []grid.Cell
		for c := range r.Board.Usable().All() {
			cs = append(cs, c)
		}
		return cs
	}
	tests := []struct {
		name   string
		p0, p1 bsplayers.Player
		kind   string
		seat   int
		shots  int
	}{
		{"off the board", &bsScript{place: aliceFleet, shots: []grid.Cell{99}}, &bsScript{place: bobFleet}, replay.ForfeitIllegal, 0, 1},
		{"shoot panics", &bsScript{place: aliceFleet, shots: sweep()}, &bsScript{place: bobFleet, panicAt: 1}, replay.ForfeitPanic, 1, 1},
		{"observe panics", &bsScript{place: aliceFleet, shots: sweep(), observePanic: 2}, &bsScript{place: bobFleet, shots: sweep()}, replay.ForfeitPanic, 0, 2},
		{"place panics", &bsScript{place: aliceFleet}, &panicPlacer{}, replay.ForfeitPanic, 1, 0},
		{"invalid placement", &bsScript{place: aliceFleet}, &bsScript{place: battleship.Placement{{rc(0, 0)}}}, replay.ForfeitPlacement, 1, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			data := playBS(t, r, tc.p0, tc.p1, false)
			rp, err := bsrecord.Read(bytes.NewReader(data))
			require.NoError(t, err)
			require.NoError(t, bsrecord.Verify(rp))
			require.Len(t, rp.Shots, tc.shots)
			require.Len(t, rp.Result.Forfeits, 1)
			f := rp.Result.Forfeits[0]
			require.Equal(t, tc.kind, f.Kind)
			require.Equal(t, tc.seat, f.Seat)
			require.NoError(t, bsrecord.Render(&bytes.Buffer{}, rp, bsrecord.RenderOptions{To: -1, Boards: bsrecord.BoardsShot}))

			for _, bad := range []replay.Forfeit{{Seat: 1 - f.Seat, Kind: f.Kind}, {Seat: f.Seat, Kind: otherKind(f.Kind)}} {
				rp.Result.Forfeits[0] = bad
				require.ErrorIs(t, bsrecord.Verify(rp), replay.ErrMismatch, "%+v", bad)
			}
		})
	}
}

// panicPlacer panics in Place.
type panicPlacer struct{ bsScript }

func (*panicPlacer) Place() battleship.Placement { panic("no fleet today") }

func otherKind(kind string) string {
	if kind == replay.ForfeitIllegal {
		return replay.ForfeitPanic
	}
	return replay.ForfeitIllegal
}

// TestBattleshipTurnServerForfeits: the turn server's forfeits outside the
// rules: "waiting" for any seat, "protocol" only for the seat to shoot.
func TestBattleshipTurnServerForfeits(t *testing.T) {
	rp, err := bsrecord.Read(bytes.NewReader(bsScriptedGame(t)))
	require.NoError(t, err)
	rp.Shots = rp.Shots[:4] // seat 0 is to shoot again after its hit at D1
	for _, tc := range []struct {
		kind string
		seat int
		ok   bool
	}{
		{replay.ForfeitWaiting, 1, true},
		{replay.ForfeitWaiting, 0, true},
		{replay.ForfeitProtocol, 0, true},
		{replay.ForfeitProtocol, 1, false},
		{replay.ForfeitPanic, 1, true},
		{replay.ForfeitIllegal, 0, false},
		{replay.ForfeitPlacement, 0, false},
	} {
		t.Run(fmt.Sprintf("%s-%d", tc.kind, tc.seat), func(t *testing.T) {
			rp.Result = bsrecord.Result{Type: replay.TypeResult, Outcome: replay.OutcomeWin, Winner: 1 - tc.seat,
				Shots: [2]int{2, 2}, Forfeits: []replay.Forfeit{{Seat: tc.seat, Kind: tc.kind, Reason: "test"}}}
			err := bsrecord.Verify(rp)
			if tc.ok {
				require.NoError(t, err)
				return
			}
			require.ErrorIs(t, err, replay.ErrMismatch)
		})
	}
}

// TestBattleshipVerifyMismatch tampers with the scripted game one field at
// a time: every change is caught.
func TestBattleshipVerifyMismatch(t *testing.T) {
	data := bsScriptedGame(t)
	at := func(row, col int) *bsrecord.RC { return &bsrecord.RC{row, col} }
	tests := []struct {
		name   string
		tamper func(rp *bsrecord.Replay)
		want   string
	}{
		{"miss told as hit", func(rp *bsrecord.Replay) { rp.Shots[0].Outcome = bsrecord.OutcomeHit },
			"shot 1 at [0,0]: recorded hit, the engine says miss"},
		{"hit without again", func(rp *bsrecord.Replay) { rp.Shots[1].Again = false },
			"shot 2 at [0,1]: recorded hit, the engine says hit again"},
		{"repeat not marked", func(rp *bsrecord.Replay) { rp.Shots[2].Repeat = false },
			"shot 3 at [0,1]: recorded hit, the engine says hit repeat"},
		{"repeat earns a shot", func(rp *bsrecord.Replay) { rp.Shots[2].Again = true },
			"recorded hit repeat again, the engine says hit repeat"},
		{"kill told as hit", func(rp *bsrecord.Replay) {
			rp.Shots[4].Outcome, rp.Shots[4].Sunk = bsrecord.OutcomeHit, nil
		}, "shot 5 at [0,4]: recorded hit again, the engine says kill sunk [[0,3],[0,4]] again"},
		{"wrong sunk cells", func(rp *bsrecord.Replay) { rp.Shots[4].Sunk[0] = bsrecord.RC{1, 3} },
			"recorded kill sunk [[1,3],[0,4]] again, the engine says kill sunk [[0,3],[0,4]] again"},
		{"wrong cell", func(rp *bsrecord.Replay) { rp.Shots[7].At = at(3, 5) },
			"shot 8 at [3,5]: recorded miss, the engine says hit again"},
		{"wrong seat", func(rp *bsrecord.Replay) { rp.Shots[3].Seat = 1 },
			"shot 4 by seat 1, but it is seat 0's turn"},
		{"moved ship", func(rp *bsrecord.Replay) { rp.Placements[1].Ships[2][0] = bsrecord.RC{2, 3} },
			"12 shots after an invalid placement"},
		{"illegal marked on a legal shot", func(rp *bsrecord.Replay) {
			rp.Shots[0].Illegal, rp.Shots[0].Outcome = true, ""
		}, "shot 1 at [0,0]: recorded as illegal=true, the engine says legal"},
		{"shot after the end", func(rp *bsrecord.Replay) {
			rp.Shots = append(rp.Shots, rp.Shots[len(rp.Shots)-1])
			rp.Shots[len(rp.Shots)-1].N++
		}, "shot 13 after the game ended"},
		{"game cut short", func(rp *bsrecord.Replay) { rp.Shots = rp.Shots[:10] },
			"the game is still running after 10 shots"},
		{"wrong winner", func(rp *bsrecord.Replay) { rp.Result.Winner = 1 },
			"result win/winner 1/shots [8 4], the engine says win/winner 0/shots [8 4]"},
		{"wrong shot count", func(rp *bsrecord.Replay) { rp.Result.Shots[1] = 3 },
			"result win/winner 0/shots [8 3]"},
		{"draw claimed", func(rp *bsrecord.Replay) { rp.Result.Outcome, rp.Result.Winner = replay.OutcomeDraw, -1 },
			"result draw/winner -1"},
		{"forfeit invented", func(rp *bsrecord.Replay) {
			rp.Result.Forfeits = []replay.Forfeit{{Seat: 1, Kind: replay.ForfeitIllegal}}
		}, "forfeits seat 1 illegal, the engine says none"},
		{"first seat", func(rp *bsrecord.Replay) { rp.Header.First = 1 },
			"shot 1 by seat 0, but it is seat 1's turn"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rp, err := bsrecord.Read(bytes.NewReader(data))
			require.NoError(t, err)
			require.NoError(t, bsrecord.Verify(rp))
			tc.tamper(rp)
			err = bsrecord.Verify(rp)
			require.ErrorIs(t, err, replay.ErrMismatch)
			require.ErrorContains(t, err, tc.want)
			require.ErrorIs(t, bsrecord.Render(&bytes.Buffer{}, rp, bsrecord.RenderOptions{To: -1}), replay.ErrMismatch,
				"a replay that does not verify is not drawn")
		})
	}
}

// TestReadBattleshipErrors: malformed files are refused with the line and
// the reason.
func TestReadBattleshipErrors(t *testing.T) {
	good := strings.Split(strings.TrimSpace(string(bsRockGame(t))), "\n")
	require.Len(t, good, 6, "header, two placements, two shots, result")
	header, p0, p1, s1, s2, result := good[0], good[1], good[2], good[3], good[4], good[5]
	edit := func(line, from, to string) string {
		require.Contains(t, line, from)
		return strings.Replace(line, from, to, 1)
	}
	join := func(lines ...string) string { return strings.Join(lines, "\n") + "\n" }
	tests := []struct {
		name, file, want string
	}{
		{"empty", "", "empty file"},
		{"blank lines only", "\n\n  \n", "empty file"},
		{"not JSON", "{\n", "line 1: unexpected end of JSON input"},
		{"no header", join(p0), `line 1: "placement" line where a "header" line belongs`},
		{"submarine", join(edit(header, `"game":"battleship"`, `"game":"submarine"`)), `line 1: header: game "submarine", want "battleship"`},
		{"unknown header key", join(edit(header, `"first":0`, `"first":0,"colour":"red"`)), `line 1: header: unknown key "colour"`},
		{"key in another case", join(edit(header, `"seed":99`, `"Seed":99`)), `line 1: header: no "seed"; unknown key "Seed"`},
		{"missing rules key", join(edit(header, `"draw_limit":116`, `"limit":116`)), `line 1: header: rules: no "draw_limit"; unknown key "limit"`},
		{"null seed", join(edit(header, `"seed":99`, `"seed":null`)), `line 1: header: "seed" is null`},
		{"bad board", join(edit(header, `"width":6`, `"width":0`)), "line 1: header: rules: board 0x5"},
		{"bad fleet", join(edit(header, `"fleet":[3,2,1]`, `"fleet":[1,3]`)), "not sorted longest first"},
		{"rock off the board", join(edit(header, `"rocks":[[2,3]]`, `"rocks":[[5,3]]`)), "line 1: header: rules: rock [5,3] is off the board"},
		{"three players", join(edit(header, `"role":"p2"}]`, `"role":"p2"},{"seat":2,"name":"x"}]`)), "line 1: header: 3 players, want 2"},
		{"player seat", join(edit(header, `{"seat":1,"name":"bob"`, `{"seat":0,"name":"bob"`)), "line 1: header: players[1] has seat 0"},
		{"first seat", join(edit(header, `"first":0`, `"first":2`)), "line 1: header: first seat 2"},
		{"truncated after the header", join(header), "truncated: no placements"},
		{"truncated after a placement", join(header, p0), "truncated: no placement of seat 1"},
		{"truncated before the result", join(header, p0, p1, s1, s2), "truncated: no result line"},
		{"placements swapped", join(header, p1, p0), "line 2: placement of seat 1, want seat 0"},
		{"placement cell off the board", join(header, edit(p0, `[[0,0],`, `[[0,6],`)), "line 2: placement of seat 0: ship 0: cell [0,6] is off the board (5 rows, 6 columns)"},
		{"placement cell with three numbers", join(header, edit(p0, `[[0,0],`, `[[0,0,0],`)), "line 2: placement: cell [0,0,0]: want [row, col]"},
		{"placement index on the board", join(header, edit(p0, `[[0,0],`, `[[-1,3],`)), "cell [-1,3] is on the board"},
		{"placement without ships", join(header, edit(p0, `,"ships":`, `,"fleet":`)), `line 2: placement: no "ships"; unknown key "fleet"`},
		{"shot numbering", join(header, p0, p1, edit(s1, `"n":1`, `"n":2`)), "line 4: shot 2, want shot 1"},
		{"shot seat", join(header, p0, p1, edit(s1, `"seat":0`, `"seat":3`)), "line 4: shot 1: by seat 3"},
		{"shot without a cell", join(header, p0, p1, edit(s1, `"at":[1,1],`, ``)), `line 4: shot 1: want exactly one of "at" and "cell"`},
		{"shot with both", join(header, p0, p1, edit(s1, `"at":[1,1],`, `"at":[1,1],"cell":77,`)), `want exactly one of "at" and "cell"`},
		{"shot off the board", join(header, p0, p1, edit(s1, `"at":[1,1]`, `"at":[1,9]`)), "line 4: shot 1: at: cell [1,9] is off the board"},
		{"legal shot by index", join(header, p0, p1, edit(s1, `"at":[1,1]`, `"cell":99`)), `line 4: shot 1: "cell" 99 on a legal shot`},
		{"legal shot without outcome", join(header, p0, p1, edit(s1, `,"outcome":"miss"`, ``)), `line 4: shot 1: a legal shot needs an "outcome"`},
		{"outcome", join(header, p0, p1, edit(s1, `"outcome":"miss"`, `"outcome":"splash"`)), `line 4: shot 1: outcome "splash"`},
		{"sunk on a miss", join(header, p0, p1, edit(s1, `"outcome":"miss"`, `"outcome":"miss","sunk":[[1,1]]`)), `"sunk" lists the cells`},
		{"kill without sunk", join(header, p0, p1, edit(s1, `"outcome":"miss"`, `"outcome":"kill"`)), `"sunk" lists the cells`},
		{"illegal with outcome", join(header, p0, p1, s1, edit(s2, `"illegal":true`, `"illegal":true,"outcome":"miss"`)), "line 5: shot 2: an illegal shot has no outcome"},
		{"unknown shot key", join(header, p0, p1, edit(s1, `"n":1`, `"n":1,"power":9`)), `line 4: shot: unknown key "power"`},
		{"null decision", join(header, p0, p1, edit(s1, `"n":1`, `"n":1,"decision":null`)), `line 4: shot: "decision" is null`},
		{"no result", join(header, p0, p1, s1, s2, header), `line 6: "header" line where a "shot" or "result" line belongs`},
		{"after the result", join(header, p0, p1, s1, s2, result, s1), `line 7: "shot" line after the result`},
		{"result shots", join(header, p0, p1, s1, s2, edit(result, `"shots":[1,1]`, `"shots":[1,1,0]`)), "line 6: result: shots [1,1,0], want [seat 0's, seat 1's]"},
		{"result winner", join(header, p0, p1, s1, s2, edit(result, `"winner":0`, `"winner":-1`)), `line 6: result: outcome "win" with winner -1`},
		{"forfeit kind", join(header, p0, p1, s1, s2, edit(result, `"kind":"illegal"`, `"kind":"bored"`)), `line 6: result: forfeits[0]: kind "bored"`},
		{"forfeit key", join(header, p0, p1, s1, s2, edit(result, `"kind":"illegal"`, `"kind":"illegal","when":1`)), `line 6: result: forfeits[0]: unknown key "when"`},
		{"forfeit seat", join(header, p0, p1, s1, s2, edit(result, `"seat":1,"kind"`, `"seat":5,"kind"`)), `line 6: result: forfeits[0]: seat 5`},
		{"wrong type", join(header, p0, p1, edit(s1, `"seat":0`, `"seat":"0"`)), "line 4: shot: json: cannot unmarshal string"},
		{"float", join(header, p0, p1, edit(s1, `"at":[1,1]`, `"at":[1.5,1]`)), "line 4: shot: json: cannot unmarshal number 1.5"},
		{"long line", header + "\n" + strings.Repeat(" ", replay.MaxLine+1) + "\n", "line 2 is longer than"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := bsrecord.Read(strings.NewReader(tc.file))
			require.ErrorIs(t, err, replay.ErrFormat)
			require.ErrorContains(t, err, tc.want)
		})
	}
	// Blank lines and CRLF line ends are fine.
	rp, err := bsrecord.Read(strings.NewReader("\n" + strings.Join(good, "\r\n\n") + "\r\n"))
	require.NoError(t, err)
	require.NoError(t, bsrecord.Verify(rp))
}

func TestGameOf(t *testing.T) {
	for _, tc := range []struct {
		name, file, game, err string
	}{
		{"battleship", string(bsRockGame(t)), bsrecord.Name, ""},
		{"submarine", string(scriptedGame(t, false)), subrecord.Name, ""},
		{"blank lines first", "\n \n" + `{"type":"header","game":"chess"}`, "chess", ""},
		{"empty", "", "", "empty file"},
		{"not a header", `{"type":"shot"}`, "", `"shot" line where the header belongs`},
		{"not JSON", "hello\n", "", "line 1: invalid character"},
		{"long first line", strings.Repeat("x", replay.MaxLine+10), "", "line 1 is longer than"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			game, err := replay.GameOf(strings.NewReader(tc.file))
			if tc.err != "" {
				require.ErrorIs(t, err, replay.ErrFormat)
				require.ErrorContains(t, err, tc.err)
				return
			}
			require.NoError(t, err)
			require.Equal(t, tc.game, game)
		})
	}
	_, err := replay.GameOfFile(filepath.Join(t.TempDir(), "missing.jsonl"))
	require.ErrorIs(t, err, os.ErrNotExist)
}

func TestRenderBattleshipRange(t *testing.T) {
	rp, err := bsrecord.Read(bytes.NewReader(bsScriptedGame(t)))
	require.NoError(t, err)
	var start bytes.Buffer
	require.NoError(t, bsrecord.Render(&start, rp, bsrecord.RenderOptions{From: 0, To: 0}))
	require.Contains(t, start.String(), "\nstart\n")
	require.NotContains(t, start.String(), "#1 ")
	require.NotContains(t, start.String(), "result:")

	var tail bytes.Buffer
	require.NoError(t, bsrecord.Render(&tail, rp, bsrecord.RenderOptions{From: 11, To: -1}))
	require.NotContains(t, tail.String(), "#10 ")
	require.Contains(t, tail.String(), "#11 seat 0 alice (p1) shoots A4: hit; shoots again\n")
	require.Contains(t, tail.String(), "#12 seat 0 alice (p1) shoots A5: kill, the 3-cell ship A3-A5 sinks, the last one\n")
	require.Contains(t, tail.String(), "result: seat 0 alice (p1) wins")

	for _, bad := range []bsrecord.RenderOptions{{From: 13, To: -1}, {From: -1, To: 2}, {From: 3, To: 2}, {To: -1, Boards: "always"}} {
		require.Error(t, bsrecord.Render(&bytes.Buffer{}, rp, bad), "%+v", bad)
	}
}

// FuzzReadBattleship feeds arbitrary bytes to ReadBattleship: it never
// panics, errors wrap ErrFormat, and whatever it accepts verifies or fails
// cleanly, renders when it verifies, and reads back the same after WriteTo.
func FuzzReadBattleship(f *testing.F) {
	f.Add(bsScriptedGame(f))
	f.Add(bsRockGame(f))
	f.Add(bsPlacementGame(f))
	f.Add([]byte(`{"type":"header","game":"battleship","seed":1,"rules":{"width":2,"height":1,"rocks":[],"fleet":[1],"draw_limit":4},"players":[{"seat":0,"name":"a"},{"seat":1,"name":"b"}],"first":1}
{"type":"placement","seat":0,"ships":[[[0,0]]]}
{"type":"placement","seat":1,"ships":null}
{"type":"result","outcome":"win","winner":0,"shots":[0,0],"forfeits":[{"seat":1,"kind":"panic","reason":"x"}]}
`))
	f.Add([]byte(`{"type":"header","game":"battleship","seed":1,"rules":{"width":2,"height":1,"rocks":[],"fleet":[1],"draw_limit":4},"players":[{"seat":0,"name":"a"},{"seat":1,"name":"b"}],"first":1}
{"type":"placement","seat":0,"ships":[[[0,0]]]}
{"type":"placement","seat":1,"ships":[[[0,1]]]}
{"type":"shot","n":1,"seat":1,"at":[0,1],"outcome":"miss"}
{"type":"shot","n":2,"seat":0,"at":[0,1],"outcome":"kill","sunk":[[0,1]],"again":true}
{"type":"result","outcome":"win","winner":0,"shots":[1,1]}
`))
	f.Fuzz(func(t *testing.T, data []byte) {
		rp, err := bsrecord.Read(bytes.NewReader(data))
		if err != nil {
			require.ErrorIs(t, err, replay.ErrFormat)
			return
		}
		if err := bsrecord.Verify(rp); err != nil {
			require.True(t, errors.Is(err, replay.ErrMismatch) || errors.Is(err, replay.ErrFormat), "%v", err)
			return
		}
		for _, opt := range []bsrecord.RenderOptions{{To: -1}, {To: -1, Boards: bsrecord.BoardsShot, Cyrillic: true}} {
			require.NoError(t, bsrecord.Render(&bytes.Buffer{}, rp, opt))
		}
		var out bytes.Buffer
		_, err = rp.WriteTo(&out)
		require.NoError(t, err)
		again, err := bsrecord.Read(&out)
		require.NoError(t, err)
		require.NoError(t, bsrecord.Verify(again))
	})
}
