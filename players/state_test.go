package players

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/game/submarine"
)

// refStateAt builds a state player with my fleet at pl and the enemy
// candidate sets restricted to sets (nil = the whole board).
func refStateAt(r *submarine.Rules, cfg StatePlayerConfig, pl submarine.Placement, sets [3][]grid.Cell) *StatePlayer {
	p := NewStatePlayer(r, cfg, rand.New(rand.NewPCG(1, 1)))
	p.me = submarine.NewFleet(r, pl)
	for i, cells := range sets {
		if cells != nil {
			p.enemy.Restrict(i, grid.Of(cells...))
		}
	}
	return p
}

// refStateDraws draws n decisions of copies of p (fresh rng each) and
// checks that every copy ends in wantState.
func refStateDraws(t *testing.T, r *submarine.Rules, p *StatePlayer, n int, wantState string) map[submarine.Action]int {
	t.Helper()
	return refDraws(t, r, &p.me, n, func(rng *rand.Rand) submarine.Action {
		q := *p
		q.rng = rng
		a := q.Act()
		require.Equal(t, wantState, q.State())
		return a
	})
}

func refMoves(ship int, cells ...grid.Cell) []submarine.Action {
	out := make([]submarine.Action, len(cells))
	for i, c := range cells {
		out[i] = submarine.MoveTo(ship, c)
	}
	return out
}

func TestStateAttackAndChase(t *testing.T) {
	r := submarine.DefaultRules()
	// My ships w (0,0), c (0,1), s (1,0): reach is x <= 1, y <= 2 and
	// (2,0), (2,1).
	home := submarine.Placement{refXY(0, 0), refXY(0, 1), refXY(1, 0)}
	tests := []struct {
		name      string
		sets      [3][]grid.Cell
		focus     int
		want      []submarine.Action
		wantState string // of the last decision
	}{
		{
			name:  "focus in reach: attack its candidate cells only",
			sets:  [3][]grid.Cell{{refXY(2, 1), refXY(2, 2)}, {refXY(1, 1)}, nil},
			focus: 0,
			want:  refAttacks(refXY(2, 1)),
		},
		{
			name:  "no focus: a random target's candidate cells in reach",
			sets:  [3][]grid.Cell{{refXY(2, 1), refXY(3, 3)}, {refXY(1, 1)}, {refXY(2, 0), refXY(4, 4)}},
			focus: submarine.NoShip,
			want:  refAttacks(refXY(2, 1), refXY(1, 1), refXY(2, 0)),
		},
		{
			name:  "focus out of reach: attack another pinned enemy ship in reach",
			sets:  [3][]grid.Cell{{refXY(4, 4)}, {refXY(3, 4), refXY(1, 1)}, {refXY(2, 1)}},
			focus: 0,
			want:  refAttacks(refXY(2, 1)),
		},
		{
			// Every ship tries the target's column in its own row first.
			name:      "chase: move into the focus's column",
			sets:      [3][]grid.Cell{{refXY(4, 2)}, {refXY(4, 4)}, {refXY(3, 4)}},
			focus:     0,
			want:      []submarine.Action{submarine.MoveTo(0, refXY(4, 0)), submarine.MoveTo(1, refXY(4, 1)), submarine.MoveTo(2, refXY(4, 0))},
			wantState: "chase",
		},
		{
			// The target's column is the ship's own (or an own ship is
			// there): the ship moves along its column to the target's row.
			name:      "chase: move into the focus's row",
			sets:      [3][]grid.Cell{{refXY(0, 4)}, {refXY(4, 4)}, {refXY(3, 4)}},
			focus:     0,
			want:      []submarine.Action{submarine.MoveTo(0, refXY(0, 4)), submarine.MoveTo(1, refXY(0, 4)), submarine.MoveTo(2, refXY(1, 4))},
			wantState: "chase",
		},
		{
			name:      "chase without focus: towards any enemy ship's candidates",
			sets:      [3][]grid.Cell{{refXY(4, 3)}, {refXY(3, 4)}, nil},
			focus:     submarine.NoShip,
			wantState: "", // either attack (s may be anywhere) or chase
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := refStateAt(r, DefaultStatePlayerConfig(), home, tt.sets)
			p.focus = tt.focus
			got := refStateDraws(t, r, p, 600, "attack")
			if tt.want != nil {
				refRequireSupport(t, tt.want, got)
			}
			if tt.wantState != "" {
				q := *p
				q.Act()
				require.Equal(t, tt.wantState, q.Explain().State)
			}
		})
	}
}

// TestStateChaseThenAttack follows a chase move with the attack it enables.
func TestStateChaseThenAttack(t *testing.T) {
	r := submarine.DefaultRules()
	// Only my cruiser is left, at (0,1); the enemy battleship is pinned at
	// (4,2): the chase moves it to (4,1), from where (4,2) is in reach.
	p := refStateAt(r, DefaultStatePlayerConfig(), submarine.Placement{refXY(0, 0), refXY(0, 1), refXY(1, 0)}, [3][]grid.Cell{{refXY(4, 2)}, nil, nil})
	v := submarine.View{Me: p.me, EnemyHP: [submarine.MaxShips]int8{3, 0, 0}}
	for _, i := range []int{0, 2} {
		v.Me.Alive = v.Me.Alive.Without(i)
		v.Me.Occupied.Remove(v.Me.Pos[i])
		v.Me.HP[i] = 0
	}
	p.Observe(submarine.Event{Kind: submarine.Attack, At: refXY(3, 3), Hit: submarine.NoShip, Ship: submarine.NoShip, To: grid.None}, &v)
	require.Equal(t, submarine.NoShip, p.Focus())

	a := p.Act()
	require.Equal(t, submarine.MoveTo(1, refXY(4, 1)), a)
	require.Equal(t, "chase", p.Explain().State)
	require.Equal(t, "attack", p.State())

	v.Me.Pos[1] = refXY(4, 1)
	v.Me.Occupied = grid.Of(refXY(4, 1))
	p.Observe(submarine.Event{Mine: true, Kind: submarine.Move, At: grid.None, Hit: submarine.NoShip, Ship: 1, To: refXY(4, 1), DX: 4}, &v)
	require.Equal(t, submarine.AttackAt(refXY(4, 2)), p.Act())
	require.Equal(t, "attack", p.Explain().State)
}

// TestStateFocus checks how hits and sinkings set and clear the focus.
func TestStateFocus(t *testing.T) {
	r := submarine.DefaultRules()
	hit := func(at grid.Cell, ship int, sunk bool) submarine.Event {
		return submarine.Event{Mine: true, Kind: submarine.Attack, At: at, Hit: ship, Sunk: sunk, Ship: submarine.NoShip, To: grid.None}
	}
	p := refStateAt(r, DefaultStatePlayerConfig(), submarine.Placement{refXY(0, 0), refXY(2, 2), refXY(4, 4)}, [3][]grid.Cell{})
	v := submarine.View{Me: p.me, EnemyHP: [submarine.MaxShips]int8{3, 2, 1}}

	v.EnemyHP[0] = 2
	p.Observe(hit(refXY(1, 1), 0, false), &v)
	require.Equal(t, 0, p.Focus(), "hit battleship becomes the focus")
	for range 20 {
		q := *p
		require.Equal(t, submarine.AttackAt(refXY(1, 1)), q.Act(), "the focus is pinned in reach")
	}

	v.EnemyHP[1] = 1
	p.Observe(hit(refXY(3, 3), 1, false), &v)
	require.Equal(t, 1, p.Focus(), "the last ship hit is the focus")

	v.EnemyHP[2] = 0
	p.Observe(hit(refXY(3, 4), 2, true), &v)
	require.Equal(t, 1, p.Focus(), "sinking another ship keeps the focus")

	v.EnemyHP[1] = 0
	p.Observe(hit(refXY(3, 3), 1, true), &v)
	require.Equal(t, submarine.NoShip, p.Focus(), "sinking the focus clears it")
}

func TestStateReactionToHit(t *testing.T) {
	r := submarine.DefaultRules()
	// My w at (1,1), c at (4,1), s at (1,4). The enemy hits my w at (1,1).
	pl := submarine.Placement{refXY(1, 1), refXY(4, 1), refXY(1, 4)}
	noCounter := DefaultStatePlayerConfig()
	noCounter.Counter.RequiresHP = false
	// Enemy ships may be at (0,0), (1,0) or (0,1), none pinned: every cell
	// within 1 of those is dangerous; w's safe destinations are (3,1) and (1,3).
	near := [3][]grid.Cell{{refXY(0, 0), refXY(1, 0)}, {refXY(1, 0), refXY(0, 1)}, {refXY(0, 0), refXY(0, 1)}}
	tests := []struct {
		name      string
		cfg       StatePlayerConfig
		sets      [3][]grid.Cell
		enemyHP   [3]int8
		wantState string // after the hit
		wantFocus int
		want      []submarine.Action
	}{
		{
			name: "escape to a cell no enemy ship can attack", cfg: DefaultStatePlayerConfig(),
			sets: near, enemyHP: [3]int8{3, 2, 1},
			wantState: "escape", wantFocus: submarine.NoShip,
			want: refMoves(0, refXY(3, 1), refXY(1, 3)),
		},
		{
			name: "no safe cell: any legal move of the hit ship", cfg: DefaultStatePlayerConfig(),
			enemyHP:   [3]int8{3, 2, 1},
			wantState: "escape", wantFocus: submarine.NoShip,
			want: refMoves(0, refXY(0, 1), refXY(2, 1), refXY(3, 1), refXY(1, 0), refXY(1, 2), refXY(1, 3)),
		},
		{
			name: "counter-attack a pinned enemy with no more hp", cfg: DefaultStatePlayerConfig(),
			sets: [3][]grid.Cell{{refXY(2, 2)}, {refXY(2, 1)}, {refXY(4, 4)}}, enemyHP: [3]int8{3, 2, 1},
			wantState: "attack", wantFocus: 1,
			want: refAttacks(refXY(2, 1)),
		},
		{
			name: "stronger pinned enemy: escape", cfg: DefaultStatePlayerConfig(),
			sets: [3][]grid.Cell{{refXY(2, 2)}, {refXY(4, 4)}, {refXY(3, 4)}}, enemyHP: [3]int8{3, 2, 1},
			wantState: "escape", wantFocus: submarine.NoShip,
			// danger: around (2,2), (4,4), (3,4); w's safe cells: (0,1), (1,0).
			want: refMoves(0, refXY(0, 1), refXY(1, 0)),
		},
		{
			name: "stronger pinned enemy, hp not required: counter-attack", cfg: noCounter,
			sets: [3][]grid.Cell{{refXY(2, 2)}, {refXY(4, 4)}, {refXY(3, 4)}}, enemyHP: [3]int8{3, 2, 1},
			wantState: "attack", wantFocus: 0,
			want: refAttacks(refXY(2, 2)),
		},
		{
			name: "pinned enemy out of the hit ship's reach: escape", cfg: DefaultStatePlayerConfig(),
			sets: [3][]grid.Cell{{refXY(3, 1)}, {refXY(4, 4)}, {refXY(3, 4)}}, enemyHP: [3]int8{1, 1, 1},
			wantState: "escape", wantFocus: submarine.NoShip,
			// danger: x >= 2 (around (3,1), (4,4), (3,4)).
			want: refMoves(0, refXY(0, 1), refXY(1, 0), refXY(1, 2), refXY(1, 3)),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := refStateAt(r, tt.cfg, pl, tt.sets)
			v := submarine.View{Me: p.me}
			copy(v.EnemyHP[:], tt.enemyHP[:])
			v.Me.HP[0]-- // w: 3 -> 2
			p.Observe(submarine.Event{Kind: submarine.Attack, At: refXY(1, 1), Hit: 0, Ship: submarine.NoShip, To: grid.None}, &v)
			require.Equal(t, tt.wantState, p.State())
			require.Equal(t, tt.wantFocus, p.Focus())
			got := refStateDraws(t, r, p, 600, "attack")
			refRequireSupport(t, tt.want, got)
		})
	}
}

// TestStateEscapeFallsBackToAttack: the hit ship cannot move (no two usable
// cells share a row or a column), so the escape turn attacks.
func TestStateEscapeFallsBackToAttack(t *testing.T) {
	b, err := grid.ParseShape(refIslands)
	require.NoError(t, err)
	r := &submarine.Rules{Board: b, Fleet: submarine.DefaultFleet(), DrawLimit: 100}
	p := NewStatePlayer(r, DefaultStatePlayerConfig(), rand.New(rand.NewPCG(9, 9)))
	p.Place()
	v := submarine.View{Me: p.me, EnemyHP: [submarine.MaxShips]int8{3, 2, 1}}
	v.Me.HP[0]--
	p.Observe(submarine.Event{Kind: submarine.Attack, At: p.me.Pos[0], Hit: 0, Ship: submarine.NoShip, To: grid.None}, &v)
	require.Equal(t, "escape", p.State())
	a := p.Act()
	require.Equal(t, submarine.Attack, a.Kind)
	require.NoError(t, r.CheckAction(&p.me, a))
	require.Equal(t, "attack", p.State())
}

func TestStateExplain(t *testing.T) {
	r := submarine.DefaultRules()
	p := refStateAt(r, DefaultStatePlayerConfig(), submarine.Placement{refXY(0, 0), refXY(0, 1), refXY(1, 0)}, [3][]grid.Cell{{refXY(2, 1), refXY(1, 1)}, {refXY(4, 4)}, {refXY(4, 3)}})
	p.focus = 0
	a := p.Act()
	d := p.Explain()
	require.Equal(t, "attack", d.State)
	require.Contains(t, d.Reason, "target w")
	require.Len(t, d.Candidates, 2)
	names := []string{d.Candidates[0].Action, d.Candidates[1].Action}
	require.Contains(t, names, refActionName(r, a))
	require.InDelta(t, 0.5, d.Candidates[0].Score, 1e-12)
}

// TestStateChaseDistribution checks the chase draws like the reference's
// trials: the target ship first (uniformly), then one of its cells, so a
// ship with one candidate cell is chased as often as one with four.
func TestStateChaseDistribution(t *testing.T) {
	r := submarine.DefaultRules()
	// Only my cruiser is left, at (0,0). Enemy w may only be at (3,3)
	// (chased by a move to (3,0)); enemy c may be at (4,2), (4,3), (4,4)
	// or (2,4) (moves to (4,0) or (2,0)). Nothing is in reach.
	p := refStateAt(r, DefaultStatePlayerConfig(), submarine.Placement{refXY(0, 4), refXY(0, 0), refXY(1, 4)},
		[3][]grid.Cell{{refXY(3, 3)}, {refXY(4, 2), refXY(4, 3), refXY(4, 4), refXY(2, 4)}, nil})
	v := submarine.View{Me: p.me, EnemyHP: [submarine.MaxShips]int8{3, 2, 0}}
	for _, i := range []int{0, 2} {
		v.Me.Alive = v.Me.Alive.Without(i)
		v.Me.Occupied.Remove(v.Me.Pos[i])
		v.Me.HP[i] = 0
	}
	p.Observe(submarine.Event{Kind: submarine.Attack, At: refXY(4, 0), Hit: submarine.NoShip, Ship: submarine.NoShip, To: grid.None}, &v)
	const n = 4000
	got := refStateDraws(t, r, p, n, "attack")
	refRequireSupport(t, refMoves(1, refXY(3, 0), refXY(4, 0), refXY(2, 0)), got)
	// P(3,0) = 1/2, P(4,0) = 3/8, P(2,0) = 1/8 (uniform over trials would
	// give 1/5, 3/5, 1/5).
	require.InDelta(t, 0.5, float64(got[submarine.MoveTo(1, refXY(3, 0))])/n, 0.04)
	require.InDelta(t, 0.375, float64(got[submarine.MoveTo(1, refXY(4, 0))])/n, 0.04)
	require.InDelta(t, 0.125, float64(got[submarine.MoveTo(1, refXY(2, 0))])/n, 0.04)
}
