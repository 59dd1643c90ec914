package client_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/client"
	"github.com/kaisen-ai/kaisen/game/submarine"
	subwire "github.com/kaisen-ai/kaisen/game/submarine/wire"
	"github.com/kaisen-ai/kaisen/players"
	"github.com/kaisen-ai/kaisen/protocol"
	"github.com/kaisen-ai/kaisen/protocol/transcript"
)

// The golden transcripts of the codecs' tests.
const (
	goldenDir       = "../game/submarine/wire/testdata"
	abilitiesGolden = "../game/abilities/wire/testdata/abilities-game.txt"
)

// observation is one Observe call.
type observation struct {
	Ev   submarine.Event
	View submarine.View
}

// scriptedPlayer places and acts as a script says and records what it is told.
type scriptedPlayer struct {
	place submarine.Placement
	acts  []submarine.Action
	next  int
	seen  []observation
}

func (p *scriptedPlayer) Place() submarine.Placement { return p.place }

func (p *scriptedPlayer) Act() submarine.Action {
	if p.next >= len(p.acts) {
		return submarine.Action{Kind: submarine.Invalid} // the script ran out: lose
	}
	a := p.acts[p.next]
	p.next++
	return a
}

func (p *scriptedPlayer) Observe(ev submarine.Event, v *submarine.View) {
	p.seen = append(p.seen, observation{Ev: ev, View: *v})
}

// gameScript is one game of a golden transcript as both sides played it.
type gameScript struct {
	name   [3]string
	place  [3]string
	acts   [3][]string
	expect [3][]observation // what the engine tells each side
	end    [3]string
}

// loadGolden parses a golden transcript into its games and replays each
// through submarine.Game to know what every player must be told.
func loadGolden(t *testing.T, path string) (*transcript.Transcript, *submarine.Rules, []*gameScript) {
	t.Helper()
	tr, err := transcript.Load(path)
	require.NoError(t, err)
	d, err := protocol.ParseDialect(tr.Get("dialect"))
	require.NoError(t, err)
	rules := submarine.DefaultRules()
	if s := tr.Get("draw-limit"); s != "" {
		rules.DrawLimit, err = strconv.Atoi(s)
		require.NoError(t, err)
	}
	var games []*gameScript
	var g *gameScript
	var game *submarine.Game
	var place [2]submarine.Placement
	for _, l := range tr.Lines {
		p := l.Player
		if l.Dir == transcript.ToClient {
			if _, _, err := protocol.ParseGreeting([]byte(l.Text)); err == nil {
				if p == 1 {
					g, game = &gameScript{}, nil
					games = append(games, g)
				}
				continue
			}
			if b, err := subwire.DecodeField([]byte(l.Text)); err == nil {
				rules = &submarine.Rules{Board: b, Fleet: rules.Fleet, DrawLimit: rules.DrawLimit}
				continue
			}
			if e, _ := protocol.ParseEnd([]byte(l.Text)); e != protocol.NotEnd {
				g.end[p] = l.Text
			}
			if l.Text == protocol.YourTurn && game == nil {
				game, err = submarine.NewGame(rules, place[0], place[1], p-1)
				require.NoError(t, err)
			}
			continue
		}
		switch {
		case d == protocol.SubmarinePy && g.name[p] == "":
			g.name[p] = l.Text
		case g.place[p] == "":
			g.place[p] = l.Text
			place[p-1], _, err = subwire.DecodePlacement([]byte(l.Text), rules)
			require.NoError(t, err)
		default:
			g.acts[p] = append(g.acts[p], l.Text)
			a, err := subwire.DecodeAction([]byte(l.Text), rules)
			require.NoError(t, err)
			st, _ := game.Apply(a)
			v0, v1 := game.View(0), game.View(1)
			seat := p - 1
			g.expect[seat+1] = append(g.expect[seat+1], observation{Ev: st.Actor, View: []submarine.View{v0, v1}[seat]})
			g.expect[2-seat] = append(g.expect[2-seat], observation{Ev: st.Other, View: []submarine.View{v0, v1}[1-seat]})
		}
	}
	return tr, rules, games
}

// playback serves one side of a transcript on conn: it sends the side's S>C
// lines and checks that the client sends the side's C>S lines, then closes.
func playback(conn net.Conn, side []transcript.Line, rules *submarine.Rules) error {
	defer conn.Close()
	lr := protocol.NewLineReader(conn, 0)
	for i, l := range side {
		if l.Dir == transcript.ToClient {
			if _, err := io.WriteString(conn, l.Text+"\n"); err != nil {
				return fmt.Errorf("line %d: write %q: %w", i, l.Text, err)
			}
			continue
		}
		got, err := lr.ReadLine()
		if err != nil {
			return fmt.Errorf("line %d: want %q, read error %w", i, l.Text, err)
		}
		if string(got) == l.Text {
			continue
		}
		// Actions that the engine cannot represent (an unknown ship, a cell
		// off the board) come back in canonical form.
		wa, err1 := subwire.DecodeAction([]byte(l.Text), rules)
		ga, err2 := subwire.DecodeAction(got, rules)
		if err1 != nil || err2 != nil || wa != ga {
			return fmt.Errorf("line %d: client sent %q, want %q", i, got, l.Text)
		}
	}
	return nil
}

// scriptFactory returns a PlayerFor whose k-th player plays side p of games[k].
func scriptFactory(t *testing.T, games []*gameScript, p int, made *[]*scriptedPlayer) client.SubmarinePlayerFor {
	return func(rules *submarine.Rules) (players.Factory, error) {
		return func(*rand.Rand) players.Player {
			g := games[len(*made)]
			place, _, err := subwire.DecodePlacement([]byte(g.place[p]), rules)
			require.NoError(t, err)
			sp := &scriptedPlayer{place: place}
			for _, s := range g.acts[p] {
				a, err := subwire.DecodeAction([]byte(s), rules)
				require.NoError(t, err)
				sp.acts = append(sp.acts, a)
			}
			*made = append(*made, sp)
			return sp
		}, nil
	}
}

func seeded(game int) *rand.Rand { return rand.New(rand.NewPCG(1, uint64(game))) }

// TestPlayGoldenTranscripts plays each side of every golden transcript
// (classic, series, submarine-py, illegal actions, draw) against a fake
// server that sends the transcript's server lines and checks the client's.
func TestPlayGoldenTranscripts(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join(goldenDir, "*.golden"))
	require.NoError(t, err)
	require.GreaterOrEqual(t, len(paths), 10)
	for _, path := range paths {
		for p := 1; p <= 2; p++ {
			t.Run(fmt.Sprintf("%s/P%d", strings.TrimSuffix(filepath.Base(path), ".golden"), p), func(t *testing.T) {
				tr, rules, games := loadGolden(t, path)
				cc, sc := net.Pipe()
				done := make(chan error, 1)
				go func() { done <- playback(sc, tr.Side(p), rules) }()

				var made []*scriptedPlayer
				opts := client.SubmarinePlayOptions{Name: games[0].name[p], ReadTimeout: 10 * time.Second}
				var onGame []client.SubmarineGame
				opts.OnGame = func(g client.SubmarineGame) { onGame = append(onGame, g) }
				res, err := client.PlaySubmarine(context.Background(), cc, scriptFactory(t, games, p, &made), seeded, opts)
				require.NoError(t, err)
				require.NoError(t, <-done)
				cc.Close()

				require.Equal(t, tr.Get("dialect"), res.Dialect.String())
				require.Len(t, res.Games, len(games))
				require.Equal(t, res.Games, onGame)
				require.Len(t, made, len(games))
				for k, g := range games {
					pg := res.Games[k]
					require.Equal(t, k, pg.Game)
					require.Equal(t, g.end[p], pg.Line)
					require.Equal(t, len(g.expect[p]), pg.Actions)
					require.Equal(t, g.expect[p], made[k].seen, "game %d: what the player was told", k+1)
				}
				if rounds := tr.Get("rounds"); rounds != "" {
					require.True(t, res.Series)
					require.Equal(t, rounds, strconv.Itoa(len(res.Games)))
					require.Equal(t, 1, res.Games[0].Round)
					require.True(t, res.Games[len(res.Games)-1].Last)
					require.NotNil(t, res.Tally)
					trailer := tr.Texts(p, transcript.ToClient)
					require.Equal(t, protocol.SeriesTrailer(*res.Tally), trailer[len(trailer)-5:])
				} else {
					require.False(t, res.Series)
					require.Nil(t, res.Tally)
				}
			})
		}
	}
}

// TestPlaySeriesTally checks the series bookkeeping: rounds, who moved
// first, end lines and the tally.
func TestPlaySeriesTally(t *testing.T) {
	tr, rules, games := loadGolden(t, filepath.Join(goldenDir, "classic-series.golden"))
	cc, sc := net.Pipe()
	done := make(chan error, 1)
	go func() { done <- playback(sc, tr.Side(2), rules) }()
	var made []*scriptedPlayer
	res, err := client.PlaySubmarine(context.Background(), cc, scriptFactory(t, games, 2, &made), seeded, client.SubmarinePlayOptions{})
	require.NoError(t, err)
	require.NoError(t, <-done)
	require.Equal(t, []client.SubmarineGame{
		{Game: 0, Round: 1, End: protocol.EndLose, Line: "you lose", First: false, Actions: 17},
		{Game: 1, Round: 2, End: protocol.EndWin, Line: "you win.", Last: true, First: true, Actions: 6},
	}, res.Games)
	require.Equal(t, &protocol.Tally{Win: 1, Even: 0, Lose: 1}, res.Tally)
}

// fakeServer runs script against the client end of a pipe: "> line" is sent
// to the client, "< line" must be received from it ("< *" accepts any line).
func fakeServer(conn net.Conn, script []string) error {
	defer conn.Close()
	lr := protocol.NewLineReader(conn, 0)
	for _, s := range script {
		if text, ok := strings.CutPrefix(s, "> "); ok {
			if _, err := io.WriteString(conn, text); err != nil {
				return err
			}
			continue
		}
		want := strings.TrimPrefix(s, "< ")
		got, err := lr.ReadLine()
		if err != nil {
			return fmt.Errorf("want %q: %w", want, err)
		}
		if want != "*" && string(got) != want {
			return fmt.Errorf("client sent %q, want %q", got, want)
		}
	}
	return nil
}

func randomPlayer(rules *submarine.Rules) (players.Factory, error) {
	return players.New("random", rules, nil)
}

const (
	greet = "> you are connected. please send me initial state.\n"
	cond  = `{"condition":{"me":{"w":{"hp":3,"position":[0,0]},"c":{"hp":2,"position":[2,0]},"s":{"hp":1,"position":[4,0]}},"enemy":{"w":{"hp":3},"c":{"hp":2},"s":{"hp":1}}}}`
)

// TestPlayProtocolErrors: a server that sends garbage makes Play fail with a
// *protocol.ProtocolError quoting the line.
func TestPlayProtocolErrors(t *testing.T) {
	long := strings.Repeat("x", 300)
	for _, tc := range []struct {
		name   string
		script []string
		quote  string
		want   error
	}{
		{"bad greeting", []string{"> hello there\n"}, "hello there", protocol.ErrUnexpected},
		{"garbage instead of your turn", []string{greet, "< *", "> garbage\n"}, "garbage", protocol.ErrUnexpected},
		{"not json after waiting", []string{greet, "< *", "> waiting\n", "> hello\n"}, "hello", protocol.ErrSyntax},
		{"float in result", []string{greet, "< *", "> waiting\n", `> {"result":{"attacked":{"position":[0,1.5],"near":[]}},` + cond[1:] + "\n"}, `{"result":{"attacked":{"position":[0,1.5]`, protocol.ErrType},
		{"unknown ship", []string{greet, "< *", "> waiting\n", `> {"result":{"moved":{"ship":"q","distance":[0,1]}},` + cond[1:] + "\n"}, `"ship":"q"`, protocol.ErrUnknownShip},
		{"attack answered without result", []string{greet, "< *", "> your turn\n", "< *", "> " + cond + "\n"}, cond[:protocol.MaxQuote], protocol.ErrUnexpected},
		{"too long", []string{greet, "< *", "> " + long + "\n"}, long[:protocol.MaxQuote], protocol.ErrLineTooLong},
		{"bad field", []string{"> This is a submarine_py server.  Tell me your name.\n", "< kaisen", "> {\"height\": 5.5, \"width\": 5}\n"}, `{"height": 5.5`, protocol.ErrType},
		{"bad trailer", []string{"> round1. please send me initial state.\n", "< *", "> you win.\n", "> \n", "> ###\n", "> win 1\n", "> even 0\n", "> lose 0\n"}, "###", protocol.ErrUnexpected},
		{"bad next round", []string{"> round1. please send me initial state.\n", "< *", "> you win\n", "> round2 please\n"}, "round2 please", protocol.ErrUnexpected},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cc, sc := net.Pipe()
			done := make(chan error, 1)
			go func() { done <- fakeServer(sc, tc.script) }()
			build := randomPlayer
			if tc.name == "attack answered without result" {
				build = func(r *submarine.Rules) (players.Factory, error) {
					return func(*rand.Rand) players.Player {
						return &scriptedPlayer{place: submarine.Placement{0, 2, 4}, acts: []submarine.Action{submarine.AttackAt(1)}}
					}, nil
				}
			}
			_, err := client.PlaySubmarine(context.Background(), cc, build, seeded, client.SubmarinePlayOptions{MaxLine: 250})
			cc.Close()
			require.Error(t, err)
			var pe *protocol.ProtocolError
			require.ErrorAs(t, err, &pe, "%v", err)
			require.Contains(t, pe.Line, tc.quote)
			require.ErrorIs(t, err, tc.want)
			require.Contains(t, err.Error(), "in line ")
			<-done
		})
	}
}

// TestPlayTolerance: \r\n line ends, Python spacing in classic result lines,
// unknown keys and a bare end line after "waiting" are all accepted.
func TestPlayTolerance(t *testing.T) {
	cc, sc := net.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- fakeServer(sc, []string{
			"> you are connected. please send me initial state.\r\n",
			"< *",
			"> waiting\r\n",
			`> {"result": {"moved": {"ship": "w", "distance": [0, 1]}}, "turn": 1, "condition": {"me": {"w": {"hp": 3, "position": [0, 0]}, "c": {"hp": 2, "position": [2, 0]}, "s": {"hp": 1, "position": [4, 0]}}, "enemy": {"w": {"hp": 3}, "c": {"hp": 2}, "s": {"hp": 1}}}}` + "\r\n",
			"> waiting\r\n",
			"> you win\r\n",
		})
	}()
	build := func(r *submarine.Rules) (players.Factory, error) {
		return func(*rand.Rand) players.Player { return &scriptedPlayer{place: submarine.Placement{0, 2, 4}} }, nil
	}
	res, err := client.PlaySubmarine(context.Background(), cc, build, seeded, client.SubmarinePlayOptions{})
	require.NoError(t, err)
	require.NoError(t, <-done)
	require.Equal(t, []client.SubmarineGame{{End: protocol.EndWin, Line: "you win", Actions: 1}}, res.Games)
}

func TestPlayUnfinished(t *testing.T) {
	cc, sc := net.Pipe()
	go func() { _ = fakeServer(sc, []string{greet, "< *", "> waiting\n"}) }()
	res, err := client.PlaySubmarine(context.Background(), cc, randomPlayer, seeded, client.SubmarinePlayOptions{})
	require.ErrorIs(t, err, client.ErrUnfinished)
	require.ErrorIs(t, err, io.ErrUnexpectedEOF)
	require.Empty(t, res.Games)
}

// TestPlayCancel: cancelling the context closes the connection and returns.
func TestPlayCancel(t *testing.T) {
	cc, sc := net.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	serverDone := make(chan error, 1)
	go func() {
		lr := protocol.NewLineReader(sc, 0)
		_, _ = io.WriteString(sc, protocol.Classic.Greeting()+"\n")
		if _, err := lr.ReadLine(); err != nil { // the placement
			serverDone <- err
			return
		}
		cancel() // and stay silent
		_, err := lr.ReadLine()
		serverDone <- err
	}()
	_, err := client.PlaySubmarine(ctx, cc, randomPlayer, seeded, client.SubmarinePlayOptions{ReadTimeout: -1})
	require.ErrorIs(t, err, context.Canceled)
	require.ErrorIs(t, <-serverDone, io.EOF, "the client closed the connection")
}

// TestPlayReadTimeout: a silent server times the client out.
func TestPlayReadTimeout(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cc, sc := net.Pipe()
		defer sc.Close()
		var wg sync.WaitGroup
		wg.Go(func() {
			_, _ = io.WriteString(sc, protocol.Classic.Greeting()+"\n")
			_, _ = protocol.NewLineReader(sc, 0).ReadLine()
		})
		start := time.Now()
		_, err := client.PlaySubmarine(context.Background(), cc, randomPlayer, seeded, client.SubmarinePlayOptions{ReadTimeout: 3 * time.Second})
		require.ErrorIs(t, err, os.ErrDeadlineExceeded)
		require.Equal(t, 3*time.Second, time.Since(start))
		wg.Wait()
		cc.Close()
	})
}

func TestPlayRejectsBadName(t *testing.T) {
	cc, sc := net.Pipe()
	defer sc.Close()
	_, err := client.PlaySubmarine(context.Background(), cc, randomPlayer, seeded, client.SubmarinePlayOptions{Name: "a\nb"})
	require.ErrorContains(t, err, "line break")
}

// TestPlayBuildError: a player that cannot be built for the server's board
// stops Play with the builder's error.
func TestPlayBuildError(t *testing.T) {
	cc, sc := net.Pipe()
	go func() {
		_ = fakeServer(sc, []string{"> This is a submarine_py server.  Tell me your name.\n", "< bot", "> {\"height\": 4, \"width\": 4, \"rock\": []}\n"})
	}()
	boom := errors.New("no 4x4 boards")
	_, err := client.PlaySubmarine(context.Background(), cc, func(*submarine.Rules) (players.Factory, error) { return nil, boom }, seeded, client.SubmarinePlayOptions{Name: "bot"})
	require.ErrorIs(t, err, boom)
	cc.Close()
}

// TestPlayOpponentForfeitsWhileWeThink: the server answers our action with the
// outcome alone (the opponent dropped out after our "your turn"); the client
// must accept it, observe nothing, and report the win.
func TestPlayOpponentForfeitsWhileWeThink(t *testing.T) {
	for _, act := range []submarine.Action{submarine.AttackAt(1), submarine.MoveTo(0, 5)} {
		t.Run(act.Kind.String(), func(t *testing.T) {
			cc, sc := net.Pipe()
			done := make(chan error, 1)
			go func() {
				done <- fakeServer(sc, []string{
					"> you are connected. please send me initial state.\n",
					"< *",
					"> your turn\n",
					"< *",
					`> {"outcome":true,"condition":{"me":{"w":{"hp":3,"position":[0,0]},"c":{"hp":2,"position":[2,0]},"s":{"hp":1,"position":[4,0]}},"enemy":{"w":{"hp":3},"c":{"hp":2},"s":{"hp":1}}}}` + "\n",
					"> you win\n",
				})
			}()
			p := &scriptedPlayer{place: submarine.Placement{0, 2, 4}, acts: []submarine.Action{act}}
			build := func(*submarine.Rules) (players.Factory, error) {
				return func(*rand.Rand) players.Player { return p }, nil
			}
			res, err := client.PlaySubmarine(context.Background(), cc, build, seeded, client.SubmarinePlayOptions{})
			require.NoError(t, err)
			require.NoError(t, <-done)
			require.Len(t, res.Games, 1)
			require.Equal(t, protocol.EndWin, res.Games[0].End)
			require.Empty(t, p.seen, "an action the server never applied is not observed")
		})
	}
}
