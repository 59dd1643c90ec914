package figures

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/internal/cli"
)

// gauntletFigure is docs/cli.md's gauntlet table: random against the
// submarine pool, 100 games a pair of seats, seed 1 (about 7 CPU-s). Its
// last line, the games per second, depends on the machine and is left out.
func gauntletFigure() figure {
	args := []string{"gauntlet", "random", "-n", "100", "--seed", "1"}
	return figure{
		name: "gauntlet-random",
		args: args,
		play: func(t *testing.T) string {
			var stdout, stderr bytes.Buffer
			code := cli.Run(context.Background(), append(args, "--progress", "never"), nil, &stdout, &stderr)
			require.Equal(t, 0, code, stderr.String())
			text := strings.TrimSuffix(stdout.String(), "\n")
			timing := text[strings.LastIndexByte(text, '\n')+1:]
			require.Contains(t, timing, " games in ", "the last line is the timing")
			return strings.TrimSuffix(text, timing)
		},
		quotes: []quote{{cliPage, stdoutLines(1, 17)}},
	}
}
