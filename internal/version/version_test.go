package version

import (
	"runtime/debug"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestFromBuildInfo(t *testing.T) {
	stamps := []debug.BuildSetting{
		{Key: "vcs", Value: "git"},
		{Key: "vcs.revision", Value: "0a373ba0c5d1e2f3a4b5c6d7e8f9a0b1c2d3e4f5"},
		{Key: "vcs.time", Value: "2026-11-25T11:28:00Z"},
		{Key: "vcs.modified", Value: "true"},
	}
	tests := []struct {
		name     string
		main     string
		settings []debug.BuildSetting
		want     string
		modified bool
	}{
		{"tagged release", "v1.2.0", nil, "v1.2.0", false},
		{"go build in a checkout", "v0.0.0-20261125112800-0a373ba0c5d1+dirty", stamps, "v0.0.0-20261125112800-0a373ba0c5d1+dirty", true},
		{"devel with stamps", "(devel)", stamps, "(devel) 0a373ba0c5d1+dirty", true},
		{"devel clean", "", stamps[:2], "(devel) 0a373ba0c5d1", false},
		{"nothing known", "", nil, "(devel)", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			info := FromBuildInfo(&debug.BuildInfo{GoVersion: "go1.26", Main: debug.Module{Version: tt.main}, Settings: tt.settings})
			require.Equal(t, tt.want, info.String())
			require.Equal(t, tt.modified, info.Modified)
			require.Equal(t, "go1.26", info.Go)
		})
	}
}

func TestGetIsStable(t *testing.T) {
	require.Equal(t, Get().String(), String())
	require.NotEmpty(t, String())
}
