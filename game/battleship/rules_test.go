package battleship

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/game/grid"
)

func TestParseFleet(t *testing.T) {
	tests := []struct {
		in      string
		want    []int
		wantErr string
	}{
		{in: "4,3,3,2,2,2,1,1,1,1", want: DefaultFleet()},
		{in: "1:4, 2:3, 3:2, 4:1", want: DefaultFleet()},
		{in: "1,5,2", want: []int{5, 2, 1}},
		{in: "3:2,1", want: []int{3, 3, 1}},
		{in: "", wantErr: "empty item"},
		{in: "4,,1", wantErr: "empty item"},
		{in: "0", wantErr: "length"},
		{in: "x", wantErr: "length"},
		{in: "2:0", wantErr: "count"},
		{in: "1:65", wantErr: "count"},
		{in: "1:40,1:40", wantErr: "more than 64 ships"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParseFleet(tt.in)
			if tt.wantErr != "" {
				require.ErrorContains(t, err, tt.wantErr)
				return
			}
			require.NoError(t, err)
			require.Equal(t, tt.want, got)
			back, err := ParseFleet(FormatFleet(got))
			require.NoError(t, err)
			require.Equal(t, got, back)
		})
	}
}

func TestNewRules(t *testing.T) {
	tests := []struct {
		name    string
		board   *grid.Board
		fleet   []int
		wantErr string
	}{
		{name: "classic", board: grid.MustBoard(10, 10, nil), fleet: DefaultFleet()},
		{name: "sorted for you", board: grid.MustBoard(6, 6, nil), fleet: []int{1, 3, 2}},
		{name: "no board", fleet: []int{1}, wantErr: "no board"},
		{name: "no ships", board: grid.MustBoard(3, 3, nil), wantErr: "fleet has 0 ships"},
		{name: "too long", board: grid.MustBoard(3, 3, nil), fleet: []int{4}, wantErr: "length 4"},
		{name: "too many cells", board: grid.MustBoard(3, 3, nil), fleet: []int{3, 3, 3, 1}, wantErr: "needs 10 cells"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := NewRules(tt.board, tt.fleet)
			if tt.wantErr != "" {
				require.ErrorIs(t, err, ErrRules)
				require.ErrorContains(t, err, tt.wantErr)
				return
			}
			require.NoError(t, err)
			require.Equal(t, 4*tt.board.Usable().Count(), r.DrawLimit)
			for i := 1; i < len(r.Fleet); i++ {
				require.GreaterOrEqual(t, r.Fleet[i-1], r.Fleet[i])
			}
		})
	}
	r := DefaultRules()
	require.Equal(t, 20, r.FleetCells())
	require.Equal(t, "H3", r.CellName(27), "cells are [row,col]")
	require.Equal(t, "off-board(100)", r.CellName(100))
	c, ok := r.Cell(2, 7)
	require.True(t, ok)
	require.Equal(t, grid.Cell(27), c)
	row, col := r.RowCol(27)
	require.Equal(t, [2]int{2, 7}, [2]int{row, col})
}

// ship builds a ship from [row,col] pairs on a 10-wide board.
func ship(rc ...int) Ship {
	s := make(Ship, 0, len(rc)/2)
	for i := 0; i+1 < len(rc); i += 2 {
		s = append(s, grid.Cell(rc[i]*10+rc[i+1]))
	}
	return s
}

// classicLayout is a valid Russian layout:
//
//	####.#.#.#    row 0: 4-ship, three 1-ships
//	..........
//	###.###.##    row 2: two 3-ships and a 2-ship
//	..........
//	##.##.....    row 4: two 2-ships
//	.........#    row 5: the fourth 1-ship
func classicLayout() Placement {
	return Placement{
		ship(0, 0, 0, 1, 0, 2, 0, 3),
		ship(2, 0, 2, 1, 2, 2), ship(2, 4, 2, 5, 2, 6),
		ship(2, 8, 2, 9), ship(4, 0, 4, 1), ship(4, 3, 4, 4),
		ship(0, 5), ship(0, 7), ship(0, 9), ship(5, 9),
	}
}

func TestValidatePlacement(t *testing.T) {
	r := DefaultRules()
	replace := func(i int, s Ship) Placement {
		p := classicLayout()
		p[i] = s
		return p
	}
	tests := []struct {
		name string
		p    Placement
		want []string // every message expected in the joined error
	}{
		{name: "valid", p: classicLayout()},
		{name: "valid vertical", p: replace(0, ship(6, 0, 7, 0, 8, 0, 9, 0))},
		{name: "bent", p: replace(1, ship(6, 0, 6, 1, 7, 1)), want: []string{"ship 1 (A7-B8) is not straight"}},
		{name: "gap", p: replace(1, ship(6, 0, 6, 1, 6, 3)), want: []string{"not connected"}},
		{name: "corner touch", p: replace(9, ship(1, 4)), want: []string{"touch"}},
		{name: "side touch", p: replace(9, ship(1, 0)), want: []string{"ships 0 (A1-D1) and 9 (A2) touch"}},
		{name: "overlap", p: replace(9, ship(0, 0)), want: []string{"share cell A1"}},
		{name: "off board", p: replace(9, Ship{100}), want: []string{"off the board"}},
		{name: "duplicate cell", p: replace(3, ship(8, 8, 8, 8)), want: []string{"listed twice"}},
		{name: "empty ship", p: replace(9, Ship{}), want: []string{"ship 9 has no cells", "3 ships of length 1, the fleet has 4"}},
		{name: "wrong fleet", p: replace(0, ship(7, 0, 7, 1, 7, 2)), want: []string{"0 ships of length 4", "3 ships of length 3"}},
		{name: "several problems", p: append(replace(1, ship(6, 0, 7, 1)), ship(9, 9)), want: []string{"not connected", "5 ships of length 1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := r.ValidatePlacement(tt.p)
			if len(tt.want) == 0 {
				require.NoError(t, err)
				return
			}
			require.ErrorIs(t, err, ErrPlacement)
			for _, w := range tt.want {
				require.ErrorContains(t, err, w)
			}
		})
	}
	// Rocks.
	rocky := mustRules(t, grid.MustBoard(4, 4, []grid.Cell{5}), 2)
	err := rocky.ValidatePlacement(Placement{{4, 5}})
	require.ErrorContains(t, err, "is a rock")
}

func TestShipsOf(t *testing.T) {
	b := grid.MustBoard(10, 10, nil)
	got := ShipsOf(b, classicLayout().Cells())
	require.Equal(t, classicLayout().Normalize(), got.Normalize())
	require.Len(t, got, 10)
	// Diagonal neighbours are separate groups.
	require.Len(t, ShipsOf(b, grid.Of(0, 11)), 2)
}

func ExampleRules_ValidatePlacement() {
	r := DefaultRules()
	p := classicLayout()
	p[9] = Ship{14} // [1,4]: next to three ships
	err := r.ValidatePlacement(p)
	for _, line := range strings.Split(err.Error(), "\n") {
		fmt.Println(line)
	}
	fmt.Println(errors.Is(err, ErrPlacement))
	// Output:
	// battleship: invalid placement: ships 0 (A1-D1) and 9 (E2) touch at D1/E2
	// battleship: invalid placement: ships 2 (E3-G3) and 9 (E2) touch at E3/E2
	// battleship: invalid placement: ships 6 (F1) and 9 (E2) touch at F1/E2
	// true
}

func mustRules(t testing.TB, b *grid.Board, fleet ...int) *Rules {
	t.Helper()
	r, err := NewRules(b, fleet)
	require.NoError(t, err)
	return r
}
