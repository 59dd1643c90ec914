package cli

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// humanGolden is one kaisen play --human --against run whose whole output
// and replays are pinned under testdata/: stdout with the replay directory
// written DIR, then each replay file, in name order.
type humanGolden struct {
	name  string
	input string
	args  []string
}

// subTypist is a scripted submarine person that also types what the seat
// must refuse: help, the boards, a typo, an illegal move, an attack out of
// reach; it then tries cells from a rotating start until one is in reach.
func subTypist(turns int, seed uint64) string {
	rng := rand.New(rand.NewPCG(seed, 9))
	var sb strings.Builder
	sb.WriteString("0 0 0 0 1\n0,0 0,0 1,1\nr\n")
	for k := range turns {
		switch k % 5 {
		case 1:
			sb.WriteString("help\nb\nfire 1 1\n")
		case 3:
			fmt.Fprintf(&sb, "m %s %d %d\nm q 1 1\n", []string{"w", "c", "s"}[rng.IntN(3)], rng.IntN(5), rng.IntN(5))
		}
		start := rng.IntN(25)
		for i := range 25 {
			c := (start + i) % 25
			fmt.Fprintf(&sb, "a %d %d\n", c%5, c/5)
		}
	}
	return sb.String()
}

// bsTypist is a scripted Battleship person with refused lines: a bad
// fleet, junk, a blank line, help and the boards, then every cell in a
// random order (each once, so a repeat is a refusal only when typed twice
// on purpose).
func bsTypist(seed uint64, cut int) string {
	rng := rand.New(rand.NewPCG(seed, 9))
	var sb strings.Builder
	sb.WriteString("A1-D2\nr\n")
	cells := make([]string, 0, 100)
	for row := 1; row <= 10; row++ {
		for _, col := range "ABCDEFGHIJ" {
			cells = append(cells, fmt.Sprintf("%c%d", col, row))
		}
	}
	rng.Shuffle(len(cells), func(i, j int) { cells[i], cells[j] = cells[j], cells[i] })
	for i, c := range cells {
		if cut > 0 && i == cut {
			break
		}
		switch i % 17 {
		case 3:
			sb.WriteString("K11\n\nhelp\n")
		case 9:
			sb.WriteString("b\nfire\n" + cells[max(0, i-1)] + "\n")
		}
		sb.WriteString(c + "\n")
	}
	return sb.String()
}

var humanGoldens = []humanGolden{
	{"human-submarine-admiral", subTypist(400, 1), []string{"--against", "admiral", "--seed", "7"}},
	{"human-submarine-stateplayer2-reveal-series", subTypist(12, 3) + subTypist(60, 4), []string{"--against", "stateplayer2", "--games", "2", "--seed", "8", "--reveal-ai"}},
	{"human-submarine-no-input", "", []string{"--against", "random", "--seed", "1"}},
	{"human-submarine-resigns", "r\na 9 9\n", []string{"--against", "hirota", "--seed", "2"}},
	{"human-battleship-gridbot", bsTypist(4, 0) + bsTypist(5, 0), []string{"--game", "battleship", "--against", "gridbot", "--games", "2", "--seed", "3"}},
	{"human-battleship-density-reveal-passes", bsTypist(6, 30), []string{"--game", "battleship", "--against", "density", "--seed", "4", "--reveal-ai"}},
}

// TestHumanGoldenTranscripts pins, byte for byte, what a person sees and
// the replays written for scripted games against built-in AIs.
func TestHumanGoldenTranscripts(t *testing.T) {
	for _, tt := range humanGoldens {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			args := append([]string{"play", "--human", "--replays", dir}, tt.args...)
			code, stdout, stderr := humanRun(t, tt.input, args...)
			require.Equal(t, 0, code, stderr)
			got := strings.ReplaceAll(stdout, dir, "DIR")
			entries, err := os.ReadDir(dir)
			require.NoError(t, err)
			names := make([]string, 0, len(entries))
			for _, e := range entries {
				names = append(names, e.Name())
			}
			slices.Sort(names)
			for _, n := range names {
				data, err := os.ReadFile(filepath.Join(dir, n))
				require.NoError(t, err)
				got += "==> " + n + " <==\n" + string(data)
			}
			path := filepath.Join("testdata", tt.name+".golden")
			if *update { // writes a new transcript only
				if _, err := os.Stat(path); err == nil {
					t.Fatalf("%s exists: a golden transcript is never rewritten", path)
				}
				require.NoError(t, os.WriteFile(path, []byte(got), 0o644))
			}
			want, err := os.ReadFile(path)
			require.NoError(t, err)
			require.Equal(t, string(want), got)
		})
	}
}
