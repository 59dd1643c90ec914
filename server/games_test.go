package server

import (
	"io"
	"path/filepath"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/arena"
	"github.com/kaisen-ai/kaisen/client"
	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/game/battleship"
	bsrecord "github.com/kaisen-ai/kaisen/game/battleship/record"
	bswire "github.com/kaisen-ai/kaisen/game/battleship/wire"
	"github.com/kaisen-ai/kaisen/game/grid"
	bsplayers "github.com/kaisen-ai/kaisen/players/battleship"
)

// bsContract is Battleship described by a Contract alone (what a game
// registered with Register gives the server), under another name.
type bsContract = Contract[*battleship.Rules, *battleship.Game, battleship.Placement, grid.Cell, battleship.Step, battleship.Event]

// gameContract is the name bsContract is registered under.
const gameContract = "battleship-contract"

var registerContract sync.Once

// registerBattleshipContract registers Battleship described by a
// Contract, once per test binary.
func registerBattleshipContract(t *testing.T) {
	registerContract.Do(func() {
		require.NoError(t, Register(NewGame(bsContract{
			Name:  gameContract,
			House: DefaultBattleshipHouse,
			Rules: func() (*battleship.Rules, error) { return battleship.DefaultRules(), nil },
			AI: func(name string, r *battleship.Rules, load func(any) error) (game.Factory[battleship.Placement, grid.Cell, battleship.Event], error) {
				f, err := bsplayers.New(name, r, load)
				if err != nil {
					return nil, err
				}
				return bsplayers.Adapt(f), nil
			},
			Wire: func(r *battleship.Rules) game.ServerCodec[battleship.Placement, grid.Cell, battleship.Event] {
				return bswire.Server{Rules: r}
			},
			View: func(g *battleship.Game) game.View[battleship.Step] { return battleship.NewPublicView(g) },
			Record: func(r *battleship.Rules, w io.Writer, h arena.RecordHeader) arena.Recorder[battleship.Placement, grid.Cell, battleship.Step] {
				return bsrecord.NewRecorder(w, r, h)
			},
		})))
	})
}

// TestRegisterRefuses: Register takes only games built by NewGame, under
// a name not served yet; a refused game leaves the list as it was.
func TestRegisterRefuses(t *testing.T) {
	registerBattleshipContract(t)
	before := Games()
	for _, tt := range []struct {
		name string
		g    Game
	}{
		{"zero game", Game{}},
		{"a built-in name", NewGame(bsContract{Name: GameBattleship})},
		{"the default game", NewGame(bsContract{Name: GameSubmarine})},
		{"a registered name", NewGame(bsContract{Name: gameContract})},
	} {
		t.Run(tt.name, func(t *testing.T) {
			require.ErrorIs(t, Register(tt.g), ErrRegister)
			require.Equal(t, before, Games())
		})
	}
}

// TestContractServesLikeTheGame: Battleship served through its Contract
// (NewGame: the generic compile step, the Contract's codec, view and
// record) plays the same seeded games as the built-in battleship
// listener: the client sees the same games, and the replays, written
// through the game's arena.Recorder, verify and record the same shots.
func TestContractServesLikeTheGame(t *testing.T) {
	registerBattleshipContract(t)
	require.Equal(t, DefaultBattleshipHouse, DefaultHouse(gameContract))
	play := func(name string) (client.BattleshipGame, []bsrecord.Shot, bsrecord.Result) {
		cfg := testConfig(t)
		cfg.Listeners[0].Game, cfg.Listeners[0].Opponent = name, DefaultHouse(name)
		ts := startServer(t, cfg)
		got, err := bsClient(ts.addr(0), "bs-random", 3)
		require.NoError(t, err)
		require.Positive(t, got.Shots[0])
		res := ts.waitResults(t, 1)
		require.NotEmpty(t, res[0].Replay)
		rp, err := bsrecord.ReadFile(filepath.Join(cfg.ReplayDir, res[0].Replay))
		require.NoError(t, err)
		require.NoError(t, bsrecord.Verify(rp))
		return got, rp.Shots, rp.Result
	}
	want, wantShots, wantRes := play(GameBattleship)
	got, gotShots, gotRes := play(gameContract)
	require.Equal(t, want, got, "the client's game")
	require.Equal(t, wantShots, gotShots)
	require.Equal(t, wantRes, gotRes)
}
