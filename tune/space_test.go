package tune

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/arena"
)

type innerCfg struct {
	Gain  float64 `mapstructure:"gain" tune:"0.5,4"`
	Count int     `mapstructure:"count"`
}

type sampleCfg struct {
	Alpha float64  `mapstructure:"alpha"`
	Beta  float64  `mapstructure:"beta" tune:"-1, 1"`
	Fixed float64  `mapstructure:"fixed" tune:"-"`
	Zero  float64  `mapstructure:"zero"`
	Neg   float64  `mapstructure:"neg"`
	Inner innerCfg `mapstructure:"inner"`
	Name  string   `mapstructure:"name"`
	//lint:ignore U1000 the test checks that unexported fields are ignored
	hidden float64
}

func TestSpaceOf(t *testing.T) {
	cfg := sampleCfg{Alpha: 2, Beta: 0.25, Fixed: 7, Neg: -3, Inner: innerCfg{Gain: 1}}
	s, err := SpaceOf(&cfg)
	require.NoError(t, err)
	want := Space{
		{Key: "alpha", Min: 0, Max: 4, Default: 2},
		{Key: "beta", Min: -1, Max: 1, Default: 0.25, Explicit: true},
		{Key: "zero", Min: 0, Max: 1, Default: 0},
		{Key: "neg", Min: -6, Max: 0, Default: -3},
		{Key: "inner.gain", Min: 0.5, Max: 4, Default: 1, Explicit: true},
	}
	require.Equal(t, want, s)
	require.Equal(t, []string{"alpha", "beta", "zero", "neg", "inner.gain"}, s.Keys())

	u := s.Normalize([]float64{1, 0, 0.5, -6, 4})
	require.InDeltaSlice(t, []float64{0.25, 0.5, 0.5, 0, 1}, u, 1e-12)
	require.InDeltaSlice(t, []float64{1, 0, 0.5, -6, 4}, s.Denormalize(u), 1e-12)
	require.Equal(t, []float64{0, 0, 0, 0, 0}, s.Normalize([]float64{-9, -9, -9, -9, -9}), "clamped")

	sel, err := s.Select([]string{"inner.gain", "alpha"})
	require.NoError(t, err)
	require.Equal(t, []string{"inner.gain", "alpha"}, sel.Keys())
	_, err = s.Select([]string{"nope"})
	require.ErrorIs(t, err, ErrSpace)
	require.ErrorContains(t, err, `"nope"`)
}

func TestSpaceOfErrors(t *testing.T) {
	type badTag struct {
		X float64 `mapstructure:"x" tune:"1"`
	}
	type outside struct {
		X float64 `mapstructure:"x" tune:"0,1"`
	}
	type none struct {
		N int `mapstructure:"n"`
	}
	tests := []struct {
		name string
		cfg  any
		want string
	}{
		{name: "not a struct", cfg: 3, want: "not a struct"},
		{name: "nil", cfg: (*sampleCfg)(nil), want: "nil config"},
		{name: "bad tag", cfg: badTag{}, want: "tune tag"},
		{name: "default outside range", cfg: outside{X: 2}, want: "outside"},
		{name: "no float", cfg: none{}, want: "no tunable"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := SpaceOf(tt.cfg)
			require.ErrorIs(t, err, ErrSpace)
			require.ErrorContains(t, err, tt.want)
		})
	}
}

func TestSpaceOfYAML(t *testing.T) {
	s, err := SpaceOfYAML("x.yaml", "a:\n  w: 1.5 # comment\n  n: 3\nb: 0.0\nname: foo\n")
	require.NoError(t, err)
	require.Equal(t, Space{
		{Key: "a.w", Min: 0, Max: 3, Default: 1.5},
		{Key: "b", Min: 0, Max: 1, Default: 0},
	}, s)
	_, err = SpaceOfYAML("x.yaml", "n: 3\n")
	require.ErrorIs(t, err, ErrSpace)
	_, err = SpaceOfYAML("x.yaml", "a: [\n")
	require.Error(t, err)
}

func TestSpaceForKnownPlayers(t *testing.T) {
	for _, tt := range []struct{ game, player string }{
		{"submarine", "admiral"}, {"submarine", "stateplayer2"}, {"submarine", "simple"},
		{"abilities", "ab-density"}, {"abilities", "ab-belief"}, {"battleship", "density"},
	} {
		t.Run(tt.player, func(t *testing.T) {
			a := gameArena(t, tt.game, arena.DefaultConfig())
			cfg := Probe(a, tt.player)
			require.NotNil(t, cfg)
			text := DefaultYAML(cfg)
			s, err := SpaceFor(Probe(a, tt.player), tt.player+".yaml", text)
			require.NoError(t, err)
			require.NotEmpty(t, s)
			// The rendered defaults are the struct's defaults.
			fresh, err := SpaceOf(Probe(a, tt.player))
			require.NoError(t, err)
			require.Equal(t, fresh, s)
		})
	}
	// A config that moves a default moves the starting point.
	s, err := SpaceFor(probed(t, "admiral"), "a.yaml", "value:\n  leak: 0.75\n")
	require.NoError(t, err)
	i := -1
	for k, p := range s {
		if p.Key == "value.leak" {
			i = k
		}
	}
	require.GreaterOrEqual(t, i, 0)
	require.InDelta(t, 0.75, s[i].Default, 1e-12)
	_, err = SpaceFor(probed(t, "admiral"), "a.yaml", "value:\n  leek: 0.75\n")
	require.ErrorContains(t, err, "leek")
	// random takes no settings, and nobody is no player: no struct.
	require.Nil(t, Probe(submarineArena(t), "random"))
	require.Nil(t, Probe(submarineArena(t), "nobody"))
	require.Nil(t, Probe(gameArena(t, "abilities", arena.DefaultConfig()), "ab-random"))
	// state's config has switches only: nothing to tune.
	_, err = SpaceFor(probed(t, "state"), "state.yaml", DefaultYAML(probed(t, "state")))
	require.ErrorIs(t, err, ErrSpace)
}

// TestSpaceOfSquashedConfig: the keys of an embedded config squashed into
// its parent (adaptive's density settings) are the parent's keys.
func TestSpaceOfSquashedConfig(t *testing.T) {
	a := gameArena(t, "battleship", arena.DefaultConfig())
	s, err := SpaceOf(Probe(a, "adaptive"))
	require.NoError(t, err)
	require.Contains(t, s.Keys(), "lookahead_weight")
	require.Contains(t, s.Keys(), "strength")
	require.Contains(t, DefaultYAML(Probe(a, "adaptive")), "\nlookahead_weight: ")
}
