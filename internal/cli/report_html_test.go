package cli

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestReportPages: tournament, shots and count --html write a page with
// their results while printing what they print without it.
func TestReportPages(t *testing.T) {
	dir := t.TempDir()
	position := filepath.Join(dir, "pos.txt")
	require.NoError(t, os.WriteFile(position, []byte("fleet: 3,2,1\n.....\n.o...\n..x..\n.....\n....#\n"), 0o644))
	tests := []struct {
		name string
		args []string
		want []string // in the page
	}{
		{"tournament", []string{"tournament", "--players", "simple,random", "-n", "4", "--seed", "1", "--bootstrap", "20", "--progress", "never"},
			[]string{"<title>Tournament: simple, random</title>", `<table class="cross">`, "100.0%<small>4-0-0</small>", `<circle class="dot"`, "4 games per pair"}},
		{"shots", []string{"shots", "--player", "gridbot", "-n", "30", "--seed", "2", "--size", "6x6", "--fleet", "3,2,1", "--progress", "never"},
			[]string{"<title>Shots per game: gridbot</title>", `<rect class="bar"`, " of 30</title>", "seed 2"}},
		{"count", []string{"count", position},
			[]string{"<title>Battleship layout counts</title>", `<table class="heat">`, `title="C3: `, ">x</td>", ">o</td>", ">#</td>"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, plain, stderr := matchRun(t, context.Background(), tt.args...)
			require.Equal(t, 0, code, stderr)
			page := filepath.Join(dir, tt.name+".html")
			code, stdout, stderr := matchRun(t, context.Background(), append(tt.args, "--html", page)...)
			require.Equal(t, 0, code, stderr)
			if tt.name != "shots" { // shots prints wall-clock times
				require.Equal(t, plain, stdout, "the usual output, unchanged")
			}
			b, err := os.ReadFile(page)
			require.NoError(t, err)
			for _, w := range tt.want {
				require.Contains(t, string(b), w)
			}
			require.NotContains(t, string(b), "<script")
		})
	}
	code, _, stderr := matchRun(t, context.Background(), "count", "--html", filepath.Join(dir, "no-such-dir", "x.html"))
	require.Equal(t, 1, code)
	require.True(t, strings.Contains(stderr, "no such file"), stderr)
}
