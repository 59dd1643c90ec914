package battleship_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/game/battleship"
	"github.com/kaisen-ai/kaisen/game/grid"
)

func TestColumnName(t *testing.T) {
	for _, tc := range []struct {
		x        int
		cyrillic bool
		want     string
	}{
		{0, false, "A"}, {9, false, "J"}, {10, false, "K"}, {25, false, "Z"}, {26, false, "AA"}, {27, false, "AB"}, {52, false, "BA"}, {255, false, "IV"},
		{0, true, "а"}, {8, true, "и"}, {9, true, "к"}, {10, true, "л"}, {27, true, "я"}, {28, true, "аа"},
	} {
		require.Equal(t, tc.want, battleship.ColumnName(tc.x, tc.cyrillic), "column %d cyrillic %t", tc.x, tc.cyrillic)
	}
}

func TestParseCoord(t *testing.T) {
	r := battleship.DefaultRules()
	rocky, err := battleship.NewRules(grid.MustBoard(30, 4, []grid.Cell{31}), []int{2, 1}) // a rock at B2
	require.NoError(t, err)
	cell := func(r *battleship.Rules, row, col int) grid.Cell {
		c, ok := r.Cell(row, col)
		require.True(t, ok)
		return c
	}
	for _, tc := range []struct {
		rules *battleship.Rules
		text  string
		want  grid.Cell // grid.None: an error containing err
		err   string
	}{
		{r, "A1", cell(r, 0, 0), ""},
		{r, "a1", cell(r, 0, 0), ""},
		{r, " E5 ", cell(r, 4, 4), ""},
		{r, "J10", cell(r, 9, 9), ""},
		{r, "к10", cell(r, 9, 9), ""},
		{r, "К10", cell(r, 9, 9), ""},
		{r, "д5", cell(r, 4, 4), ""},
		{r, "K1", grid.None, "off the 10x10 board (columns A to J, rows 1 to 10)"},
		{r, "A11", grid.None, "off the 10x10 board"},
		{r, "A0", grid.None, "off the 10x10 board"},
		{r, "A", grid.None, "want a column letter and a row number"},
		{r, "5", grid.None, "want a column letter and a row number"},
		{r, "", grid.None, "want a column letter and a row number"},
		{r, "A-1", grid.None, "row \"-1\" is not a number"},
		{r, "A+1", grid.None, "row \"+1\" is not a number"},
		{r, "A1x", grid.None, "row \"1x\" is not a number"},
		{r, "й1", grid.None, "not a column letter"},
		{r, "Aб1", grid.None, "mixes alphabets"},
		{r, "ZZZZZZZZ1", grid.None, "too far"},
		{rocky, "AD4", cell(rocky, 3, 29), ""},
		{rocky, "B2", grid.None, "is a rock"},
		{r, "[3,2]", cell(r, 3, 2), ""}, // the wire's [row,col]: C4
		{r, " 3, 2 ", cell(r, 3, 2), ""},
		{r, "[9,9]", cell(r, 9, 9), ""},
		{r, "[10,0]", grid.None, "off the 10x10 board (rows 0 to 9, columns 0 to 9)"},
		{r, "[1,2,3]", grid.None, "want a column letter and a row number"},
		{r, "[1,x]", grid.None, `"x" is not a number`},
		{rocky, "[1,1]", grid.None, "(B2) is a rock"},
	} {
		t.Run(tc.text, func(t *testing.T) {
			c, err := tc.rules.ParseCoord(tc.text)
			if tc.err != "" {
				require.ErrorIs(t, err, battleship.ErrCoord)
				require.ErrorContains(t, err, tc.err)
				require.Equal(t, grid.None, c)
				return
			}
			require.NoError(t, err)
			require.Equal(t, tc.want, c)
		})
	}
	// Every usable cell round-trips, in both alphabets.
	for c := range rocky.Board.Usable().All() {
		for _, cyr := range []bool{false, true} {
			got, err := rocky.ParseCoord(rocky.Coord(c, cyr))
			require.NoError(t, err)
			require.Equal(t, c, got)
		}
	}
}

// FuzzParseCoord: any text either fails with ErrCoord or names a usable
// cell whose name reads back as that cell.
func FuzzParseCoord(f *testing.F) {
	for _, s := range []string{"A1", "j10", "к10", "Aб1", "A-1", "", "ZZ99", "  e5 "} {
		f.Add(s)
	}
	r := battleship.DefaultRules()
	f.Fuzz(func(t *testing.T, s string) {
		c, err := r.ParseCoord(s)
		if err != nil {
			require.ErrorIs(t, err, battleship.ErrCoord)
			return
		}
		require.True(t, r.Board.IsUsable(c))
		back, err := r.ParseCoord(r.Coord(c, false))
		require.NoError(t, err)
		require.Equal(t, c, back)
	})
}

// TestCoordForms: people read A1 (CellName, Coord), the wire [row,col]
// (WireCoord), for the same cell.
func TestCoordForms(t *testing.T) {
	r := battleship.DefaultRules()
	for _, tc := range []struct {
		rc         [2]int // row, column
		name, wire string
	}{
		{[2]int{0, 0}, "A1", "[0,0]"},
		{[2]int{3, 2}, "C4", "[3,2]"},
		{[2]int{2, 9}, "J3", "[2,9]"}, // the why line's "on J3", once "on [2,9]"
		{[2]int{9, 9}, "J10", "[9,9]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, ok := r.Cell(tc.rc[0], tc.rc[1])
			require.True(t, ok)
			require.Equal(t, tc.name, r.CellName(c))
			require.Equal(t, tc.name, r.Coord(c, false))
			require.Equal(t, tc.wire, r.WireCoord(c))
			got, err := r.ParseCoord(tc.wire)
			require.NoError(t, err)
			require.Equal(t, c, got, "the wire's form reads back")
		})
	}
}
