package tune

import (
	"flag"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/spf13/viper"
	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

func TestFormatValue(t *testing.T) {
	tests := []struct {
		in   float64
		want string
	}{
		{0, "0.0"}, {1, "1.0"}, {0.25, "0.25"}, {20, "20.0"}, {1.23456789, "1.2346"},
		{123456.7, "123456.7"}, {-0.5, "-0.5"}, {0.000123456, "0.00012346"}, {1e-15, "1e-15"},
	}
	for _, tt := range tests {
		require.Equal(t, tt.want, FormatValue(tt.in), "%g", tt.in)
	}
}

func TestSetValuesGolden(t *testing.T) {
	in := `# top comment
search:
  # about worlds
  worlds: 48
value:
  hit: 1.0        # aligned comment
  leak: 0.2
  name: "a # not a comment"

model:
  flee: 0.5
`
	got, err := SetValues(in, map[string]float64{
		"value.hit":   1.23456,
		"value.leak":  0.75,
		"model.flee":  0.05,
		"model.sure":  0.9, // missing: added to its parent
		"extra.depth": 2,   // missing parent: a new block
		"top":         3,
	})
	require.NoError(t, err)
	path := filepath.Join("testdata", "setvalues.golden.yaml")
	if *update {
		require.NoError(t, os.MkdirAll("testdata", 0o755))
		require.NoError(t, os.WriteFile(path, []byte(got), 0o644))
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err)
	require.Equal(t, string(want), got)

	// The rewritten file reads back with the new values.
	s, err := SpaceOfYAML("got.yaml", got)
	require.NoError(t, err)
	vals := map[string]float64{}
	for _, p := range s {
		vals[p.Key] = p.Default
	}
	require.InDelta(t, 1.2346, vals["value.hit"], 1e-12)
	require.InDelta(t, 0.75, vals["value.leak"], 1e-12)
	require.InDelta(t, 0.05, vals["model.flee"], 1e-12)
	require.InDelta(t, 0.9, vals["model.sure"], 1e-12)
	require.InDelta(t, 2.0, vals["extra.depth"], 1e-12)
	require.InDelta(t, 3.0, vals["top"], 1e-12)
}

// A starting file written with flow mappings (as the camper of docs/results.md
// often is: "flee: {rate: 0}") is rewritten in block style: its keys are
// replaced in place, never added a second time, which the players' config
// loaders would refuse as a duplicate mapping key.
func TestSetValuesFlowMappings(t *testing.T) {
	tests := []struct {
		name, in string
		values   map[string]float64
		want     map[string]float64
	}{
		{
			name:   "keys inside flow mappings",
			in:     "flee: {rate: 0}   # a camper\napproach: {ahead: 7}\n",
			values: map[string]float64{"flee.rate": 0.25, "approach.ahead": 3},
			want:   map[string]float64{"flee.rate": 0.25, "approach.ahead": 3},
		},
		{
			name:   "a key missing from a flow mapping",
			in:     "flee: {rate: 0.0, reach: 1.0}\nattack:\n  info: 0.5\n",
			values: map[string]float64{"flee.safe": 2, "attack.info": 0.75},
			want:   map[string]float64{"flee.rate": 0, "flee.reach": 1, "flee.safe": 2, "attack.info": 0.75},
		},
		{
			name:   "a document that is one flow mapping",
			in:     "{flee: {rate: 0}, approach: {ahead: 7}}\n",
			values: map[string]float64{"flee.rate": 0.5, "idle.move": 0.25},
			want:   map[string]float64{"flee.rate": 0.5, "approach.ahead": 7, "idle.move": 0.25},
		},
		{
			name:   "nested flow mappings",
			in:     "model: {prior: {spread: 0.5}}\n",
			values: map[string]float64{"model.prior.spread": 0.125},
			want:   map[string]float64{"model.prior.spread": 0.125},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := SetValues(tt.in, tt.values)
			require.NoError(t, err)
			var doc map[string]any
			require.NoError(t, yaml.Unmarshal([]byte(got), &doc), "strict YAML (no duplicate keys):\n%s", got)
			v := viper.New()
			v.SetConfigType("yaml")
			require.NoError(t, v.ReadConfig(strings.NewReader(got)))
			for k, want := range tt.want {
				require.InDelta(t, want, v.GetFloat64(k), 1e-12, "%s in\n%s", k, got)
			}
		})
	}
	_, err := SetValues("flee: {rate: [\n", map[string]float64{"flee.rate": 1})
	require.Error(t, err)
}

func TestHeader(t *testing.T) {
	require.Equal(t, "# a\n# b\n", Header("a", "b"))
}

// fuzzKey is a key of Kaisen's configs: a letter, then letters, digits, _ and -.
var fuzzKey = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_\-]*$`)

// FuzzSetValues: SetValues never panics, and on a config-shaped file (a
// mapping of sections of numbers, block or flow style) its output is YAML
// of the same shape holding the value set, with no key twice.
func FuzzSetValues(f *testing.F) {
	f.Add("flee:\n  rate: 1\napproach:\n  ahead: 0\n", "flee", "rate", 0.5)
	f.Add("flee: {rate: 0}\napproach: {ahead: 7}\n", "approach", "ahead", 3.0)
	f.Add("{flee: {rate: 0}}\n", "idle", "move", 0.25)
	f.Add("# only a comment\n", "a", "b", 1.0)
	f.Add("a:\n  b: [1, 2]\n", "a", "b", 2.0)
	f.Add("flee:\napproach:\n  ahead: 1\n", "flee", "rate", 0.5) // an empty section
	f.Add("~\n", "flee", "rate", 0.5)
	f.Fuzz(func(t *testing.T, text, section, key string, v float64) {
		if !fuzzKey.MatchString(section) || !fuzzKey.MatchString(key) || math.IsNaN(v) || math.IsInf(v, 0) {
			return
		}
		got, err := SetValues(text, map[string]float64{section + "." + key: v})
		var in map[string]map[string]float64
		if yaml.Unmarshal([]byte(text), &in) != nil || err != nil {
			return // not the shape of a config file
		}
		var out map[string]map[string]float64
		require.NoError(t, yaml.Unmarshal([]byte(got), &out), "from %q:\n%s", text, got)
		want, _ := strconv.ParseFloat(FormatValue(v), 64)
		require.InDelta(t, want, out[section][key], 1e-9*max(1, math.Abs(want)), "from %q:\n%s", text, got)
	})
}
