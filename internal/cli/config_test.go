package cli

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/game/abilities"
	"github.com/kaisen-ai/kaisen/game/battleship"
	"github.com/kaisen-ai/kaisen/game/submarine"
	"github.com/kaisen-ai/kaisen/internal/config"
	"github.com/kaisen-ai/kaisen/players"
	abplayers "github.com/kaisen-ai/kaisen/players/abilities"
	bsplayers "github.com/kaisen-ai/kaisen/players/battleship"
	"github.com/kaisen-ai/kaisen/server"
)

// TestShippedConfigsLoad: every file under configs/ loads, with the strict
// type checks, through the command that reads it.
func TestShippedConfigsLoad(t *testing.T) {
	files, err := filepath.Glob("../../configs/*.yaml")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	seen := map[string]bool{}
	for _, e := range players.Entries() {
		if e.Config == "" {
			continue
		}
		seen[filepath.Base(e.Config)] = true
		_, err := players.New(e.Name, submarine.DefaultRules(), config.File("../../"+e.Config))
		require.NoError(t, err, e.Config)
	}
	for _, e := range bsplayers.Entries() {
		if e.Config == "" {
			continue
		}
		seen[filepath.Base(e.Config)] = true
		_, err := bsplayers.New(e.Name, battleship.DefaultRules(), config.File("../../"+e.Config))
		require.NoError(t, err, e.Config)
	}
	for _, e := range abplayers.Entries() {
		if e.Config == "" {
			continue
		}
		seen[filepath.Base(e.Config)] = true
		_, err := abplayers.New(e.Name, abilities.DefaultRules(), config.File("../../"+e.Config))
		require.NoError(t, err, e.Config)
	}
	for _, f := range []string{"match.yaml", "battleship-match.yaml"} {
		seen[f] = true
		_, err := loadMatchConfig("../../configs/" + f)
		require.NoError(t, err, f)
	}
	seen["server.yaml"] = true
	cfg := server.DefaultConfig()
	require.NoError(t, config.Load("../../configs/server.yaml", &cfg))
	for _, f := range files {
		require.True(t, seen[filepath.Base(f)], "%s is loaded by no test", f)
	}
}

func TestMatchConfigErrorsNameFileAndKey(t *testing.T) {
	dir := t.TempDir()
	for _, tt := range []struct{ name, yaml, want string }{
		{"float width", "rules:\n  width: 5.5\n", "rules.width: got 5.5, want an integer"},
		{"fleet hp text", "rules:\n  fleet: [{name: w, hp: lots}]\n", `rules.fleet[0].hp: got "lots", want an integer`},
		{"unknown key", "rules:\n  colour: blue\n", `unknown key "rules.colour"`},
		{"bad game", "game: chess\n", `game "chess"`},
		{"bad board", "battleship:\n  width: 0\n", "board 0x10"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(dir, tt.name+".yaml")
			require.NoError(t, os.WriteFile(path, []byte(tt.yaml), 0o644))
			_, err := loadMatchConfig(path)
			require.ErrorContains(t, err, "config: "+path+": ")
			require.ErrorContains(t, err, tt.want)
			require.NotContains(t, err.Error(), "\n")
		})
	}
}
