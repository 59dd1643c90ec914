package tournament

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestPerfectScoreIsUnbounded: the 80-0-0 gave the winner a finite
// interval ([+610, +670]); a perfect record bounds one side only.
func TestPerfectScoreIsUnbounded(t *testing.T) {
	tests := []struct {
		name   string
		pairs  []Pair
		player string
		loInf  bool
		hiInf  bool
	}{
		{"80-0-0 winner", []Pair{{A: "a", B: "b", Wins: 80}}, "a", false, true},
		{"80-0-0 loser", []Pair{{A: "a", B: "b", Wins: 80}}, "b", true, false},
		{"a draw bounds both sides", []Pair{{A: "a", B: "b", Wins: 79, Draws: 1}}, "a", false, false},
		{"one loss bounds both sides", []Pair{{A: "a", B: "b", Wins: 79, Losses: 1}}, "b", false, false},
		{"lost to both", []Pair{{A: "a", B: "b", Wins: 30, Losses: 10}, {A: "a", B: "c", Wins: 40}, {A: "b", B: "c", Wins: 40}}, "c", true, false},
		{"beat one, lost to one", []Pair{{A: "a", B: "b", Wins: 30, Losses: 10}, {A: "a", B: "c", Wins: 40}, {A: "b", B: "c", Losses: 40}}, "c", false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			players := []string{"a", "b"}
			if len(tt.pairs) > 1 {
				players = append(players, "c")
			}
			res, err := FromPairs(players, 40, 1, 50, tt.pairs)
			require.NoError(t, err)
			var rt Rating
			for _, r := range res.Ratings {
				if r.Name == tt.player {
					rt = r
				}
			}
			require.Equal(t, tt.loInf, math.IsInf(rt.Lo, -1), "lo %v", rt.Lo)
			require.Equal(t, tt.hiInf, math.IsInf(rt.Hi, 1), "hi %v", rt.Hi)
			require.False(t, math.IsInf(rt.Elo, 0), "the prior keeps the rating finite")

			b, err := json.Marshal(res)
			require.NoError(t, err, "an unbounded side is JSON too")
			var back Result
			require.NoError(t, json.Unmarshal(b, &back))
			require.Equal(t, res.Ratings, back.Ratings, "null reads back as the infinite side")

			var out bytes.Buffer
			require.NoError(t, res.WriteTable(&out))
			for l := range strings.Lines(out.String()) {
				if strings.Contains(l, " "+tt.player+" ") && strings.Contains(l, "[") {
					require.Equal(t, tt.hiInf, strings.Contains(l, ", +inf]"), l)
					require.Equal(t, tt.loInf, strings.Contains(l, "[-inf, "), l)
				}
			}
		})
	}
}
