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
	"github.com/kaisen-ai/kaisen/game/abilities"
	"github.com/kaisen-ai/kaisen/game/abilities/wire"
	"github.com/kaisen-ai/kaisen/game/battleship"
	bswire "github.com/kaisen-ai/kaisen/game/battleship/wire"
	"github.com/kaisen-ai/kaisen/game/grid"
	abplayers "github.com/kaisen-ai/kaisen/players/abilities"
	"github.com/kaisen-ai/kaisen/protocol"
)

// allOptions has every rules option on.
var allOptions = abilities.Options{SalvoShootsAgain: true, FalseMissAnyHit: true, MoveMayTouch: true, HideMoves: true, ScanAfloatOnly: true, SuppressPassive: true}

var update = flag.Bool("update", false, "rewrite the golden transcript in testdata/")

// bsCell is the cell at row, col of the classic board.
func bsCell(r *battleship.Rules, row, col int) grid.Cell {
	c, ok := r.Cell(row, col)
	if !ok {
		panic(fmt.Sprintf("no cell [%d,%d]", row, col))
	}
	return c
}

// randomAbilitiesGame plays one game of random legal actions (each kind
// drawn first, so that abilities and answers are frequent) and calls step
// with every action and its step. It returns the game.
func randomAbilitiesGame(t *testing.T, r *abilities.Rules, seed uint64, step func(g *abilities.Game, a abilities.Action, st abilities.Step)) *abilities.Game {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 1))
	placer, err := bsbelief.NewUniformPlacer(r.Base)
	require.NoError(t, err)
	var pl [2]battleship.Placement
	for i := range pl {
		pl[i], err = placer.Place(rng)
		require.NoError(t, err)
	}
	g, err := abilities.NewGame(r, pl[0], pl[1], int(seed%2))
	require.NoError(t, err)
	for g.Status() == game.Running {
		legal := g.Legal()
		require.NotEmpty(t, legal)
		kind := legal[rng.IntN(len(legal))].Kind
		if rng.IntN(2) == 0 { // favour the rarer kinds
			kind = abilities.Kind(rng.IntN(5))
		}
		var pick []abilities.Action
		for _, a := range legal {
			if a.Kind == kind {
				pick = append(pick, a)
			}
		}
		if len(pick) == 0 {
			pick = legal
		}
		a := pick[rng.IntN(len(pick))]
		st, err := g.Apply(a)
		require.NoError(t, err)
		step(g, a, st)
	}
	return g
}

// wireOutcome is the outcome of st for seat i on the wire.
func wireOutcome(st abilities.Step, i int) int {
	switch {
	case st.Status != game.Won:
		return protocol.NoOutcome
	case st.Winner == i:
		return protocol.Won
	}
	return protocol.Lost
}

// TestAbilitiesEventRoundTrip: over random games of every pairing of sides,
// with the default options and with every option on, each seat's view of
// each action printed by EncodeAbilitiesEvent decodes to exactly the
// abilities.Event the rules gave that seat (Status, Winner and Next
// included), and every action line decodes to the action.
func TestAbilitiesEventRoundTrip(t *testing.T) {
	kinds := map[string]int{}
	for _, sides := range [][2]abilities.Side{{abilities.AI, abilities.Humans}, {abilities.Humans, abilities.AI}, {abilities.AI, abilities.AI}, {abilities.Humans, abilities.Humans}} {
		for _, opt := range []abilities.Options{{}, allOptions} {
			r, err := abilities.NewRules(battleship.DefaultRules(), sides[0], sides[1], opt)
			require.NoError(t, err)
			for seed := range uint64(4) {
				randomAbilitiesGame(t, r, seed, func(g *abilities.Game, a abilities.Action, st abilities.Step) {
					line := wire.EncodeAction(r, a)
					got, err := wire.DecodeAction(line, r)
					require.NoError(t, err, "%s", line)
					require.True(t, a.Equal(got), "%s: %v, want %v", line, got, a)
					for v, ev := range st.Views {
						if ev.Silent {
							kinds["silent"]++
							continue
						}
						line := wire.EncodeEvent(r, ev, wireOutcome(st, v))
						res, err := wire.DecodeEvent(line, r, v)
						require.NoError(t, err, "%s", line)
						require.True(t, res.HasEvent)
						require.Equal(t, ev, res.Event, "%s", line)
						require.Equal(t, wireOutcome(st, v), res.GameOutcome)
						require.Equal(t, st.Status == game.Drawn, res.Draw)
						for _, key := range []string{"moved", "special", "scan", "repeat", "air_defence", "false_miss", `"kind":"reveal"`, `"kind":"false_miss"`, `"kind":"air_defence"`, "turn_end", "draw", "kill"} {
							if strings.Contains(string(line), key) {
								kinds[key]++
							}
						}
					}
				})
			}
		}
	}
	for _, key := range []string{"silent", "moved", "special", "scan", "repeat", "air_defence", "false_miss", `"kind":"reveal"`, `"kind":"false_miss"`, `"kind":"air_defence"`, "turn_end", "kill"} {
		require.Positive(t, kinds[key], "no line with %s: the games do not cover it", key)
	}
}

func TestAbilitiesHello(t *testing.T) {
	for _, opt := range []abilities.Options{{}, allOptions, {HideMoves: true}} {
		for seat := range 2 {
			h := wire.Hello{Version: wire.Version, Seat: seat, Sides: [2]abilities.Side{abilities.Humans, abilities.AI}, Options: opt}
			line := wire.EncodeHello(h)
			got, err := wire.DecodeHello(line)
			require.NoError(t, err, "%s", line)
			require.Equal(t, h, got)
		}
	}
	require.Equal(t, `{"hello":{"game":"abilities","version":2,"seat":0,"sides":["ai","humans"],"options":{}}}`,
		string(wire.EncodeHello(wire.Hello{Version: 2, Sides: [2]abilities.Side{abilities.AI, abilities.Humans}})))
	ok := `{"hello":{"game":"abilities","version":2,"seat":1,"sides":["ai","ai"],"options":{"hide_moves":false},"board":"later"}}`
	h, err := wire.DecodeHello([]byte(ok))
	require.NoError(t, err, "unknown keys of hello are room for compatible extensions")
	require.Equal(t, 1, h.Seat)
	_, err = wire.DecodeHello([]byte(`{"hello":{"game":"abilities","version":1,"seat":0,"sides":["ai","humans"],"options":{"fly":true}}}`))
	require.ErrorIs(t, err, wire.ErrVersion, "the version is checked before what may differ in it")
	for _, tc := range []struct{ name, line string }{
		{"not json", `hello`},
		{"other game", `{"hello":{"game":"chess","version":2,"seat":0,"sides":["ai","humans"],"options":{}}}`},
		{"seat 2", `{"hello":{"game":"abilities","version":2,"seat":2,"sides":["ai","humans"],"options":{}}}`},
		{"float version", `{"hello":{"game":"abilities","version":2.0,"seat":0,"sides":["ai","humans"],"options":{}}}`},
		{"one side", `{"hello":{"game":"abilities","version":2,"seat":0,"sides":["ai"],"options":{}}}`},
		{"bad side", `{"hello":{"game":"abilities","version":2,"seat":0,"sides":["ai","orcs"],"options":{}}}`},
		{"unknown option", `{"hello":{"game":"abilities","version":2,"seat":0,"sides":["ai","humans"],"options":{"fly":true}}}`},
		{"option not bool", `{"hello":{"game":"abilities","version":2,"seat":0,"sides":["ai","humans"],"options":{"hide_moves":1}}}`},
		{"no options", `{"hello":{"game":"abilities","version":2,"seat":0,"sides":["ai","humans"]}}`},
		{"extra top key", `{"hello":{"game":"abilities","version":2,"seat":0,"sides":["ai","humans"],"options":{}},"x":1}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := wire.DecodeHello([]byte(tc.line))
			var pe *protocol.ProtocolError
			require.ErrorAs(t, err, &pe)
		})
	}
}

func TestDecodeAbilitiesAction(t *testing.T) {
	r := abilities.DefaultRules()
	c := func(row, col int) grid.Cell { return bsCell(r.Base, row, col) }
	for _, tc := range []struct {
		name, line string
		want       abilities.Action
		err        error
	}{
		{"shoot", `{"shoot":{"to":[2,3]}}`, abilities.Action{Kind: abilities.Shoot, At: c(2, 3), To: -1}, nil},
		{"special", `{ "shoot" : { "special" : true, "to" : [2,3] } }`, abilities.Action{Kind: abilities.Shoot, At: c(2, 3), To: -1, Special: true}, nil},
		{"off board decodes", `{"shoot":{"to":[10,0]}}`, abilities.Action{Kind: abilities.Shoot, At: -1, To: -1}, nil},
		{"move", `{"move":{"from":[6,0],"to":[7,0]}}`, abilities.Action{Kind: abilities.Move, At: c(6, 0), To: c(7, 0)}, nil},
		{"salvo sorted", `{"salvo":{"cells":[[5,6],[5,5]]}}`, abilities.Action{Kind: abilities.Salvo, At: c(5, 5), To: c(5, 6)}, nil},
		{"salvo center", `{"salvo":{"center":[4,4]}}`, abilities.Action{Kind: abilities.Salvo, At: c(4, 4), To: c(4, 4)}, nil},
		{"reveal", `{"reveal":{"cells":[[0,0],[0,1],[1,1]]}}`, abilities.Action{Kind: abilities.Reveal, At: -1, To: -1, Cells: []grid.Cell{c(0, 0), c(0, 1), c(1, 1)}}, nil},
		{"defend", `{"defend":{"use":false}}`, abilities.Action{Kind: abilities.Defend, At: -1, To: -1}, nil},
		{"garbage", `garbage`, abilities.Action{}, protocol.ErrSyntax},
		{"float", `{"shoot":{"to":[0,1.5]}}`, abilities.Action{}, protocol.ErrType},
		{"string", `{"shoot":{"to":[0,"1"]}}`, abilities.Action{}, protocol.ErrType},
		{"special not bool", `{"shoot":{"to":[0,1],"special":1}}`, abilities.Action{}, protocol.ErrType},
		{"unknown action", `{"fly":{"to":[0,0]}}`, abilities.Action{}, protocol.ErrType},
		{"two actions", `{"shoot":{"to":[0,0]},"move":{"from":[6,0],"to":[7,0]}}`, abilities.Action{}, protocol.ErrType},
		{"extra key", `{"shoot":{"to":[0,0],"at":[1,1]}}`, abilities.Action{}, protocol.ErrType},
		{"move without to", `{"move":{"from":[6,0]}}`, abilities.Action{}, protocol.ErrType},
		{"salvo one cell", `{"salvo":{"cells":[[0,0]]}}`, abilities.Action{}, protocol.ErrType},
		{"salvo both shapes", `{"salvo":{"center":[0,0],"cells":[[0,0],[0,1]]}}`, abilities.Action{}, protocol.ErrType},
		{"reveal ten cells", `{"reveal":{"cells":[[0,0],[0,1],[0,2],[0,3],[0,4],[0,5],[0,6],[0,7],[0,8],[0,9]]}}`, abilities.Action{}, protocol.ErrType},
		{"defend not bool", `{"defend":{"use":"yes"}}`, abilities.Action{}, protocol.ErrType},
		{"array", `[1,2]`, abilities.Action{}, protocol.ErrType},
		{"duplicate key", `{"shoot":{"to":[0,0],"to":[1,1]}}`, abilities.Action{}, protocol.ErrSyntax},
		{"empty", ``, abilities.Action{}, protocol.ErrSyntax},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := wire.DecodeAction([]byte(tc.line), r)
			if tc.err != nil {
				require.ErrorIs(t, err, tc.err)
				var pe *protocol.ProtocolError
				require.ErrorAs(t, err, &pe)
				return
			}
			require.NoError(t, err)
			require.Equal(t, tc.want, got)
		})
	}
}

func TestDecodeAbilitiesEventErrors(t *testing.T) {
	r := abilities.DefaultRules()
	for _, tc := range []struct{ name, line string }{
		{"nothing known", `{"x":1}`},
		{"no seat", `{"result":{"action":"shoot"}}`},
		{"seat 2", `{"result":{"seat":2,"action":"shoot"}}`},
		{"unknown action", `{"result":{"seat":0,"action":"fly"}}`},
		{"moved on a shot", `{"result":{"seat":0,"action":"shoot","moved":true}}`},
		{"enemy moved false", `{"result":{"seat":1,"action":"move","moved":false}}`},
		{"own move off board", `{"result":{"seat":0,"action":"move","moved":{"from":[0,0],"to":[0,10]}}}`},
		{"no cells", `{"result":{"seat":0,"action":"shoot","cells":[]}}`},
		{"cell off board", `{"result":{"seat":0,"action":"shoot","cells":[{"position":[10,0],"outcome":"miss"}]}}`},
		{"bad outcome", `{"result":{"seat":0,"action":"shoot","cells":[{"position":[1,0],"outcome":"sunk"}]}}`},
		{"kill without ship", `{"result":{"seat":0,"action":"shoot","cells":[{"position":[1,0],"outcome":"kill"}]}}`},
		{"ship without the cell", `{"result":{"seat":0,"action":"shoot","cells":[{"position":[1,0],"outcome":"kill","ship":[[2,0]]}]}}`},
		{"hit with ship", `{"result":{"seat":0,"action":"shoot","cells":[{"position":[1,0],"outcome":"hit","ship":[[1,0]]}]}}`},
		{"scan negative", `{"result":{"seat":0,"action":"shoot","scan":-1}}`},
		{"ask unknown", `{"result":{"seat":0,"action":"shoot","ask":{"kind":"bribe","at":[0,0]}}}`},
		{"reveal count 0", `{"result":{"seat":0,"action":"salvo","ask":{"kind":"reveal","center":[1,1],"cells":[[0,0]],"count":0}}}`},
		{"outcome and draw", `{"result":{"seat":0,"action":"shoot"},"outcome":true,"draw":true}`},
		{"outcome string", `{"outcome":"yes"}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := wire.DecodeEvent([]byte(tc.line), r, 0)
			var pe *protocol.ProtocolError
			require.ErrorAs(t, err, &pe)
		})
	}
	res, err := wire.DecodeEvent([]byte(`{"error":"illegal: no"}`), r, 0)
	require.NoError(t, err)
	require.Equal(t, "illegal: no", res.Error)
	require.False(t, res.HasEvent)
	res, err = wire.DecodeEvent(protocol.EncodeOutcome(true), r, 1)
	require.NoError(t, err)
	require.Equal(t, protocol.Won, res.GameOutcome)
}

// The golden abilities game: abGoldenAI (seat 0, AI) against abGoldenAI
// (seat 1, Humans), each seat's AI drawing from rand.NewPCG(abGoldenSeed,
// seat). ab-random, not a tuned AI, so that the transcript changes only
// with the rules or the protocol; the seed is one whose game uses every
// ability and answers every kind of question, in about 200 actions.
const (
	abGoldenAI   = "ab-random"
	abGoldenSeed = 109
)

// AbilitiesGoldenPath is the golden abilities transcript; the server's
// TestAbilitiesGoldenTranscript plays its client lines and checks its
// server lines byte for byte.
var abilitiesGoldenPath = filepath.Join("testdata", "abilities-game.txt")

// TestAbilitiesGoldenGame writes the lines of a whole abilities game, both
// connections in the order the server writes them, from the engine and the
// encoders (the hello, the placements, "your turn"/"waiting" before every
// action, each seat's result line, the end lines, the close), decodes
// every line back, checks that the game uses every ability and question,
// and compares the file (go test ./game/abilities/wire -update rewrites
// it).
func TestAbilitiesGoldenGame(t *testing.T) {
	r := abilities.DefaultRules()
	var out strings.Builder
	fmt.Fprintf(&out, "Kaisen golden transcript of the abilities protocol (docs/protocol.md, section Abilities).\n")
	// The header keeps the codec's old home (./protocol): the file is pinned
	// byte for byte.
	fmt.Fprintf(&out, "Generated by TestAbilitiesGoldenGame (go test ./game/abilities/wire -update); server.TestAbilitiesGoldenTranscript\n")
	fmt.Fprintf(&out, "plays the client lines through the server and checks every server line byte for byte.\n")
	fmt.Fprintf(&out, "%s (P1, seat 0, side ai) against %s (P2, seat 1, side humans), default options,\n", abGoldenAI, abGoldenAI)
	fmt.Fprintf(&out, "each AI seeded rand.NewPCG(%d, seat); seat 0 acts first.\n", abGoldenSeed)
	fmt.Fprintf(&out, "==========\nABILITIES GAME\n==========\n")
	say := func(seat int, toServer bool, line []byte) {
		dir := "S>C"
		if toServer {
			dir = "C>S"
		}
		fmt.Fprintf(&out, "P%d  %s  %s\\n\n", seat+1, dir, line)
	}
	var ps [2]abplayers.Player
	for seat := range ps {
		f, err := abplayers.New(abGoldenAI, r, nil)
		require.NoError(t, err)
		ps[seat] = f(rand.New(rand.NewPCG(abGoldenSeed, uint64(seat))), seat)
		line := wire.EncodeHello(wire.Hello{Version: wire.Version, Seat: seat, Sides: r.Sides, Options: r.Options})
		say(seat, false, line)
	}
	var place [2]battleship.Placement
	for seat, p := range ps {
		place[seat] = p.Place()
		line := bswire.EncodeShips(r.Base, place[seat])
		say(seat, true, line)
	}
	g, err := abilities.NewGame(r, place[0], place[1], 0)
	require.NoError(t, err)
	seen := map[string]bool{}
	told := [2]bool{true, true} // a seat told nothing by the last action gets no "waiting"
	sched := wire.NewConfirms(r)
	moved := -1 // the seat whose move was the last action: it goes on without "your turn"
	for g.Status() == game.Running {
		mv := g.ToAct()
		if moved != mv {
			say(mv, false, []byte(protocol.YourTurn))
			if told[1-mv] {
				say(1-mv, false, []byte(protocol.Waiting))
			}
		}
		q := g.Pending()
		a := ps[mv].Act(q)
		sched.Answered(q, a)
		moved = -1
		if a.Kind == abilities.Move {
			moved = mv
		}
		if q != nil && q.Ask != abilities.AskReveal {
			seen[fmt.Sprintf("answer %s %t", []string{"reveal", "false_miss", "air_defence"}[q.Ask], a.Use)] = true
		}
		line := wire.EncodeAction(r, a)
		say(mv, true, line)
		got, err := wire.DecodeAction(line, r)
		require.NoError(t, err)
		require.True(t, a.Equal(got))
		seen["action "+a.Kind.String()] = true
		if a.Special {
			seen["special "+r.Sides[mv].String()] = true
		}
		if a.Kind == abilities.Salvo {
			seen["salvo "+r.Sides[mv].String()] = true
		}
		st, err := g.Apply(a)
		require.NoError(t, err)
		d, cells := sched.Told(st)
		for _, c := range cells {
			line := wire.EncodeConfirm(r, c)
			say(d, false, line)
			res, err := wire.DecodeEvent(line, r, d)
			require.NoError(t, err)
			require.Equal(t, wire.Result{Confirm: true, ConfirmAt: c, GameOutcome: protocol.NoOutcome}, res)
			say(d, false, []byte(protocol.YourTurn))
			say(d, true, wire.EncodeAction(r, wire.ConfirmAnswer))
			seen["confirm"] = true
		}
		for _, v := range [2]int{mv, 1 - mv} {
			ev := st.Views[v]
			told[v] = !ev.Silent
			if ev.Silent {
				seen["held"] = seen["held"] || v != mv
				continue
			}
			ps[v].Observe(ev)
			line := wire.EncodeEvent(r, ev, wireOutcome(st, v))
			say(v, false, line)
			res, err := wire.DecodeEvent(line, r, v)
			require.NoError(t, err)
			require.Equal(t, ev, res.Event)
			if ev.Ask != nil {
				seen["ask "+[]string{"reveal", "false_miss", "air_defence"}[ev.Ask.Ask]] = true
			}
		}
	}
	require.Equal(t, game.Won, g.Status())
	w := g.Winner()
	say(w, false, []byte(protocol.YouWin))
	say(1-w, false, []byte(protocol.YouLose))
	fmt.Fprintf(&out, "P1  S>C  <EOF>\nP2  S>C  <EOF>\n")
	for _, key := range []string{"action move", "salvo ai", "salvo humans", "special ai", "special humans", "action reveal", "action defend", "ask reveal", "ask false_miss", "ask air_defence", "held", "answer false_miss true", "answer air_defence true", "answer air_defence false", "confirm"} {
		require.True(t, seen[key], "the golden game has no %s: pick another seed", key)
	}
	if *update {
		require.NoError(t, os.WriteFile(abilitiesGoldenPath, []byte(out.String()), 0o644))
	}
	want, err := os.ReadFile(abilitiesGoldenPath)
	require.NoError(t, err, "run go test ./game/abilities/wire -update to create it")
	require.Equal(t, string(want), out.String(), "the rules' views, the encoders or %s changed: check the diff of go test ./game/abilities/wire -run AbilitiesGolden -update", abGoldenAI)
}

// abilitiesSeedLines are fuzz seeds: lines of a random game and of the
// golden transcript.
func abilitiesSeedLines(f *testing.F) []string {
	out := []string{`garbage`, `{"shoot":{"to":[0,1.5]}}`, `{"salvo":{"center":[1,1]}}`, `{"reveal":{"cells":[[0,0],[0,1],[1,1]]}}`,
		`{"defend":{"use":true}}`, `{"move":{"from":[6,0],"to":[7,0]}}`, `{"error":"x"}`, `{"outcome":false}`,
		`{"hello":{"game":"abilities","version":2,"seat":0,"sides":["ai","humans"],"options":{"hide_moves":true}}}`, `{"confirm":{"at":[1,2]}}`}
	if b, err := os.ReadFile(abilitiesGoldenPath); err == nil {
		for _, l := range strings.Split(string(b), "\n") {
			if len(l) > 10 && l[0] == 'P' {
				out = append(out, strings.TrimSuffix(l[9:], `\n`))
			}
		}
	}
	return out
}

func FuzzDecodeAbilitiesAction(f *testing.F) {
	r := abilities.DefaultRules()
	for _, s := range abilitiesSeedLines(f) {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		a, err := wire.DecodeAction(line, r)
		if err != nil {
			var pe *protocol.ProtocolError
			require.ErrorAs(t, err, &pe)
			return
		}
		again, err := wire.DecodeAction(wire.EncodeAction(r, a), r)
		require.NoError(t, err)
		require.True(t, a.Equal(again), "%v then %v", a, again)
	})
}

func FuzzDecodeAbilitiesEvent(f *testing.F) {
	r := abilities.DefaultRules()
	for _, s := range abilitiesSeedLines(f) {
		f.Add([]byte(s), uint8(0))
	}
	f.Fuzz(func(t *testing.T, line []byte, me uint8) {
		seat := int(me % 2)
		res, err := wire.DecodeEvent(line, r, seat)
		if err != nil {
			var pe *protocol.ProtocolError
			require.ErrorAs(t, err, &pe)
			return
		}
		if !res.HasEvent {
			return
		}
		again, err := wire.DecodeEvent(wire.EncodeEvent(r, res.Event, res.GameOutcome), r, seat)
		require.NoError(t, err)
		require.Equal(t, res.Event, again.Event)
	})
}

func FuzzDecodeAbilitiesHello(f *testing.F) {
	for _, s := range abilitiesSeedLines(f) {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		h, err := wire.DecodeHello(line)
		if err != nil {
			var pe *protocol.ProtocolError
			require.ErrorAs(t, err, &pe)
			return
		}
		again, err := wire.DecodeHello(wire.EncodeHello(h))
		require.NoError(t, err)
		require.Equal(t, h, again)
	})
}
