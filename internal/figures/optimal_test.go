package figures

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/internal/cli"
)

// smallBoards are the boards of docs/battleship.md's exact tables ("How
// far greedy is from optimal"), a few seconds each at most.
var smallBoards = []string{"3x4:2,1", "4x3:3,1", "3x4:2,2", "3x5:2,1", "3x5:3,2", "5x3:2,1,1",
	"4x4:2,1", "4x4:3,2", "4x4:3,2,1", "4x4:2,1,1", "4x4:2,2,1", "4x4:3,1,1", "4x4:2,1,1,1"}

// optimalFigures are the exact tables: kaisen optimal with greedy, and
// the other policies' expected shots side by side (one kaisen optimal
// --policy P --json run per policy, gathered into a table).
func optimalFigures() []figure {
	policies := []string{"greedy", "entropy-tie", "entropy:1", "lookahead"}
	return []figure{
		{
			name:   "optimal-small",
			args:   append([]string{"optimal"}, smallBoards...),
			quotes: []quote{{battleship, stdoutLines(1, 1+len(smallBoards))}},
		},
		{
			name: "optimal-policies",
			args: append(append([]string{"optimal"}, smallBoards...), "--policy", "P", "--json", "(P: "+strings.Join(policies, ", ")+")"),
			play: func(t *testing.T) string {
				values := map[string][]float64{}
				var opt []float64
				for _, p := range policies {
					var out, errOut bytes.Buffer
					code := cli.Run(context.Background(), append(append([]string{"optimal"}, smallBoards...), "--policy", p, "--json"), nil, &out, &errOut)
					require.Equal(t, 0, code, errOut.String())
					var got struct {
						Boards []struct {
							Optimal float64 `json:"optimal"`
							Value   float64 `json:"value"`
						} `json:"boards"`
					}
					require.NoError(t, json.Unmarshal(out.Bytes(), &got))
					opt = opt[:0]
					for _, b := range got.Boards {
						opt = append(opt, b.Optimal)
						values[p] = append(values[p], b.Value)
					}
				}
				var sb strings.Builder
				fmt.Fprintf(&sb, "| board | fleet | optimal | %s |\n| --- | --- | ---: |%s\n", strings.Join(policies, " | "), strings.Repeat(" ---: |", len(policies)))
				for i, b := range smallBoards {
					size, fleet, _ := strings.Cut(b, ":")
					fmt.Fprintf(&sb, "| %s | %s | %.4f |", size, fleet, opt[i])
					for _, p := range policies {
						fmt.Fprintf(&sb, " %.4f |", values[p][i])
					}
					sb.WriteByte('\n')
				}
				return sb.String()
			},
			quotes: []quote{{battleship, func(o *output) string { return strings.TrimSuffix(o.text, "\n") }}},
		},
	}
}
