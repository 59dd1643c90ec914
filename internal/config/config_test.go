package config

import (
	"errors"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

type inner struct {
	Weight float64 `mapstructure:"weight"`
}

type sample struct {
	Count int     `mapstructure:"count"`
	Ratio float64 `mapstructure:"ratio"`
	Inner inner   `mapstructure:"inner"`
}

func (s *sample) Validate() error {
	if s.Count < 0 {
		return errors.New("count must not be negative")
	}
	return nil
}

func TestLoadString(t *testing.T) {
	tests := []struct {
		name    string
		yaml    string
		want    sample
		wantErr string
	}{
		{name: "defaults kept", yaml: "count: 3\n", want: sample{Count: 3, Ratio: 0.5, Inner: inner{Weight: 2}}},
		{name: "nested", yaml: "inner:\n  weight: 7.5\n", want: sample{Count: 1, Ratio: 0.5, Inner: inner{Weight: 7.5}}},
		{name: "unknown top key", yaml: "cuont: 3\n", wantErr: `unknown key "cuont"`},
		{name: "unknown nested key", yaml: "inner:\n  wieght: 3\n", wantErr: `unknown key "inner.wieght"`},
		{name: "validation", yaml: "count: -1\n", wantErr: "count must not be negative"},
		{name: "wrong type", yaml: "count: many\n", wantErr: `count: got "many", want an integer`},
		{name: "float for an integer", yaml: "count: 2.5\n", wantErr: "count: got 2.5, want an integer"},
		{name: "integer for a float", yaml: "ratio: 2\n", want: sample{Count: 1, Ratio: 2, Inner: inner{Weight: 2}}},
		{name: "string for a float", yaml: "ratio: half\n", wantErr: `ratio: got "half", want a number`},
		{name: "scalar for a section", yaml: "inner: 3\n", wantErr: "inner: got 3, want a mapping of keys"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := sample{Count: 1, Ratio: 0.5, Inner: inner{Weight: 2}}
			err := LoadString("test.yaml", tt.yaml, &got)
			if tt.wantErr != "" {
				require.ErrorContains(t, err, tt.wantErr)
				return
			}
			require.NoError(t, err)
			require.Equal(t, tt.want, got)
		})
	}
}

// typed has one field of every kind the loader checks.
type typed struct {
	Timeout time.Duration     `mapstructure:"timeout"`
	Small   int8              `mapstructure:"small"`
	Seed    uint64            `mapstructure:"seed"`
	On      bool              `mapstructure:"on"`
	Name    string            `mapstructure:"name"`
	Cells   [][2]int          `mapstructure:"cells"`
	Fleet   []int             `mapstructure:"fleet"`
	Shape   any               `mapstructure:"shape"`
	Weights map[string]uint16 `mapstructure:"weights"`
}

func TestLoadTypes(t *testing.T) {
	def := typed{Timeout: time.Second, Fleet: []int{4, 3, 2}, Shape: "rectangle", Weights: map[string]uint16{"a": 1}}
	tests := []struct {
		name    string
		yaml    string
		want    func(*typed)
		wantErr string
	}{
		{name: "duration with a unit", yaml: "timeout: 1500ms\n", want: func(c *typed) { c.Timeout = 1500 * time.Millisecond }},
		{name: "duration without a unit", yaml: "timeout: 5\n", wantErr: "test.yaml: timeout: got 5, want a duration with a unit such as 5s"},
		{name: "duration as a bare string", yaml: "timeout: \"5\"\n", wantErr: `timeout: got "5", want a duration with a unit such as 5s`},
		{name: "duration gibberish", yaml: "timeout: soon\n", wantErr: "want a duration with a unit such as 5s"},
		{name: "int8 in range", yaml: "small: -128\n", want: func(c *typed) { c.Small = -128 }},
		{name: "int8 overflow", yaml: "small: 128\n", wantErr: "small: got 128, want an integer that fits 8 bits"},
		{name: "negative uint", yaml: "seed: -1\n", wantErr: "seed: got -1, want a non-negative integer"},
		{name: "big uint", yaml: "seed: 18446744073709551615\n", want: func(c *typed) { c.Seed = 1<<64 - 1 }},
		{name: "bool", yaml: "on: maybe\n", wantErr: `on: got "maybe", want true or false`},
		{name: "number for a string", yaml: "name: 12\n", wantErr: "name: got 12, want a string"},
		{name: "pair", yaml: "cells: [[1, 2]]\n", want: func(c *typed) { c.Cells = [][2]int{{1, 2}} }},
		{name: "pair too long", yaml: "cells: [[1, 2, 3]]\n", wantErr: "cells[0]: got [1 2 3], want a list of 2"},
		{name: "list element", yaml: "fleet: [3, x]\n", wantErr: `fleet[1]: got "x", want an integer`},
		{name: "list replaces the default", yaml: "fleet: [1]\n", want: func(c *typed) { c.Fleet = []int{1} }},
		{name: "interface takes a list", yaml: "shape: ['#.', '##']\n", want: func(c *typed) { c.Shape = []any{"#.", "##"} }},
		{name: "map replaces the default", yaml: "weights: {b: 2}\n", want: func(c *typed) { c.Weights = map[string]uint16{"b": 2} }},
		{name: "map value", yaml: "weights: {b: -2}\n", wantErr: "weights.b: got -2, want a non-negative integer"},
		// Two bad values: the error names the first in key order, every run.
		{name: "map values in key order", yaml: "weights: {z: -1, c: -3, m: -2}\n", wantErr: "weights.c: got -3, want a non-negative integer"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := def
			got.Fleet = slices.Clone(def.Fleet)
			got.Weights = maps.Clone(def.Weights)
			err := LoadString("test.yaml", tt.yaml, &got)
			if tt.wantErr != "" {
				require.ErrorContains(t, err, tt.wantErr)
				require.ErrorIs(t, err, ErrType)
				require.ErrorIs(t, err, ErrInvalid)
				require.NotContains(t, err.Error(), "\n", "one line")
				return
			}
			require.NoError(t, err)
			want := def
			want.Fleet = slices.Clone(def.Fleet)
			want.Weights = maps.Clone(def.Weights)
			tt.want(&want)
			require.Equal(t, want, got)
		})
	}
}

func TestLoadOr(t *testing.T) {
	def := sample{Count: 1, Ratio: 0.5}
	got, err := LoadOr("", def)
	require.NoError(t, err)
	require.Equal(t, def, got)
	path := filepath.Join(t.TempDir(), "c.yaml")
	require.NoError(t, os.WriteFile(path, []byte("ratio: 0.25\n"), 0o600))
	got, err = LoadOr(path, def)
	require.NoError(t, err)
	require.Equal(t, sample{Count: 1, Ratio: 0.25}, got)
	require.NoError(t, os.WriteFile(path, []byte("count: -2\n"), 0o600))
	got, err = LoadOr(path, def)
	require.ErrorContains(t, err, "count must not be negative")
	require.Equal(t, sample{}, got)
}

func TestFile(t *testing.T) {
	require.Nil(t, File(""))
	path := filepath.Join(t.TempDir(), "c.yaml")
	require.NoError(t, os.WriteFile(path, []byte("count: 4\n"), 0o600))
	got := sample{}
	require.NoError(t, File(path)(&got))
	require.Equal(t, 4, got.Count)
	require.ErrorContains(t, File(path)(&typed{}), `unknown key "count"`)
}

func FuzzLoadString(f *testing.F) {
	f.Add("timeout: 5\n")
	f.Add("fleet: [1, 2]\nshape: rounded\nweights: {a: 3}\n")
	f.Add("cells: [[1, 2], [3]]\nsmall: 1e3\n")
	f.Fuzz(func(t *testing.T, text string) {
		var c typed
		if err := LoadString("fuzz.yaml", text, &c); err != nil {
			require.NotContains(t, err.Error(), "\n")
		}
	})
}

func TestLoadUnknownKeyIsSentinel(t *testing.T) {
	var s sample
	err := LoadString("x", "bogus: 1\n", &s)
	require.ErrorIs(t, err, ErrUnknownKey)
}

func TestLoadFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "c.yaml")
	require.NoError(t, os.WriteFile(path, []byte("ratio: 0.25\n"), 0o600))
	got := sample{Count: 1}
	require.NoError(t, Load(path, &got))
	require.Equal(t, 0.25, got.Ratio)

	err := Load(filepath.Join(dir, "missing.yaml"), &got)
	require.Error(t, err)
	require.ErrorContains(t, err, "missing.yaml")
}

// TestYAMLErrorLine: a YAML syntax error names the line that is wrong,
// not the line where its block starts (which the parser reports for a
// list item indented wrongly), in files and in text.
func TestYAMLErrorLine(t *testing.T) {
	tests := []struct {
		name, text, want string
	}{
		{"list item indented wrongly", "count: 4\nfleet:\n  - name: w\n    hp: 3\n  - name: c\n    hp: 2\n   - name: s\n", "line 7: did not find expected '-' indicator (the YAML parser says line 2, where the block around it starts)"},
		{"key indented wrongly", "count: 4\nratio: 0.5\n   shape: x\n", "line 3: mapping values are not allowed in this context"},
		{"a late line in a long block", "fleet:\n" + strings.Repeat("  - name: w\n    hp: 3\n", 7) + "   - name: s\n", "line 16: did not find expected '-' indicator (the YAML parser says line 1, where the block around it starts)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "c.yaml")
			require.NoError(t, os.WriteFile(path, []byte(tt.text), 0o600))
			err := Load(path, &sample{})
			require.ErrorIs(t, err, ErrInvalid)
			require.EqualError(t, err, "config: "+path+": "+tt.want)
			err = LoadString("c.yaml", tt.text, &sample{})
			require.ErrorContains(t, err, tt.want)
		})
	}
}
