package belief_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/kaisen-ai/kaisen/belief"
	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/game/submarine"
	"github.com/stretchr/testify/require"
)

// cells parses a picture of '#' (in the set) and '.' into a set.
func cells(rows ...string) grid.Set {
	var s grid.Set
	for y, r := range rows {
		for x, ch := range r {
			if ch == '#' {
				s.Add(grid.Cell(y*len(r) + x))
			}
		}
	}
	return s
}

func TestShipsNew(t *testing.T) {
	r := submarine.DefaultRules()
	s := belief.NewShips(r)
	require.Equal(t, 3, s.Len())
	require.Equal(t, r.AllShips(), s.Alive())
	for i := range 3 {
		require.Equal(t, r.Board.Usable(), s.Set(i))
		_, ok := s.Pinned(i)
		require.False(t, ok)
	}
	require.True(t, s.Set(3).Empty())
	require.True(t, s.Set(-1).Empty())

	rounded, err := grid.Rounded(4, 3)
	require.NoError(t, err)
	s = belief.NewShips(testRules(rounded, 100, 1, 1))
	require.Equal(t, cells(".##.", "####", ".##."), s.Set(1))
}

func TestShipsObserveAttack(t *testing.T) {
	r := submarine.DefaultRules()
	at := grid.Cell(6) // [1,1]
	all := r.Board.Usable()
	ring := cells("###..", "#.#..", "###..", ".....", ".....")
	around := ring.Union(grid.Of(at))
	tests := []struct {
		name  string
		hit   int
		sunk  bool
		near  submarine.ShipMask
		alive submarine.ShipMask
		want  [3]grid.Set
	}{
		{"miss, no near", submarine.NoShip, false, 0, 7, [3]grid.Set{all.AndNot(around), all.AndNot(around), all.AndNot(around)}},
		{"miss, c near", submarine.NoShip, false, 2, 7, [3]grid.Set{all.AndNot(around), ring, all.AndNot(around)}},
		{"miss, all near", submarine.NoShip, false, 7, 7, [3]grid.Set{ring, ring, ring}},
		{"hit w", 0, false, 0, 7, [3]grid.Set{grid.Of(at), all.AndNot(around), all.AndNot(around)}},
		{"hit w, s near", 0, false, 4, 7, [3]grid.Set{grid.Of(at), all.AndNot(around), ring}},
		{"sink s, w near", 2, true, 1, 3, [3]grid.Set{ring, all.AndNot(around), {}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := belief.NewShips(r)
			s.ObserveAttack(at, tc.hit, tc.sunk, tc.near)
			require.Equal(t, tc.alive, s.Alive())
			for i := range 3 {
				require.Equal(t, tc.want[i], s.Set(i), "ship %d", i)
			}
		})
	}

	t.Run("repeated hits pin and narrow", func(t *testing.T) {
		s := belief.NewShips(r)
		s.ObserveAttack(12, submarine.NoShip, false, 1) // w within 1 of [2,2]
		s.ObserveAttack(6, 0, false, 0)                 // w hit at [1,1]
		c, ok := s.Pinned(0)
		require.True(t, ok)
		require.Equal(t, grid.Cell(6), c)
	})

	t.Run("unusable cell is ignored", func(t *testing.T) {
		b, err := grid.Rounded(5, 5)
		require.NoError(t, err)
		s := belief.NewShips(testRules(b, 100, 1, 1))
		before := s
		s.ObserveAttack(0, submarine.NoShip, false, 0)
		s.ObserveAttack(99, submarine.NoShip, false, 0)
		s.ObserveAttack(-1, submarine.NoShip, false, 0)
		require.Equal(t, before, s)
	})
}

func TestShipsObserveMove(t *testing.T) {
	r := submarine.DefaultRules()
	rounded, err := grid.Rounded(5, 5)
	require.NoError(t, err)
	tests := []struct {
		name   string
		board  *grid.Board
		start  grid.Set
		dx, dy int
		want   grid.Set
	}{
		{"right 2, edge cells vanish", r.Board,
			cells("#...#", ".....", "..#..", ".....", "....."), 2, 0,
			cells("..#..", ".....", "....#", ".....", ".....")},
		{"up 1", r.Board,
			cells("#....", "#....", ".....", ".....", "....#"), 0, -1,
			cells("#....", ".....", ".....", "....#", ".....")},
		{"rock destination vanishes", rounded,
			cells(".....", "#...#", ".....", ".....", "....."), 0, -1,
			cells(".....", ".....", ".....", ".....", ".....")},
		{"rounded left 3", rounded,
			cells(".###.", "#####", ".....", ".....", "....."), -3, 0,
			cells(".....", "##...", ".....", ".....", ".....")},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := belief.NewShips(testRules(tc.board, 100, 1, 1))
			s.Restrict(0, tc.start)
			s.Restrict(1, tc.start)
			s.ObserveMove(0, tc.dx, tc.dy)
			require.Equal(t, tc.want, s.Set(0))
			require.Equal(t, tc.start.Intersect(tc.board.Usable()), s.Set(1), "other ships do not move")
		})
	}
	t.Run("sunk or unknown ship is ignored", func(t *testing.T) {
		s := belief.NewShips(r)
		s.Sink(1)
		before := s
		s.ObserveMove(1, 1, 0)
		s.ObserveMove(5, 1, 0)
		s.ObserveMove(-1, 1, 0)
		require.Equal(t, before, s)
	})
}

func TestShipsObserveFire(t *testing.T) {
	r := submarine.DefaultRules()
	around := r.Board.Around(0) // cells 0 1 5 6
	t.Run("several ships may reach: no change", func(t *testing.T) {
		s := belief.NewShips(r)
		before := s
		s.ObserveFire(0)
		require.Equal(t, before, s)
	})
	t.Run("single living ship is within reach", func(t *testing.T) {
		s := belief.NewShips(r)
		s.Sink(0)
		s.Sink(2)
		s.ObserveFire(0)
		require.Equal(t, around, s.Set(1))
	})
	t.Run("only one ship may reach", func(t *testing.T) {
		s := belief.NewShips(r)
		far := r.Board.Usable().AndNot(around)
		s.Restrict(0, far)
		s.Restrict(2, far)
		s.ObserveFire(0)
		require.Equal(t, around, s.Set(1))
		require.Equal(t, far, s.Set(0))
	})
	t.Run("no ship may reach: contradiction ignored", func(t *testing.T) {
		s := belief.NewShips(r)
		for i := range 3 {
			s.Restrict(i, grid.Of(24))
		}
		before := s
		s.ObserveFire(0)
		require.Equal(t, before, s)
	})
}

func TestShipsRefine(t *testing.T) {
	r := submarine.DefaultRules()
	s := belief.NewShips(r)
	s.Restrict(0, grid.Of(3))
	s.Restrict(1, grid.Of(3, 4))
	s.Restrict(2, grid.Of(3, 4, 9))
	s.Refine()
	// w pinned on 3 pins c on 4, which pins s on 9 (a chain of singles).
	require.Equal(t, grid.Of(3), s.Set(0))
	require.Equal(t, grid.Of(4), s.Set(1))
	require.Equal(t, grid.Of(9), s.Set(2))
}

func TestShipsObserveRouting(t *testing.T) {
	r := submarine.DefaultRules()
	attack := submarine.Event{Kind: submarine.Attack, At: 12, Hit: 1, Near: 1, Ship: submarine.NoShip, To: grid.None}
	move := submarine.Event{Kind: submarine.Move, At: grid.None, Hit: submarine.NoShip, Ship: 1, To: grid.None, DX: 1}
	apply := func(ev submarine.Event, mine bool, side belief.Side, careful bool) belief.Ships {
		s := belief.NewShips(r)
		s.Sink(0) // a single living ship makes fire informative
		s.Sink(2)
		ev.Mine = mine
		if careful {
			s.ObserveCareful(ev, side)
		} else {
			s.Observe(ev, side)
		}
		return s
	}
	fresh := belief.NewShips(r)
	fresh.Sink(0)
	fresh.Sink(2)
	pinned := fresh
	pinned.ObserveAttack(12, 1, false, 1)
	moved := fresh
	moved.ObserveMove(1, 1, 0)
	fired := fresh
	fired.ObserveFire(12)
	tests := []struct {
		name    string
		ev      submarine.Event
		mine    bool
		side    belief.Side
		careful bool
		want    belief.Ships
	}{
		{"my attack hits the enemy", attack, true, belief.Enemy, false, pinned},
		{"enemy attack hits me", attack, false, belief.Own, false, pinned},
		{"enemy attack, enemy tracked, plain", attack, false, belief.Enemy, false, fresh},
		{"enemy attack, enemy tracked, careful", attack, false, belief.Enemy, true, fired},
		{"my attack, own tracked, careful", attack, true, belief.Own, true, fired},
		{"enemy move", move, false, belief.Enemy, false, moved},
		{"my move", move, true, belief.Own, false, moved},
		{"my move, enemy tracked", move, true, belief.Enemy, true, fresh},
		{"enemy move, own tracked", move, false, belief.Own, true, fresh},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			require.Equal(t, tc.want, apply(tc.ev, tc.mine, tc.side, tc.careful))
		})
	}
	t.Run("illegal is ignored", func(t *testing.T) {
		ev := attack
		ev.Illegal = true
		require.Equal(t, fresh, apply(ev, true, belief.Enemy, true))
	})
}

// TestShipsSound plays random games and checks after every action that the
// true cell of every living ship is in its set, for both uses (the enemy's
// fleet, our exposure), plain and careful, and that careful is never looser.
func TestShipsSound(t *testing.T) {
	rounded, err := grid.Rounded(6, 5)
	require.NoError(t, err)
	rulesets := []*submarine.Rules{
		testRules(grid.MustBoard(5, 5, nil), 600, 3, 2, 1),
		testRules(rounded, 600, 2, 1, 1, 1),
		testRules(grid.MustBoard(3, 3, nil), 300, 1, 2),
	}
	for ri, r := range rulesets {
		t.Run(fmt.Sprint(ri), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(7, uint64(ri)))
			for range gameCount(1000) {
				tr := randomGame(t, r, rng)
				for seat := range 2 {
					// b[0], b[1]: plain and careful beliefs of seat about the enemy;
					// b[2], b[3]: about its own fleet.
					b := [4]belief.Ships{belief.NewShips(r), belief.NewShips(r), belief.NewShips(r), belief.NewShips(r)}
					for k := range tr.steps {
						ev := tr.event(k, seat)
						b[0].Observe(ev, belief.Enemy)
						b[1].ObserveCareful(ev, belief.Enemy)
						b[2].Observe(ev, belief.Own)
						b[3].ObserveCareful(ev, belief.Own)
						for bi := range b {
							f := tr.fleets[k][1-seat]
							if bi >= 2 {
								f = tr.fleets[k][seat]
							}
							if f.Alive != b[bi].Alive() {
								t.Fatalf("step %d belief %d: alive %b, want %b", k, bi, b[bi].Alive(), f.Alive)
							}
							for i := range len(r.Fleet) {
								if !f.Alive.Has(i) {
									continue
								}
								set := b[bi].Set(i)
								if !set.Has(f.Pos[i]) {
									t.Fatalf("step %d belief %d ship %d: true cell %d not in %v", k, bi, i, f.Pos[i], set)
								}
								if bi%2 == 1 && set.AndNot(b[bi-1].Set(i)) != (grid.Set{}) {
									t.Fatalf("step %d belief %d ship %d: careful %v looser than plain %v", k, bi, i, set, b[bi-1].Set(i))
								}
							}
						}
					}
				}
			}
		})
	}
}
