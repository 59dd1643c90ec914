package web_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/game/battleship"
	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/game/submarine"
	subrecord "github.com/kaisen-ai/kaisen/game/submarine/record"
	"github.com/kaisen-ai/kaisen/internal/web"
	"github.com/kaisen-ai/kaisen/players"
	"github.com/kaisen-ai/kaisen/replay"
	"github.com/kaisen-ai/kaisen/server"
)

// playSubmarine plays a game between two AIs, telling hub what a server
// would, and returns its replay.
func playSubmarine(t *testing.T, hub *web.Hub, id string, r *submarine.Rules, p0, p1 string, seed uint64) []byte {
	t.Helper()
	var p [2]players.Player
	for s, name := range [2]string{p0, p1} {
		f, err := players.New(name, r, nil)
		require.NoError(t, err)
		p[s] = f(rand.New(rand.NewPCG(seed, uint64(s))))
	}
	place := [2]submarine.Placement{p[0].Place(), p[1].Place()}
	g, err := submarine.NewGame(r, place[0], place[1], 0)
	require.NoError(t, err)
	var buf bytes.Buffer
	w := subrecord.NewWriter(&buf, r, subrecord.Header{Version: "test", Seed: seed,
		Players: [2]replay.SeatInfo{{Seat: 0, Name: p0}, {Seat: 1, Name: p1}}})
	w.Placement(0, place[0])
	w.Placement(1, place[1])
	feed := server.NewFeed[submarine.Step](hub, id, submarine.NewPublicView(g), [2]server.Peer{{Addr: "house", Name: p0}, {Addr: "127.0.0.1:5", Name: ""}}, 0)
	var v submarine.View
	for s := range 2 {
		g.ViewInto(s, &v)
		p[s].Observe(submarine.Event{Kind: submarine.Invalid}, &v)
	}
	for g.Status() == game.Running {
		s := g.ToAct()
		st, err := g.Apply(p[s].Act())
		w.Step(g.Actions(), &st, err, nil)
		feed.Step(g.Actions(), &st, err)
		g.ViewInto(s, &v)
		p[s].Observe(st.Actor, &v)
		g.ViewInto(1-s, &v)
		p[1-s].Observe(st.Other, &v)
	}
	res := server.Result{Game: id, Outcome: server.OutcomeWin, Winner: g.Winner(), Actions: g.Actions(), Reason: "sunk", Replay: id + ".jsonl"}
	out := subrecord.Result{Outcome: replay.OutcomeWin, Winner: g.Winner(), Actions: g.Actions()}
	if g.Status() == game.Drawn {
		res.Outcome, res.Winner, res.Reason = server.OutcomeDraw, -1, "draw"
		out.Outcome, out.Winner = replay.OutcomeDraw, -1
	}
	w.Result(out)
	require.NoError(t, w.Flush())
	return append(buf.Bytes(), []byte("\n"+mustJSON(t, res))...)
}

func mustJSON(t *testing.T, v any) string {
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return string(b)
}

// stream reads a finished game's event stream: its info, moves and end.
func stream(t *testing.T, url string) (info web.Info, moves []web.Event, end web.End) {
	t.Helper()
	resp, err := http.Get(url)
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	require.Equal(t, "text/event-stream", resp.Header.Get("Content-Type"))
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(nil, 1<<20)
	kind := ""
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "event: "):
			kind = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: "):
			data := []byte(strings.TrimPrefix(line, "data: "))
			switch kind {
			case "info":
				require.NoError(t, json.Unmarshal(data, &info))
			case "move":
				var e web.Event
				require.NoError(t, json.Unmarshal(data, &e))
				moves = append(moves, e)
			case "end":
				require.NoError(t, json.Unmarshal(data, &end))
			}
		}
	}
	require.NoError(t, sc.Err())
	return info, moves, end
}

// TestSubmarineIsPublic plays games through the hub and checks its stream
// against the replay of the same game: one move per action with the
// replay's hp, what each side can know of the other computed from the
// public record equal to the HTML replay's (computed from everything each
// side was told), and no destination of a move anywhere.
func TestSubmarineIsPublic(t *testing.T) {
	rocky := &submarine.Rules{Board: grid.MustBoard(6, 5, []grid.Cell{0, 5, 15, 24, 29}), Fleet: submarine.DefaultFleet(), DrawLimit: 300}
	for _, tt := range []struct {
		name   string
		rules  *submarine.Rules
		p0, p1 string
	}{{"5x5", submarine.DefaultRules(), "stateplayer2", "random"}, {"rocks", rocky, "hirota", "simple"}} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			hub := web.NewHub(dir)
			raw := playSubmarine(t, hub, "g1", tt.rules, tt.p0, tt.p1, 3)
			cut := bytes.LastIndexByte(raw, '\n')
			require.NoError(t, os.WriteFile(filepath.Join(dir, "g1.jsonl"), raw[:cut], 0o644))
			var res server.Result
			require.NoError(t, json.Unmarshal(raw[cut+1:], &res))
			hub.Finished(res)

			srv := httptest.NewServer(hub.Handler())
			defer srv.Close()
			info, moves, end := stream(t, srv.URL+"/games/g1/events")
			require.Equal(t, [2]string{tt.p0 + " (house AI)", "127.0.0.1:5"}, info.Players)
			require.Equal(t, tt.rules.Board.Width(), info.W)
			require.Equal(t, "/games/g1/replay", end.Replay)

			rp, err := subrecord.Read(bytes.NewReader(raw[:cut]))
			require.NoError(t, err)
			d, err := subrecord.HTML(rp)
			require.NoError(t, err)
			require.Len(t, moves, len(rp.Steps))
			cell := regexp.MustCompile(`\[\d+,\d+\]`)
			for i, m := range moves {
				f := d.Frames[i+1]
				require.Equal(t, f.Seat, m.Seat)
				for s := range 2 {
					for k, hp := range f.Boards[s].HP {
						require.Equal(t, hp[1], m.HP[s][k], "move %d seat %d ship %d", m.N, s, k)
					}
					require.Equal(t, f.Boards[s].Known, m.Known[s], "move %d: what seat %d's opponent can know", m.N, 1-s)
				}
				if rp.Steps[i].Action.Kind == "move" {
					require.Equal(t, -1, m.At)
					require.False(t, cell.MatchString(m.Text), "a move's cells are secret: %q", m.Text)
				}
			}
			page, err := http.Get(srv.URL + "/games/g1/replay")
			require.NoError(t, err)
			body, _ := io.ReadAll(page.Body)
			page.Body.Close()
			require.Equal(t, http.StatusOK, page.StatusCode)
			require.Contains(t, string(body), "const DATA = ")
		})
	}
}

func TestBattleship(t *testing.T) {
	hub := web.NewHub("")
	feed := bsFeed(t, hub, "b1", [2]server.Peer{{Addr: "house", Name: "gridbot"}, {Addr: "house", Name: "density"}})
	st := battleship.Step{Seat: 0, At: 12, Defender: battleship.Event{Result: battleship.Result{At: 12, Outcome: battleship.Kill, Sunk: battleship.Ship{12}}}}
	feed.Step(1, &st, nil)
	st = battleship.Step{Seat: 0, At: 30, Defender: battleship.Event{Result: battleship.Result{At: 30, Outcome: battleship.Miss}}}
	feed.Step(2, &st, nil)
	hub.Finished(server.Result{Game: "b1", Outcome: server.OutcomeWin, Winner: 0, Actions: 2, Reason: "sunk"})
	srv := httptest.NewServer(hub.Handler())
	defer srv.Close()
	info, moves, end := stream(t, srv.URL+"/games/b1/events")
	require.Equal(t, "battleship", info.Game)
	require.Equal(t, []int{20}, info.HP)
	require.Len(t, moves, 2)
	require.Equal(t, "#1 seat 0 gridbot (house AI) shoots C2: kill", moves[0].Text)
	require.Equal(t, []int{12}, moves[0].Sunk)
	require.Equal(t, [2][]int{{20}, {19}}, moves[1].HP)
	require.Equal(t, "seat 0 gridbot (house AI) wins after 2 moves (sunk)", end.Result)
	require.Empty(t, end.Replay, "no replay directory")
}

func TestHandler(t *testing.T) {
	hub := web.NewHub("")
	g, err := submarine.NewGame(submarine.DefaultRules(), submarine.Placement{0, 6, 12}, submarine.Placement{24, 18, 4}, 0)
	require.NoError(t, err)
	server.NewFeed[submarine.Step](hub, "run1", submarine.NewPublicView(g), [2]server.Peer{{Addr: "1.2.3.4:5"}, {Addr: "house", Name: "admiral"}}, 0)
	hub.Finished(server.Result{Game: "never", Players: [2]server.Peer{{Addr: "a"}, {Addr: "b"}}, Outcome: "aborted", Winner: -1, Reason: "handshake"})
	srv := httptest.NewServer(hub.Handler())
	defer srv.Close()
	get := func(path string) (int, string) {
		resp, err := http.Get(srv.URL + path)
		require.NoError(t, err)
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	code, body := get("/")
	require.Equal(t, http.StatusOK, code)
	require.Contains(t, body, `<a href="/games/run1">run1</a>`)
	require.Contains(t, body, "running, 0 moves")
	require.Contains(t, body, "aborted after 0 moves (handshake)")
	code, body = get("/games/run1")
	require.Equal(t, http.StatusOK, code)
	require.Contains(t, body, `const id = "run1";`)
	for _, path := range []string{"/games/nope", "/games/nope/events", "/games/run1/replay", "/games/never/replay", "/other"} {
		code, _ = get(path)
		require.Equal(t, http.StatusNotFound, code, path)
	}
	resp, err := http.Post(srv.URL+"/", "text/plain", strings.NewReader("x"))
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, http.StatusMethodNotAllowed, resp.StatusCode, "read-only")
}

func TestKeepsMaxFinished(t *testing.T) {
	hub := web.NewHub("")
	for i := range web.MaxFinished + 3 {
		hub.Finished(server.Result{Game: "g" + strconv.Itoa(i), Outcome: server.OutcomeDraw, Winner: -1})
	}
	srv := httptest.NewServer(hub.Handler())
	defer srv.Close()
	resp, err := http.Get(srv.URL + "/")
	require.NoError(t, err)
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	require.Contains(t, string(b), fmt.Sprintf("Finished (%d, the last %d listed)", web.MaxFinished, web.ListFinished))
	last := web.MaxFinished + 2
	require.Contains(t, string(b), `href="/games/g`+strconv.Itoa(last)+`"`)
	require.Contains(t, string(b), `href="/games/g`+strconv.Itoa(last-web.ListFinished+1)+`"`)
	require.NotContains(t, string(b), `href="/games/g`+strconv.Itoa(last-web.ListFinished)+`"`, "only the newest are listed")
	for _, tt := range []struct {
		id   string
		want int
	}{{"g2", http.StatusNotFound}, {"g3", http.StatusOK}} { // the oldest are forgotten, the others kept
		resp, err := http.Get(srv.URL + "/games/" + tt.id + "/events")
		require.NoError(t, err)
		resp.Body.Close()
		require.Equal(t, tt.want, resp.StatusCode, tt.id)
	}
}
