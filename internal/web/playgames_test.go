package web_test

import (
	"encoding/json"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/game/sonar"
	"github.com/kaisen-ai/kaisen/games"
	"github.com/kaisen-ai/kaisen/internal/keystream"
	"github.com/kaisen-ai/kaisen/internal/web"
	"github.com/kaisen-ai/kaisen/internal/web/webtest"
	"github.com/kaisen-ai/kaisen/server"
)

// The test game (game/sonar) is registered in this test binary, as in
// games/matrix's: browser play takes it without a line of its own.
func init() {
	if err := games.Register(games.Define(sonar.Def())); err != nil {
		panic(err)
	}
}

func sortedInts(v []int) []int {
	out := slices.Clone(v)
	slices.Sort(out)
	return out
}

// TestBrowserPlayEveryGame: for every registered game with browser play
// (the three built-in games and the test game), a person plays a whole
// game against the house AI through the HTTP API, choosing each action
// from the state the server sends; the game is recorded (its result line
// and a replay that verifies: every game writes replays), and no
// state before the end carries the house's fleet: the person's fleet is
// their own at every step (the spectators' revealed fleets say it), the
// house's waters show only the public answers of the person's actions,
// and nothing but the state's fields is sent.
func TestBrowserPlayEveryGame(t *testing.T) {
	for _, tt := range []struct {
		game, house string
	}{
		{"submarine", "random"},
		{"battleship", "bs-random"},
		{"abilities", "ab-random"},
		{sonar.Name, "sonar-random"},
	} {
		t.Run(tt.game, func(t *testing.T) {
			g, err := games.Lookup(tt.game)
			require.NoError(t, err)
			require.NotNil(t, g.Browse, "every registered game has browser play")
			rec := &webtest.Recorder{}
			hub := web.NewHub("", web.Reveal(), web.Play(web.PlayOptions{Game: tt.game, House: tt.house, Timeout: time.Minute,
				Key: keystream.FromSeed(26), Record: rec}))
			site := httptest.NewServer(hub.Handler())
			defer site.Close()

			p := webtest.Start(t, site.URL, tt.game, rand.New(rand.NewPCG(26, 1)))
			states := p.Play()
			t.Logf("%d states, %d actions by button (no cell)", len(states), p.Buttons)
			last := states[len(states)-1]
			require.Equal(t, tt.game, last.Game)
			require.Equal(t, tt.house, last.House)
			require.Regexp(t, `^seat \d (you \(browser\)|`+tt.house+` \(house AI\)) wins after \d+ moves|^draw`, last.Result)
			require.Eventually(t, func() bool { return hub.Playing() == 0 }, 10*time.Second, 5*time.Millisecond)
			turns := slices.DeleteFunc(slices.Clone(states), func(s web.PlayState) bool { return len(s.Actions) == 0 })
			code, msg := p.Post(turns[len(turns)-1].Actions[0].Label) // a stale click, after the end
			require.Equal(t, http.StatusConflict, code, msg)

			// The spectators' record of the same game, with the fleets
			// (web.Reveal, for this test): the public moves the person's
			// log lists, and whose fleet is whose.
			info, moves, end := stream(t, site.URL+"/games/"+p.ID+"/events")
			require.Equal(t, last.Result, end.Result)
			require.Len(t, last.Log, len(moves))
			require.Equal(t, len(moves), last.N)
			hidden(t, states[:len(states)-1], info, moves)

			// The game is recorded, as the server records its own.
			results := rec.Results()
			require.Len(t, results, 1)
			res := results[0]
			require.Equal(t, p.ID, res.Game)
			require.Equal(t, web.WebListener, res.Listener)
			require.Equal(t, [2]server.Peer{{Addr: "browser", Name: "you (browser)"}, {Addr: "house", Name: tt.house}}, res.Players)
			require.Positive(t, res.Actions)
			require.Empty(t, res.Forfeits, "nobody forfeits")
			path := filepath.Join(t.TempDir(), p.ID+".jsonl")
			require.Equal(t, p.ID+".jsonl", res.Replay)
			require.NoError(t, os.WriteFile(path, rec.Replay(res.Replay), 0o600))
			rp, err := g.OpenReplay(path)
			require.NoError(t, err)
			require.NoError(t, rp.Verify(), "the replay is the rules' game")
			require.Regexp(t, `^\d+ (actions|shots)`, rp.Summary())
		})
	}
}

// TestBrowserPlayOffers: the list has one button per game offered (the
// first the default), POST /play plays the game it names, and refuses a
// game not offered or a body that is not JSON (400) without starting any.
func TestBrowserPlayOffers(t *testing.T) {
	hub := web.NewHub("", web.Play(web.PlayOptions{Timeout: 300 * time.Millisecond, Key: keystream.FromSeed(3),
		Games: []web.PlayGame{{Game: "submarine", House: "random"}, {Game: "battleship"}}}))
	site := httptest.NewServer(hub.Handler())
	defer site.Close()
	defer func() { // the tables time out: no game outlives the test
		require.Eventually(t, func() bool { return hub.Playing() == 0 }, 10*time.Second, 10*time.Millisecond)
	}()
	resp, err := http.Get(site.URL + "/")
	require.NoError(t, err)
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	require.Contains(t, string(page), `id="play" class="play" data-game="submarine" type="button">Play the house AI (random, submarine)`)
	require.Contains(t, string(page), `id="play-battleship" class="play" data-game="battleship" type="button">Play the house AI (gridbot, battleship)`, "the game's default AI")

	for _, tt := range []struct {
		name, body string
		code       int
		game, msg  string
	}{
		{"default", `{}`, http.StatusOK, "submarine", ""},
		{"empty body", ``, http.StatusOK, "submarine", ""},
		{"named", `{"game":"battleship"}`, http.StatusOK, "battleship", ""},
		{"not offered", `{"game":"abilities"}`, http.StatusBadRequest, "", `"abilities" is not offered here (offered: submarine, battleship)`},
		{"unknown", `{"game":"chess"}`, http.StatusBadRequest, "", `"chess" is not offered here`},
		{"not json", `game=battleship`, http.StatusBadRequest, "", "bad request body"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			resp, err := http.Post(site.URL+"/play", "application/json", strings.NewReader(tt.body))
			require.NoError(t, err)
			defer resp.Body.Close()
			body, _ := io.ReadAll(resp.Body)
			require.Equal(t, tt.code, resp.StatusCode, string(body))
			if tt.code != http.StatusOK {
				require.Contains(t, string(body), tt.msg)
				return
			}
			var started struct{ ID string }
			require.NoError(t, json.Unmarshal(body, &started))
			info, _, _ := stream(t, site.URL+"/games/"+started.ID+"/events")
			require.Equal(t, tt.game, info.Game, "the game started is listed at once")
		})
	}
}

// hidden checks that the states of a game before its end carry nothing of
// the house's fleet, against the spectators' record of the same game with
// the fleets revealed (info, moves): the person's fleet is their own at
// every step, never the house's, and the house's waters show only cells a
// public action of the person's named.
func hidden(t *testing.T, states []web.PlayState, info web.Info, moves []web.Event) {
	t.Helper()
	fleetAfter := func(n int) [2][]int { // the fleets after n public moves
		if n == 0 {
			return info.Fleet
		}
		return moves[n-1].Fleet
	}
	for i, s := range states[:len(states)-1] {
		require.False(t, s.Over)
		mine := sortedInts(s.Fleet)
		// The public record shows the fleets after each public
		// move; the person is told their own move just after it
		// is shown, and a move of theirs the public record does
		// not show appears with the next move shown.
		own := [][]int{sortedInts(fleetAfter(s.N)[0])}
		if s.N > 0 {
			own = append(own, sortedInts(fleetAfter(s.N - 1)[0]))
		}
		if s.N < len(moves) {
			own = append(own, sortedInts(fleetAfter(s.N + 1)[0]))
		}
		require.Contains(t, own, mine, "state %d: the person's fleet is their own", i)
		if house := sortedInts(fleetAfter(s.N)[1]); !slices.ContainsFunc(own, func(o []int) bool { return slices.Equal(o, house) }) {
			require.NotEqual(t, house, mine, "state %d: never the house's fleet", i)
		}
		public := map[int]bool{} // the cells of the person's public actions so far
		for _, e := range moves[:min(s.N+1, len(moves))] {
			if e.Seat != 0 {
				continue
			}
			public[e.At] = true
			for _, sh := range e.Shots {
				public[sh.At] = true
			}
			for _, c := range e.Sunk {
				public[c] = true
			}
		}
		for c := range s.Shots {
			require.True(t, public[c], "state %d: the house's waters show cell %d, which no public action of the person's names", i, c)
		}
	}
}
