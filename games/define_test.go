package games_test

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"io/fs"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/arena"
	"github.com/kaisen-ai/kaisen/game/battleship"
	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/games"
	"github.com/kaisen-ai/kaisen/internal/human"
	bsplayers "github.com/kaisen-ai/kaisen/players/battleship"
)

// contractBattleship is Battleship defined on the contract alone, under
// another name: what a new game gives the registry.
func contractBattleship(name string) games.Game { return games.Define(battleshipDef(name)) }

// battleshipDef is contractBattleship's Def.
func battleshipDef(name string) games.Def[*battleship.Rules, *battleship.Game, battleship.Placement, grid.Cell, battleship.Step, battleship.Event] {
	return games.Def[*battleship.Rules, *battleship.Game, battleship.Placement, grid.Cell, battleship.Step, battleship.Event]{
		Name:    name,
		Summary: "Battleship through games.Define",
		Rules: func(cfg arena.Config) (*battleship.Rules, error) {
			return cfg.Battleship.Build()
		},
		AIs:              games.Adapted(bsplayers.Entries, bsplayers.Lookup, bsplayers.New, bsplayers.Adapt),
		ErrUnknownPlayer: bsplayers.ErrUnknownPlayer,
		DefaultPlayers:   [2]string{"gridbot", "bs-random"},
		PlayDefault:      "bs-random",
		Shots:            true,
	}
}

// TestDefinePlaysLikeTheGame plays the same seeded match through the
// registry's Battleship entry and through a Def of the same rules and AIs:
// every game must come out the same, and the Def'd entry is complete.
func TestDefinePlaysLikeTheGame(t *testing.T) {
	def := contractBattleship("battleship-def")
	require.Empty(t, games.Missing(def))
	legacy, err := games.Lookup(battleship.Name)
	require.NoError(t, err)
	cfg := arena.DefaultConfig()
	cfg.Game = battleship.Name
	run := func(g games.Game) arena.Summary {
		fam, err := g.Family(cfg, games.Entrant{Name: "gridbot"}, games.Entrant{Name: "bs-random"})
		require.NoError(t, err)
		m := arena.Match{Family: fam, Games: 12, Seed: 11, Workers: 2, Series: 4}
		s, err := m.Run(context.Background(), nil)
		require.NoError(t, err)
		return s
	}
	want, got := run(legacy), run(def)
	require.Equal(t, def.Name, got.Game)
	got.Game, got.Elapsed, want.Elapsed = want.Game, 0, 0
	require.Equal(t, want, got)

	_, err = def.Family(cfg, games.Entrant{Name: "nobody"}, games.Entrant{Name: "gridbot"})
	require.ErrorIs(t, err, bsplayers.ErrUnknownPlayer)
	_, err = def.NewClient(games.ClientOptions{Player: "gridbot"})
	require.ErrorIs(t, err, games.ErrNoHost)
	_, err = def.OpenReplay("x.jsonl")
	require.ErrorIs(t, err, fs.ErrNotExist, "a Def without a record format reads package jsonrecord's files")
}

func TestRegister(t *testing.T) {
	require.ErrorIs(t, games.Register(games.Game{Name: "half"}), games.ErrRegister, "an entry with unset hooks")
	require.ErrorIs(t, games.Register(contractBattleship(battleship.Name)), games.ErrRegister, "a name taken")
}

// TestDefineHumanSeat: a Def with a Text gets kaisen play --human
// --against (HumanLocal) and no network seat; its person plays the game
// as the registry's Battleship seat does (the same lines until the end,
// which a Def says in its generic words), and it refuses what it cannot
// do.
func TestDefineHumanSeat(t *testing.T) {
	require.Nil(t, contractBattleship("battleship-def").HumanLocal, "no Text, no terminal seat")
	d := battleshipDef("battleship-def")
	d.Text = func(r *battleship.Rules, _ int, out io.Writer, rng *rand.Rand) human.Text[battleship.Placement, grid.Cell, battleship.Event] {
		return human.BattleshipText(r, out, rng)
	}
	def := games.Define(d)
	require.NotNil(t, def.HumanLocal)
	require.Nil(t, def.HumanClient)
	require.Empty(t, games.Missing(def))
	legacy, err := games.Lookup(battleship.Name)
	require.NoError(t, err)

	// play returns the transcript from the placement prompt to the end.
	play := func(g games.Game) string {
		var out bytes.Buffer
		opt := games.HumanOptions{Against: "bs-random", Seed: 7, Games: 1, Typist: "gridbot"}
		require.NoError(t, g.HumanLocal(bufio.NewReader(strings.NewReader("")), &out, opt))
		s := out.String()
		start, end := strings.Index(s, "board "), strings.Index(s, human.EndHeader)
		require.True(t, start >= 0 && end > start, "a whole game: %q", s)
		return s[start:end]
	}
	require.Equal(t, play(legacy), play(def))

	in := bufio.NewReader(strings.NewReader(""))
	for _, c := range []struct {
		name string
		opt  games.HumanOptions
		want error
	}{
		{"unknown AI", games.HumanOptions{Against: "nobody"}, bsplayers.ErrUnknownPlayer},
		{"unknown typist", games.HumanOptions{Against: "bs-random", Typist: "nobody"}, bsplayers.ErrUnknownPlayer},
	} {
		t.Run(c.name, func(t *testing.T) {
			require.ErrorIs(t, def.HumanLocal(in, io.Discard, c.opt), c.want)
		})
	}

	// Without a record format of its own, the person's game is kept in
	// package jsonrecord's, which the entry reads back and verifies.
	dir := t.TempDir()
	opt := games.HumanOptions{Against: "bs-random", Seed: 7, Games: 1, Typist: "gridbot", Replays: dir}
	require.NoError(t, def.HumanLocal(bufio.NewReader(strings.NewReader("")), io.Discard, opt))
	files, err := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	require.NoError(t, err)
	require.Len(t, files, 1)
	rp, err := def.OpenReplay(files[0])
	require.NoError(t, err)
	require.NoError(t, rp.Verify())
	require.Contains(t, rp.Summary(), "actions, ")
}

// TestHumanClientTypist: every game's network human seat takes a typist
// by name (HumanClientOptions.Typist) and refuses an unknown one before
// connecting, with the game's ErrUnknownPlayer; the matrix's network human
// seat column plays it on servers.
func TestHumanClientTypist(t *testing.T) {
	for _, g := range games.All() {
		require.NotNil(t, g.HumanClient, "%s has a network human seat", g.Name)
		for _, c := range []struct {
			name   string
			typist string
			want   error
		}{
			{"person", "", nil},
			{"typist", g.DefaultPlayers[0], nil},
			{"unknown typist", "nobody", g.ErrUnknownPlayer},
		} {
			t.Run(g.Name+"/"+c.name, func(t *testing.T) {
				cl, err := g.HumanClient(games.HumanClientOptions{Name: "me", Typist: c.typist}, bufio.NewReader(strings.NewReader("")), io.Discard)
				if c.want != nil {
					require.ErrorIs(t, err, c.want)
					require.Nil(t, cl)
					return
				}
				require.NoError(t, err)
				require.NotNil(t, cl)
			})
		}
	}
}
