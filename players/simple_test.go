package players

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/game/submarine"
)

// refXY is the cell at column x, row y of the default 5x5 board.
func refXY(x, y int) grid.Cell { return grid.Cell(y*5 + x) }

// refDraws calls act n times, each time with a fresh rng, checks that every
// action is legal for fleet f, and counts the actions.
func refDraws(t *testing.T, r *submarine.Rules, f *submarine.Fleet, n int, act func(rng *rand.Rand) submarine.Action) map[submarine.Action]int {
	t.Helper()
	got := map[submarine.Action]int{}
	for k := range n {
		a := act(rand.New(rand.NewPCG(uint64(k), 99)))
		require.NoError(t, r.CheckAction(f, a), "draw %d: %+v", k, a)
		got[a]++
	}
	return got
}

// refRequireSupport checks that the drawn actions are exactly want (each
// one seen at least once, nothing else).
func refRequireSupport(t *testing.T, want []submarine.Action, got map[submarine.Action]int) {
	t.Helper()
	for _, a := range want {
		require.Positive(t, got[a], "action %+v never drawn; got %v", a, got)
	}
	require.Len(t, got, len(want), "got %v", got)
}

func refAttacks(cells ...grid.Cell) []submarine.Action {
	out := make([]submarine.Action, len(cells))
	for i, c := range cells {
		out[i] = submarine.AttackAt(c)
	}
	return out
}

func TestSimpleScenarios(t *testing.T) {
	r := submarine.DefaultRules()
	// My ships w (0,0), c (4,4), s (0,4): reach is the three corners' 2x2.
	corners := submarine.Placement{refXY(0, 0), refXY(4, 4), refXY(0, 4)}
	reachCells := []grid.Cell{
		refXY(0, 0), refXY(1, 0), refXY(0, 1), refXY(1, 1),
		refXY(3, 3), refXY(4, 3), refXY(3, 4), refXY(4, 4),
		refXY(0, 3), refXY(1, 3), refXY(1, 4), refXY(0, 4),
	}
	tests := []struct {
		name     string
		moveProb float64
		sets     [3][]grid.Cell // enemy candidate sets (nil = whole board)
		sunk     []int
		want     []submarine.Action
	}{
		{
			// w may be at (1,1) in reach or (2,2) out of reach; c at (3,3)
			// in reach or (2,0) out; s only out of reach at (2,2), so when s
			// is drawn the attack falls back to where w or c may be.
			name: "attacks candidate cells within reach",
			sets: [3][]grid.Cell{{refXY(1, 1), refXY(2, 2)}, {refXY(3, 3), refXY(2, 0)}, {refXY(2, 2)}},
			want: refAttacks(refXY(1, 1), refXY(3, 3)),
		},
		{
			name: "pinned enemy ship in reach",
			sets: [3][]grid.Cell{{refXY(1, 3)}, {refXY(2, 2)}, {refXY(2, 1)}},
			want: refAttacks(refXY(1, 3)),
		},
		{
			name: "no enemy ship may be in reach: any cell in reach",
			sets: [3][]grid.Cell{{refXY(2, 2)}, {refXY(2, 1)}, {refXY(3, 0), refXY(2, 0)}},
			want: refAttacks(reachCells...),
		},
		{
			name: "sunk ship is not aimed at",
			sets: [3][]grid.Cell{{refXY(1, 0)}, nil, {refXY(4, 3)}},
			sunk: []int{1},
			want: refAttacks(refXY(1, 0), refXY(4, 3)),
		},
		{
			name:     "coin always says move: random legal moves of every ship",
			moveProb: 1,
			want: func() []submarine.Action {
				f := submarine.NewFleet(r, corners)
				var out []submarine.Action
				for i := range 3 {
					for c := range r.MoveTargets(&f, i).All() {
						out = append(out, submarine.MoveTo(i, c))
					}
				}
				return out
			}(),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := DefaultSimpleConfig()
			cfg.MoveProbability = tt.moveProb
			p := NewSimple(r, cfg, rand.New(rand.NewPCG(1, 1)))
			p.me = submarine.NewFleet(r, corners)
			for i, cells := range tt.sets {
				if cells != nil {
					p.enemy.Restrict(i, grid.Of(cells...))
				}
			}
			for _, i := range tt.sunk {
				p.enemy.Sink(i)
			}
			got := refDraws(t, r, &p.me, 600, func(rng *rand.Rand) submarine.Action {
				q := *p
				q.rng = rng
				return q.Act()
			})
			refRequireSupport(t, tt.want, got)
		})
	}
}

// TestSimpleFollowsEvents builds the candidate sets from events: a hit pins
// a ship, a splash narrows another, an enemy move shifts the pinned one, and
// the attacks follow.
func TestSimpleFollowsEvents(t *testing.T) {
	r := submarine.DefaultRules()
	cfg := DefaultSimpleConfig()
	cfg.MoveProbability = 0
	p := NewSimple(r, cfg, rand.New(rand.NewPCG(3, 3)))
	pl := submarine.Placement{refXY(0, 0), refXY(3, 1), refXY(0, 4)}
	p.me = submarine.NewFleet(r, pl)
	v := submarine.View{Me: p.me, EnemyHP: [submarine.MaxShips]int8{3, 2, 1}}

	// I hit the enemy cruiser at (1,1); the battleship splashed.
	v.EnemyHP[1] = 1
	p.Observe(submarine.Event{Mine: true, Kind: submarine.Attack, At: refXY(1, 1), Hit: 1, Near: submarine.ShipMask(0).With(0), Ship: submarine.NoShip, To: grid.None}, &v)
	en := p.Enemy()
	c, ok := en.Pinned(1)
	require.True(t, ok)
	require.Equal(t, refXY(1, 1), c)
	require.Equal(t, 8, en.Count(0), "battleship: the ring around (1,1)")
	require.False(t, en.Set(2).Has(refXY(1, 1)), "submarine: not near, not hit")

	// The enemy cruiser moved one to the right: now at (2,1), next to my c.
	p.Observe(submarine.Event{Kind: submarine.Move, At: grid.None, Hit: submarine.NoShip, Ship: 1, To: grid.None, DX: 1}, &v)
	en = p.Enemy()
	c, _ = en.Pinned(1)
	require.Equal(t, refXY(2, 1), c)

	got := refDraws(t, r, &p.me, 600, func(rng *rand.Rand) submarine.Action {
		q := *p
		q.rng = rng
		return q.Act()
	})
	require.Positive(t, got[submarine.AttackAt(refXY(2, 1))])
	for a := range got {
		ok := en.Any().Has(a.To)
		require.True(t, ok, "attack %v outside every candidate set", r.CellName(a.To))
	}

	// Sinking it removes it from the belief.
	v.EnemyHP[1] = 0
	p.Observe(submarine.Event{Mine: true, Kind: submarine.Attack, At: refXY(2, 1), Hit: 1, Sunk: true, Ship: submarine.NoShip, To: grid.None}, &v)
	en = p.Enemy()
	require.False(t, en.Alive().Has(1))
}

func TestSimpleExplain(t *testing.T) {
	r := submarine.DefaultRules()
	cfg := DefaultSimpleConfig()
	for _, prob := range []float64{0, 1} {
		cfg.MoveProbability = prob
		p := NewSimple(r, cfg, rand.New(rand.NewPCG(5, 5)))
		p.Place()
		a := p.Act()
		d := p.Explain()
		require.NotEmpty(t, d.Reason)
		require.Equal(t, map[float64]string{0: "attack", 1: "move"}[prob], d.State)
		sum := 0.0
		found := false
		for _, c := range d.Candidates {
			sum += c.Score
			if c.Action == refActionName(r, a) {
				found = true
			}
		}
		require.InDelta(t, 1, sum, 1e-9)
		require.True(t, found, "%+v not among %+v", a, d.Candidates)
	}
}

func refActionName(r *submarine.Rules, a submarine.Action) string {
	if a.Kind == submarine.Move {
		return "move " + r.Fleet[a.Ship].Name + " " + r.CellName(a.To)
	}
	return "attack " + r.CellName(a.To)
}
