package config

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

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
		{name: "wrong type", yaml: "count: many\n", wantErr: "count"},
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
