package endgame

import (
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/game/submarine"
	"github.com/kaisen-ai/kaisen/internal/race"
)

var (
	defaultOnce   sync.Once
	defaultSolver *Solver
)

// solver5 is one solver of the published rules for the whole test binary,
// so each class is solved once.
func solver5(t testing.TB) *Solver {
	t.Helper()
	defaultOnce.Do(func() {
		s, err := Shared(submarine.DefaultRules(), Options{})
		if err != nil {
			panic(err)
		}
		defaultSolver = s
	})
	return defaultSolver
}

func parse(t testing.TB, s string) Position {
	t.Helper()
	p, err := ParsePosition(submarine.DefaultRules(), s)
	require.NoError(t, err)
	return p
}

// TestWorkedExamples are positions of the published rules checked by hand.
func TestWorkedExamples(t *testing.T) {
	tests := []struct {
		name string
		pos  string
		want Value
	}{
		// The battleship attacks the submarine's cell and sinks it.
		{"battleship next to a lone submarine, battleship to move", "w@1,1:3 / s@2,2:1", Value{Win, 1, true}},
		// The submarine cannot sink 3 hp before the battleship steps away,
		// and the battleship can never catch it (a lone ship to move always
		// has a cell of its row or column out of the enemy's reach, so a
		// lone ship to move is never lost).
		{"the same with the submarine to move", "s@2,2:1 / w@1,1:3", Value{Draw, 0, true}},
		{"a stronger lone ship far from a weaker one", "w@0,0:3 / s@4,4:1", Value{Draw, 0, true}},
		// A hit that does not sink leaves the enemy to move, and it flees.
		{"cruiser next to a 2-hp cruiser", "c@0,0:2 / c@1,0:2", Value{Draw, 0, true}},
		// Two 1-hp ships on one enemy 1-hp ship: the side to move sinks it.
		{"two ships, one in reach", "w@0,0:1 c@4,4:1 / s@1,1:1", Value{Win, 1, true}},
		// The lone submarine is to move and adjacent to the battleship only:
		// it escapes; sharing the battleship's cell it would be hit as well.
		{"lone submarine on the battleship's cell, to move", "s@2,2:1 / w@2,2:3", Value{Draw, 0, true}},
	}
	s := solver5(t)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := s.Solve(parse(t, tc.pos))
			require.NoError(t, err)
			require.Equal(t, tc.want, got)
		})
	}
}

// TestLoneShips: on 5x5 a lone ship against a lone ship is won exactly when
// the side to move can sink the enemy at once (in reach, 1 hp left), and
// drawn otherwise: a lone ship to move always escapes, so a hit that does
// not sink is answered by a flight.
func TestLoneShips(t *testing.T) {
	s := solver5(t)
	r := submarine.DefaultRules()
	b := r.Board
	for ha := 1; ha <= 3; ha++ {
		for hb := 1; hb <= 3; hb++ {
			for ca := range grid.Cell(25) {
				for cb := range grid.Cell(25) {
					var m, o submarine.Fleet
					m.Pos[0], m.HP[0] = ca, int8(ha)
					o.Pos[0], o.HP[0] = cb, int8(hb)
					p, err := NewPosition(r, m, o)
					require.NoError(t, err)
					got, err := s.Solve(p)
					require.NoError(t, err)
					want := Value{Outcome: Draw, Exact: true}
					if hb == 1 && b.Chebyshev(ca, cb) <= 1 {
						want = Value{Outcome: Win, Plies: 1, Exact: true}
					}
					require.Equal(t, want, got, "%s", p)
				}
			}
		}
	}
}

// dihedral maps (x, y) on an n x n board by symmetry k (0..7).
func dihedral(k, n, x, y int) (int, int) {
	if k&4 != 0 {
		x, y = y, x
	}
	if k&1 != 0 {
		x = n - 1 - x
	}
	if k&2 != 0 {
		y = n - 1 - y
	}
	return x, y
}

// TestSymmetry: a position and its 8 images under the symmetries of the
// empty 5x5 board have the same value, for random positions of every
// material the table covers.
func TestSymmetry(t *testing.T) {
	s := solver5(t)
	r := submarine.DefaultRules()
	rng := rand.New(rand.NewPCG(11, 12))
	n := 3000
	if light() {
		n = 300
	}
	for range n {
		p := randomPosition(rng, r, 1+rng.IntN(2), 1+rng.IntN(2))
		want, err := s.Solve(p)
		require.NoError(t, err)
		for k := 1; k < 8; k++ {
			q := p
			for _, f := range []*submarine.Fleet{&q.Mover, &q.Other} {
				f.Occupied = grid.Set{}
				for i := range 3 {
					if f.Alive.Has(i) {
						x, y := r.Board.XY(f.Pos[i])
						x, y = dihedral(k, 5, x, y)
						f.Pos[i], _ = r.Board.At(x, y)
						f.Occupied.Add(f.Pos[i])
					}
				}
			}
			got, err := s.Solve(q)
			require.NoError(t, err)
			require.Equal(t, want, got, "%s and its image %s", p, q)
		}
	}
}

// randomPosition draws a position of the published fleet with na living
// ships to move against nb.
func randomPosition(rng *rand.Rand, r *submarine.Rules, na, nb int) Position {
	var f [2]submarine.Fleet
	for side, n := range []int{na, nb} {
		ships := rng.Perm(3)[:n]
		cells := rng.Perm(25)
		for k, i := range ships {
			f[side].Pos[i] = grid.Cell(cells[k])
			f[side].HP[i] = int8(1 + rng.IntN(r.Fleet[i].HP))
		}
	}
	p, err := NewPosition(r, f[0], f[1])
	if err != nil {
		panic(err)
	}
	return p
}

// TestKnown builds a position from what a player holds and checks it
// against errors.
func TestKnown(t *testing.T) {
	r := submarine.DefaultRules()
	me := submarine.NewFleet(r, submarine.Placement{0, 1, 2})
	me.HP[2], me.Alive = 0, me.Alive.Without(2)
	p, err := Known(r, me, submarine.Placement{24, grid.None, 23}, [submarine.MaxShips]int8{2, 0, 1})
	require.NoError(t, err)
	require.Equal(t, "w@0,0:3 c@1,0:2 / w@4,4:2 s@3,4:1", p.String())
	require.Equal(t, "w@4,4:2 s@3,4:1 / w@0,0:3 c@1,0:2", p.Swap().String())

	_, err = Known(r, me, submarine.Placement{24}, [submarine.MaxShips]int8{2, 0, 1})
	require.ErrorIs(t, err, ErrPosition)
	_, err = Known(r, me, submarine.Placement{24, 0, 24}, [submarine.MaxShips]int8{2, 0, 1})
	require.ErrorIs(t, err, ErrPosition, "two enemy ships on one cell")
	_, err = Known(r, me, submarine.Placement{24, 0, 23}, [submarine.MaxShips]int8{})
	require.ErrorIs(t, err, ErrPosition, "no enemy ship")
}

func TestParsePositionErrors(t *testing.T) {
	r := submarine.DefaultRules()
	for _, s := range []string{
		"", "w@0,0:3", "w@0,0:3 / s@1,1:1 / c@2,2:2", "x@0,0:1 / s@1,1:1",
		"w@5,0:1 / s@1,1:1", "w@0,0:4 / s@1,1:1", "w@0,0:0 / s@1,1:1",
		"w@0,0:1 w@1,1:1 / s@1,1:1", "w@0,0:1 c@0,0:1 / s@1,1:1", "w@0,0 / s@1,1:1",
		"w0,0:1 / s@1,1:1", "w@a,0:1 / s@1,1:1", " / s@1,1:1",
	} {
		_, err := ParsePosition(r, s)
		require.ErrorIs(t, err, ErrPosition, "%q", s)
	}
}

func FuzzParsePosition(f *testing.F) {
	for _, s := range []string{"w@1,1:3 / s@2,2:1", "w@0,0:1 c@4,4:2 s@2,2:1 / w@0,0:3 c@0,1:1", "c@-1,0:1 / s@0,0:1", "/"} {
		f.Add(s)
	}
	r := submarine.DefaultRules()
	sv := newSolver(solver5(f).tb, Options{Nodes: 500})
	f.Fuzz(func(t *testing.T, s string) {
		p, err := ParsePosition(r, s)
		if err != nil {
			require.ErrorIs(t, err, ErrPosition)
			return
		}
		q, err := ParsePosition(r, p.String())
		require.NoError(t, err)
		require.Equal(t, p, q)
		// Every valid position is solved, and its best action has its value.
		v, err := sv.Solve(p)
		require.NoError(t, err)
		best, err := sv.Best(p)
		require.NoError(t, err)
		if v.Exact {
			require.Equal(t, v, best.Value)
		}
	})
}

// TestSharedConcurrent: games asking the same shared tablebase at once get
// the same answers as one alone (run with -race).
func TestSharedConcurrent(t *testing.T) {
	r := submarine.DefaultRules()
	rng := rand.New(rand.NewPCG(5, 6))
	var ps []Position
	for range 200 {
		ps = append(ps, randomPosition(rng, r, 1+rng.IntN(2), 1))
	}
	want := make([]Value, len(ps))
	for i, p := range ps {
		v, err := solver5(t).Solve(p)
		require.NoError(t, err)
		want[i] = v
	}
	fresh := NewTablebase(r.Board, 0)
	var wg sync.WaitGroup
	got := make([][]Value, 4)
	for g := range got {
		wg.Go(func() {
			s := newSolver(fresh, Options{})
			for _, p := range ps {
				v, err := s.Solve(p)
				if err != nil {
					panic(err)
				}
				got[g] = append(got[g], v)
			}
		})
	}
	wg.Wait()
	for g := range got {
		require.Equal(t, want, got[g])
	}
}

// TestFullSizeSearchMatchesTable: on 4x4 with the published fleet, where a table of
// three ships against two is cheap, the search (with the default table of
// at most two ships a side and three against one as leaves) never
// contradicts the exact table on random positions of three against two, and
// its distances are upper bounds.
func TestFullSizeSearchMatchesTable(t *testing.T) {
	race.SkipFullSize(t)
	r := submarine.DefaultRules()
	r.Board = grid.MustBoard(4, 4, nil)
	exact, err := New(r, Options{TableLimit: 1 << 22})
	require.NoError(t, err)
	s, err := New(r, Options{TableLimit: 200_000, Nodes: 20_000})
	require.NoError(t, err)
	require.False(t, s.tb.Covers(3, 2))
	require.True(t, s.tb.Covers(2, 2))
	require.True(t, s.tb.Covers(3, 1))
	require.True(t, exact.tb.Covers(3, 2))
	rng := rand.New(rand.NewPCG(21, 22))
	var counts [4]int
	missed := 0
	for range 300 {
		var f [2]submarine.Fleet
		for side, n := range []int{3, 2} {
			ships := rng.Perm(3)[:n]
			cells := rng.Perm(16)
			for k, i := range ships {
				f[side].Pos[i] = grid.Cell(cells[k])
				f[side].HP[i] = int8(1 + rng.IntN(r.Fleet[i].HP))
			}
		}
		p, err := NewPosition(r, f[0], f[1])
		require.NoError(t, err)
		if rng.IntN(2) == 0 {
			p = p.Swap()
		}
		want, err := exact.Solve(p)
		require.NoError(t, err)
		got, err := s.Solve(p)
		require.NoError(t, err)
		counts[got.Outcome]++
		if got.Outcome == Unknown {
			if want.Outcome != Draw {
				missed++
			}
			continue
		}
		require.Equal(t, want.Outcome, got.Outcome, "%s", p)
		require.GreaterOrEqual(t, got.Plies, want.Plies, "%s", p)
	}
	require.Positive(t, counts[Win]+counts[Loss])
	// With this budget the search proves every decisive position drawn
	// here (the searched positions are seeded, the budget counts nodes).
	require.Zero(t, missed)
	t.Logf("search: %d won, %d lost, %d unknown of which %d decisive", counts[Win], counts[Loss], counts[Unknown], missed)
}

// TestConversion: from won and lost positions, both sides playing Best
// (the winner its fastest win, the loser its slowest loss), the game ends in
// exactly the table's distance; from wins the search proves, within the
// proved bound.
func TestConversion(t *testing.T) {
	r := submarine.DefaultRules()
	base := solver5(t)
	rng := rand.New(rand.NewPCG(31, 32))
	tests := []struct {
		name   string
		ships  [2]int
		search bool
	}{
		{"table 3v1", [2]int{3, 1}, false},
		{"table 1v3", [2]int{1, 3}, false},
		{"search 3v2", [2]int{3, 2}, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := newSolver(base.tb, Options{Nodes: 20_000})
			played := 0
			for tries := 0; played < 8 && tries < 2000; tries++ {
				p := randomPosition(rng, r, tc.ships[0], tc.ships[1])
				v, err := s.Solve(p)
				require.NoError(t, err)
				if (v.Outcome != Win && v.Outcome != Loss) || v.Plies < 3 {
					continue
				}
				require.Equal(t, !tc.search, v.Exact)
				played++
				plies := 0
				for p.Other.Alive != 0 {
					require.Less(t, plies, v.Plies, "from %s (%v) the game goes on", p, v)
					best, err := s.Best(p)
					require.NoError(t, err)
					p = applyTo(t, p, best.Action)
					plies++
					if p.Other.Alive == 0 {
						break
					}
					p = p.Swap()
				}
				if !tc.search {
					require.Equal(t, v.Plies, plies)
				}
			}
			require.Equal(t, 8, played, "not enough won positions drawn")
		})
	}
}

// TestProbeMatchesSolve: Probe answers what Solve answers wherever the
// tablebase covers the material, and declines (ok false) elsewhere.
func TestProbeMatchesSolve(t *testing.T) {
	s := solver5(t)
	r := submarine.DefaultRules()
	rng := rand.New(rand.NewPCG(5, 6))
	n := 400
	if light() {
		n = 100
	}
	for range n {
		p := randomPosition(rng, r, 1+rng.IntN(3), 1+rng.IntN(3))
		got, ok, err := s.Probe(r, &p.Mover, &p.Other)
		require.NoError(t, err)
		covers := s.Tablebase().Covers(p.Mover.Alive.Count(), p.Other.Alive.Count())
		require.Equal(t, covers, ok, "%s", p)
		if !covers {
			continue
		}
		want, err := s.Solve(p)
		require.NoError(t, err)
		require.Equal(t, want, got, "%s", p)
	}
}
