package server

import (
	"bufio"
	"context"
	"io"
	"math/rand/v2"
	"net"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/client"
	"github.com/kaisen-ai/kaisen/game/battleship"
	bsrecord "github.com/kaisen-ai/kaisen/game/battleship/record"
	bswire "github.com/kaisen-ai/kaisen/game/battleship/wire"
	bsplayers "github.com/kaisen-ai/kaisen/players/battleship"
	"github.com/kaisen-ai/kaisen/protocol"
	"github.com/kaisen-ai/kaisen/replay"
)

// bsValidFleet is a legal classic fleet ([row,col] cells).
const bsValidFleet = `{"ships":[[[0,0],[0,1],[0,2],[0,3]],[[2,0],[2,1],[2,2]],[[2,4],[2,5],[2,6]],` +
	`[[4,0],[4,1]],[[4,3],[4,4]],[[4,6],[4,7]],[[6,0]],[[6,2]],[[6,4]],[[6,6]]]}`

// bsTouchingFleet is bsValidFleet with its last ship moved to [3,8], where
// it touches ship 5 diagonally.
const bsTouchingFleet = `{"ships":[[[0,0],[0,1],[0,2],[0,3]],[[2,0],[2,1],[2,2]],[[2,4],[2,5],[2,6]],` +
	`[[4,0],[4,1]],[[4,3],[4,4]],[[4,6],[4,7]],[[6,0]],[[6,2]],[[6,4]],[[3,8]]]}`

func bsConfig(t *testing.T, opponent string) Config {
	cfg := testConfig(t)
	cfg.Listeners[0].Game = GameBattleship
	cfg.Listeners[0].Opponent = opponent
	cfg.Limits.ActionTimeout = 5 * time.Second
	return cfg
}

// bsClient plays one game with the bsplayers AI name on addr.
func bsClient(addr, name string, seed uint64) (client.BattleshipGame, error) {
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		return client.BattleshipGame{}, err
	}
	defer conn.Close()
	r := battleship.DefaultRules()
	f, err := bsplayers.New(name, r, nil)
	if err != nil {
		return client.BattleshipGame{}, err
	}
	return client.PlayBattleship(context.Background(), conn, f(rand.New(rand.NewPCG(seed, 1))), client.BattleshipPlayOptions{Rules: r, ReadTimeout: 20 * time.Second})
}

func TestBattleshipConfig(t *testing.T) {
	for _, tc := range []struct {
		name string
		l    ListenerConfig
		err  string
	}{
		{"pair", ListenerConfig{Game: GameBattleship, Opponent: OpponentPair}, ""},
		{"default house", ListenerConfig{Game: GameBattleship}, ""},
		{"house", ListenerConfig{Game: GameBattleship, Opponent: "gridbot"}, ""},
		{"submarine bot", ListenerConfig{Game: GameBattleship, Opponent: "random"}, `opponent "random"`},
		{"board", ListenerConfig{Game: GameBattleship, Width: 6}, "plays its own board"},
		{"series", ListenerConfig{Game: GameBattleship, Games: 3, First: FirstHalves}, ""},
		{"dialect", ListenerConfig{Game: GameBattleship, Dialect: "submarine-py"}, "one wire format"},
		{"unknown game", ListenerConfig{Game: "chess"}, `game "chess"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := DefaultConfig()
			tc.l.Address = "127.0.0.1:0"
			cfg.Listeners = []ListenerConfig{tc.l}
			err := cfg.Validate()
			if tc.err == "" {
				require.NoError(t, err)
				return
			}
			require.ErrorIs(t, err, ErrConfig)
			require.ErrorContains(t, err, tc.err)
		})
	}
}

func TestBattleshipDefaultHouse(t *testing.T) {
	require.Equal(t, DefaultBattleshipHouse, ListenerConfig{Game: GameBattleship}.WithDefaults().Opponent)
	require.Equal(t, OpponentPair, ListenerConfig{}.WithDefaults().Opponent, "submarine listeners pair by default")
}

func TestBattleshipTwoClients(t *testing.T) {
	checkLeaks(t)
	ts := startServer(t, bsConfig(t, OpponentPair))
	type out struct {
		g   client.BattleshipGame
		err error
	}
	ch := make(chan out, 2)
	for i, name := range []string{"gridbot", "bs-random"} {
		go func() {
			g, err := bsClient(ts.addr(0), name, uint64(10+i))
			ch <- out{g, err}
		}()
		if i == 0 { // the gridbot client is seat 0
			waitConns(t, ts, 1)
		}
	}
	var ends []protocol.End
	for range 2 {
		o := <-ch
		require.NoError(t, o.err)
		require.Empty(t, o.g.Errors)
		ends = append(ends, o.g.End)
	}
	require.ElementsMatch(t, []protocol.End{protocol.EndWin, protocol.EndLose}, ends)
	r := ts.waitResults(t, 1)[0]
	require.Equal(t, DialectBattleship, r.Dialect)
	require.Equal(t, OutcomeWin, r.Outcome)
	require.Equal(t, ReasonSunk, r.Reason)
	require.Empty(t, r.Forfeits)
	require.GreaterOrEqual(t, r.Actions, 20, "at least the 20 fleet cells were shot")
	rp := verifyBSReplay(t, ts, r)
	require.Empty(t, rp.Result.Forfeits)
	require.Regexp(t, `^remote 127\.0\.0\.1:\d+$`, rp.Header.Players[0].Name)
}

func TestBattleshipHouse(t *testing.T) {
	checkLeaks(t)
	ts := startServer(t, bsConfig(t, "bs-random"))
	g, err := bsClient(ts.addr(0), "gridbot", 3)
	require.NoError(t, err)
	require.True(t, g.First, "the client shoots first (first-connected)")
	require.Contains(t, []protocol.End{protocol.EndWin, protocol.EndLose}, g.End)
	r := ts.waitResults(t, 1)[0]
	require.Equal(t, Peer{Addr: "house", Name: "bs-random"}, r.Players[1])
	require.Equal(t, g.Shots[0]+g.Shots[1], r.Actions)
	wantWinner := 0
	if g.End == protocol.EndLose {
		wantWinner = 1
	}
	require.Equal(t, wantWinner, r.Winner)
	rp := verifyBSReplay(t, ts, r)
	require.Equal(t, "bs-random", rp.Header.Players[1].Name)
	require.Equal(t, g.Shots, rp.Result.Shots)
}

func TestBattleshipInvalidFleetForfeits(t *testing.T) {
	checkLeaks(t)
	ts := startServer(t, bsConfig(t, OpponentPair))
	bad, err := net.Dial("tcp", ts.addr(0))
	require.NoError(t, err)
	defer bad.Close()
	br := bufio.NewReader(bad)
	waitConns(t, ts, 1) // bad is seat 0
	done := make(chan error, 1)
	var good client.BattleshipGame
	go func() {
		var err error
		good, err = bsClient(ts.addr(0), "gridbot", 1)
		done <- err
	}()
	require.Equal(t, bswire.Greeting, readLine(t, br, bad))
	_, err = io.WriteString(bad, bsTouchingFleet+"\n")
	require.NoError(t, err)
	require.Equal(t, `{"error":"placement: ships 5 (G5-H5) and 9 (I4) touch at H5/I4"}`, readLine(t, br, bad))
	require.Equal(t, protocol.YouLose, readLine(t, br, bad))
	requireEOF(t, bad)
	require.NoError(t, <-done)
	require.Equal(t, protocol.EndWin, good.End)
	r := ts.waitResults(t, 1)[0]
	require.Equal(t, ReasonPlacement, r.Reason)
	require.Equal(t, []int{0}, r.Forfeits)
	require.Equal(t, 1, r.Winner)
	rp := verifyBSReplay(t, ts, r)
	require.Equal(t, []string{"0:placement"}, forfeitKinds(rp))
	require.Len(t, rp.Placements[0].Ships, 10, "the invalid fleet is recorded as sent")
	require.Equal(t, bsrecord.RC{3, 8}, rp.Placements[0].Ships[9][0])
}

// TestBattleshipForfeits drives a raw client against the house AI.
func TestBattleshipForfeits(t *testing.T) {
	for _, tc := range []struct {
		name   string
		place  string
		shot   string // "" = send nothing: a timeout
		lines  []string
		reason string
		kind   string // the replay's forfeit kind
	}{
		{"illegal shot", bsValidFleet, `{"shoot":{"to":[10,0]}}`, []string{
			`{"error":"illegal: battleship: illegal shot: off-board(-1) is off the board"}`,
			`{"result":{"shot":false},"outcome":false}`, protocol.YouLose}, ReasonIllegal, replay.ForfeitIllegal},
		{"float", bsValidFleet, `{"shoot":{"to":[1.5,0]}}`, []string{
			`{"error":"protocol: shot: protocol: wrong type: \"shoot.to\"[0] must be an integer, got 1.5: in line \"{\\\"shoot\\\":{\\\"to\\\":[1.5,0]}}\""}`,
			`{"outcome":false}`, protocol.YouLose}, ReasonProtocol, replay.ForfeitProtocol},
		{"garbage placement", `{"ships":[[[0,"a"]]]}`, "", []string{
			`{"error":"placement: protocol: wrong type: ship 0 cell 0[1] must be an integer, got \"a\""}`, protocol.YouLose}, ReasonProtocol, replay.ForfeitPlacement},
		{"timeout", bsValidFleet, "", []string{
			`{"error":"timeout: read shot: i/o timeout (no shot within 300ms)"}`, `{"outcome":false}`, protocol.YouLose}, ReasonTimeout, replay.ForfeitProtocol},
	} {
		t.Run(tc.name, func(t *testing.T) {
			checkLeaks(t)
			cfg := bsConfig(t, "gridbot")
			cfg.Limits.ActionTimeout = 300 * time.Millisecond
			ts := startServer(t, cfg)
			c, err := net.Dial("tcp", ts.addr(0))
			require.NoError(t, err)
			defer c.Close()
			br := bufio.NewReader(c)
			require.Equal(t, bswire.Greeting, readLine(t, br, c))
			_, err = io.WriteString(c, tc.place+"\n")
			require.NoError(t, err)
			if tc.place == bsValidFleet {
				require.Equal(t, protocol.YourTurn, readLine(t, br, c))
				if tc.shot != "" {
					_, err = io.WriteString(c, tc.shot+"\n")
					require.NoError(t, err)
				}
			}
			for _, want := range tc.lines {
				require.Equal(t, want, readLine(t, br, c))
			}
			requireEOF(t, c)
			r := ts.waitResults(t, 1)[0]
			require.Equal(t, tc.reason, r.Reason)
			require.Equal(t, []int{0}, r.Forfeits)
			require.Equal(t, 1, r.Winner)
			rp := verifyBSReplay(t, ts, r)
			require.Equal(t, []string{"0:" + tc.kind}, forfeitKinds(rp))
			if tc.place != bsValidFleet {
				require.Nil(t, rp.Placements[0].Ships, "nothing decodable was placed")
			}
		})
	}
}

// TestBattleshipHitShootsAgain checks the turn order on the wire: after a
// hit the shooter gets "your turn" again, after a miss the other side.
func TestBattleshipHitShootsAgain(t *testing.T) {
	checkLeaks(t)
	ts := startServer(t, bsConfig(t, OpponentPair))
	a, err := net.Dial("tcp", ts.addr(0))
	require.NoError(t, err)
	defer a.Close()
	ar := bufio.NewReader(a)
	waitConns(t, ts, 1) // a is seat 0
	b, err := net.Dial("tcp", ts.addr(0))
	require.NoError(t, err)
	defer b.Close()
	bbr := bufio.NewReader(b)
	require.Equal(t, bswire.Greeting, readLine(t, ar, a))
	require.Equal(t, bswire.Greeting, readLine(t, bbr, b))
	for _, c := range []net.Conn{a, b} {
		_, err := io.WriteString(c, bsValidFleet+"\n")
		require.NoError(t, err)
	}
	require.Equal(t, protocol.YourTurn, readLine(t, ar, a))
	require.Equal(t, protocol.Waiting, readLine(t, bbr, b))
	shoot := func(to string) {
		_, err := io.WriteString(a, `{"shoot":{"to":`+to+"}}\n")
		require.NoError(t, err)
	}
	both := func(want string) {
		require.Equal(t, want, readLine(t, ar, a))
		require.Equal(t, want, readLine(t, bbr, b))
	}
	shoot("[6,0]") // a one-cell ship: kill
	both(`{"result":{"shot":{"position":[6,0],"outcome":"kill","ship":[[6,0]]}}}`)
	require.Equal(t, protocol.YourTurn, readLine(t, ar, a))
	require.Equal(t, protocol.Waiting, readLine(t, bbr, b))
	shoot("[0,1]")
	both(`{"result":{"shot":{"position":[0,1],"outcome":"hit"}}}`)
	require.Equal(t, protocol.YourTurn, readLine(t, ar, a))
	require.Equal(t, protocol.Waiting, readLine(t, bbr, b))
	shoot("[9,9]")
	both(`{"result":{"shot":{"position":[9,9],"outcome":"miss"}}}`)
	require.Equal(t, protocol.Waiting, readLine(t, ar, a))
	require.Equal(t, protocol.YourTurn, readLine(t, bbr, b))
	a.Close() // a leaves while waiting: b wins
	require.Equal(t, `{"outcome":true}`, readLine(t, bbr, b))
	require.Equal(t, protocol.YouWin, readLine(t, bbr, b))
	r := ts.waitResults(t, 1)[0]
	require.Equal(t, ReasonDisconnect, r.Reason)
	require.Equal(t, 3, r.Actions)
	require.Equal(t, 1, r.Winner)
	rp := verifyBSReplay(t, ts, r)
	require.Equal(t, []string{"0:waiting"}, forfeitKinds(rp))
	require.Equal(t, []string{"kill", "hit", "miss"}, []string{rp.Shots[0].Outcome, rp.Shots[1].Outcome, rp.Shots[2].Outcome})
	require.Equal(t, []bsrecord.RC{{6, 0}}, rp.Shots[0].Sunk)
}
