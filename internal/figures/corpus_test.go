package figures

import (
	"bytes"
	"context"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/internal/cli"
)

// corpusFigure is docs/admiral.md's table of hirota's placements: 400
// games of random against hirota recorded as replays (seed 7100), read
// back by kaisen placements (about 1 CPU-s).
func corpusFigure() figure {
	match := []string{"match", "--p1", "random", "--p2", "hirota", "-n", "400", "--seed", "7100", "--progress", "never"}
	return figure{
		name: "placements-hirota-corpus",
		args: append(append(match, "--replays", "corpus/", "+"), "placements", "--player", "hirota", "corpus/"),
		play: func(t *testing.T) string {
			dir := filepath.Join(t.TempDir(), "corpus")
			var stdout, stderr bytes.Buffer
			code := cli.Run(context.Background(), append(match, "--replays", dir), nil, &stdout, &stderr)
			require.Equal(t, 0, code, stderr.String())
			stdout.Reset()
			code = cli.Run(context.Background(), []string{"placements", "--player", "hirota", dir}, nil, &stdout, &stderr)
			require.Equal(t, 0, code, stderr.String())
			return stdout.String()
		},
		quotes: []quote{{admiral, stdoutLines(1, 15)}},
	}
}
