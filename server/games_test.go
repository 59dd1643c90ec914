package server

import (
	"go/parser"
	"go/token"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/arena"
	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/game/abilities"
	abrecord "github.com/kaisen-ai/kaisen/game/abilities/record"
	abwire "github.com/kaisen-ai/kaisen/game/abilities/wire"
	"github.com/kaisen-ai/kaisen/game/battleship"
	bsrecord "github.com/kaisen-ai/kaisen/game/battleship/record"
	bswire "github.com/kaisen-ai/kaisen/game/battleship/wire"
	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/game/submarine"
	subrecord "github.com/kaisen-ai/kaisen/game/submarine/record"
	subwire "github.com/kaisen-ai/kaisen/game/submarine/wire"
	"github.com/kaisen-ai/kaisen/players"
	abplayers "github.com/kaisen-ai/kaisen/players/abilities"
	_ "github.com/kaisen-ai/kaisen/players/admiral" // links admiral and admiral-series into the registry
	bsplayers "github.com/kaisen-ai/kaisen/players/battleship"
)

// subServedGame is the submarine game as a listener serves it.
type subServedGame = served[*submarine.Game, submarine.Placement, submarine.Action, submarine.Step, submarine.Told]

// subGame is the submarine game as the registry (package games) describes
// it to the server: each listener's dialect and board from a
// subwire.Listener, whose codec tells faults as invalid actions.
func subGame() Game {
	return NewGame(Contract[*submarine.Rules, *submarine.Game, submarine.Placement, submarine.Action, submarine.Step, submarine.Told]{
		Name:  GameSubmarine,
		Rules: func() (*submarine.Rules, error) { return submarine.DefaultRules(), nil },
		Listen: func(l ListenerConfig) (Listening[*submarine.Rules, submarine.Placement, submarine.Action, submarine.Told], error) {
			sl, err := subwire.NewListener(subwire.ListenerSettings{Dialect: l.Dialect, Board: l.Board, Plain: l.PlainBoard(), Games: l.Games})
			if err != nil {
				return nil, err
			}
			return sl, nil
		},
		AI: func(name string, r *submarine.Rules, load func(any) error) (game.Factory[submarine.Placement, submarine.Action, submarine.Told], error) {
			f, err := players.New(name, r, load)
			if err != nil {
				return nil, err
			}
			return players.Adapt(f), nil
		},
		View: func(g *submarine.Game) game.View[submarine.Step] { return submarine.NewPublicView(g) },
		Record: func(r *submarine.Rules, w io.Writer, h arena.RecordHeader) arena.Recorder[submarine.Placement, submarine.Action, submarine.Step] {
			return subrecord.NewRecorder(w, r, h)
		},
	})
}

// subServed is the game a submarine listener's pairings play (its
// setup's), whose house AI a test may replace before the listener serves.
func subServed(t *testing.T, st *setup) *subServedGame {
	t.Helper()
	d, ok := st.served.(*subServedGame)
	require.True(t, ok, "a submarine listener's setup")
	return d
}

// subRules are the rules a submarine listener's pairings play.
func subRules(t *testing.T, st *setup) *submarine.Rules {
	t.Helper()
	r, ok := subServed(t, st).rules.(*submarine.Rules)
	require.True(t, ok)
	return r
}

// bsContract is Battleship described by a Contract alone (what a game
// registered with Register gives the server), under another name.
type bsContract = Contract[*battleship.Rules, *battleship.Game, battleship.Placement, grid.Cell, battleship.Step, battleship.Event]

// gameContract is the name bsContract is registered under.
const gameContract = "battleship-contract"

// bsGame is Battleship as the registry (package games) describes it to
// the server, under name: what the tests of this package serve for
// listeners of game battleship (package games registers every game with
// the server, and cannot be imported here).
func bsGame(name string) Game {
	return NewGame(bsContract{
		Name:  name,
		House: DefaultBattleshipHouse,
		Rules: func() (*battleship.Rules, error) { return battleship.DefaultRules(), nil },
		AI:    adaptedAI(bsplayers.New, bsplayers.Adapt),
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

// abGame is the abilities game as the registry describes it to the
// server: its listeners' rules from their abilities section, one game per
// connection, the constant shape's hooks from its wire (abwire.Server is a
// game.Hooked).
func abGame() Game {
	return NewGame(Contract[*abilities.Rules, *abilities.Game, battleship.Placement, abilities.Action, abilities.Step, abilities.Told]{
		Name:  GameAbilities,
		House: DefaultAbilitiesHouse,
		Rules: func() (*abilities.Rules, error) { return abilities.DefaultRules(), nil },
		Settings: func(l ListenerConfig) (*abilities.Rules, error) {
			return l.Abilities.Listener(battleship.DefaultRules())
		},
		AI: adaptedAI(abplayers.New, abplayers.Adapt),
		Wire: func(r *abilities.Rules) game.ServerCodec[battleship.Placement, abilities.Action, abilities.Told] {
			return abwire.Server{Rules: r}
		},
		View: func(g *abilities.Game) game.View[abilities.Step] { return abilities.NewPublicView(g) },
		Record: func(r *abilities.Rules, w io.Writer, h arena.RecordHeader) arena.Recorder[battleship.Placement, abilities.Action, abilities.Step] {
			return abrecord.NewRecorder(w, r, h)
		},
		Board: func(r *abilities.Rules) (int, int) { return r.Base.Board.Width(), r.Base.Board.Height() },
	})
}

// abRules are the rules an abilities listener's pairings play (its
// setup's).
func abRules(t *testing.T, st *setup) *abilities.Rules {
	t.Helper()
	d, ok := st.served.(*served[*abilities.Game, battleship.Placement, abilities.Action, abilities.Step, abilities.Told])
	require.True(t, ok, "an abilities listener's setup")
	r, ok := d.rules.(*abilities.Rules)
	require.True(t, ok)
	return r
}

// adaptedAI is a Contract's AI: a players package's New, its factories
// adapted to the contract.
func adaptedAI[R, F, P, A, O any](build func(string, R, func(any) error) (F, error), adapt func(F) game.Factory[P, A, O]) func(string, R, func(any) error) (game.Factory[P, A, O], error) {
	return func(name string, r R, load func(any) error) (game.Factory[P, A, O], error) {
		f, err := build(name, r, load)
		if err != nil {
			return nil, err
		}
		return adapt(f), nil
	}
}

// The games of the tests, in the registry's order: the submarine game,
// Battleship and the abilities game under their names, then Battleship
// under gameContract (a game registered after the built-in ones).
func init() {
	for _, g := range []Game{subGame(), bsGame(GameBattleship), abGame(), bsGame(gameContract)} {
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

// TestNoGameImports: package server imports no submarine package outside
// its tests (the submarine game is registered like the others), no game
// folder imports package server, and the default game's name is the
// submarine game's.
func TestNoGameImports(t *testing.T) {
	require.Equal(t, submarine.Name, GameSubmarine)
	for _, tt := range []struct {
		glob   string
		banned string
	}{
		{"*.go", "github.com/kaisen-ai/kaisen/game/submarine"},
		{"../game/*/*.go", "github.com/kaisen-ai/kaisen/server"},
		{"../game/*/*/*.go", "github.com/kaisen-ai/kaisen/server"},
	} {
		files, err := filepath.Glob(tt.glob)
		require.NoError(t, err)
		require.NotEmpty(t, files)
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			af, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.ImportsOnly)
			require.NoError(t, err)
			for _, im := range af.Imports {
				path := strings.Trim(im.Path.Value, `"`)
				require.False(t, path == tt.banned || strings.HasPrefix(path, tt.banned+"/"), "%s imports %s", f, path)
			}
		}
	}
}
