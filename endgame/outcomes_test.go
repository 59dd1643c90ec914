package endgame

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/game/submarine"
	"github.com/kaisen-ai/kaisen/internal/race"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// TestGoldenOutcomes is the table of outcomes by material quoted in
// docs/endgame.md: for every class of the published rules the default
// table covers (at most two ships a side, three against one), the share of positions won, drawn and lost by the side to
// move and the longest win and loss.
func TestGoldenOutcomes(t *testing.T) {
	race.SkipFullSize(t)
	s := solver5(t)
	r := submarine.DefaultRules()
	var sb strings.Builder
	sb.WriteString("| to move | other | positions | won | drawn | lost | longest win | longest loss |\n")
	sb.WriteString("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |\n")
	ms := Materials(r)
	for _, a := range ms {
		for _, b := range ms {
			if !s.tb.Covers(len(a), len(b)) {
				continue
			}
			tl, err := s.tb.Tally(a, b)
			require.NoError(t, err)
			pct := func(n int) string { return fmt.Sprintf("%d (%.2f%%)", n, 100*float64(n)/float64(tl.Positions)) }
			fmt.Fprintf(&sb, "| %s | %s | %d | %s | %s | %s | %d | %d |\n", hpName(a), hpName(b), tl.Positions,
				pct(tl.Win), pct(tl.Draw), pct(tl.Loss), tl.LongestWin, tl.LongestLoss)
		}
	}
	golden(t, "outcomes.md", sb.String())
}

func hpName(hp []int) string {
	s := make([]string, len(hp))
	for i, h := range hp {
		s[i] = fmt.Sprint(h)
	}
	return strings.Join(s, "+")
}

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		require.NoError(t, os.MkdirAll("testdata", 0o755))
		require.NoError(t, os.WriteFile(path, []byte(got), 0o644))
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err)
	require.Equal(t, string(want), got)
}
