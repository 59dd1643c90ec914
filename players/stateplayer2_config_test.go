package players

import (
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/viper"
	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/explain"
	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/game/submarine"
	"github.com/kaisen-ai/kaisen/internal/config"
)

const sp2ConfigPath = "../configs/stateplayer2.yaml"

func TestSP2ConfigFileEqualsDefaults(t *testing.T) {
	got := DefaultStatePlayer2Config()
	require.NoError(t, config.Load(sp2ConfigPath, &got))
	require.Equal(t, DefaultStatePlayer2Config(), got)
}

// sp2Keys lists the dotted mapstructure keys of a config struct.
func sp2Keys(t reflect.Type, prefix string) []string {
	var keys []string
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("mapstructure")
		if tag == "" {
			panic("field without mapstructure tag: " + f.Name)
		}
		if f.Type.Kind() == reflect.Struct {
			keys = append(keys, sp2Keys(f.Type, prefix+tag+".")...)
		} else {
			keys = append(keys, prefix+tag)
		}
	}
	return keys
}

func TestSP2ConfigFileListsEveryKey(t *testing.T) {
	v := viper.New()
	v.SetConfigFile(sp2ConfigPath)
	require.NoError(t, v.ReadInConfig())
	got := v.AllKeys()
	slices.Sort(got)
	want := sp2Keys(reflect.TypeFor[StatePlayer2Config](), "")
	slices.Sort(want)
	require.Equal(t, want, got, "every key is written (and documented) in the YAML file")
	require.Len(t, want, 12)
}

func TestSP2ConfigUnknownKey(t *testing.T) {
	tests := []struct{ yaml, key string }{
		{"sakuteki:\n  splash_weigth: 2\n", `"sakuteki.splash_weigth"`},
		{"stealh:\n  memory: 2\n", `"stealh"`},
		{"counter:\n  requires_hp: true\n  require_hp: false\n", `"counter.require_hp"`},
	}
	for _, tc := range tests {
		cfg := DefaultStatePlayer2Config()
		err := config.LoadString("test.yaml", tc.yaml, &cfg)
		require.ErrorIs(t, err, config.ErrUnknownKey)
		require.ErrorContains(t, err, tc.key)
	}
}

func TestSP2ConfigOverride(t *testing.T) {
	cfg := DefaultStatePlayer2Config()
	require.NoError(t, config.LoadString("test.yaml", "escape:\n  distance_weight: 2.5\nstealth:\n  memory: 0\n", &cfg))
	want := DefaultStatePlayer2Config()
	want.Escape.DistanceWeight = 2.5
	want.Stealth.Memory = 0
	require.Equal(t, want, cfg, "other keys keep their defaults")
}

func TestSP2ConfigValidate(t *testing.T) {
	tests := []struct {
		name string
		edit func(*StatePlayer2Config)
		key  string
	}{
		{"samples 0", func(c *StatePlayer2Config) { c.Placement.Samples = 0 }, "placement.samples"},
		{"samples 33", func(c *StatePlayer2Config) { c.Placement.Samples = 33 }, "placement.samples"},
		{"negative splash", func(c *StatePlayer2Config) { c.Sakuteki.SplashWeight = -1 }, "sakuteki.splash_weight"},
		{"nan bonus", func(c *StatePlayer2Config) { c.Sakuteki.DirectHitBonus = math.NaN() }, "sakuteki.direct_hit_bonus"},
		{"zero normaliser", func(c *StatePlayer2Config) { c.Sakuteki.Normaliser = 0 }, "sakuteki.normaliser"},
		{"inf exponent", func(c *StatePlayer2Config) { c.Attack.ExposureExponent = math.Inf(1) }, "attack.exposure_exponent"},
		{"negative escape", func(c *StatePlayer2Config) { c.Escape.AllyWeight = -0.5 }, "escape.ally_weight"},
		{"negative stealth", func(c *StatePlayer2Config) { c.Stealth.ExposureWeight = -2 }, "stealth.exposure_weight"},
		{"memory 17", func(c *StatePlayer2Config) { c.Stealth.Memory = 17 }, "stealth.memory"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := DefaultStatePlayer2Config()
			tc.edit(&c)
			require.ErrorContains(t, c.Validate(), tc.key)
		})
	}
	c := DefaultStatePlayer2Config()
	require.NoError(t, c.Validate())

	// From YAML: the range error names the key and the file.
	err := config.LoadString("bad.yaml", "stealth:\n  memory: -1\n", &c)
	require.ErrorContains(t, err, "bad.yaml")
	require.ErrorContains(t, err, "stealth.memory -1")
}

func TestSP2ConfigCheckRules(t *testing.T) {
	c := DefaultStatePlayer2Config()
	require.NoError(t, c.CheckRules(submarine.DefaultRules()))
	c.Placement.Samples = 2
	require.ErrorContains(t, c.CheckRules(submarine.DefaultRules()), "fewer than the 3 ships")
	c.Placement.Samples = 9
	small := &submarine.Rules{Board: grid.MustBoard(2, 2, nil), Fleet: submarine.DefaultFleet(), DrawLimit: 10}
	require.ErrorContains(t, c.CheckRules(small), "the 2x2 board has 4 usable cells, too few for the 9 cells the AI samples")
	c.Placement.Samples = 32
	big := &submarine.Rules{Board: grid.MustBoard(16, 16, nil), DrawLimit: 10}
	for i := range 8 {
		big.Fleet = append(big.Fleet, submarine.ShipSpec{Name: string(rune('a' + i)), HP: 1})
	}
	require.ErrorContains(t, c.CheckRules(big), "too many to compare")
	require.Equal(t, 84, sp2Binomial(9, 3))
	require.Equal(t, 0, sp2Binomial(2, 3))
}

func TestSP2Registry(t *testing.T) {
	r := submarine.DefaultRules()
	e, err := Lookup("stateplayer2")
	require.NoError(t, err)
	require.Equal(t, "configs/stateplayer2.yaml", e.Config)
	for _, path := range []string{"", sp2ConfigPath} {
		f, err := New("stateplayer2", r, config.File(path))
		require.NoError(t, err)
		p := f(sp2Rand(1))
		_, ok := p.(explain.Explainer)
		require.True(t, ok)
		require.NoError(t, r.ValidatePlacement(p.Place()))
	}
	_, err = New("stateplayer2", r, config.File("testdata/no-such-file.yaml"))
	require.ErrorContains(t, err, "players: stateplayer2: config: read testdata/no-such-file.yaml")

	small := &submarine.Rules{Board: grid.MustBoard(2, 2, nil), Fleet: submarine.DefaultFleet(), DrawLimit: 10}
	_, err = New("stateplayer2", small, nil)
	require.ErrorContains(t, err, "too few for the 9 cells the AI samples to place its fleet (placement.samples)")

	_, err = NewStatePlayer2(&submarine.Rules{}, DefaultStatePlayer2Config(), sp2Rand(1))
	require.ErrorIs(t, err, submarine.ErrRules)
	require.True(t, strings.HasPrefix(err.Error(), "players: stateplayer2: "))
}

func sp2Rand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0)) }
