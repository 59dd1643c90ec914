package server

import (
	"context"
	"math/rand/v2"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/client"
	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/game/abilities"
	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/game/submarine"
	abplayers "github.com/kaisen-ai/kaisen/players/abilities"
	"github.com/kaisen-ai/kaisen/protocol"
)

// watching is a Spectator (a Revealer when reveal is set) that keeps
// what it is told.
type watching struct {
	reveal bool

	mu       sync.Mutex
	started  []game.Public
	steps    []int // the n of every Step
	texts    []string
	fleets   int // Fleets calls
	finished []Result
}

func (r *watching) Started(_ string, pub game.Public, _ [2]Peer, _ int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.started = append(r.started, pub)
}

func (r *watching) Step(_ string, n int, e *game.Seen) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.steps = append(r.steps, n)
	r.texts = append(r.texts, e.Text)
}

func (r *watching) Finished(res Result) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.finished = append(r.finished, res)
}

func (r *watching) Reveals() bool { return r.reveal }

func (r *watching) Fleets(string, [2][]grid.Cell) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.fleets++
}

// TestSpectatorEveryGame plays one game of each game through the server
// with a spectator: it is told the start with the game's public settings,
// every public action numbered as the result counts them (submarine and
// Battleship: every action; abilities: not the hidden moves, not the shots
// the defender weighs), the end, and the fleets only when it reveals.
func TestSpectatorEveryGame(t *testing.T) {
	for _, tt := range []struct {
		name string
		cfg  func(t *testing.T) Config
		play func(t *testing.T, addr string)
		all  bool // one Step per action
	}{
		{submarine.Name, func(t *testing.T) Config {
			cfg := testConfig(t)
			cfg.Listeners[0].Opponent = "random"
			return cfg
		}, func(t *testing.T, addr string) {
			_, err := randomClient(addr, protocol.Classic, submarine.DefaultRules(), 5, "")
			require.NoError(t, err)
		}, true},
		{"battleship", func(t *testing.T) Config { return bsConfig(t, "bs-random") }, func(t *testing.T, addr string) {
			_, err := bsClient(addr, "gridbot", 3)
			require.NoError(t, err)
		}, true},
		{abilities.Name, func(t *testing.T) Config {
			cfg := abilitiesConfig(t, "ab-density")
			cfg.Listeners[0].Abilities.Options = abilities.Options{HideMoves: true}
			return cfg
		}, func(t *testing.T, addr string) {
			conn, err := net.Dial("tcp", addr)
			require.NoError(t, err)
			defer conn.Close()
			build := func(r *abilities.Rules, seat int) (abplayers.Player, error) {
				f, err := abplayers.New("ab-density", r, nil)
				if err != nil {
					return nil, err
				}
				return f(rand.New(rand.NewPCG(9, 0)), seat), nil
			}
			_, err = client.PlayAbilities(context.Background(), conn, build, client.BattleshipPlayOptions{ReadTimeout: 30 * time.Second})
			require.NoError(t, err)
		}, false},
	} {
		for _, reveal := range []bool{false, true} {
			t.Run(tt.name+map[bool]string{false: "", true: " revealed"}[reveal], func(t *testing.T) {
				checkLeaks(t)
				ts := startServer(t, tt.cfg(t))
				rec := &watching{reveal: reveal}
				ts.Watch(rec)
				tt.play(t, ts.addr(0))
				res := ts.waitResults(t, 1)[0]
				require.Eventually(t, func() bool { rec.mu.Lock(); defer rec.mu.Unlock(); return len(rec.finished) == 1 }, 5*time.Second, time.Millisecond)
				rec.mu.Lock()
				defer rec.mu.Unlock()
				require.Len(t, rec.started, 1)
				want := tt.name
				if want == "battleship" {
					want = GameBattleship
				}
				require.Equal(t, want, rec.started[0].Game)
				require.NotNil(t, rec.started[0].Board)
				require.NotEmpty(t, rec.steps)
				for i := 1; i < len(rec.steps); i++ {
					require.Less(t, rec.steps[i-1], rec.steps[i], "step %d", i)
				}
				require.LessOrEqual(t, rec.steps[len(rec.steps)-1], res.Actions)
				if tt.all {
					require.Len(t, rec.steps, res.Actions)
				} else {
					require.Less(t, len(rec.steps), res.Actions, "the confirms and hidden moves are counted, not shown")
				}
				for _, text := range rec.texts {
					require.NotEmpty(t, text)
				}
				if reveal {
					require.Equal(t, len(rec.steps)+1, rec.fleets)
				} else {
					require.Zero(t, rec.fleets)
				}
				require.Equal(t, res.Game, rec.finished[0].Game)
			})
		}
	}
}
