package server

import (
	"io"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/arena"
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

// bsGame is Battleship as the registry (package games) describes it to
// the server, under name: what the tests of this package serve for
// listeners of game battleship (the server serves the submarine game alone
// by itself; package games registers the others, and cannot be imported
// here).
func bsGame(name string) Game {
	return NewGame(bsContract{
		Name:  name,
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
		Board: func(r *battleship.Rules) (int, int) { return r.Board.Width(), r.Board.Height() },
	})
}

// The games of the tests: Battleship under its name, and under
// gameContract (a game registered after the built-in ones).
func init() {
	for _, g := range []Game{bsGame(GameBattleship), bsGame(gameContract)} {
		if err := Register(g); err != nil {
			panic(err)
		}
	}
}

// bsServed is the game a battleship listener's pairings play (its
// setup's), whose house AI a test may replace before the listener serves.
func bsServed(t *testing.T, st *setup) *served[*battleship.Game, battleship.Placement, grid.Cell, battleship.Step, battleship.Event] {
	t.Helper()
	d, ok := st.served.(*served[*battleship.Game, battleship.Placement, grid.Cell, battleship.Step, battleship.Event])
	require.True(t, ok, "a battleship listener's setup")
	return d
}

// TestRegisterRefuses: Register takes only games built by NewGame, under
// a name not served yet; a refused game leaves the list as it was.
func TestRegisterRefuses(t *testing.T) {
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

// TestContractGame: a game registered after the built-in ones, under its
// own name, is served with its house AI, and its replays, written
// through the game's arena.Recorder, verify.
func TestContractGame(t *testing.T) {
	require.Equal(t, DefaultBattleshipHouse, DefaultHouse(gameContract))
	require.Equal(t, gameContract, Games()[len(Games())-1])
	cfg := testConfig(t)
	cfg.Listeners[0].Game, cfg.Listeners[0].Opponent = gameContract, DefaultHouse(gameContract)
	ts := startServer(t, cfg)
	got, err := bsClient(ts.addr(0), "bs-random", 3)
	require.NoError(t, err)
	require.Positive(t, got.Shots[0])
	res := ts.waitResults(t, 1)
	require.Equal(t, gameContract, res[0].Dialect)
	rp, err := bsrecord.ReadFile(filepath.Join(cfg.ReplayDir, res[0].Replay))
	require.NoError(t, err)
	require.NoError(t, bsrecord.Verify(rp))
	require.Equal(t, got.Shots, rp.Result.Shots)
}
