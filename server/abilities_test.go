package server

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/client"
	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/game/abilities"
	abrecord "github.com/kaisen-ai/kaisen/game/abilities/record"
	abwire "github.com/kaisen-ai/kaisen/game/abilities/wire"
	"github.com/kaisen-ai/kaisen/game/battleship"
	"github.com/kaisen-ai/kaisen/internal/race"
	abplayers "github.com/kaisen-ai/kaisen/players/abilities"
	"github.com/kaisen-ai/kaisen/protocol"
)

const abilitiesGolden = "../game/abilities/wire/testdata/abilities-game.txt"

// abilitiesConfig is testConfig with one abilities listener against
// opponent (a house AI, or OpponentPair).
func abilitiesConfig(t *testing.T, opponent string) Config {
	cfg := testConfig(t)
	cfg.Listeners[0].Game = GameAbilities
	cfg.Listeners[0].Opponent = opponent
	return cfg
}

// verifyAbilitiesReplay reads the replay of r and checks it against the
// rules engine.
func verifyAbilitiesReplay(t *testing.T, ts *testServer, r Result) *abrecord.Replay {
	t.Helper()
	require.NotEmpty(t, r.Replay, "game %s has no replay", r.Game)
	rp, err := abrecord.ReadFile(filepath.Join(ts.cfg.ReplayDir, r.Replay))
	require.NoError(t, err)
	require.NoError(t, abrecord.Verify(rp))
	require.Equal(t, r.Seed, rp.Header.Seed)
	require.Equal(t, r.First, rp.Header.First)
	require.Equal(t, r.Winner, rp.Result.Winner)
	return rp
}

// TestAbilitiesGoldenTranscript plays both clients of the golden abilities
// game (game/abilities/wire/testdata/abilities-game.txt, written by the
// abilities codec's tests from the engine and the encoders) through a pair listener and
// checks every line each client receives byte for byte, up to the close.
func TestAbilitiesGoldenTranscript(t *testing.T) {
	checkLeaks(t)
	sec := findSection(t, loadTranscript(t, abilitiesGolden), "ABILITIES GAME")
	ts := startServer(t, abilitiesConfig(t, OpponentPair))
	require.NoError(t, runSection(ts.addr(0), sec, nil))
	r := ts.waitResults(t, 1)[0]
	require.Equal(t, OutcomeWin, r.Outcome)
	require.Equal(t, ReasonSunk, r.Reason)
	require.Equal(t, DialectAbilities, r.Dialect)
	rp := verifyAbilitiesReplay(t, ts, r)
	var sent, confirms int
	for p := range 2 {
		confirm := false // the line answers a confirm: not an action
		for _, ev := range sec.events[p] {
			switch {
			case ev.fromServer && strings.HasPrefix(ev.line, `{"confirm"`):
				confirm = true
				confirms++
			case !ev.fromServer && confirm:
				confirm = false
			case !ev.fromServer && !ev.eof && ev.line[0] == '{' && !strings.HasPrefix(ev.line, `{"ships"`):
				sent++
			}
		}
	}
	require.Positive(t, confirms)
	require.Len(t, rp.Actions, sent, "every action line of the transcript was played")
	require.Equal(t, sent+confirms, r.Actions, "the result counts the actions (no move is hidden) and the confirms")
}

// TestAbilitiesOverTCPEqualsInProcess plays client.PlayAbilities against a
// house AI over real TCP, one connection per game, and replays each game
// in process (abplayers.PlayGame) with the same AIs drawing from the same
// streams (the client: rand.NewPCG(clientSeed, game); the house:
// rand.NewPCG(game seed, seat), as the server seeds it): the winner, both
// seats' cells fired at and the number of actions must be equal, and the
// server's replay must verify.
func TestAbilitiesOverTCPEqualsInProcess(t *testing.T) {
	games := 3
	if race.Enabled {
		games = 1
	}
	tcpEqualsInProcess(t, games)
}

// TestAbilitiesOverTCPEqualsInProcessFullSize is the same with 10 games
// per configuration (30 in all, about 10 s; not under -race).
func TestAbilitiesOverTCPEqualsInProcessFullSize(t *testing.T) {
	race.SkipFullSize(t)
	tcpEqualsInProcess(t, 10)
}

// tcpEqualsInProcess plays games games of each configuration over TCP and
// in process (TestAbilitiesOverTCPEqualsInProcess).
func tcpEqualsInProcess(t *testing.T, games int) {
	for _, tc := range []struct {
		name, client, house string
		sides               []string
		opt                 abilities.Options
	}{
		{"density client vs random house", "ab-density", "ab-random", nil, abilities.Options{}},
		{"random client vs density house, humans first", "ab-random", "ab-density", []string{"humans", "ai"}, abilities.Options{}},
		{"random vs random, every option", "ab-random", "ab-random", []string{"humans", "humans"}, allAbilityOptions},
	} {
		t.Run(tc.name, func(t *testing.T) {
			checkLeaks(t)
			cfg := abilitiesConfig(t, tc.house)
			cfg.Listeners[0].First = FirstAlternate
			cfg.Listeners[0].Abilities.Sides = tc.sides
			cfg.Listeners[0].Abilities.Options = tc.opt
			ts := startServer(t, cfg)
			rules := abRules(t, ts.setups[0])
			const clientSeed = 77
			var got []client.AbilitiesGame
			for k := range games {
				conn, err := net.Dial("tcp", ts.addr(0))
				require.NoError(t, err)
				build := func(r *abilities.Rules, seat int) (abplayers.Player, error) {
					f, err := abplayers.New(tc.client, r, nil)
					if err != nil {
						return nil, err
					}
					return f(rand.New(rand.NewPCG(clientSeed, uint64(k))), seat), nil
				}
				g, err := client.PlayAbilities(context.Background(), conn, build, client.BattleshipPlayOptions{ReadTimeout: 30 * time.Second})
				conn.Close()
				require.NoError(t, err)
				require.Empty(t, g.Errors)
				require.Equal(t, 0, g.Hello.Seat, "the client is the first connection")
				got = append(got, g)
			}
			rs := ts.waitResults(t, games)
			for k, r := range rs {
				require.Empty(t, r.Forfeits, r.Detail)
				fc, err := abplayers.New(tc.client, rules, nil)
				require.NoError(t, err)
				fh, err := abplayers.New(tc.house, rules, nil)
				require.NoError(t, err)
				want := abplayers.PlayGame(rules, fc(rand.New(rand.NewPCG(clientSeed, uint64(k))), 0), fh(rand.New(rand.NewPCG(r.Seed, 1)), 1), r.First)
				require.NoError(t, want.Err)
				require.Equal(t, want.Winner, r.Winner, "game %d", k)
				require.Equal(t, want.Actions, len(verifyAbilitiesReplay(t, ts, r).Actions), "game %d", k)
				require.Equal(t, publicActions(t, rules, fc(rand.New(rand.NewPCG(clientSeed, uint64(k))), 0), fh(rand.New(rand.NewPCG(r.Seed, 1)), 1), r.First),
					r.Actions, "game %d: the result's count", k)
				require.Equal(t, want.Shots, got[k].Shots, "game %d: cells fired at (client, house)", k)
				wantEnd := protocol.EndLose
				switch want.Winner {
				case 0:
					wantEnd = protocol.EndWin
				case -1:
					wantEnd = protocol.EndDraw
				}
				require.Equal(t, wantEnd, got[k].End)
				rp := verifyAbilitiesReplay(t, ts, r)
				require.Equal(t, want.Shots, rp.Result.Shots)
			}
		})
	}
}

// publicActions plays the game of p0 and p1 in process as
// abplayers.PlayGame does and returns its action count as a server's
// result has it: the actions but hidden moves, plus the shots the
// defender confirms (abwire.Confirms).
func publicActions(t *testing.T, r *abilities.Rules, p0, p1 abplayers.Player, first int) int {
	t.Helper()
	ps := [2]abplayers.Player{p0, p1}
	g, err := abilities.NewGame(r, p0.Place(), p1.Place(), first)
	require.NoError(t, err)
	sched := abwire.NewConfirms(r)
	n := 0
	for g.Status() == game.Running {
		seat := g.ToAct()
		a := ps[seat].Act(g.Pending())
		sched.Answered(g.Pending(), a)
		st, err := g.Apply(a)
		require.NoError(t, err)
		if a.Kind != abilities.Move || !st.Views[1-seat].Silent {
			n++
		}
		_, cells := sched.Told(st)
		n += len(cells)
		for v, p := range ps {
			if !st.Views[v].Silent {
				p.Observe(st.Views[v])
			}
		}
	}
	return n
}

var allAbilityOptions = abilities.Options{SalvoShootsAgain: true, FalseMissAnyHit: true, MoveMayTouch: true, HideMoves: true, ScanAfloatOnly: true, SuppressPassive: true}

// hostileFleet is both scripted seats' fleet: the 4-deck on row 0 from
// column 0, 3-decks on row 2, 2-decks on row 4, 1-decks on row 6 at
// columns 0, 2, 4, 6.
const hostileFleet = `{"ships":[[[0,0],[0,1],[0,2],[0,3]],[[2,0],[2,1],[2,2]],[[2,4],[2,5],[2,6]],[[4,0],[4,1]],[[4,3],[4,4]],[[4,6],[4,7]],[[6,0]],[[6,2]],[[6,4]],[[6,6]]]}`

// scripted is one scripted seat: the lines it sends, each on "your turn"
// (or, prefixed with "W:", on "waiting"), after its placement; "CLOSE"
// closes the connection instead. With no line left it sends nothing more.
// As protocol version 2 says, it answers every confirm line's "your turn"
// with abwire.ConfirmAnswer (no script line), and sends the line after a
// move at once.
type scripted struct {
	lines []string
	got   []string // the lines received
	// fleet is the placement line ("": hostileFleet); noConfirm: a
	// confirm's "your turn" takes a script line like any other.
	fleet     string
	noConfirm bool
}

// play runs the seat on c until the server closes it.
func (s *scripted) play(c net.Conn) error {
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(20 * time.Second))
	r := bufio.NewReaderSize(c, 1<<17)
	send := func(line string) error {
		_, err := io.WriteString(c, line+"\n")
		return err
	}
	confirm := false
	for {
		line, err := r.ReadString('\n')
		if errors.Is(err, io.EOF) && line == "" {
			return nil
		}
		if err != nil {
			return err
		}
		line = strings.TrimSuffix(line, "\n")
		s.got = append(s.got, line)
		switch {
		case strings.HasPrefix(line, `{"hello"`):
			fleet := s.fleet
			if fleet == "" {
				fleet = hostileFleet
			}
			if err := send(fleet); err != nil {
				return err
			}
		case strings.HasPrefix(line, `{"confirm"`):
			confirm = !s.noConfirm
		case line == protocol.YourTurn && confirm:
			confirm = false
			if err := send(string(abwire.EncodeAction(abilities.DefaultRules(), abwire.ConfirmAnswer))); err != nil {
				return err
			}
		case line == protocol.YourTurn && len(s.lines) > 0 && !strings.HasPrefix(s.lines[0], "W:"),
			line == protocol.Waiting && len(s.lines) > 0 && strings.HasPrefix(s.lines[0], "W:"):
			for len(s.lines) > 0 {
				next := strings.TrimPrefix(s.lines[0], "W:")
				s.lines = s.lines[1:]
				if next == "CLOSE" {
					return nil // the deferred close: a disconnect
				}
				if err := send(next); err != nil {
					return err
				}
				if !strings.HasPrefix(next, `{"move"`) {
					break
				}
			}
		} // a seat with no line left thinks until the game ends
	}
}

// playScripted connects seats[0] then seats[1] to addr and plays both
// until the server closes them.
func playScripted(t *testing.T, addr string, seats [2]*scripted) {
	t.Helper()
	conns := dialPair(t, addr)
	errs := make(chan error, 2)
	for p := range 2 {
		go func() { errs <- seats[p].play(conns[p]) }()
	}
	require.NoError(t, <-errs)
	require.NoError(t, <-errs)
}

// gatedConn holds its first write until gate is closed.
type gatedConn struct {
	net.Conn
	gate <-chan struct{}
}

func (g *gatedConn) Write(b []byte) (int, error) {
	if g.gate != nil {
		<-g.gate
		g.gate = nil
	}
	return g.Conn.Write(b)
}

// TestAbilitiesHostileClient: a client that sends a malformed or illegal
// ability action (wrong types, off the board, an ability its side or
// fleet does not have, an ability twice in a turn, a move onto a shot
// cell, answers out of turn or to no question, garbage, an over-long line)
// forfeits its game only: it gets an {"error":...} line, "you lose", the
// other seat "you win", the result log and the replay say why, and a game
// of two real clients on the same server, waiting in its handshake all
// along, then completes.
func TestAbilitiesHostileClient(t *testing.T) {
	shot := func(cell string) string { return `{"shoot":{"to":` + cell + `}}` }
	const miss = `{"shoot":{"to":[9,9]}}` // water in hostileFleet
	for _, tc := range []struct {
		name   string
		lines  []string // seat 0's (AI side), first to act
		other  []string // seat 1's (Humans side)
		reason string
	}{
		{"garbage", []string{"garbage"}, nil, ReasonProtocol},
		{"float", []string{shot("[0,1.5]")}, nil, ReasonProtocol},
		{"string coordinate", []string{shot(`[0,"1"]`)}, nil, ReasonProtocol},
		{"special not a bool", []string{`{"shoot":{"to":[9,9],"special":"yes"}}`}, nil, ReasonProtocol},
		{"unknown action", []string{`{"torpedo":{"to":[0,0]}}`}, nil, ReasonProtocol},
		{"two actions in a line", []string{`{"shoot":{"to":[9,9]},"move":{"from":[6,0],"to":[7,0]}}`}, nil, ReasonProtocol},
		{"unknown key", []string{`{"shoot":{"to":[9,9],"twice":true}}`}, nil, ReasonProtocol},
		{"salvo of one cell", []string{`{"salvo":{"cells":[[9,9]]}}`}, nil, ReasonProtocol},
		{"reveal of ten cells", []string{`{"reveal":{"cells":[[0,0],[0,1],[0,2],[0,3],[0,4],[0,5],[0,6],[0,7],[0,8],[0,9]]}}`}, nil, ReasonProtocol},
		{"defend with a string", []string{`{"defend":{"use":"no"}}`}, nil, ReasonProtocol},
		{"over-long line", []string{`{"shoot":{"to":[9,9]},"pad":"` + strings.Repeat("x", 70000) + `"}`}, nil, ReasonLineTooLong},
		{"shot off the board", []string{shot("[10,0]")}, nil, ReasonIllegal},
		{"salvo off the board", []string{`{"salvo":{"cells":[[9,9],[9,10]]}}`}, nil, ReasonIllegal},
		{"salvo not in a row", []string{`{"salvo":{"cells":[[9,9],[7,7]]}}`}, nil, ReasonIllegal},
		{"move off the board", []string{`{"move":{"from":[6,0],"to":[6,-1]}}`}, nil, ReasonIllegal},
		{"move diagonally", []string{`{"move":{"from":[6,0],"to":[7,1]}}`}, nil, ReasonIllegal},
		{"the humans' salvo by the ai", []string{`{"salvo":{"center":[8,8]}}`}, nil, ReasonIllegal},
		{"move of no ship", []string{`{"move":{"from":[8,8],"to":[8,9]}}`}, nil, ReasonIllegal},
		{"move of a 2-deck", []string{`{"move":{"from":[4,0],"to":[5,0]}}`}, nil, ReasonIllegal},
		{"two moves in a turn", []string{`{"move":{"from":[6,0],"to":[7,0]}}`, `{"move":{"from":[6,4],"to":[7,4]}}`}, nil, ReasonIllegal},
		{"3-deck twice in a turn", []string{`{"shoot":{"to":[2,4],"special":true}}`, `{"shoot":{"to":[2,5],"special":true}}`}, nil, ReasonIllegal},
		{"move onto a shot cell", []string{miss, `{"move":{"from":[6,0],"to":[7,0]}}`}, []string{shot("[7,0]")}, ReasonIllegal},
		{"defend with no question", []string{`{"defend":{"use":true}}`}, nil, ReasonIllegal},
		{"reveal with no question", []string{`{"reveal":{"cells":[[0,0],[0,1],[0,2]]}}`}, nil, ReasonIllegal},
		{"answer while waiting", []string{miss, `W:{"defend":{"use":false}}`}, nil, ReasonOutOfTurn}, // seat 1 thinks meanwhile
		{"shot instead of a reveal", []string{miss, shot("[5,5]")}, []string{`{"salvo":{"center":[1,1]}}`}, ReasonIllegal},
		{"reveal outside the 3x3", []string{miss, `{"reveal":{"cells":[[0,0],[0,1],[5,5]]}}`}, []string{`{"salvo":{"center":[1,1]}}`}, ReasonIllegal},
		{"reveal of two cells", []string{miss, `{"reveal":{"cells":[[0,0],[0,1]]}}`}, []string{`{"salvo":{"center":[1,1]}}`}, ReasonIllegal},
		{"reveal of a cell twice", []string{miss, `{"reveal":{"cells":[[0,0],[0,0],[0,1]]}}`}, []string{`{"salvo":{"center":[1,1]}}`}, ReasonIllegal},
		{"reveal for a false miss", []string{miss, `{"reveal":{"cells":[[0,0],[0,1],[0,2]]}}`}, []string{shot("[0,0]")}, ReasonIllegal},
		{"disconnect when asked", []string{miss, "CLOSE"}, []string{shot("[0,0]")}, ReasonDisconnect},
	} {
		t.Run(tc.name, func(t *testing.T) {
			checkLeaks(t)
			cfg := abilitiesConfig(t, OpponentPair)
			cfg.Limits.MaxLineBytes = 65536
			ts := startServer(t, cfg)
			// Two real clients connect first; the first holds its placement
			// back until the hostile game is over.
			gate := make(chan struct{})
			var once sync.Once
			release := func() { once.Do(func() { close(gate) }) }
			t.Cleanup(release)
			bg := make(chan error, 2)
			for p := range 2 {
				conn, err := net.Dial("tcp", ts.addr(0))
				require.NoError(t, err)
				t.Cleanup(func() { conn.Close() })
				var c net.Conn = conn
				if p == 0 {
					c = &gatedConn{Conn: conn, gate: gate}
				}
				go func() {
					build := func(r *abilities.Rules, seat int) (abplayers.Player, error) {
						f, err := abplayers.New("ab-random", r, nil)
						if err != nil {
							return nil, err
						}
						return f(rand.New(rand.NewPCG(5, uint64(p))), seat), nil
					}
					g, err := client.PlayAbilities(context.Background(), c, build, client.BattleshipPlayOptions{ReadTimeout: 20 * time.Second})
					if err == nil && len(g.Errors) > 0 {
						err = fmt.Errorf("errors: %v", g.Errors)
					}
					bg <- err
				}()
			}
			time.Sleep(20 * time.Millisecond) // both are paired before the hostile pair connects
			seats := [2]*scripted{{lines: tc.lines}, {lines: tc.other}}
			playScripted(t, ts.addr(0), seats)
			rs := ts.waitResults(t, 1)
			r := rs[0]
			require.Equal(t, OutcomeWin, r.Outcome)
			require.Equal(t, 1, r.Winner)
			require.Equal(t, []int{0}, r.Forfeits)
			require.Equal(t, tc.reason, r.Reason, r.Detail)
			require.Empty(t, seats[0].lines, "seat 0 sent every line")
			got0, got1 := seats[0].got, seats[1].got
			if tc.reason != ReasonDisconnect { // nobody reads after a disconnect
				require.Equal(t, protocol.YouLose, got0[len(got0)-1])
				require.Equal(t, `{"outcome":false}`, got0[len(got0)-2])
				require.True(t, strings.HasPrefix(got0[len(got0)-3], `{"error":"`+tc.reason+`: `), got0[len(got0)-3])
			}
			require.Equal(t, protocol.YouWin, got1[len(got1)-1])
			require.Equal(t, `{"outcome":true}`, got1[len(got1)-2])
			rp := verifyAbilitiesReplay(t, ts, r)
			require.Len(t, rp.Result.Forfeits, 1)
			if tc.reason == ReasonIllegal {
				require.True(t, rp.Actions[len(rp.Actions)-1].Illegal, "the replay records the illegal action")
			}
			release()
			for range 2 {
				select {
				case err := <-bg:
					require.NoError(t, err, "the concurrent game")
				case <-time.After(20 * time.Second):
					t.Fatal("the concurrent game did not finish")
				}
			}
			rs = ts.waitResults(t, 2)
			require.Empty(t, rs[1].Forfeits, "the concurrent game: %s", rs[1].Detail)
			require.Contains(t, []string{ReasonSunk, ReasonDrawLimit}, rs[1].Reason)
			verifyAbilitiesReplay(t, ts, rs[1])
		})
	}
}

// TestAbilitiesHiddenMove: with hide_moves, a move tells the enemy
// nothing, not even a second "waiting".
func TestAbilitiesHiddenMove(t *testing.T) {
	checkLeaks(t)
	cfg := abilitiesConfig(t, OpponentPair)
	cfg.Listeners[0].Abilities.Options.HideMoves = true
	ts := startServer(t, cfg)
	seats := [2]*scripted{{lines: []string{`{"move":{"from":[6,0],"to":[7,0]}}`, "garbage"}}, {}}
	playScripted(t, ts.addr(0), seats)
	require.Equal(t, []string{
		`{"hello":{"game":"abilities","version":2,"seat":1,"sides":["ai","humans"],"options":{"hide_moves":true}}}`,
		"waiting", `{"outcome":true}`, "you win",
	}, seats[1].got)
	require.Equal(t, `{"result":{"seat":0,"action":"move","moved":{"from":[6,0],"to":[7,0]}}}`, seats[0].got[2])
	require.Equal(t, ReasonProtocol, ts.waitResults(t, 1)[0].Reason)
}

// TestAbilitiesListenerConfig: an abilities listener checks its sides,
// options and house AI; other games refuse abilities settings.
func TestAbilitiesListenerConfig(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(l *ListenerConfig)
		err  string
	}{
		{"default", func(*ListenerConfig) {}, ""},
		{"house", func(l *ListenerConfig) { l.Opponent = "ab-density" }, ""},
		{"sides", func(l *ListenerConfig) { l.Abilities.Sides = []string{"humans", "humans"} }, ""},
		{"bad side", func(l *ListenerConfig) { l.Abilities.Sides = []string{"orcs", "ai"} }, "orcs"},
		{"one side", func(l *ListenerConfig) { l.Abilities.Sides = []string{"ai"} }, "want two"},
		{"alternate_first", func(l *ListenerConfig) { l.Abilities.AlternateFirst = true }, "alternate_first"},
		{"battleship AI", func(l *ListenerConfig) { l.Opponent = "gridbot" }, "gridbot"},
		{"series", func(l *ListenerConfig) { l.Games = 3 }, ""},
		{"on battleship", func(l *ListenerConfig) { l.Game = GameBattleship; l.Abilities.Options.HideMoves = true }, "leave abilities unset"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := DefaultConfig()
			cfg.Listeners[0].Game = GameAbilities
			tc.edit(&cfg.Listeners[0])
			err := cfg.Validate()
			if tc.err == "" {
				require.NoError(t, err)
				return
			}
			require.ErrorIs(t, err, ErrConfig)
			require.ErrorContains(t, err, tc.err)
		})
	}
	require.Equal(t, DefaultAbilitiesHouse, DefaultHouse(GameAbilities))
}

// FuzzAbilitiesSession feeds arbitrary bytes, as one client after its
// hello, to an abilities game against an honest client (client.PlayAbilities
// with ab-random) over net.Pipe, in a synctest bubble so that timeouts cost
// nothing, and checks that the server does not panic, that the game ends,
// that the honest client reads only well-formed lines and wins, unless the
// fuzzed client really fired at every cell of its fleet.
func FuzzAbilitiesSession(f *testing.F) {
	place := hostileFleet + "\n"
	for _, s := range []string{
		place, place + `{"shoot":{"to":[9,9]}}` + "\n", place + `{"move":{"from":[6,0],"to":[7,0]}}` + "\n" + `{"shoot":{"to":[0,0],"special":true}}` + "\n",
		place + `{"salvo":{"cells":[[0,0],[0,1]]}}` + "\n", place + `{"defend":{"use":true}}` + "\n", place + `{"reveal":{"cells":[[0,0],[0,1],[1,1]]}}` + "\n",
		"garbage\n", "\xff\xfe\n", place + strings.Repeat("x", 70000) + "\n", place + `{"shoot":{"to":[0,1.5]}}` + "\n", "",
	} {
		f.Add([]byte(s), uint8(0))
		f.Add([]byte(s), uint8(3))
	}
	f.Fuzz(func(t *testing.T, in []byte, mode uint8) {
		cfg := DefaultConfig()
		cfg.Listeners[0].Game = GameAbilities
		fuzzSession(t, cfg, in, mode, func(t *testing.T, c net.Conn) {
			build := func(r *abilities.Rules, seat int) (abplayers.Player, error) {
				f, err := abplayers.New("ab-random", r, nil)
				if err != nil {
					return nil, err
				}
				return f(rand.New(rand.NewPCG(5, 0)), seat), nil
			}
			g, err := client.PlayAbilities(context.Background(), c, build, client.BattleshipPlayOptions{ReadTimeout: -1})
			if err != nil {
				t.Fatalf("honest client: %v", err)
			}
			if g.End != protocol.EndWin && !(g.End == protocol.EndLose && g.Shots[1] >= 20) {
				t.Fatalf("honest client: %v after %d cells fired at it", g.End, g.Shots[1])
			}
		})
	})
}

// teeConn is a connection that copies what it reads into got.
type teeConn struct {
	net.Conn
	got *strings.Builder
}

func (c teeConn) Read(b []byte) (int, error) {
	n, err := c.Conn.Read(b)
	c.got.Write(b[:n])
	return n, err
}

// TestAbilitiesSeries: an abilities listener with games > 1 plays a series
// on each pair of connections as the other games do ("roundK." greetings,
// the final end line's dot, the tally), and each round's greeting is
// followed by that game's hello, which names the client's seat in it; the
// client plays every game on the hello's rules and seat, and every game's
// replay verifies.
func TestAbilitiesSeries(t *testing.T) {
	checkLeaks(t)
	const games = 4
	cfg := abilitiesConfig(t, OpponentPair)
	cfg.Listeners[0].Games = games
	ts := startServer(t, cfg)
	var wg sync.WaitGroup
	var got [2]strings.Builder
	var res [2]client.Result
	var errs [2]error
	for i := range 2 {
		conn, err := net.Dial("tcp", ts.addr(0))
		require.NoError(t, err)
		wg.Go(func() {
			defer conn.Close()
			factory := func(r *abilities.Rules) (game.Factory[battleship.Placement, abilities.Action, abilities.Told], error) {
				f, err := abplayers.New("ab-random", r, nil)
				return abplayers.Adapt(f), err
			}
			rngFor := func(k int) *rand.Rand { return rand.New(rand.NewPCG(uint64(i), uint64(k))) }
			res[i], errs[i] = client.Play(context.Background(), teeConn{conn, &got[i]}, abilities.Name, abwire.NewClient(battleship.DefaultRules()), factory, rngFor,
				client.Options{ReadTimeout: 30 * time.Second})
		})
	}
	wg.Wait()
	var seats [2][]int // each connection's seat, round by round
	for i := range 2 {
		require.NoError(t, errs[i], "client %d", i)
		require.True(t, res[i].Series)
		require.Len(t, res[i].Games, games)
		require.NotNil(t, res[i].Tally, "the series' trailer")
		require.Equal(t, games, res[i].Tally.Win+res[i].Tally.Even+res[i].Tally.Lose)
		lines := strings.Split(got[i].String(), "\n")
		rounds := 0
		for k, l := range lines {
			if !strings.HasPrefix(l, "round") {
				continue
			}
			rounds++
			require.Equal(t, protocol.SeriesRound(rounds), l)
			h, err := abwire.DecodeHello([]byte(lines[k+1]))
			require.NoError(t, err, "round %d's greeting is followed by its hello", rounds)
			seats[i] = append(seats[i], h.Seat)
		}
		require.Equal(t, games, rounds)
	}
	for k := range games {
		require.Equal(t, 1, seats[0][k]+seats[1][k], "round %d: the two connections have the two seats: %v", k+1, seats)
	}
	rs := ts.waitResults(t, games)
	for k, r := range rs {
		require.Empty(t, r.Forfeits, r.Detail)
		require.Equal(t, k+1, r.Round)
		require.Equal(t, games, r.Rounds)
		verifyAbilitiesReplay(t, ts, r)
	}
}
