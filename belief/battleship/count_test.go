package bsbelief

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/game/battleship"
	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/internal/race"
)

// brute counts the layouts consistent with pos by plain enumeration of ship
// positions (independent of the dynamic programme): ships longest first,
// equal lengths in increasing position order so that each layout is seen
// once.
func brute(t testing.TB, pos *battleship.Position) (total int64, cells []int64) {
	t.Helper()
	rem, err := pos.Remaining()
	require.NoError(t, err)
	b := pos.Rules.Board
	forbidden := bruteClosed(pos)
	damaged := pos.Set(battleship.Damaged)
	cells = make([]int64, b.Size())
	lists := make([][]spot, len(rem))
	for i, l := range rem {
		lists[i] = spots(b, l, forbidden)
	}
	var rec func(i, from int, zone, occ grid.Set)
	rec = func(i, from int, zone, occ grid.Set) {
		if i == len(rem) {
			if !damaged.AndNot(occ).Empty() {
				return
			}
			total++
			for c := range occ.All() {
				cells[c]++
			}
			return
		}
		start := 0
		if i > 0 && rem[i] == rem[i-1] {
			start = from
		}
		for k := start; k < len(lists[i]); k++ {
			sp := lists[i][k]
			if sp.cells.Intersects(zone) || sp.cells.AndNot(damaged).Empty() {
				continue
			}
			rec(i+1, k+1, zone.Union(sp.zone), occ.Union(sp.cells))
		}
	}
	rec(0, 0, grid.Set{}, grid.Set{})
	return total, cells
}

func mustRules(t testing.TB, b *grid.Board, fleet ...int) *battleship.Rules {
	t.Helper()
	r, err := battleship.NewRules(b, fleet)
	require.NoError(t, err)
	return r
}

func requireCountsEqual(t *testing.T, pos *battleship.Position, got *Counts) {
	t.Helper()
	wantTotal, wantCells := brute(t, pos)
	require.Equal(t, big.NewInt(wantTotal).String(), got.Total.String(), "total for\n%s", pos.Text())
	for c := range wantCells {
		require.Equal(t, big.NewInt(wantCells[c]).String(), got.Cells[c].String(), "cell %s for\n%s", pos.Rules.CellName(grid.Cell(c)), pos.Text())
	}
}

func TestCountMatchesEnumerationOnEmptyBoards(t *testing.T) {
	shaped, err := grid.ParseShape([]string{"##.##", "#####", "###.#", "#####"})
	require.NoError(t, err)
	tests := []struct {
		name  string
		board *grid.Board
		fleet []int
	}{
		{"4x4 one ship", grid.MustBoard(4, 4, nil), []int{3}},
		{"4x4 3,2,1", grid.MustBoard(4, 4, nil), []int{3, 2, 1}},
		{"4x4 2,1,1,1", grid.MustBoard(4, 4, nil), []int{2, 1, 1, 1}},
		{"5x5 3,2,2,1", grid.MustBoard(5, 5, nil), []int{3, 2, 2, 1}},
		{"5x5 4,3,1,1", grid.MustBoard(5, 5, nil), []int{4, 3, 1, 1}},
		{"6x4 transposed 3,2,1,1", grid.MustBoard(6, 4, nil), []int{3, 2, 1, 1}},
		{"3x7 tall 3,2,1", grid.MustBoard(3, 7, nil), []int{3, 2, 1}},
		{"shaped 5x4 2,2,1", shaped, []int{2, 2, 1}},
		{"1x9 line 3,2,1", grid.MustBoard(9, 1, nil), []int{3, 2, 1}},
		{"full 2x2", grid.MustBoard(2, 2, nil), []int{1}},
		{"does not fit", grid.MustBoard(3, 3, nil), []int{3, 3}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pos := battleship.NewPosition(mustRules(t, tt.board, tt.fleet...))
			got, err := Count(context.Background(), pos, CountOptions{})
			require.NoError(t, err)
			requireCountsEqual(t, pos, got)
		})
	}
}

// TestCountMatchesEnumerationOnPlayedPositions shoots random cells at
// random layouts and checks every intermediate position.
func TestCountMatchesEnumerationOnPlayedPositions(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	boards := []struct {
		board *grid.Board
		fleet []int
	}{
		{grid.MustBoard(4, 4, nil), []int{2, 1, 1}},
		{grid.MustBoard(5, 5, nil), []int{3, 2, 1, 1}},
		{grid.MustBoard(6, 5, nil), []int{3, 2, 2, 1}},
		{grid.MustBoard(5, 5, []grid.Cell{6, 12, 18}), []int{3, 2, 1}},
	}
	games := 12
	if testing.Short() {
		games = 5
	}
	for _, bd := range boards {
		r := mustRules(t, bd.board, bd.fleet...)
		u, err := NewUniformPlacer(r)
		require.NoError(t, err)
		for g := range games {
			layout, err := u.Place(rng)
			require.NoError(t, err)
			sea, err := battleship.NewSea(r, layout)
			require.NoError(t, err)
			pos := battleship.NewPosition(r)
			cells := r.Board.Usable().Cells()
			rng.Shuffle(len(cells), func(i, j int) { cells[i], cells[j] = cells[j], cells[i] })
			for i, c := range cells {
				res, err := sea.Fire(c)
				require.NoError(t, err)
				pos.Record(res)
				if i%3 != g%3 {
					continue
				}
				got, err := Count(context.Background(), pos, CountOptions{})
				require.NoError(t, err)
				requireCountsEqual(t, pos, got)
				require.Positive(t, got.Total.Sign(), "the true layout is always consistent")
				if sea.Afloat() == 0 {
					break
				}
			}
		}
	}
}

// TestCountMatchesEnumerationOnRandomMarks uses arbitrary marks (often
// inconsistent: then both must say 0).
func TestCountMatchesEnumerationOnRandomMarks(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	r := mustRules(t, grid.MustBoard(5, 5, nil), 3, 2, 1, 1)
	n := 60
	if testing.Short() {
		n = 20
	}
	nonZero := 0
	for range n {
		pos := battleship.NewPosition(r)
		for c := range pos.Marks {
			switch x := rng.IntN(10); {
			case x < 2:
				pos.Marks[c] = battleship.Water
			case x < 3:
				pos.Marks[c] = battleship.Damaged
			}
		}
		got, err := Count(context.Background(), pos, CountOptions{})
		require.NoError(t, err)
		requireCountsEqual(t, pos, got)
		nonZero += got.Total.Sign()
	}
	require.Greater(t, nonZero, 0, "some random positions are consistent")
}

func TestCountSunkShipsCLIExample(t *testing.T) {
	// The position of internal/cli's count test, checked by enumeration.
	pos, err := battleship.ParsePosition("fleet: 3,2,1\n###..\n.....\n.....\n.....\n", nil)
	require.NoError(t, err)
	got, err := Count(context.Background(), pos, CountOptions{})
	require.NoError(t, err)
	requireCountsEqual(t, pos, got)
	require.Equal(t, "84", got.Total.String())
}

func TestCountSunkShips(t *testing.T) {
	pos, err := battleship.ParsePosition(`
fleet: 3,2,1,1
##.o.
.....
..x..
.....
.o...`, nil)
	require.NoError(t, err)
	got, err := Count(context.Background(), pos, CountOptions{})
	require.NoError(t, err)
	require.Equal(t, []int{3, 1, 1}, got.Remaining)
	requireCountsEqual(t, pos, got)
	require.Equal(t, got.Total.String(), got.Cells[12].String(), "an unsunk hit is in every layout")
	require.Equal(t, "0", got.Cells[5].String(), "next to a sunk ship")
}

func TestCountWideTallSymmetry(t *testing.T) {
	// A board and its transpose have the same total.
	a, err := Count(context.Background(), battleship.NewPosition(mustRules(t, grid.MustBoard(7, 4, nil), 3, 2, 2, 1)), CountOptions{})
	require.NoError(t, err)
	b, err := Count(context.Background(), battleship.NewPosition(mustRules(t, grid.MustBoard(4, 7, nil), 3, 2, 2, 1)), CountOptions{})
	require.NoError(t, err)
	require.Equal(t, a.Total.String(), b.Total.String())
	for y := range 4 {
		for x := range 7 {
			require.Equal(t, a.Cells[y*7+x].String(), b.Cells[x*4+y].String())
		}
	}
}

func TestCountMultiLimbAgrees(t *testing.T) {
	pos := battleship.NewPosition(mustRules(t, grid.MustBoard(6, 6, nil), 3, 2, 2, 1, 1))
	pos.Marks[8], pos.Marks[20] = battleship.Water, battleship.Damaged
	pr, err := newProblem(pos)
	require.NoError(t, err)
	var results []*Counts
	for _, m := range []int{1, 2, 4} {
		c := &counter{problem: pr, m: m, ctx: context.Background()}
		res, err := c.run()
		require.NoError(t, err)
		results = append(results, res)
	}
	for _, res := range results[1:] {
		require.Equal(t, results[0].Total.String(), res.Total.String())
		for i := range res.Cells {
			require.Equal(t, results[0].Cells[i].String(), res.Cells[i].String())
		}
	}
}

func TestCountBudgetAndContext(t *testing.T) {
	pos := battleship.NewPosition(mustRules(t, grid.MustBoard(8, 8, nil), 4, 3, 2, 1))
	_, err := Count(context.Background(), pos, CountOptions{MaxWork: 1000})
	require.ErrorIs(t, err, ErrBudget)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = Count(ctx, pos, CountOptions{})
	require.ErrorIs(t, err, context.Canceled)
}

func TestCountRejectsInconsistentSunkShips(t *testing.T) {
	tests := []struct{ name, text, want string }{
		{"bent sunk ship", "fleet: 3,1\n##...\n.#...\n.....", "not straight"},
		{"no such ship", "fleet: 3,1\n##...\n.....\n.....", "no such ship"},
		{"hit next to sunk", "fleet: 3,1\n#x...\n.....\n.....", "touches sunk ship"},
		{"sunk ships touch", "fleet: 2,1,1\n#....\n.#...\n.....", "touches another sunk ship"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pos, err := battleship.ParsePosition(tt.text, nil)
			require.NoError(t, err)
			_, err = Count(context.Background(), pos, CountOptions{})
			require.ErrorIs(t, err, battleship.ErrPosition)
			require.ErrorContains(t, err, tt.want)
		})
	}
}

// seedMap is the per-cell map of the empty 10x10 board divided by 1e9, as
// printed in shared/seeds/001-density-dp-en.txt.
const seedMap = `438487 418064 475795 466986 459000 459000 466986 475795 418064 438487
418064 273993 311381 287231 287065 287065 287231 311381 273993 418064
475795 311381 378334 357367 361127 361127 357367 378334 311381 475795
466986 287231 357367 330652 334756 334756 330652 357367 287231 466986
459000 287065 361127 334756 338709 338709 334756 361127 287065 459000
459000 287065 361127 334756 338709 338709 334756 361127 287065 459000
466986 287231 357367 330652 334756 334756 330652 357367 287231 466986
475795 311381 378334 357367 361127 361127 357367 378334 311381 475795
418064 273993 311381 287231 287065 287065 287231 311381 273993 418064
438487 418064 475795 466986 459000 459000 466986 475795 418064 438487`

// TestFullSizeCountEmptyClassicBoard pins the count and the per-cell map of
// the empty classic board quoted in docs/battleship.md; the full 10x10 count
// takes seconds (tens under -race).
func TestFullSizeCountEmptyClassicBoard(t *testing.T) {
	race.SkipFullSize(t)
	got, err := Count(context.Background(), battleship.NewPosition(battleship.DefaultRules()), CountOptions{})
	require.NoError(t, err)
	require.Equal(t, "1855545978831780", got.Total.String())
	require.Equal(t, seedMap, FormatMap(got.Cells, 10, big.NewInt(1e9)))
}

// FormatMap is used by the test above and by kaisen count; check it alone.
func TestFormatMap(t *testing.T) {
	cells := []*big.Int{big.NewInt(1999), big.NewInt(0), big.NewInt(12000), big.NewInt(5)}
	require.Equal(t, "1 0\n12 0", FormatMap(cells, 2, big.NewInt(1000)))
	require.Equal(t, "1999 0\n12000 5", FormatMap(cells, 2, big.NewInt(1)))
}

func ExampleCount() {
	pos, err := battleship.ParsePosition(`
fleet: 2,1
....
.o..
..x.
....`, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	c, err := Count(context.Background(), pos, CountOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("layouts:", c.Total)
	fmt.Println(FormatMap(c.Cells, 4, big.NewInt(1)))
	// Output:
	// layouts: 22
	// 4 3 3 3
	// 3 0 4 0
	// 3 4 22 7
	// 3 0 7 0
}

func TestExampleNumbersByEnumeration(t *testing.T) {
	// The Example's numbers are not made up: enumeration agrees.
	pos, err := battleship.ParsePosition("fleet: 2,1\n....\n.o..\n..x.\n....", nil)
	require.NoError(t, err)
	total, cells := brute(t, pos)
	require.Equal(t, int64(22), total)
	var sb strings.Builder
	for i, v := range cells {
		if i%4 > 0 {
			sb.WriteByte(' ')
		} else if i > 0 {
			sb.WriteByte('\n')
		}
		fmt.Fprint(&sb, v)
	}
	require.Equal(t, "4 3 3 3\n3 0 4 0\n3 4 22 7\n3 0 7 0", sb.String())
}

// FuzzCountParsedPosition: counting any parsed position never panics (small
// ones finish fast); it fails only with a known error.
func FuzzCountParsedPosition(f *testing.F) {
	f.Add("fleet: 2,1\n....\n.o..\n..x.\n#...")
	f.Add("..........\n..........\n")
	f.Add("-o-\nx#x\n")
	f.Add("fleet: 1:4,2:3\n. . .\n")
	f.Add("// c\n\n##\n##")
	f.Fuzz(func(t *testing.T, text string) {
		p, err := battleship.ParsePosition(text, nil)
		if err != nil || p.Rules.Board.Size() > 30 {
			return
		}
		_, err = Count(context.Background(), p, CountOptions{MaxWork: 1 << 22})
		if err != nil {
			require.True(t, isKnownCountError(err), "unexpected error %v", err)
		}
	})
}

func isKnownCountError(err error) bool {
	for _, target := range []error{battleship.ErrPosition, ErrBudget} {
		if errors.Is(err, target) {
			return true
		}
	}
	return false
}

// bruteClosed is the brute-force oracles' own reading of the cells no
// remaining ship may cover (water, rocks, sunk ships and their
// surroundings), kept apart from the counting code's.
func bruteClosed(pos *battleship.Position) grid.Set {
	b := pos.Rules.Board
	var forbidden grid.Set
	for c, m := range pos.Marks {
		if m == battleship.Water || m == battleship.Sunk || m == battleship.Rock {
			forbidden.Add(grid.Cell(c))
		}
	}
	for c := range pos.Set(battleship.Sunk).All() {
		forbidden = forbidden.Union(b.Around(c))
	}
	return forbidden
}
