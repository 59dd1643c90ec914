package wire_test

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	bsbelief "github.com/kaisen-ai/kaisen/belief/battleship"
	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/game/battleship"
	"github.com/kaisen-ai/kaisen/game/battleship/wire"
	"github.com/kaisen-ai/kaisen/game/grid"
	bsplayers "github.com/kaisen-ai/kaisen/players/battleship"
	"github.com/kaisen-ai/kaisen/protocol"
)

var update = flag.Bool("update", false, "rewrite the golden transcript in testdata/")

// bsCell is the cell at row, col of the classic board.
func bsCell(r *battleship.Rules, row, col int) grid.Cell {
	c, ok := r.Cell(row, col)
	if !ok {
		panic(fmt.Sprintf("no cell [%d,%d]", row, col))
	}
	return c
}

func TestDecodeShips(t *testing.T) {
	r := battleship.DefaultRules()
	for _, tc := range []struct {
		name, line string
		want       battleship.Placement
		err        error
	}{
		{"two ships", `{"ships":[[[0,0],[0,1]],[[9,9]]]}`, battleship.Placement{{bsCell(r, 0, 0), bsCell(r, 0, 1)}, {bsCell(r, 9, 9)}}, nil},
		{"spaces", `{ "ships" : [ [ [3, 4] ] ] }`, battleship.Placement{{bsCell(r, 3, 4)}}, nil},
		{"row first", `{"ships":[[[1,0]]]}`, battleship.Placement{{10}}, nil},
		{"float", `{"ships":[[[0,1.0]]]}`, nil, protocol.ErrType},
		{"string", `{"ships":[[["0",1]]]}`, nil, protocol.ErrType},
		{"three numbers", `{"ships":[[[0,1,2]]]}`, nil, protocol.ErrType},
		{"one number", `{"ships":[[[0]]]}`, nil, protocol.ErrType},
		{"cell not array", `{"ships":[[5]]}`, nil, protocol.ErrType},
		{"ship not array", `{"ships":[{"a":1}]}`, nil, protocol.ErrType},
		{"off board", `{"ships":[[[10,0]]]}`, nil, protocol.ErrFleet},
		{"negative", `{"ships":[[[0,-1]]]}`, nil, protocol.ErrFleet},
		{"huge", `{"ships":[[[0,99999999999999]]]}`, nil, protocol.ErrFleet},
		{"empty ship", `{"ships":[[]]}`, nil, protocol.ErrFleet},
		{"no ships", `{"ships":[]}`, nil, protocol.ErrFleet},
		{"missing key", `{}`, nil, protocol.ErrType},
		{"extra key", `{"ships":[[[0,0]]],"x":1}`, nil, protocol.ErrType},
		{"duplicate key", `{"ships":[[[0,0]]],"ships":[[[0,0]]]}`, nil, protocol.ErrSyntax},
		{"not JSON", `ships`, nil, protocol.ErrSyntax},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := wire.DecodeShips([]byte(tc.line), r)
			if tc.err != nil {
				require.ErrorIs(t, err, tc.err)
				checkProtocolError(t, []byte(tc.line), err)
				return
			}
			require.NoError(t, err)
			require.Equal(t, tc.want, p)
		})
	}
}

func TestShipsRoundTrip(t *testing.T) {
	r := battleship.DefaultRules()
	u, err := bsbelief.NewUniformPlacer(r)
	require.NoError(t, err)
	rng := rand.New(rand.NewPCG(1, 2))
	for range 20 {
		p, err := u.Place(rng)
		require.NoError(t, err)
		line := wire.EncodeShips(r, p)
		got, err := wire.DecodeShips(line, r)
		require.NoError(t, err)
		require.Equal(t, p, got, "%s", line)
		require.NoError(t, r.ValidatePlacement(got))
	}
}

func TestDecodeShoot(t *testing.T) {
	r := battleship.DefaultRules()
	for _, tc := range []struct {
		name, line string
		want       grid.Cell
		err        error
	}{
		{"shot", `{"shoot":{"to":[2,3]}}`, bsCell(r, 2, 3), nil},
		{"off board is legal JSON", `{"shoot":{"to":[10,0]}}`, grid.None, nil},
		{"float", `{"shoot":{"to":[2.0,3]}}`, grid.None, protocol.ErrType},
		{"no to", `{"shoot":{}}`, grid.None, protocol.ErrType},
		{"extra", `{"shoot":{"to":[1,1],"x":1}}`, grid.None, protocol.ErrType},
		{"empty", `{}`, grid.None, protocol.ErrType},
		{"attack", `{"attack":{"to":[1,1]}}`, grid.None, protocol.ErrType},
		{"garbage", `hello`, grid.None, protocol.ErrSyntax},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := wire.DecodeShoot([]byte(tc.line), r)
			require.Equal(t, tc.want, c)
			if tc.err != nil {
				require.ErrorIs(t, err, tc.err)
				checkProtocolError(t, []byte(tc.line), err)
				return
			}
			require.NoError(t, err)
			if c != grid.None {
				require.Equal(t, tc.line, string(wire.EncodeShoot(r, c)))
			}
		})
	}
}

func TestShotResult(t *testing.T) {
	r := battleship.DefaultRules()
	kill := battleship.Event{Result: battleship.Result{At: bsCell(r, 0, 1), Outcome: battleship.Kill, Sunk: battleship.Ship{bsCell(r, 0, 0), bsCell(r, 0, 1)}}}
	for _, tc := range []struct {
		name    string
		ev      battleship.Event
		outcome int
		line    string
	}{
		{"miss", battleship.Event{Result: battleship.Result{At: bsCell(r, 3, 4)}}, protocol.NoOutcome, `{"result":{"shot":{"position":[3,4],"outcome":"miss"}}}`},
		{"hit", battleship.Event{Result: battleship.Result{At: bsCell(r, 9, 0), Outcome: battleship.Hit}}, protocol.NoOutcome, `{"result":{"shot":{"position":[9,0],"outcome":"hit"}}}`},
		{"kill won", kill, protocol.Won, `{"result":{"shot":{"position":[0,1],"outcome":"kill","ship":[[0,0],[0,1]]}},"outcome":true}`},
		{"kill lost", kill, protocol.Lost, `{"result":{"shot":{"position":[0,1],"outcome":"kill","ship":[[0,0],[0,1]]}},"outcome":false}`},
		{"illegal", battleship.Event{Illegal: true, Result: battleship.Result{At: grid.None}}, protocol.Lost, `{"result":{"shot":false},"outcome":false}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			line := wire.EncodeShotResult(r, tc.ev, tc.outcome)
			require.Equal(t, tc.line, string(line))
			res, err := wire.DecodeShotResult(line, r)
			require.NoError(t, err)
			require.True(t, res.HasShot)
			require.Equal(t, tc.ev.Illegal, res.Illegal)
			require.Equal(t, tc.outcome, res.GameOutcome)
			if !tc.ev.Illegal {
				require.Equal(t, tc.ev.At, res.At)
				require.Equal(t, tc.ev.Outcome, res.Outcome)
				require.Equal(t, tc.ev.Sunk, res.Sunk)
			}
		})
	}
	res, err := wire.DecodeShotResult(protocol.EncodeOutcome(true), r)
	require.NoError(t, err)
	require.Equal(t, wire.ShotResult{At: grid.None, GameOutcome: protocol.Won}, res)
	res, err = wire.DecodeShotResult(protocol.EncodeErrorLine(`placement: "x"`), r)
	require.NoError(t, err)
	require.Equal(t, `placement: "x"`, res.Error)
	for _, bad := range []string{
		`{}`,
		`{"result":{"shot":{"position":[0,0],"outcome":"sunk"}}}`,
		`{"result":{"shot":{"position":[0,0],"outcome":"kill"}}}`,
		`{"result":{"shot":{"position":[0,0],"outcome":"hit","ship":[[0,0]]}}}`,
		`{"result":{"shot":{"position":[0,0],"outcome":"kill","ship":[[5,5]]}}}`,
		`{"result":{"shot":{"position":[0,10],"outcome":"miss"}}}`,
		`{"result":{"shot":true}}`,
		`{"result":{"shot":{"position":[0,0]}}}`,
		`{"outcome":1}`,
		`{"error":5}`,
	} {
		_, err := wire.DecodeShotResult([]byte(bad), r)
		require.Error(t, err, bad)
		checkProtocolError(t, []byte(bad), err)
	}
}

// bsGoldenRules is a small game for the golden transcript: 6x6, fleet 3,2,1.
func bsGoldenRules(t testing.TB) *battleship.Rules {
	r, err := battleship.NewRules(grid.MustBoard(6, 6, nil), []int{3, 2, 1})
	require.NoError(t, err)
	return r
}

// TestBattleshipGoldenGame plays a small game between two seeded bots and
// writes every line as the server and the clients exchange them (the
// server's sequence: greeting, placement, "your turn"/"waiting", one result
// line per shot to both, end lines). Each line also decodes back to what was
// encoded. Regenerate with go test ./game/battleship/wire -update.
func TestBattleshipGoldenGame(t *testing.T) {
	r := bsGoldenRules(t)
	var ps [2]bsplayers.Player
	for i, name := range []string{"gridbot", "bs-random"} {
		f, err := bsplayers.New(name, r, nil)
		require.NoError(t, err)
		ps[i] = f(rand.New(rand.NewPCG(7, uint64(i))))
	}
	var out strings.Builder
	say := func(seat int, toServer bool, line []byte) {
		dir := "S>C"
		if toServer {
			dir = "C>S"
		}
		fmt.Fprintf(&out, "P%d  %s  %s\n", seat+1, dir, line)
	}
	var place [2]battleship.Placement
	for i, p := range ps {
		say(i, false, []byte(wire.Greeting))
		place[i] = p.Place()
		line := wire.EncodeShips(r, place[i])
		say(i, true, line)
		got, err := wire.DecodeShips(line, r)
		require.NoError(t, err)
		require.Equal(t, place[i], got)
	}
	g, err := battleship.NewGame(r, place[0], place[1], 0)
	require.NoError(t, err)
	for g.Status() == game.Running {
		mv := g.ToAct()
		say(mv, false, []byte(protocol.YourTurn))
		say(1-mv, false, []byte(protocol.Waiting))
		at := ps[mv].Shoot()
		line := wire.EncodeShoot(r, at)
		say(mv, true, line)
		got, err := wire.DecodeShoot(line, r)
		require.NoError(t, err)
		require.Equal(t, at, got)
		st, err := g.Apply(at)
		require.NoError(t, err)
		ps[mv].Observe(st.Shooter)
		ps[1-mv].Observe(st.Defender)
		for _, i := range []int{mv, 1 - mv} {
			outcome := protocol.NoOutcome
			if st.Status == game.Won {
				outcome = protocol.Lost
				if st.Winner == i {
					outcome = protocol.Won
				}
			}
			line := wire.EncodeShotResult(r, st.Shooter, outcome)
			say(i, false, line)
			res, err := wire.DecodeShotResult(line, r)
			require.NoError(t, err)
			require.Equal(t, st.At, res.At)
			require.Equal(t, st.Shooter.Outcome, res.Outcome)
		}
	}
	require.Equal(t, game.Won, g.Status())
	w := g.Winner()
	say(w, false, []byte(protocol.YouWin))
	say(1-w, false, []byte(protocol.YouLose))

	path := filepath.Join("testdata", "battleship-small.txt")
	if *update {
		require.NoError(t, os.WriteFile(path, []byte(out.String()), 0o644))
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "run go test ./game/battleship/wire -update to create it")
	require.Equal(t, string(want), out.String())
}

func FuzzDecodeShips(f *testing.F) {
	r := battleship.DefaultRules()
	for _, s := range []string{`{"ships":[[[0,0],[0,1]],[[9,9]]]}`, `{"ships":[[[0,1.5]]]}`, `{"ships":[]}`, `{"ships":[[[0,0,0]]]}`, `[]`, ``} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		p, err := wire.DecodeShips(line, r)
		if err != nil {
			checkProtocolError(t, line, err)
			return
		}
		for _, s := range p {
			for _, c := range s {
				require.True(t, c >= 0 && int(c) < r.Board.Size())
			}
		}
		again, err := wire.DecodeShips(wire.EncodeShips(r, p), r)
		require.NoError(t, err)
		require.Equal(t, p, again)
		_ = r.ValidatePlacement(p) // must not panic
	})
}

func FuzzDecodeShoot(f *testing.F) {
	r := battleship.DefaultRules()
	for _, s := range []string{`{"shoot":{"to":[2,3]}}`, `{"shoot":{"to":[-1,3]}}`, `{"shoot":{"to":[1e2,3]}}`, `{}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		c, err := wire.DecodeShoot(line, r)
		if err != nil {
			checkProtocolError(t, line, err)
			require.Equal(t, grid.None, c)
			return
		}
		if c == grid.None {
			return
		}
		got, err := wire.DecodeShoot(wire.EncodeShoot(r, c), r)
		require.NoError(t, err)
		require.Equal(t, c, got)
	})
}

func FuzzDecodeShotResult(f *testing.F) {
	r := battleship.DefaultRules()
	for _, s := range []string{
		`{"result":{"shot":{"position":[0,1],"outcome":"kill","ship":[[0,0],[0,1]]}},"outcome":true}`,
		`{"result":{"shot":{"position":[3,4],"outcome":"miss"}}}`,
		`{"result":{"shot":false},"outcome":false}`,
		`{"outcome":true}`, `{"error":"x"}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		res, err := wire.DecodeShotResult(line, r)
		if err != nil {
			checkProtocolError(t, line, err)
			return
		}
		if !res.HasShot {
			return
		}
		ev := battleship.Event{Illegal: res.Illegal, Result: battleship.Result{At: res.At, Outcome: res.Outcome, Sunk: res.Sunk}}
		again, err := wire.DecodeShotResult(wire.EncodeShotResult(r, ev, res.GameOutcome), r)
		require.NoError(t, err)
		res.Error = ""
		require.Equal(t, res, again)
	})
}

// checkProtocolError checks that err is a *protocol.ProtocolError quoting a
// prefix of line.
func checkProtocolError(t *testing.T, line []byte, err error) {
	t.Helper()
	var pe *protocol.ProtocolError
	require.ErrorAs(t, err, &pe)
	require.True(t, strings.HasPrefix(string(line), pe.Line))
	require.LessOrEqual(t, len(pe.Line), protocol.MaxQuote)
}
