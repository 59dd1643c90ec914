package grid_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/game/grid"
)

func TestNameRoundTrip(t *testing.T) {
	b := grid.MustBoard(28, 3, []grid.Cell{1})
	for _, tc := range []struct {
		x, y int
		want string
	}{
		{0, 0, "A1"}, {2, 1, "C2"}, {25, 2, "Z3"}, {26, 0, "AA1"}, {27, 2, "AB3"},
	} {
		c, ok := b.At(tc.x, tc.y)
		require.True(t, ok)
		require.Equal(t, tc.want, b.Name(c))
		got, err := b.ParseName(tc.want)
		require.NoError(t, err)
		require.Equal(t, c, got)
	}
	require.Equal(t, "off-board(84)", b.Name(84))
	require.Equal(t, "off-board(-1)", b.Name(grid.None))
}

func TestParseNameErrors(t *testing.T) {
	b := grid.MustBoard(5, 5, []grid.Cell{1})
	for _, tc := range []struct{ text, err string }{
		{"B1", "is a rock"},
		{"F1", `"F1" is off the 5x5 board (columns A to E, rows 1 to 5)`},
		{"A0", "off the 5x5 board"},
		{"7", "want a column letter and a row number"},
		{"A1b", `row "1b" is not a number`},
	} {
		t.Run(tc.text, func(t *testing.T) {
			c, err := b.ParseName(tc.text)
			require.ErrorIs(t, err, grid.ErrName)
			require.ErrorContains(t, err, tc.err)
			require.Equal(t, grid.None, c)
		})
	}
}
