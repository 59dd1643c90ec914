package bsbelief

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/game/battleship"
	"github.com/kaisen-ai/kaisen/game/grid"
)

// TestEstimateStates: the estimate is close to the profiles a count makes
// on empty boards and above it, by a few times at most, on positions with
// shots (the fleet prunes profiles the bound keeps).
func TestEstimateStates(t *testing.T) {
	tests := []struct {
		name  string
		w, h  int
		fleet []int
		pos   string
	}{
		{name: "empty 6x6", w: 6, h: 6, fleet: []int{3, 2, 2, 1, 1}},
		{name: "empty 7x5", w: 7, h: 5, fleet: []int{3, 2, 1, 1}},
		{name: "empty 8x8", w: 8, h: 8, fleet: []int{4, 3, 2, 2, 1, 1}},
		{name: "shots 8x8", pos: "fleet: 4,3,2,2,1,1\n" +
			"........\n.o......\n..x.....\n........\n....o...\n........\n.o....o.\n........\n"},
		{name: "sunk 7x7", pos: "fleet: 3,2,2,1\n" +
			".......\n.##....\n.......\n...o...\n.....x.\n.......\n.o.....\n"},
		{name: "mid-game 10x10", pos: "fleet: 4,3,3,2,2,2,1,1,1,1\n" +
			"..........\n.o...o....\n...x......\n......o...\n.o........\n" +
			".....##...\n..o.......\n.......o..\n...o......\n..........\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var pos *battleship.Position
			if tt.pos != "" {
				var err error
				pos, err = battleship.ParsePosition(tt.pos, nil)
				require.NoError(t, err)
			} else {
				b, err := grid.NewBoard(tt.w, tt.h, nil)
				require.NoError(t, err)
				r, err := battleship.NewRules(b, tt.fleet)
				require.NoError(t, err)
				pos = battleship.NewPosition(r)
			}
			got, err := EstimateStates(pos)
			require.NoError(t, err)
			c, err := Count(context.Background(), pos, CountOptions{})
			require.NoError(t, err)
			ratio := float64(got) / float64(c.States)
			require.Greater(t, ratio, 0.8, "estimate %d, states %d", got, c.States)
			require.Less(t, ratio, 4.0, "estimate %d, states %d", got, c.States)
			mem, err := EstimateMemory(pos)
			require.NoError(t, err)
			require.Greater(t, mem, 50*got)
		})
	}
}

func TestEstimateGrowsWithTheBoard(t *testing.T) {
	var last int64
	for _, size := range []int{8, 10, 12, 14, 16} {
		b, err := grid.NewBoard(size, size, nil)
		require.NoError(t, err)
		r, err := battleship.NewRules(b, battleship.DefaultFleet())
		require.NoError(t, err)
		mem, err := EstimateMemory(battleship.NewPosition(r))
		require.NoError(t, err)
		require.Greater(t, mem, 2*last, "%dx%d", size, size)
		last = mem
	}
	require.Greater(t, last, int64(100)<<30, "the empty 16x16 board needs far more than 100 GiB")
}

// TestCountProgress: Progress sees every cell of the three long passes,
// in order, ending at its total.
func TestCountProgress(t *testing.T) {
	b, err := grid.NewBoard(6, 5, nil)
	require.NoError(t, err)
	r, err := battleship.NewRules(b, []int{3, 2, 1})
	require.NoError(t, err)
	asym := battleship.NewPosition(r)
	asym.Marks[7] = battleship.Water
	tests := []struct {
		name  string
		pos   *battleship.Position
		total int
		why   string
	}{
		{"empty", battleship.NewPosition(r), 5*4 + 5*4 + 5*3,
			"the first and the forward pass over the top 4 rows of the frame (5 wide after transposing), the backward pass over its top 3 (symmetric: the halves are joined)"},
		{"one miss", asym, 3 * 5 * (6 + 1), "three passes over the frame (5 wide after transposing) and its closing row"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var calls, last, total int
			_, err = Count(context.Background(), tt.pos, CountOptions{Progress: func(done, n int) {
				require.Equal(t, last+1, done)
				calls, last, total = calls+1, done, n
			}})
			require.NoError(t, err)
			require.Equal(t, tt.total, total, tt.why)
			require.Equal(t, total, last)
			require.Equal(t, total, calls)
		})
	}
}
