package endgame

import (
	"fmt"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/game/submarine"
	"github.com/kaisen-ai/kaisen/internal/race"
)

// The oracle: the whole state graph of a small game, listed plainly (ships
// keep their fleet identity, nothing is canonical), its edges computed from
// coordinates alone, and solved by synchronous rounds straight from the
// definition: in round r (odd) a position is won in r plies if one of its
// actions leads to a position lost in r-1 (0: no ship left), in round r
// (even) a position is lost in r plies if every action leads to a position
// won in fewer plies, the last of them resolved in round r-1. What is never
// resolved is a draw.

type npos struct {
	hp   [2][]int // hp per fleet index, 0 = sunk; side 0 is to move
	cell [2][]int // cell per fleet index (-1 for sunk)
}

type nkey struct{ hp, cell [2][4]int8 }

func (p npos) key() nkey {
	var k nkey
	for s := range 2 {
		for i := range p.hp[s] {
			k.hp[s][i], k.cell[s][i] = int8(p.hp[s][i]), int8(p.cell[s][i])
		}
	}
	return k
}

type naiveGame struct {
	rules *submarine.Rules
	pos   []npos
	index map[nkey]int
	kids  [][]int // -1: the action sank the last enemy ship
	dist  []int   // 0 draw, odd win, even loss
}

// naiveSides lists every fleet state of one side: hp per ship and distinct
// usable cells for the living ones.
func naiveSides(r *submarine.Rules) (hps, cells [][]int) {
	b := r.Board
	n := len(r.Fleet)
	hp := make([]int, n)
	cell := make([]int, n)
	var rec func(i int)
	rec = func(i int) {
		if i == n {
			alive := false
			for _, h := range hp {
				alive = alive || h > 0
			}
			if alive {
				hps = append(hps, append([]int(nil), hp...))
				cells = append(cells, append([]int(nil), cell...))
			}
			return
		}
		hp[i], cell[i] = 0, -1
		rec(i + 1)
		for h := 1; h <= r.Fleet[i].HP; h++ {
			for c := range b.Size() {
				if !b.IsUsable(grid.Cell(c)) {
					continue
				}
				taken := false
				for j := range i {
					taken = taken || (hp[j] > 0 && cell[j] == c)
				}
				if taken {
					continue
				}
				hp[i], cell[i] = h, c
				rec(i + 1)
			}
		}
		hp[i], cell[i] = 0, -1
	}
	rec(0)
	return hps, cells
}

// naiveCache keeps the oracle of each rules between subtests (tests of this
// package do not run in parallel).
var naiveCache = map[*submarine.Rules]*naiveGame{}

func newNaive(t testing.TB, r *submarine.Rules) *naiveGame {
	t.Helper()
	for cr, g := range naiveCache {
		if cr.Board == r.Board && slices.Equal(cr.Fleet, r.Fleet) {
			return g
		}
	}
	g := buildNaive(t, r)
	naiveCache[r] = g
	return g
}

func buildNaive(t testing.TB, r *submarine.Rules) *naiveGame {
	t.Helper()
	g := &naiveGame{rules: r, index: map[nkey]int{}}
	hps, cells := naiveSides(r)
	for a := range hps {
		for b := range hps {
			p := npos{hp: [2][]int{hps[a], hps[b]}, cell: [2][]int{cells[a], cells[b]}}
			g.index[p.key()] = len(g.pos)
			g.pos = append(g.pos, p)
		}
	}
	w := r.Board.Width()
	near := func(a, b int) bool {
		ax, ay, bx, by := a%w, a/w, b%w, b/w
		return max(ax-bx, bx-ax, ay-by, by-ay) <= 1
	}
	g.kids = make([][]int, len(g.pos))
	for k, p := range g.pos {
		me, en := 0, 1
		child := func(q npos) {
			alive := false
			for _, h := range q.hp[en] {
				alive = alive || h > 0
			}
			if !alive {
				g.kids[k] = append(g.kids[k], -1)
				return
			}
			sw := npos{hp: [2][]int{q.hp[en], q.hp[me]}, cell: [2][]int{q.cell[en], q.cell[me]}}
			i, ok := g.index[sw.key()]
			require.True(t, ok, "child %v of %v not listed", sw, p)
			g.kids[k] = append(g.kids[k], i)
		}
		for c := range r.Board.Size() {
			if !r.Board.IsUsable(grid.Cell(c)) {
				continue
			}
			inReach := false
			for i, h := range p.hp[me] {
				inReach = inReach || (h > 0 && near(p.cell[me][i], c))
			}
			if !inReach {
				continue
			}
			q := npos{hp: [2][]int{p.hp[me], append([]int(nil), p.hp[en]...)}, cell: [2][]int{p.cell[me], append([]int(nil), p.cell[en]...)}}
			for i, h := range q.hp[en] {
				if h > 0 && q.cell[en][i] == c {
					q.hp[en][i]--
					if q.hp[en][i] == 0 {
						q.cell[en][i] = -1
					}
				}
			}
			child(q)
		}
		for i, h := range p.hp[me] {
			if h == 0 {
				continue
			}
			for c := range r.Board.Size() {
				from := p.cell[me][i]
				if !r.Board.IsUsable(grid.Cell(c)) || c == from || (c%w != from%w && c/w != from/w) {
					continue
				}
				own := false
				for j, hj := range p.hp[me] {
					own = own || (hj > 0 && p.cell[me][j] == c)
				}
				if own {
					continue
				}
				q := npos{hp: p.hp, cell: [2][]int{append([]int(nil), p.cell[me]...), p.cell[en]}}
				q.cell[me][i] = c
				child(q)
			}
		}
	}
	g.dist = make([]int, len(g.pos))
	for r := 1; ; r++ {
		var won []int
		for k := range g.pos {
			if g.dist[k] != 0 {
				continue
			}
			if r%2 == 1 {
				for _, c := range g.kids[k] {
					if (c < 0 && r == 1) || (c >= 0 && g.dist[c] == r-1 && r > 1) {
						won = append(won, k)
						break
					}
				}
				continue
			}
			all, last := true, false
			for _, c := range g.kids[k] {
				d := -1
				if c >= 0 {
					d = g.dist[c]
				}
				all = all && d > 0 && d%2 == 1
				last = last || d == r-1
			}
			if all && last {
				won = append(won, k)
			}
		}
		if len(won) == 0 {
			return g
		}
		for _, k := range won {
			g.dist[k] = r
		}
	}
}

func (g *naiveGame) position(t testing.TB, k int) Position {
	t.Helper()
	var f [2]submarine.Fleet
	p := g.pos[k]
	for s := range 2 {
		for i, h := range p.hp[s] {
			if h > 0 {
				f[s].Pos[i], f[s].HP[i] = grid.Cell(p.cell[s][i]), int8(h)
			}
		}
	}
	pos, err := NewPosition(g.rules, f[0], f[1])
	require.NoError(t, err)
	return pos
}

func (g *naiveGame) value(k int) Value { return fromDist(uint8(g.dist[k])) }

func naiveRules(t testing.TB, board *grid.Board, hps ...int) *submarine.Rules {
	t.Helper()
	names := []string{"w", "c", "s", "d", "e"}
	r := &submarine.Rules{Board: board, DrawLimit: submarine.DefaultDrawLimit}
	for i, h := range hps {
		r.Fleet = append(r.Fleet, submarine.ShipSpec{Name: names[i], HP: h})
	}
	require.NoError(t, r.Validate())
	return r
}

// naiveCases are small games; lost positions exist in all of them but the
// 1v1 games on 5x5, where a lone ship to move can always step out of reach
// (an enemy ship's 3x3 covers at most 3 of the 5 cells of each of its lines).
// The large ones (heavy) run in TestFullSizeTableMatchesNaive.
var naiveCases = []struct {
	name   string
	board  *grid.Board
	fleet  []int
	noLoss bool
	heavy  bool
}{
	{"3x3 w2 s1", grid.MustBoard(3, 3, nil), []int{2, 1}, false, false},
	{"2x4 w2 s1", grid.MustBoard(4, 2, nil), []int{2, 1}, false, false},
	{"3x3 rounded w1 c1 s1", must(grid.Rounded(3, 3)), []int{1, 1, 1}, false, false},
	{"5x5 w3", grid.MustBoard(5, 5, nil), []int{3}, true, false},
	{"5x5 c2 rock in the centre", grid.MustBoard(5, 5, []grid.Cell{12}), []int{2}, true, false},
	{"3x3 w3 c2", grid.MustBoard(3, 3, nil), []int{3, 2}, false, true},
	{"3x3 rounded w2 c1 s1", must(grid.Rounded(3, 3)), []int{2, 1, 1}, false, true},
}

// light reports a run under -short or -race, which checks less.
func light() bool { return testing.Short() || race.Enabled }

func must(b *grid.Board, err error) *grid.Board {
	if err != nil {
		panic(err)
	}
	return b
}

// TestTableMatchesNaive: the tablebase's value of every position of small
// games equals the oracle's, outcome and distance.
func TestTableMatchesNaive(t *testing.T) { tableMatchesNaive(t, false) }

// TestFullSizeTableMatchesNaive is TestTableMatchesNaive on the larger games
// (up to 227,529 positions).
func TestFullSizeTableMatchesNaive(t *testing.T) {
	race.SkipFullSize(t)
	tableMatchesNaive(t, true)
}

func tableMatchesNaive(t *testing.T, heavy bool) {
	for _, tc := range naiveCases {
		if tc.heavy != heavy {
			continue
		}
		t.Run(tc.name, func(t *testing.T) {
			r := naiveRules(t, tc.board, tc.fleet...)
			g := newNaive(t, r)
			s, err := New(r, Options{TableLimit: 1 << 24})
			require.NoError(t, err)
			var counts [4]int
			for k := range g.pos {
				got, err := s.Solve(g.position(t, k))
				require.NoError(t, err)
				want := g.value(k)
				require.Equal(t, want, got, "position %s", g.position(t, k))
				counts[got.Outcome]++
			}
			// A game where nothing is ever decided would make this test weak.
			require.Positive(t, counts[Win])
			require.Equal(t, tc.noLoss, counts[Loss] == 0)
			t.Logf("%d positions: %d won, %d drawn, %d lost", len(g.pos), counts[Win], counts[Draw], counts[Loss])
		})
	}
}

// TestSearchMatchesNaive: with a table too small for the material, the
// search never contradicts the oracle, its distances are upper bounds (a
// transposition found deeper may prove a longer win first), it proves every
// short win and loss, and it never claims a draw.
func TestSearchMatchesNaive(t *testing.T) {
	step := 3 // a draw costs the whole budget: sample
	if light() {
		step = 97
	}
	for _, tc := range naiveCases[:3] {
		for _, limit := range []int{1, 2000} {
			t.Run(fmt.Sprintf("%s table %d", tc.name, limit), func(t *testing.T) {
				r := naiveRules(t, tc.board, tc.fleet...)
				g := newNaive(t, r)
				s, err := New(r, Options{TableLimit: limit, Nodes: 3000})
				require.NoError(t, err)
				proved, short := 0, 0
				for k := range g.pos {
					if k%step != 0 {
						continue
					}
					pos := g.position(t, k)
					if s.tb.Covers(pos.Mover.Alive.Count(), pos.Other.Alive.Count()) {
						continue
					}
					got, err := s.Solve(pos)
					require.NoError(t, err)
					want := g.value(k)
					if want.Outcome != Draw && want.Plies <= 5 {
						short++
					}
					if got.Outcome == Unknown {
						require.False(t, want.Outcome != Draw && want.Plies <= 3, "position %s: %v not proved", pos, want)
						continue
					}
					proved++
					require.Equal(t, want.Outcome, got.Outcome, "position %s", pos)
					require.False(t, got.Exact)
					require.GreaterOrEqual(t, got.Plies, want.Plies, "position %s", pos)
				}
				require.Positive(t, proved)
				t.Logf("%d short decisive positions, %d proved", short, proved)
			})
		}
	}
}

// TestActionsMatchNaive: every action's value is the oracle's value of the
// position it leads to, and the first action has the position's value.
func TestActionsMatchNaive(t *testing.T) {
	r := naiveRules(t, grid.MustBoard(3, 3, nil), 2, 1)
	g := newNaive(t, r)
	s, err := New(r, Options{})
	require.NoError(t, err)
	for k := range g.pos {
		if k%7 != 0 {
			continue
		}
		pos := g.position(t, k)
		acts, err := s.Actions(pos)
		require.NoError(t, err)
		require.Len(t, acts, len(g.kids[k]))
		want := g.value(k)
		require.Equal(t, want, acts[0].Value, "position %s", pos)
		for _, a := range acts {
			game := applyTo(t, pos, a.Action)
			if game.Other.Alive == 0 {
				require.Equal(t, Value{Outcome: Win, Plies: 1, Exact: true}, a.Value)
				continue
			}
			child, err := s.Solve(game.Swap())
			require.NoError(t, err)
			require.Equal(t, child.after(), a.Value, "position %s action %+v", pos, a.Action)
		}
	}
}

// applyTo plays a on p plainly: an attack takes one hp from the enemy ship
// on its cell, a move changes a cell. The side that acted stays p.Mover.
func applyTo(t testing.TB, p Position, a submarine.Action) Position {
	t.Helper()
	require.NoError(t, p.Rules.CheckAction(&p.Mover, a))
	mover, other := p.Mover, p.Other
	switch a.Kind {
	case submarine.Attack:
		for i := range len(p.Rules.Fleet) {
			if other.HP[i] > 0 && other.Pos[i] == a.To {
				other.HP[i]--
			}
		}
	case submarine.Move:
		mover.Pos[a.Ship] = a.To
	}
	if other.HP == ([submarine.MaxShips]int8{}) {
		return Position{Rules: p.Rules, Mover: mover, Other: submarine.Fleet{}}
	}
	q, err := NewPosition(p.Rules, mover, other)
	require.NoError(t, err)
	return q
}
