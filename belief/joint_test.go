package belief_test

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/kaisen-ai/kaisen/belief"
	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/game/submarine"
	"github.com/stretchr/testify/require"
)

// ---- brute force ----------------------------------------------------------
//
// The brute force below is deliberately naive and shares no code with Joint:
// it enumerates every initial placement of the whole fleet, replays the public
// history from each with explicit positions and hit points (dead ships keep
// their last cell), and keeps those that reproduce every observation. The
// belief is then the set of projections onto the living ships.

// pubKind is the kind of a public fact about the tracked fleet.
type pubKind int

const (
	attackedOn pubKind = iota // the other side attacked the tracked fleet
	movedBy                   // the tracked fleet moved a ship by a displacement
	firedAt                   // the tracked fleet attacked a cell
)

type pub struct {
	kind   pubKind
	at     grid.Cell
	hit    int
	sunk   bool
	near   submarine.ShipMask
	ship   int
	dx, dy int
}

// publicFact derives, from the omniscient step, what is public about fleet
// `seat` (not through belief.Side: an independent reading of the rules).
func publicFact(st submarine.Step, seat int) (pub, bool) {
	if st.Actor.Illegal {
		return pub{}, false
	}
	switch {
	case st.Action.Kind == submarine.Attack && st.Seat == seat:
		return pub{kind: firedAt, at: st.Action.To}, true
	case st.Action.Kind == submarine.Attack:
		ev := st.Other // both sides are told the same
		return pub{kind: attackedOn, at: ev.At, hit: ev.Hit, sunk: ev.Sunk, near: ev.Near}, true
	case st.Action.Kind == submarine.Move && st.Seat == seat:
		ev := st.Other // what the opponent is told
		return pub{kind: movedBy, ship: ev.Ship, dx: ev.DX, dy: ev.DY}, true
	}
	return pub{}, false
}

// bfState is one hypothesis: a full fleet with positions and hit points.
type bfState struct {
	pos []grid.Cell
	hp  []int
}

func (s bfState) clone() bfState {
	return bfState{pos: slices.Clone(s.pos), hp: slices.Clone(s.hp)}
}

// allPlacements enumerates every assignment of distinct usable cells.
func allPlacements(r *submarine.Rules) []bfState {
	n, size := len(r.Fleet), r.Board.Size()
	var out []bfState
	pos := make([]grid.Cell, n)
	var rec func(i int)
	rec = func(i int) {
		if i == n {
			hp := make([]int, n)
			for k, s := range r.Fleet {
				hp[k] = s.HP
			}
			out = append(out, bfState{pos: slices.Clone(pos), hp: hp})
			return
		}
		for c := range size {
			cell := grid.Cell(c)
			if !r.Board.IsUsable(cell) || slices.Contains(pos[:i], cell) {
				continue
			}
			pos[i] = cell
			rec(i + 1)
		}
	}
	rec(0)
	return out
}

// replay applies one public fact to a hypothesis; false when it contradicts.
func replay(r *submarine.Rules, s *bfState, f pub) bool {
	b := r.Board
	switch f.kind {
	case firedAt:
		for i := range s.pos {
			if s.hp[i] > 0 && b.Chebyshev(s.pos[i], f.at) <= 1 {
				return true
			}
		}
		return false
	case movedBy:
		if s.hp[f.ship] <= 0 {
			return false
		}
		x, y := b.XY(s.pos[f.ship])
		to, ok := b.At(x+f.dx, y+f.dy)
		if !ok || !b.IsUsable(to) {
			return false
		}
		for i := range s.pos {
			if i != f.ship && s.hp[i] > 0 && s.pos[i] == to {
				return false
			}
		}
		s.pos[f.ship] = to
		return true
	default:
		hit := submarine.NoShip
		for i := range s.pos {
			if s.hp[i] > 0 && s.pos[i] == f.at {
				hit = i
			}
		}
		var near submarine.ShipMask
		for i := range s.pos {
			if i != hit && s.hp[i] > 0 && b.Chebyshev(s.pos[i], f.at) <= 1 {
				near = near.With(i)
			}
		}
		if hit != f.hit || near != f.near {
			return false
		}
		if hit != submarine.NoShip {
			s.hp[hit]--
			if (s.hp[hit] == 0) != f.sunk {
				return false
			}
		}
		return true
	}
}

// key projects a hypothesis onto its living ships: digit i (base 257) is
// 1 + the cell of ship i, or 0 when it is sunk.
func (s bfState) key() uint64 {
	k := uint64(0)
	for i := len(s.pos) - 1; i >= 0; i-- {
		k *= 257
		if s.hp[i] > 0 {
			k += 1 + uint64(s.pos[i])
		}
	}
	return k
}

// jointKeys lists the placements of j in the same form as bfState.key.
func jointKeys(j *belief.Joint) []uint64 {
	var keys []uint64
	var q submarine.Placement
	n := 0
	for k, p := range j.All() {
		if q = j.Placement(k, q); !slices.Equal(p, q) {
			panic(fmt.Sprintf("All and Placement differ at %d: %v %v", k, p, q))
		}
		n++
		key := uint64(0)
		for i := len(p) - 1; i >= 0; i-- {
			key *= 257
			if p[i] != grid.None {
				key += 1 + uint64(p[i])
			}
		}
		keys = append(keys, key)
	}
	if n != j.Count() {
		panic(fmt.Sprintf("All yields %d placements, Count is %d", n, j.Count()))
	}
	slices.Sort(keys)
	return keys
}

// bruteKeys lists the distinct projections of the surviving hypotheses.
func bruteKeys(states []bfState) []uint64 {
	var keys []uint64
	for _, s := range states {
		keys = append(keys, s.key())
	}
	slices.Sort(keys)
	return slices.Compact(keys)
}

// ---- tests ----------------------------------------------------------------

// TestJointExact compares the joint, after every action of random games, with
// the brute force, for both uses (tracking the enemy, tracking our exposure).
func TestJointExact(t *testing.T) {
	rounded, err := grid.Rounded(4, 4)
	require.NoError(t, err)
	tests := []struct {
		name  string
		rules *submarine.Rules
		games int
	}{
		{"3x3 two ships", testRules(grid.MustBoard(3, 3, nil), 200, 1, 2), 300},
		{"3x3 three ships", testRules(grid.MustBoard(3, 3, nil), 200, 2, 1, 1), 300},
		{"4x3 three ships", testRules(grid.MustBoard(4, 3, nil), 200, 2, 1, 2), 200},
		{"rounded 4x4 three ships", testRules(rounded, 200, 1, 2, 1), 100},
		{"5x1 two ships", testRules(grid.MustBoard(5, 1, nil), 200, 1, 1), 100},
		{"5x5 short games", testRules(grid.MustBoard(5, 5, nil), 30, 3, 2, 1), 40},
		{"12x12 two ships (sets over 3 words)", testRules(grid.MustBoard(12, 12, nil), 30, 1, 2), 10},
	}
	for ti, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(11, uint64(ti)))
			start := allPlacements(tc.rules)
			for g := range gameCount(tc.games) {
				checkExact(t, tc.rules, start, randomGame(t, tc.rules, rng), g)
			}
		})
	}
}

// checkExact replays game tr and compares, after every action and for each
// fleet, both joint beliefs about it (the opponent's, tracking the enemy; the
// owner's, tracking its exposure) with the brute force started from start.
func checkExact(t testing.TB, r *submarine.Rules, start []bfState, tr *trace, g int) {
	t.Helper()
	for tracked := range 2 {
		states := make([]bfState, len(start))
		for k, s := range start {
			states[k] = s.clone()
		}
		enemyView, err := belief.NewJoint(r, 0) // held by the other seat
		require.NoError(t, err)
		ownView := enemyView.Clone() // held by the tracked seat itself
		for k, st := range tr.steps {
			if f, ok := publicFact(st, tracked); ok {
				kept := states[:0]
				for _, s := range states {
					if replay(r, &s, f) {
						kept = append(kept, s)
					}
				}
				states = kept
			}
			require.NoError(t, enemyView.Observe(tr.event(k, 1-tracked), belief.Enemy))
			require.NoError(t, ownView.Observe(tr.event(k, tracked), belief.Own))
			want := bruteKeys(states)
			if got := jointKeys(enemyView); !slices.Equal(want, got) {
				t.Fatalf("game %d step %d tracked %d: enemy view has %d placements, brute force %d", g, k, tracked, len(got), len(want))
			}
			if got := jointKeys(ownView); !slices.Equal(want, got) {
				t.Fatalf("game %d step %d tracked %d: own view has %d placements, brute force %d", g, k, tracked, len(got), len(want))
			}
			if enemyView.Count() != len(want) || ownView.Count() != len(want) {
				t.Fatalf("game %d step %d tracked %d: Count %d %d, want %d", g, k, tracked, enemyView.Count(), ownView.Count(), len(want))
			}
			if tr.fleets[k][tracked].Alive != enemyView.Alive() || enemyView.Alive() != ownView.Alive() {
				t.Fatalf("game %d step %d: alive %b %b, want %b", g, k, enemyView.Alive(), ownView.Alive(), tr.fleets[k][tracked].Alive)
			}
		}
	}
}

// FuzzJointExact checks the joint against the brute force on random short
// games over small boards (up to 4x4, optional rocks) and fleets (1 to 3
// ships of 1 or 2 hp).
func FuzzJointExact(f *testing.F) {
	f.Add(uint64(1), uint8(3), uint8(3), uint8(3), uint8(0))
	f.Add(uint64(2), uint8(4), uint8(2), uint8(2), uint8(5))
	f.Add(uint64(3), uint8(1), uint8(4), uint8(1), uint8(0))
	f.Fuzz(func(t *testing.T, seed uint64, w, h, ships, rock uint8) {
		w, h = 1+w%4, 1+h%4
		n := 1 + int(ships)%3
		var rocks []grid.Cell
		if rock%4 == 1 && int(w)*int(h) > n+1 {
			rocks = []grid.Cell{grid.Cell(int(rock) % (int(w) * int(h)))}
		}
		b, err := grid.NewBoard(int(w), int(h), rocks)
		require.NoError(t, err)
		if b.Usable().Count() < n {
			return
		}
		hp := make([]int, n)
		for i := range hp {
			hp[i] = 1 + int(seed>>i)&1
		}
		r := testRules(b, 40, hp...)
		rng := rand.New(rand.NewPCG(seed, 99))
		checkExact(t, r, allPlacements(r), randomGame(t, r, rng), 0)
	})
}

// checkPacked fails t unless AppendPacked lists Placement's placements of
// j (a fleet of n ships) in order, packed.
func checkPacked(t *testing.T, j *belief.Joint, n int) {
	t.Helper()
	packed := j.AppendPacked([]uint64{42})
	if len(packed) != j.Count()+1 || packed[0] != 42 {
		t.Fatalf("AppendPacked gave %d placements after the one kept, want %d", len(packed)-1, j.Count())
	}
	var pl submarine.Placement
	for k, got := range packed[1:] {
		pl = j.Placement(k, pl)
		var want uint64
		for i := range n {
			if pl[i] != grid.None {
				want |= uint64(uint8(pl[i])) << (8 * i)
			}
		}
		if got != want {
			t.Fatalf("placement %d of %d: packed %#x, Placement %v", k, j.Count(), got, pl)
		}
	}
}

// TestJointSound plays many random games on the default rules and checks
// after every action that the true placement is in the joint, that the
// marginals of living ships sum to 1, that the per-ship sets (careful and
// plain) contain the joint's support, and that Ships() is a Ships.
func TestJointSound(t *testing.T) {
	rounded, err := grid.Rounded(5, 5)
	require.NoError(t, err)
	for ri, tc := range []struct {
		rules *submarine.Rules
		games int
	}{
		{testRules(grid.MustBoard(5, 5, nil), 300, 3, 2, 1), 1000},
		{testRules(rounded, 300, 2, 2, 1, 1), 200}, // 143,640 initial placements
	} {
		r := tc.rules
		t.Run(fmt.Sprint(ri), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(3, uint64(ri)))
			fresh, err := belief.NewJoint(r, 0)
			require.NoError(t, err)
			j, scratch := fresh.Clone(), fresh.Clone()
			for range gameCount(tc.games) {
				tr := randomGame(t, r, rng)
				for seat := range 2 {
					side := belief.Side(seat) // seat 0 tracks the enemy, seat 1 itself
					tracked := 1 - seat
					if side == belief.Own {
						tracked = seat
					}
					j.CopyFrom(fresh)
					plain, careful := belief.NewShips(r), belief.NewShips(r)
					for k := range tr.steps {
						ev := tr.event(k, seat)
						require.NoError(t, j.Observe(ev, side))
						plain.Observe(ev, side)
						careful.ObserveCareful(ev, side)
						f := tr.fleets[k][tracked]
						truth := submarine.Placement(f.Pos[:len(r.Fleet)])
						if !j.Contains(truth) {
							t.Fatalf("step %d: true placement %v not in the joint (%d placements)", k, truth, j.Count())
						}
						if k%7 == 0 { // the predictive distribution of an attack is exact
							at := r.Board.Usable().Nth(k % r.Board.Usable().Count())
							sum := 0
							for _, o := range j.Outcomes(at) {
								sum += o.Count
								scratch.CopyFrom(j)
								if err := scratch.ObserveAttack(at, o.Hit, false, o.Near); err != nil || scratch.Count() != o.Count {
									t.Fatalf("step %d: outcome %+v of an attack on %d leaves %d placements (%v)", k, o, at, scratch.Count(), err)
								}
							}
							if sum != j.Count() {
								t.Fatalf("step %d: outcomes of an attack on %d cover %d placements of %d", k, at, sum, j.Count())
							}
							if j.Count() <= 5000 {
								checkPacked(t, j, len(r.Fleet))
							}
						}
						for i := range len(r.Fleet) {
							if !f.Alive.Has(i) {
								continue
							}
							sum := 0.0
							for c := range r.Board.Size() {
								sum += j.ShipProb(i, grid.Cell(c))
							}
							if math.Abs(sum-1) > 1e-9 {
								t.Fatalf("step %d ship %d: marginal sums to %v", k, i, sum)
							}
							sup := j.Support(i)
							if !sup.AndNot(careful.Set(i)).Empty() || !careful.Set(i).AndNot(plain.Set(i)).Empty() {
								t.Fatalf("step %d ship %d: support %v careful %v plain %v", k, i, sup, careful.Set(i), plain.Set(i))
							}
						}
					}
				}
			}
		})
	}
}

func TestJointQueries(t *testing.T) {
	r := submarine.DefaultRules()
	j, err := belief.NewJoint(r, 0)
	require.NoError(t, err)
	require.Equal(t, 25*24*23, j.Count())
	require.InDelta(t, math.Log2(13800), j.Entropy(), 1e-12)
	require.InDelta(t, 1.0/25, j.ShipProb(0, 7), 1e-12)
	require.InDelta(t, 3.0/25, j.CellProb(7), 1e-12)
	require.InDelta(t, 8.0/25, j.SplashProb(1, 12), 1e-12)
	require.InDelta(t, 3.0/25, j.SplashProb(1, 0), 1e-12)

	// An attack on [0,0]: outcomes cover every placement and their counts
	// are exactly what observing them leaves.
	outs := j.Outcomes(0)
	total := 0
	for _, o := range outs {
		total += o.Count
		c := j.Clone()
		require.NoError(t, c.ObserveAttack(0, o.Hit, false, o.Near))
		require.Equal(t, o.Count, c.Count(), "outcome %+v", o)
	}
	require.Equal(t, j.Count(), total)
	require.Equal(t, submarine.NoShip, outs[0].Hit)
	require.Equal(t, submarine.ShipMask(0), outs[0].Near)
	require.Equal(t, 21*20*19, outs[0].Count) // every ship off the 4 cells around [0,0]
	gain := j.Entropy() - j.ExpectedEntropy(0)
	require.Greater(t, gain, 0.0)
	require.Greater(t, j.Entropy()-j.ExpectedEntropy(12), gain, "the centre splashes more cells")

	// A sinking drops the ship and never merges placements.
	require.NoError(t, j.ObserveAttack(12, 2, true, 0))
	require.Equal(t, submarine.ShipMask(3), j.Alive())
	require.Equal(t, 16*15, j.Count())
	require.Equal(t, 0.0, j.ShipProb(2, 12))
	p := j.Sample(rand.New(rand.NewPCG(1, 1)), nil)
	require.Len(t, p, 3)
	require.Equal(t, grid.None, p[2])
	require.True(t, j.Contains(p))
	sh := j.Ships()
	require.Equal(t, r.Board.Usable().AndNot(r.Board.Around(12)), sh.Set(0))
	require.True(t, sh.Set(2).Empty())
}

func TestJointUpdates(t *testing.T) {
	r := testRules(grid.MustBoard(3, 3, nil), 100, 1, 1)
	// 0 1 2
	// 3 4 5
	// 6 7 8
	newJ := func() *belief.Joint {
		j, err := belief.NewJoint(r, 0)
		require.NoError(t, err)
		return j
	}
	placements := func(j *belief.Joint) [][2]grid.Cell {
		var out [][2]grid.Cell
		var p submarine.Placement
		for k := range j.Count() {
			p = j.Placement(k, p)
			out = append(out, [2]grid.Cell{p[0], p[1]})
		}
		slices.SortFunc(out, func(a, b [2]grid.Cell) int {
			if a[0] != b[0] {
				return int(a[0] - b[0])
			}
			return int(a[1] - b[1])
		})
		return out
	}
	t.Run("hit and near", func(t *testing.T) {
		j := newJ()
		require.NoError(t, j.ObserveAttack(0, 0, false, 2))
		require.Equal(t, [][2]grid.Cell{{0, 1}, {0, 3}, {0, 4}}, placements(j))
	})
	t.Run("miss, far", func(t *testing.T) {
		j := newJ()
		require.NoError(t, j.ObserveAttack(0, submarine.NoShip, false, 0))
		require.Equal(t, 5*4, j.Count())
	})
	t.Run("move collides with the other ship", func(t *testing.T) {
		j := newJ()
		require.NoError(t, j.Restrict(0, grid.Of(0)))
		require.NoError(t, j.Restrict(1, grid.Of(1, 2)))
		require.NoError(t, j.ObserveMove(0, 2, 0)) // 0 -> 2: impossible when ship 1 is on 2
		require.Equal(t, [][2]grid.Cell{{2, 1}}, placements(j))
	})
	t.Run("move off the board", func(t *testing.T) {
		j := newJ()
		require.NoError(t, j.ObserveMove(1, 0, 2)) // ship 1 was in row 0
		for _, p := range placements(j) {
			require.GreaterOrEqual(t, int(p[1]), 6)
			require.NotEqual(t, p[0], p[1]-6, "ship 0 was not on the start cell")
		}
		require.Equal(t, 3*7, j.Count())
	})
	t.Run("fire", func(t *testing.T) {
		j := newJ()
		require.NoError(t, j.ObserveFire(0)) // some ship in {0,1,3,4}
		require.Equal(t, 9*8-5*4, j.Count())
	})
	t.Run("errors leave the belief unchanged", func(t *testing.T) {
		j := newJ()
		require.NoError(t, j.Restrict(0, grid.Of(4)))
		before := placements(j)
		for _, err := range []error{
			j.ObserveAttack(9, submarine.NoShip, false, 0),
			j.ObserveAttack(4, 5, false, 0),
			j.ObserveAttack(4, 0, false, 1),
			j.ObserveMove(0, 1, 1),
			j.ObserveMove(0, 0, 0),
			j.ObserveMove(2, 1, 0),
			j.ObserveFire(-1),
		} {
			require.ErrorIs(t, err, belief.ErrObservation)
		}
		for _, err := range []error{
			j.ObserveAttack(0, 0, false, 0),                // ship 0 is on 4, not 0
			j.ObserveAttack(4, submarine.NoShip, false, 0), // ship 0 is on 4
		} {
			require.ErrorIs(t, err, belief.ErrInconsistent)
		}
		require.Equal(t, before, placements(j))
	})
	t.Run("too large", func(t *testing.T) {
		_, err := belief.NewJoint(testRules(grid.MustBoard(16, 16, nil), 100, 1, 1, 1, 1), 0)
		require.ErrorIs(t, err, belief.ErrTooLarge)
		_, err = belief.NewJoint(submarine.DefaultRules(), 1000)
		require.ErrorIs(t, err, belief.ErrTooLarge)
		_, err = belief.NewJoint(&submarine.Rules{}, 0)
		require.Error(t, err)
		require.False(t, errors.Is(err, belief.ErrTooLarge))
	})
}
