package web_test

import (
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/game/abilities"
	"github.com/kaisen-ai/kaisen/game/battleship"
	"github.com/kaisen-ai/kaisen/internal/browsertest"
	"github.com/kaisen-ai/kaisen/internal/web"
	abplayers "github.com/kaisen-ai/kaisen/players/abilities"
	bsplayers "github.com/kaisen-ai/kaisen/players/battleship"
	"github.com/kaisen-ai/kaisen/server"
)

// fixedFleet is a valid placement of the default Battleship fleet.
var fixedFleet = battleship.Placement{{0, 1, 2, 3}, {5, 6, 7}, {20, 21, 22}, {24, 25}, {27, 28}, {40, 41}, {43}, {45}, {47}, {49}}

// bsFeed starts Battleship game id on hub (both seats with fixedFleet).
func bsFeed(t *testing.T, hub *web.Hub, id string, peers [2]server.Peer) *server.Feed[battleship.Step] {
	t.Helper()
	g, err := battleship.NewGame(battleship.DefaultRules(), fixedFleet, fixedFleet, 0)
	require.NoError(t, err)
	return server.NewFeed[battleship.Step](hub, id, battleship.NewPublicView(g), peers, 0)
}

// expected is one move a spectator may see, as the test works it out from
// the step: the seat whose shots they are and the cells.
type expected struct {
	seat  int
	move  bool
	shots []web.Shot
}

// playBattleship plays a game between two AIs, telling hub what a server
// would, and returns every shot as the defender was told it.
func playBattleship(t *testing.T, hub *web.Hub, id string, p0, p1 string, seed uint64) []expected {
	t.Helper()
	r := battleship.DefaultRules()
	var p [2]bsplayers.Player
	for s, name := range [2]string{p0, p1} {
		f, err := bsplayers.New(name, r, nil)
		require.NoError(t, err)
		p[s] = f(rand.New(rand.NewPCG(seed, uint64(s))))
	}
	g, err := battleship.NewGame(r, p[0].Place(), p[1].Place(), 0)
	require.NoError(t, err)
	feed := server.NewFeed[battleship.Step](hub, id, battleship.NewPublicView(g), [2]server.Peer{{Addr: "house", Name: p0}, {Addr: "house", Name: p1}}, 0)
	var out []expected
	for g.Status() == game.Running {
		s := g.ToAct()
		st, err := g.Apply(p[s].Shoot())
		require.NoError(t, err)
		feed.Step(g.Shots(0)+g.Shots(1), &st, nil)
		d := st.Defender
		out = append(out, expected{seat: s, shots: []web.Shot{{At: int(st.At), Hit: d.Outcome != battleship.Miss && !d.Repeat}}})
		p[s].Observe(st.Shooter)
		p[1-s].Observe(st.Defender)
	}
	hub.Finished(server.Result{Game: id, Outcome: server.OutcomeWin, Winner: g.Winner(), Actions: g.Shots(0) + g.Shots(1), Reason: "sunk"})
	return out
}

// abGame is what playAbilities saw of a game: the moves a spectator may
// see, and how many hidden moves and false misses there were.
type abGame struct {
	public      []expected
	hiddenMoves int
	falseMisses int
}

// playAbilities plays a game between two AIs, telling hub what a server
// would; the test's own reading of what is public is that both seats are
// told it: a move as its enemy is told it, a volley as its shooter is.
func playAbilities(t *testing.T, hub *web.Hub, id string, r *abilities.Rules, name string, seed uint64) abGame {
	t.Helper()
	f, err := abplayers.New(name, r, nil)
	require.NoError(t, err)
	var p [2]abplayers.Player
	var place [2]battleship.Placement
	for s := range 2 {
		p[s] = f(rand.New(rand.NewPCG(seed, uint64(s))), s)
		place[s] = p[s].Place()
	}
	g, err := abilities.NewGame(r, place[0], place[1], 0)
	require.NoError(t, err)
	feed := server.NewFeed[abilities.Step](hub, id, abilities.NewPublicView(g), [2]server.Peer{{Addr: "house", Name: name}, {Addr: "house", Name: name}}, 0)
	var out abGame
	n := 0
	for g.Status() == game.Running {
		s := g.ToAct()
		st, err := g.Apply(p[s].Act(g.Pending()))
		require.NoError(t, err)
		n++
		feed.Step(n, &st, nil)
		for _, v := range st.Views {
			for _, c := range v.Cells {
				if c.FalseMiss {
					out.falseMisses++
				}
			}
		}
		att := st.Views[0].Attacker
		switch {
		case st.Action.Kind == abilities.Move && st.Views[1-s].Silent:
			out.hiddenMoves++
		case st.Action.Kind == abilities.Move:
			out.public = append(out.public, expected{seat: s, move: true})
		case !st.Views[att].Silent:
			e := expected{seat: att}
			for _, c := range st.Views[att].Cells {
				e.shots = append(e.shots, web.Shot{At: int(c.At), Hit: !c.AirDefence && c.Outcome != battleship.Miss, Blocked: c.AirDefence})
			}
			out.public = append(out.public, e)
		}
		for v := range 2 {
			if !st.Views[v].Silent {
				p[v].Observe(st.Views[v])
			}
		}
	}
	hub.Finished(server.Result{Game: id, Outcome: server.OutcomeWin, Winner: g.Winner(), Actions: n, Reason: "sunk"})
	return out
}

// shotsOf is the cells a streamed move fired at.
func shotsOf(m web.Event) []web.Shot {
	if m.At >= 0 {
		return []web.Shot{{At: m.At, Hit: m.Hit}}
	}
	return m.Shots
}

// checkPublic checks the moves of a stream against what the test expects
// to be public, and that nothing names a fleet.
func checkPublic(t *testing.T, raw string, info web.Info, moves []web.Event, want []expected) {
	t.Helper()
	require.NotContains(t, raw, `"fleet"`, "a fleet in the stream")
	require.Equal(t, [2][]int{}, info.Fleet)
	require.Len(t, moves, len(want))
	afloat := [2]int{info.HP[0], info.HP[0]}
	for i, m := range moves {
		w := want[i]
		require.Equal(t, w.seat, m.Seat, "move %d", i+1)
		require.Equal(t, w.shots, shotsOf(m), "move %d: %s", i+1, m.Text)
		if w.move {
			require.Equal(t, -1, m.At)
			require.Equal(t, fmt.Sprintf("#%d seat %d %s moves a 1-deck", m.N, m.Seat, info.Players[m.Seat]), m.Text, "a move's cells are secret")
		}
		for _, s := range w.shots {
			if s.Hit {
				afloat[1-m.Seat]--
			}
		}
		require.Equal(t, [2][]int{{afloat[0]}, {afloat[1]}}, m.HP, "move %d", i+1)
	}
}

// TestBattleshipLive plays Battleship games through the hub: one move per
// shot, the shot's cell and answer, the cells afloat.
func TestBattleshipLive(t *testing.T) {
	hub := web.NewHub("")
	want := playBattleship(t, hub, "b1", "gridbot", "density", 4)
	srv := httptest.NewServer(hub.Handler())
	defer srv.Close()
	raw := get(t, srv.URL+"/games/b1/events")
	info, moves, end := stream(t, srv.URL+"/games/b1/events")
	require.Equal(t, battleship.Name, info.Game)
	require.Equal(t, []string{"A", "B", "C", "D", "E", "F", "G", "H", "I", "J"}, info.Cols)
	require.Equal(t, []string{"afloat cells "}, info.HPNames)
	checkPublic(t, raw, info, moves, want)
	require.Contains(t, end.Result, "wins after")
}

// TestAbilitiesLive plays abilities games through the hub, with and
// without hidden moves: the stream has a move exactly for what both seats
// are told (no hidden move, no shot while the defender weighs its answer)
// and a false miss is a miss there.
func TestAbilitiesLive(t *testing.T) {
	var hidden, lies int
	for _, tt := range []struct {
		s0, s1 abilities.Side
		opt    abilities.Options
	}{
		{abilities.AI, abilities.Humans, abilities.Options{}},
		{abilities.Humans, abilities.AI, abilities.Options{HideMoves: true}},
		{abilities.AI, abilities.AI, abilities.Options{HideMoves: true, FalseMissAnyHit: true}},
	} {
		r, err := abilities.NewRules(battleship.DefaultRules(), tt.s0, tt.s1, tt.opt)
		require.NoError(t, err)
		for seed := range uint64(2) {
			name := fmt.Sprintf("%v-%v-%v-%d", tt.s0, tt.s1, tt.opt.HideMoves, seed)
			t.Run(name, func(t *testing.T) {
				hub := web.NewHub("")
				played := playAbilities(t, hub, "a1", r, "ab-density", seed)
				hidden += played.hiddenMoves
				lies += played.falseMisses
				srv := httptest.NewServer(hub.Handler())
				defer srv.Close()
				raw := get(t, srv.URL+"/games/a1/events")
				info, moves, _ := stream(t, srv.URL+"/games/a1/events")
				require.Equal(t, abilities.Name, info.Game)
				require.Equal(t, [2]string{tt.s0.String(), tt.s1.String()}, info.Sides)
				checkPublic(t, raw, info, moves, played.public)
			})
		}
	}
	t.Logf("%d hidden moves, %d false misses left out", hidden, lies)
	require.Positive(t, hidden, "no hidden move: the test shows little")
	require.Positive(t, lies, "no false miss: the test shows little")
}

func get(t *testing.T, url string) string {
	t.Helper()
	resp, err := http.Get(url)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return string(b)
}

// TestLiveBoardsInBrowser draws a finished Battleship and abilities game's
// live page in headless Chromium: each board shows exactly the public
// shots at that seat's fleet (X a hit, # a sunk ship's cell, o a miss, A
// an air defence), the cells afloat, and no ship unless the hub reveals
// the fleets (then every ship cell of both, where the ships are at the
// end).
func TestLiveBoardsInBrowser(t *testing.T) {
	ab, err := abilities.NewRules(battleship.DefaultRules(), abilities.AI, abilities.Humans, abilities.Options{})
	require.NoError(t, err)
	ctx := browsertest.Start(t, 2*time.Minute)
	for _, tt := range []struct {
		name   string
		reveal bool
		play   func(t *testing.T, hub *web.Hub) []expected
	}{
		{"battleship", false, func(t *testing.T, hub *web.Hub) []expected {
			return playBattleship(t, hub, "g", "gridbot", "bs-random", 2)
		}},
		{"abilities", false, func(t *testing.T, hub *web.Hub) []expected {
			return playAbilities(t, hub, "g", ab, "ab-density", 1).public
		}},
		{"abilities-revealed", true, func(t *testing.T, hub *web.Hub) []expected {
			return playAbilities(t, hub, "g", ab, "ab-density", 1).public
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var opts []web.Option
			if tt.reveal {
				opts = append(opts, web.Reveal())
			}
			hub := web.NewHub("", opts...)
			want := tt.play(t, hub)
			// What each board must show: the marks of the shots at it.
			var marks [2]map[int]string
			for s := range marks {
				marks[s] = map[int]string{}
			}
			for _, w := range want {
				m := marks[1-w.seat]
				for _, s := range w.shots {
					switch {
					case s.Blocked:
						if m[s.At] == "" {
							m[s.At] = "A"
						}
					case s.Hit:
						m[s.At] = "X"
					case m[s.At] != "X":
						m[s.At] = "o"
					}
				}
			}
			site := httptest.NewServer(hub.Handler())
			defer site.Close()
			_, moves, _ := stream(t, site.URL+"/games/g/events")
			for _, m := range moves { // a sunk ship's cells are #
				for _, c := range m.Sunk {
					marks[1-m.Seat][c] = "#"
				}
			}
			require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(site.URL+"/games/g"), chromedp.WaitVisible(`body[data-over="1"]`)))
			drawn, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](
				`[...document.querySelectorAll("section.seat .board div[data-cell]")].filter(d => d.textContent).map(d => d.closest("section").dataset.seat + ":" + d.dataset.cell + ":" + d.textContent)`))
			require.NoError(t, err)
			ships, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll("section.seat .ship").length`))
			require.NoError(t, err)
			hp, err := chromedp.Run(ctx, chromedp.Evaluate[string](`[...document.querySelectorAll("section.seat .hp")].map(d => d.textContent).join("|")`))
			require.NoError(t, err)
			log, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll("#log li").length`))
			require.NoError(t, err)
			png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
			require.NoError(t, err)
			browsertest.Screenshot(t, "spectator-"+tt.name, png)
			require.NoError(t, chromedp.Do(ctx, chromedp.Navigate("about:blank")))

			var exp []string
			for s := range marks {
				for c, m := range marks[s] {
					exp = append(exp, fmt.Sprintf("%d:%d:%s", s, c, m))
				}
			}
			require.ElementsMatch(t, exp, drawn)
			if tt.reveal {
				require.Equal(t, 2*battleship.DefaultRules().FleetCells(), ships, "both fleets are drawn")
			} else {
				require.Zero(t, ships, "no fleet is drawn")
			}
			last := moves[len(moves)-1].HP
			require.Equal(t, fmt.Sprintf("hp afloat cells %d|hp afloat cells %d", last[0][0], last[1][0]), hp)
			require.Equal(t, len(want), log)
			require.True(t, strings.Contains(hp, "afloat cells 0"), "the game was won: %s", hp)
		})
	}
}
