package submarine

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/game/grid"
)

// legalActions generates the legal actions of the side to move with the
// engine's own set operations (Reach, MoveTargets).
func legalActions(g *Game) []Action {
	r := g.rules
	f := &g.fleets[g.turn]
	var out []Action
	for c := range r.Reach(f).All() {
		out = append(out, AttackAt(c))
	}
	for i := range r.Fleet {
		for c := range r.MoveTargets(f, i).All() {
			out = append(out, MoveTo(i, c))
		}
	}
	return out
}

// naiveLegal decides legality from coordinates alone, written independently
// of the engine: the oracle for the generator and for CheckAction.
func naiveLegal(r *Rules, f *Fleet, a Action) bool {
	b := r.Board
	w, h := b.Width(), b.Height()
	onBoard := func(c grid.Cell) bool { return c >= 0 && int(c) < w*h && b.IsUsable(c) }
	xy := func(c grid.Cell) (int, int) { return int(c) % w, int(c) / w }
	switch a.Kind {
	case Attack:
		if !onBoard(a.To) {
			return false
		}
		tx, ty := xy(a.To)
		for i := range r.Fleet {
			if f.HP[i] <= 0 {
				continue
			}
			x, y := xy(f.Pos[i])
			if max(abs(x-tx), abs(y-ty)) <= 1 {
				return true
			}
		}
		return false
	case Move:
		if a.Ship < 0 || a.Ship >= len(r.Fleet) || f.HP[a.Ship] <= 0 || !onBoard(a.To) {
			return false
		}
		fx, fy := xy(f.Pos[a.Ship])
		tx, ty := xy(a.To)
		if (fx != tx && fy != ty) || (fx == tx && fy == ty) {
			return false
		}
		for i := range r.Fleet {
			if f.HP[i] > 0 && f.Pos[i] == a.To {
				return false
			}
		}
		return true
	}
	return false
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

// naiveActions enumerates every (kind, ship, cell) and keeps the legal ones.
func naiveActions(g *Game) []Action {
	r := g.rules
	f := &g.fleets[g.turn]
	var out []Action
	for c := range grid.Cell(r.Board.Size()) {
		if a := AttackAt(c); naiveLegal(r, f, a) {
			out = append(out, a)
		}
	}
	for i := range r.Fleet {
		for c := range grid.Cell(r.Board.Size()) {
			if a := MoveTo(i, c); naiveLegal(r, f, a) {
				out = append(out, a)
			}
		}
	}
	return out
}

func perft(g *Game, depth int, gen func(*Game) []Action) int {
	if depth == 0 || g.status != game.Running {
		return 1
	}
	n := 0
	for _, a := range gen(g) {
		next := *g
		if _, err := next.Apply(a); err != nil {
			panic(err)
		}
		n += perft(&next, depth-1, gen)
	}
	return n
}

// TestPerft checks depth 1 against counts made by hand; TestPerftPinned goes
// deeper.
func TestPerft(t *testing.T) {
	tests := []struct {
		name   string
		p0, p1 Placement
		depth1 int // counted by hand, see comments
	}{
		// w[0,0] c[2,0] s[4,0]: attacks = rows 0 and 1 = 10 cells; each ship
		// moves to the 4 cells of its column and 2 free cells of row 0: 18.
		{"top row", Placement{xy(0, 0), xy(2, 0), xy(4, 0)}, Placement{xy(1, 1), xy(3, 1), xy(0, 2)}, 28},
		// w[2,2] c[0,0] s[4,4]: attacks 9 + 4 + 4 minus the shared [1,1] and
		// [3,3] = 15 cells; each ship has a free row and column: 3 * 8 = 24 moves.
		{"spread", Placement{xy(2, 2), xy(0, 0), xy(4, 4)}, Placement{xy(2, 2), xy(0, 0), xy(4, 4)}, 39},
		// w[0,0] c[1,0] s[0,1]: attacks = the 3x2 block + [0,2],[1,2] = 8 cells;
		// w: row 3 + col 3 = 6, c: row 3 + col 4 = 7, s: row 4 + col 3 = 7.
		{"clustered", Placement{xy(0, 0), xy(1, 0), xy(0, 1)}, Placement{xy(4, 4), xy(3, 4), xy(4, 3)}, 28},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, err := NewGame(DefaultRules(), tt.p0, tt.p1, 0)
			require.NoError(t, err)
			require.Equal(t, tt.depth1, perft(g, 1, legalActions), "hand count")
			require.Equal(t, tt.depth1, perft(g, 1, naiveActions), "hand count, naive generator")
		})
	}
}

// TestPerftPinned pins the number of action sequences (perft) to depth 3
// from fixed positions, on the open 5x5 sea, on boards with rocks and after
// hits and a sinking. Every count is first computed by the engine's generator
// and by the naive one, which must agree; the pinned numbers then catch any
// change of the rules that both would follow.
func TestPerftPinned(t *testing.T) {
	rounded, err := grid.Rounded(6, 5)
	require.NoError(t, err)
	rocky := grid.MustBoard(5, 5, []grid.Cell{xy(2, 1), xy(1, 2), xy(3, 2), xy(2, 3)})
	rules := func(b *grid.Board) *Rules {
		return &Rules{Board: b, Fleet: DefaultFleet(), DrawLimit: DefaultDrawLimit}
	}
	tests := []struct {
		name   string
		rules  *Rules
		p0, p1 Placement
		first  int
		script []Action // played before counting
		want   [3]int   // perft at depths 1, 2, 3
	}{
		{"top row", DefaultRules(), Placement{xy(0, 0), xy(2, 0), xy(4, 0)}, Placement{xy(1, 1), xy(3, 1), xy(0, 2)}, 0, nil, [3]int{28, 1092, 33705}},
		{"spread", DefaultRules(), Placement{xy(2, 2), xy(0, 0), xy(4, 4)}, Placement{xy(2, 2), xy(0, 0), xy(4, 4)}, 0, nil, [3]int{39, 1510, 57452}},
		{"clustered, second seat first", DefaultRules(), Placement{xy(0, 0), xy(1, 0), xy(0, 1)}, Placement{xy(4, 4), xy(3, 4), xy(4, 3)}, 1, nil, [3]int{28, 784, 24360}},
		// The rounded 6x5 sea has rocks on its four corners.
		{"rounded 6x5", rules(rounded), Placement{6*0 + 1, 6*1 + 0, 6*4 + 4}, Placement{6*2 + 2, 6*2 + 3, 6*0 + 4}, 0, nil, [3]int{33, 1254, 43564}},
		// A diamond of rocks around the centre: no attack on a rock, no move
		// onto one, moves jump over them (23 = 11 attacks + 2 + 5 + 5 moves).
		{"rock diamond", rules(rocky), Placement{xy(2, 2), xy(2, 0), xy(0, 2)}, Placement{xy(4, 2), xy(2, 4), xy(4, 4)}, 0, nil, [3]int{23, 598, 14683}},
		// Seat 0 sinks s (1 hp) and hits w; seat 1 moves c away in between.
		{"after a sinking and a hit", DefaultRules(), Placement{xy(2, 2), xy(0, 0), xy(4, 4)}, Placement{xy(2, 2), xy(0, 0), xy(4, 4)}, 0,
			[]Action{AttackAt(xy(4, 4)), MoveTo(1, xy(0, 3)), AttackAt(xy(2, 2))}, [3]int{29, 1131, 32019}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.NoError(t, tt.rules.Validate())
			g, err := NewGame(tt.rules, tt.p0, tt.p1, tt.first)
			require.NoError(t, err)
			for _, a := range tt.script {
				require.NoError(t, applyErr(g, a), "%+v", a)
			}
			require.Equal(t, game.Running, g.status)
			var got [3]int
			for d := range got {
				got[d] = perft(g, d+1, legalActions)
				require.Equal(t, perft(g, d+1, naiveActions), got[d], "depth %d: the generators disagree", d+1)
			}
			require.Equal(t, tt.want, got)
		})
	}
}

// TestGeneratorMatchesOracle compares the engine's legality with the naive
// oracle for every candidate action along random games, on a board with rocks.
func TestGeneratorMatchesOracle(t *testing.T) {
	b, err := grid.Rounded(6, 5)
	require.NoError(t, err)
	boards := []*Rules{{Board: grid.MustBoard(5, 5, nil), Fleet: DefaultFleet(), DrawLimit: 100}, {Board: b, Fleet: DefaultFleet(), DrawLimit: 100}}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, r := range boards {
		for range 8 {
			g := randomGame(t, r, rng)
			for g.status == game.Running {
				f := &g.fleets[g.turn]
				for c := grid.Cell(-1); c <= grid.Cell(r.Board.Size()); c++ {
					for ship := -1; ship <= len(r.Fleet); ship++ {
						for _, a := range []Action{AttackAt(c), MoveTo(ship, c)} {
							require.Equal(t, naiveLegal(r, f, a), r.CheckAction(f, a) == nil, "%+v", a)
						}
					}
				}
				acts := legalActions(g)
				g.Apply(acts[rng.IntN(len(acts))])
			}
		}
	}
}

func randomGame(t testing.TB, r *Rules, rng *rand.Rand) *Game {
	t.Helper()
	place := func() Placement {
		cells := r.Board.Usable().Cells()
		rng.Shuffle(len(cells), func(i, j int) { cells[i], cells[j] = cells[j], cells[i] })
		return Placement(cells[:len(r.Fleet)])
	}
	g, err := NewGame(r, place(), place(), rng.IntN(2))
	require.NoError(t, err)
	return g
}

// checkInvariants asserts what must hold after every step of every game.
func checkInvariants(t *testing.T, g *Game) {
	t.Helper()
	r := g.rules
	for seat := range 2 {
		f := &g.fleets[seat]
		var occ grid.Set
		for i := range r.Fleet {
			require.GreaterOrEqual(t, f.HP[i], int8(0), "hp never negative")
			require.LessOrEqual(t, int(f.HP[i]), r.Fleet[i].HP)
			if f.HP[i] == 0 {
				require.False(t, f.Alive.Has(i), "sunk ship %d still alive", i)
				continue
			}
			require.True(t, f.Alive.Has(i))
			require.True(t, r.Board.IsUsable(f.Pos[i]))
			require.False(t, occ.Has(f.Pos[i]), "own ships share a cell")
			occ.Add(f.Pos[i])
		}
		require.Equal(t, occ, f.Occupied, "sunk ships are gone from the board")
	}
	if g.status == game.Drawn {
		require.GreaterOrEqual(t, g.actions, r.DrawLimit)
	}
}

// FuzzApply plays games where the fuzzer picks every action: mostly legal
// ones (by index into the generated list), sometimes arbitrary ones.
func FuzzApply(f *testing.F) {
	f.Add(uint64(1), []byte{0, 1, 2, 3, 4, 5, 6, 7})
	f.Add(uint64(7), []byte{255, 3, 9, 200, 17, 0, 0, 1, 1, 2})
	f.Fuzz(func(t *testing.T, seed uint64, script []byte) {
		r := DefaultRules()
		r.DrawLimit = 200
		rng := rand.New(rand.NewPCG(seed, 0))
		g := randomGame(t, r, rng)
		for i := 0; g.status == game.Running && i < len(script); i++ {
			var a Action
			if b := script[i]; b >= 240 && i+1 < len(script) {
				// arbitrary action, legal or not
				i++
				a = Action{Kind: Kind(b % 3), Ship: int(script[i]%5) - 1, To: grid.Cell(int(script[i]) - 3)}
			} else {
				acts := legalActions(g)
				a = acts[int(b)%len(acts)]
			}
			before := g.actions
			st, err := g.Apply(a)
			require.Equal(t, before+1, g.actions)
			if err != nil {
				require.Equal(t, game.Won, st.Status, "an illegal action ends the game")
				require.Equal(t, 1-st.Seat, st.Winner)
			}
			checkInvariants(t, g)
		}
	})
}
