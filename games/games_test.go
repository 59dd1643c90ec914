package games_test

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/arena"
	"github.com/kaisen-ai/kaisen/game/battleship"
	bsrecord "github.com/kaisen-ai/kaisen/game/battleship/record"
	"github.com/kaisen-ai/kaisen/game/submarine"
	"github.com/kaisen-ai/kaisen/games"
	"github.com/kaisen-ai/kaisen/replay"
	"github.com/kaisen-ai/kaisen/server"
)

func TestLookup(t *testing.T) {
	for _, tt := range []struct {
		name string
		err  bool
	}{
		{submarine.Name, false},
		{battleship.Name, false},
		{"chess", true},
		{"", true},
		{"Submarine", true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			g, err := games.Lookup(tt.name)
			if tt.err {
				require.ErrorIs(t, err, games.ErrUnknownGame)
				require.ErrorContains(t, err, "games: submarine, battleship, abilities")
				return
			}
			require.NoError(t, err)
			require.Equal(t, tt.name, g.Name)
		})
	}
	require.Equal(t, []string{"submarine", "battleship", "abilities"}, games.Names())
	require.Equal(t, []string{"submarine", "battleship", "abilities"}, games.Served())
	require.Equal(t, submarine.Name, games.Default().Name)
}

// TestEveryGameIsComplete checks that each entry has every hook the hosts
// call (by reflection, so a new hook is checked for every game without
// touching this test), that its defaults name its own AIs and that its
// unknown-AI error is the one the CLI maps to exit 2.
func TestEveryGameIsComplete(t *testing.T) {
	for _, g := range games.All() {
		t.Run(g.Name, func(t *testing.T) {
			require.Empty(t, games.Missing(g))
			require.NotEmpty(t, g.Players())
			for _, p := range g.DefaultPlayers {
				require.NoError(t, g.CheckPlayer(p))
			}
			require.NoError(t, g.CheckPlayer(g.PlayDefault))
			for _, p := range g.Players() {
				require.NoError(t, g.CheckPlayer(p.Name))
			}
			require.ErrorIs(t, g.CheckPlayer("deepblue"), g.ErrUnknownPlayer)
			_, err := g.NewClient(games.ClientOptions{Player: "deepblue"})
			require.ErrorIs(t, err, g.ErrUnknownPlayer)
			if g.Unserved != "" {
				_, err := g.NewClient(games.ClientOptions{Player: g.PlayDefault})
				require.ErrorContains(t, err, g.Unserved)
			}
			for _, tool := range g.Tools {
				require.Contains(t, games.Tools(), tool)
			}
		})
	}
}

// TestMissingNamesEveryHook: Missing reports each required hook left out
// of an entry, and nothing for the optional ones.
func TestMissingNamesEveryHook(t *testing.T) {
	require.Equal(t, []string{"Name", "Summary", "Players", "CheckPlayer", "DefaultPlayers", "Family",
		"OpenReplay", "PlayDefault", "NewClient", "ErrUnknownPlayer", "Conformance"}, games.Missing(games.Game{}))
	g := games.Default()
	g.NewClient = nil
	require.Equal(t, []string{"NewClient"}, games.Missing(g))
	g = games.Default()
	g.HumanLocal = nil
	require.Equal(t, []string{"HumanLocal"}, games.Missing(g), "a human seat on servers needs one in-process too")
	g.HumanClient = nil
	require.Empty(t, games.Missing(g), "no human seat at all is complete")
}

// TestEveryToolPlaysSomeGame: each single-game command plays at least one
// game of the registry.
func TestEveryToolPlaysSomeGame(t *testing.T) {
	for _, tool := range games.Tools() {
		require.NotEmpty(t, games.With(tool), tool)
	}
	require.Equal(t, games.Names(), games.With(games.ToolTournament), "every game has a tournament")
	require.Equal(t, []string{battleship.Name}, games.With(games.ToolShots))
}

// TestEveryGamePlaysAndReplays plays a short seeded match of each game's
// default AIs through its arena family, then reads, verifies and draws
// every replay through the same entry.
func TestEveryGamePlaysAndReplays(t *testing.T) {
	for _, g := range games.All() {
		t.Run(g.Name, func(t *testing.T) {
			fam, err := g.Family(arena.DefaultConfig(),
				games.Entrant{Name: g.DefaultPlayers[0]}, games.Entrant{Name: g.DefaultPlayers[1]})
			require.NoError(t, err)
			require.Equal(t, g.Name, fam.Game())
			dir := t.TempDir()
			const n = 3
			sum, err := (&arena.Match{Family: fam, Games: n, Seed: 1, Workers: 1, Replays: dir}).Run(context.Background(), nil)
			require.NoError(t, err)
			require.Equal(t, n, sum.Games)
			require.Equal(t, g.Name, sum.Game)
			for i := range n {
				path := filepath.Join(dir, arena.ReplayName(i))
				name, err := replay.GameOfFile(path)
				require.NoError(t, err)
				require.Equal(t, g.Name, name)
				rp, err := g.OpenReplay(path)
				require.NoError(t, err)
				require.NoError(t, rp.Verify())
				require.Positive(t, rp.Moves())
				require.Contains(t, rp.Summary(), fmt.Sprintf("%d %ss", rp.Moves(), rp.Move()))
				var buf bytes.Buffer
				require.NoError(t, rp.Render(&buf, games.RenderOptions{From: rp.Moves(), To: -1}))
				require.NotEmpty(t, buf.String())
			}
		})
	}
}

func TestFamilyRefusesUnknownPlayers(t *testing.T) {
	for _, g := range games.All() {
		_, err := g.Family(arena.DefaultConfig(), games.Entrant{Name: "deepblue"}, games.Entrant{Name: g.DefaultPlayers[1]})
		require.ErrorContains(t, err, "--p1", g.Name)
		_, err = g.Family(arena.DefaultConfig(), games.Entrant{Name: g.DefaultPlayers[0]}, games.Entrant{Name: "deepblue"})
		require.ErrorContains(t, err, "--p2", g.Name)
	}
}

func TestOtherGamesReplayIsRefused(t *testing.T) {
	sub, err := games.Lookup(submarine.Name)
	require.NoError(t, err)
	bs, err := games.Lookup(battleship.Name)
	require.NoError(t, err)
	fam, err := bs.Family(arena.DefaultConfig(), games.Entrant{Name: "bs-random"}, games.Entrant{Name: "bs-random"})
	require.NoError(t, err)
	dir := t.TempDir()
	_, err = (&arena.Match{Family: fam, Games: 1, Seed: 2, Workers: 1, Replays: dir}).Run(context.Background(), nil)
	require.NoError(t, err)
	_, err = sub.OpenReplay(filepath.Join(dir, arena.ReplayName(0)))
	require.ErrorIs(t, err, replay.ErrFormat)
}

func TestBattleshipCheckRender(t *testing.T) {
	bs, err := games.Lookup(battleship.Name)
	require.NoError(t, err)
	for _, b := range []string{"", bsrecord.BoardsEnd, bsrecord.BoardsTurn, bsrecord.BoardsShot} {
		require.NoError(t, bs.CheckRender(games.RenderOptions{Boards: b}))
	}
	require.ErrorContains(t, bs.CheckRender(games.RenderOptions{Boards: "always"}), `--boards "always"`)
}

func ExampleLookup() {
	for _, g := range games.All() {
		fmt.Printf("%s: %s vs %s\n", g.Name, g.DefaultPlayers[0], g.DefaultPlayers[1])
	}
	_, err := games.Lookup("chess")
	fmt.Println(err)
	// Output:
	// submarine: stateplayer2 vs random
	// battleship: gridbot vs bs-random
	// abilities: ab-density vs ab-random
	// unknown game "chess" (games: submarine, battleship, abilities)
}

// TestServerServesEveryGame: a server listener accepts every game of the
// registry by its name, and the server serves no other.
func TestServerServesEveryGame(t *testing.T) {
	require.Equal(t, games.Served(), server.Games())
	for _, g := range games.All() {
		if g.Unserved != "" {
			continue
		}
		cfg := server.DefaultConfig()
		cfg.Listeners[0].Game = g.Name
		require.NoError(t, cfg.Validate(), g.Name)
	}
	cfg := server.DefaultConfig()
	cfg.Listeners[0].Game = "chess"
	require.Error(t, cfg.Validate())
}
