package arena_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/arena"
	"github.com/kaisen-ai/kaisen/game/submarine"
	"github.com/kaisen-ai/kaisen/internal/config"
)

func TestConfigFileIsTheDefault(t *testing.T) {
	got, err := loadConfig("../configs/match.yaml")
	require.NoError(t, err)
	require.Equal(t, arena.DefaultConfig(), got)
	r, err := got.Rules.Build()
	require.NoError(t, err)
	want := submarine.DefaultRules()
	require.Equal(t, want.Fleet, r.Fleet)
	require.Equal(t, want.DrawLimit, r.DrawLimit)
	require.Equal(t, want.Board.Shape(), r.Board.Shape())

	def, err := loadConfig("")
	require.NoError(t, err)
	require.Equal(t, arena.DefaultConfig(), def)
}

// loadConfig loads a match config as the command line does: the file over
// the defaults ("" = the defaults).
func loadConfig(path string) (arena.Config, error) {
	return config.LoadOr(path, arena.DefaultConfig())
}

func writeConfig(t *testing.T, text string) string {
	path := filepath.Join(t.TempDir(), "match.yaml")
	require.NoError(t, os.WriteFile(path, []byte(text), 0o644))
	return path
}

func TestLoadConfig(t *testing.T) {
	tests := []struct {
		name  string
		yaml  string
		shape []string
		fleet []submarine.ShipSpec
		draw  int
	}{
		{"empty file keeps the defaults", "", []string{"#####", "#####", "#####", "#####", "#####"}, submarine.DefaultFleet(), 10000},
		{"rounded 6x4", "rules: {width: 6, height: 4, shape: rounded}",
			[]string{".####.", "######", "######", ".####."}, submarine.DefaultFleet(), 10000},
		{"rows and an extra rock", "rules:\n  width: 3\n  height: 2\n  shape: ['#.#', '###']\n  rocks: [[0, 1]]\n",
			[]string{"#.#", ".##"}, submarine.DefaultFleet(), 10000},
		{"fleet replaced as a whole", "rules:\n  fleet:\n    - {name: big, hp: 5}\n    - {name: small, hp: 1}\n  draw_limit: 50\n",
			[]string{"#####", "#####", "#####", "#####", "#####"}, []submarine.ShipSpec{{Name: "big", HP: 5}, {Name: "small", HP: 1}}, 50},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, err := loadConfig(writeConfig(t, tc.yaml))
			require.NoError(t, err)
			r, err := c.Rules.Build()
			require.NoError(t, err)
			require.Equal(t, tc.shape, r.Board.Shape())
			require.Equal(t, tc.fleet, r.Fleet)
			require.Equal(t, tc.draw, r.DrawLimit)
		})
	}
}

func TestLoadConfigErrors(t *testing.T) {
	tests := []struct {
		name, yaml, want string
	}{
		{"unknown key", "rules: {colour: blue}", `"rules.colour"`},
		{"unknown top key", "players: 2", `"players"`},
		{"no game", "game: ''", "game is empty"},
		{"ship without hp", "rules:\n  fleet:\n    - {name: w}\n", `hp 0`},
		{"ship key misspelt", "rules:\n  fleet:\n    - {name: w, hpp: 3}\n", `hpp`},
		{"empty fleet", "rules: {fleet: []}", "fleet has 0 ships"},
		{"zero width", "rules: {width: 0}", "board 0x5: width and height must be 1 to 256"},
		{"too big", "rules: {width: 20, height: 20}", "at most 256"},
		{"bad shape name", "rules: {shape: hexagon}", `shape "hexagon"`},
		{"shape size mismatch", "rules: {shape: ['##', '##']}", "shape is 2x2 but width x height is 5x5"},
		{"bad shape row", "rules: {width: 2, height: 1, shape: ['#x']}", "'x'"},
		{"rock off the board", "rules: {rocks: [[5, 0]]}", "rock [5,0] is off"},
		{"no draw limit", "rules: {draw_limit: 0}", "draw limit 0"},
		{"duplicate ship", "rules:\n  fleet: [{name: a, hp: 1}, {name: a, hp: 2}]\n", "appears twice"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := loadConfig(writeConfig(t, tc.yaml))
			require.Error(t, err)
			require.ErrorContains(t, err, tc.want)
		})
	}
	_, err := loadConfig(filepath.Join(t.TempDir(), "missing.yaml"))
	require.Error(t, err)
	_, err = loadConfig(writeConfig(t, "rules: {colour: blue}"))
	require.ErrorIs(t, err, config.ErrUnknownKey)
}

// FuzzRulesBuild: any rules config either builds valid rules or fails with
// an error, never a panic.
func FuzzRulesBuild(f *testing.F) {
	f.Add(5, 5, "rectangle", "", 0, 0, "w", 3, 10000)
	f.Add(6, 4, "rounded", "", 2, 2, "x", 1, 1)
	f.Add(3, 2, "", "#.#/###", 0, 1, "a", 127, 5)
	f.Add(1<<40, 1<<40, "rectangle", "", -1, 0, "", 0, 0)
	f.Fuzz(func(t *testing.T, w, h int, shape, rows string, rx, ry int, ship string, hp, draw int) {
		rc := arena.RulesConfig{Width: w, Height: h, Shape: shape, Rocks: [][2]int{{rx, ry}},
			Fleet: []arena.ShipConfig{{Name: ship, HP: hp}}, DrawLimit: draw}
		if rows != "" {
			var list []any
			for _, r := range strings.Split(rows, "/") {
				list = append(list, r)
			}
			rc.Shape = list
		}
		r, err := rc.Build()
		if err != nil {
			return
		}
		require.NoError(t, r.Validate())
		require.Equal(t, w, r.Board.Width())
		require.Equal(t, h, r.Board.Height())
	})
}
