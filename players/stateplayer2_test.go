package players

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/belief"
	"github.com/kaisen-ai/kaisen/explain"
	"github.com/kaisen-ai/kaisen/fsm"
	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/game/submarine"
)

// Scenario tests: a hand-built position (my fleet, both beliefs, the machine's
// state), one Act, and the action and score computed by hand from the
// formulas of spec stateplayer2.md in the comment. Cells are written [x,y]
// (x = column) as on the wire; cell index = 5y + x on the 5x5 board.

const none = grid.None

func xy(x, y int) grid.Cell { return grid.Cell(5*y + x) }

func cellsOf(cs ...grid.Cell) grid.Set { return grid.Of(cs...) }

var board25 = grid.Full(25)

// sp2Setup describes a position. Index 0, 1, 2 = w, c, s.
type sp2Setup struct {
	rules   *submarine.Rules // nil = DefaultRules
	cfg     *StatePlayer2Config
	pos     [3]grid.Cell // my ships; none = sunk
	hp      [3]int8      // my hp (0 = full hp of the type)
	mine    [3]grid.Set  // where the enemy may believe my ships are (empty = whole board)
	enemy   [3]grid.Set  // where the enemy ships may be (empty = sunk)
	enemyHP [3]int8      // 0 = full hp, unless the ship is sunk
	state   fsm.State
	msg     fsm.Msg
}

func (s sp2Setup) build(t *testing.T) *StatePlayer2 {
	t.Helper()
	r := s.rules
	if r == nil {
		r = submarine.DefaultRules()
	}
	cfg := DefaultStatePlayer2Config()
	if s.cfg != nil {
		cfg = *s.cfg
	}
	p, err := NewStatePlayer2(r, cfg, rand.New(rand.NewPCG(1, 2)))
	require.NoError(t, err)
	var f submarine.Fleet
	for i := range f.Pos {
		f.Pos[i] = none
	}
	p.mine = belief.NewShips(r)
	p.enemy = belief.NewShips(r)
	for i := range 3 {
		if c := s.pos[i]; c != none {
			f.Pos[i] = c
			f.HP[i] = int8(r.Fleet[i].HP)
			if s.hp[i] > 0 {
				f.HP[i] = s.hp[i]
			}
			f.Alive = f.Alive.With(i)
			f.Occupied.Add(c)
			if !s.mine[i].Empty() {
				p.mine.Restrict(i, s.mine[i])
			}
		} else {
			p.mine.Sink(i)
		}
		if s.enemy[i].Empty() {
			p.enemy.Sink(i)
		} else {
			p.enemy.Restrict(i, s.enemy[i])
			p.enemyHP[i] = int8(r.Fleet[i].HP)
			if s.enemyHP[i] > 0 {
				p.enemyHP[i] = s.enemyHP[i]
			}
		}
	}
	p.me = f
	msg := s.msg
	if msg == (fsm.Msg{}) {
		msg = fsm.NoMsg
	}
	require.NoError(t, p.m.Restore(s.state, msg))
	return p
}

// act runs one Act and checks that the action is legal.
func act(t *testing.T, p *StatePlayer2) submarine.Action {
	t.Helper()
	a := p.Act()
	require.NoError(t, p.rules.CheckAction(&p.me, a))
	require.Zero(t, p.fsmErrs, "machine errors: %v", p.lastErr)
	return a
}

// best is the top candidate of the last decision.
func best(t *testing.T, p *StatePlayer2) explain.Candidate {
	t.Helper()
	d := p.Explain()
	require.NotEmpty(t, d.Candidates)
	return d.Candidates[0]
}

func events(p *StatePlayer2) []fsm.Event { return append([]fsm.Event(nil), p.lastPath[:p.lastN]...) }

func TestSP2SakutekiScore(t *testing.T) {
	// My ships: w [1,2], c [4,0], s [0,4]. Enemy: w in {[2,2],[3,2],[3,3]}
	// (|S|=3, factor 25/3), c in {[3,0],[3,1]} (|S|=2, factor 25/2), s sunk.
	// Reach: around [1,2] = x0..2,y1..3; around [4,0] = x3..4,y0..1;
	// around [0,4] = x0..1,y3..4.
	// Score(P) = 25/3*(ring∩Sw + 1.5[P∈Sw]) + 25/2*(ring∩Sc + 1.5[P∈Sc]):
	//   [3,1]: ring has [2,2],[3,2] of Sw and [3,0] of Sc, P ∈ Sc:
	//          25/3*2 + 12.5*(1+1.5) = 16.667 + 31.25 = 47.9167  <- best
	//   [2,1]: ring has [2,2],[3,2] and [3,0],[3,1]: 16.667 + 25 = 41.667
	//   [2,2]: P ∈ Sw, ring has [3,2],[3,3] and [3,1]: 25/3*3.5 + 12.5 = 41.667
	//   [4,1]: ring has [3,2] and [3,0],[3,1]: 8.333 + 25 = 33.333
	//   [3,0]: P ∈ Sc, ring has [3,1]: 12.5*2.5 = 31.25
	//   [4,0]: ring has [3,0],[3,1]: 25;  [2,3]: ring has all of Sw: 25
	//   [1,1], [1,2], [1,3]: ring has [2,2]: 8.333; the rest 0 (skipped).
	p := sp2Setup{
		pos:   [3]grid.Cell{xy(1, 2), xy(4, 0), xy(0, 4)},
		enemy: [3]grid.Set{cellsOf(xy(2, 2), xy(3, 2), xy(3, 3)), cellsOf(xy(3, 0), xy(3, 1)), {}},
		state: fsm.Sakuteki,
	}.build(t)
	a := act(t, p)
	require.Equal(t, submarine.AttackAt(xy(3, 1)), a)
	d := p.Explain()
	require.Equal(t, "sakuteki", d.State)
	want := []explain.Candidate{
		{Action: "attack D2", Score: 25.0/3*2 + 12.5*2.5},
		{Action: "attack C2", Score: 25.0/3*2 + 12.5*2}, // tie with [2,2]: row-major order, [2,1] first
		{Action: "attack C3", Score: 25.0/3*3.5 + 12.5},
		{Action: "attack E2", Score: 25.0/3 + 25},
		{Action: "attack D1", Score: 12.5 * 2.5},
		{Action: "attack E1", Score: 25},
		{Action: "attack C4", Score: 25},
		{Action: "attack B2", Score: 25.0 / 3},
		{Action: "attack B3", Score: 25.0 / 3},
		{Action: "attack B4", Score: 25.0 / 3},
	}
	require.Len(t, d.Candidates, len(want))
	for i, c := range want {
		require.Equal(t, c.Action, d.Candidates[i].Action, i)
		require.InDelta(t, c.Score, d.Candidates[i].Score, 1e-9, c.Action)
	}
	require.True(t, p.searched.Has(xy(3, 1)), "remembered as searched")

	// Next turn, with no new information, the same cell is not attacked again:
	// [2,1] (first of the two 41.667) is.
	require.Equal(t, submarine.AttackAt(xy(2, 1)), act(t, p))
}

func TestSP2SakutekiTieFirstFound(t *testing.T) {
	// Empty belief: every |S_T| = 25, factor 1. An interior cell scores
	// 3 ships * (8 + 1.5) = 28.5, an edge cell 3*(5+1.5) = 19.5, a corner
	// 3*(3+1.5) = 13.5. My ships w [0,0], c [4,0], s [2,4] reach the interior
	// cells [1,1], [3,1], [1,3], [2,3], [3,3]: a five-way tie at 28.5, won by
	// the first in row-major order, [1,1].
	p := sp2Setup{
		pos:   [3]grid.Cell{xy(0, 0), xy(4, 0), xy(2, 4)},
		enemy: [3]grid.Set{board25, board25, board25},
		state: fsm.Sakuteki,
	}.build(t)
	require.Equal(t, submarine.AttackAt(xy(1, 1)), act(t, p))
	d := p.Explain()
	require.InDelta(t, 28.5, d.Candidates[0].Score, 1e-9)
	var tied []string
	for _, c := range d.Candidates {
		if c.Score == 28.5 {
			tied = append(tied, c.Action)
		}
	}
	require.Equal(t, []string{"attack B2", "attack D2", "attack B4", "attack C4", "attack D4"}, tied)
	require.InDelta(t, 13.5, d.Candidates[len(d.Candidates)-1].Score, 1e-9, "a corner scores least")
}

func TestSP2ExhaustedThenTwoMovePlan(t *testing.T) {
	// My ships w [0,0], c [1,0], s [0,1]; the enemy may believe w anywhere
	// (25 cells), c in column 1 (5 cells), s in {[0,1],[1,1]} (2 cells).
	// Enemy: w in {[3,4],[4,4]} (factor 25/2), c and s sunk.
	//
	// sakuteki: my reach is x0..2,y0..2 minus [2,2]; no cell there is within 1
	// of [3,4] or [4,4], so every score is 0: exhausted. Out of reach:
	//   [3,4], [4,4]: P ∈ Sw and the other in the ring: 12.5*(1+1.5) = 31.25
	//   [3,3], [4,3]: 12.5*2 = 25; [2,3], [2,4]: 12.5
	// first best in row-major order: [3,4] -> event exhausted, attack [3,4].
	//
	// attack: [3,4] is out of reach and no single move reaches x2..4,y3..4
	// (w moves in row 0 / column 0, c in row 0 / column 1, s in row 1 /
	// column 0). Two-move plans, score = sum over ships of |exposure|^2 after
	// both legs, the moved ship's set shifted by the total displacement:
	//   w (25 cells, others 25+4=29): best final [2,3], shift (2,3) leaves
	//     3*2 = 6 cells: 29 + 36 = 65
	//   c (column 1, others 625+4): final x2..4, y3: shift (dx,3) leaves 2
	//     cells: 629 + 4 = 633
	//   s ({[0,1],[1,1]}, others 625+25): first leg [2,1] (shift (2,0), 2
	//     cells), second leg [2,3] or [2,4], both keep 2 cells: 650 + 4 = 654.
	//     (First leg [1,1] has no second leg into reach; [4,1] would leave one
	//     cell, pinning s, so it is excluded.)
	// best: first leg of s, move s to [2,1], score 654.
	p := sp2Setup{
		pos:   [3]grid.Cell{xy(0, 0), xy(1, 0), xy(0, 1)},
		mine:  [3]grid.Set{board25, cellsOf(xy(1, 0), xy(1, 1), xy(1, 2), xy(1, 3), xy(1, 4)), cellsOf(xy(0, 1), xy(1, 1))},
		enemy: [3]grid.Set{cellsOf(xy(3, 4), xy(4, 4)), {}, {}},
		state: fsm.Sakuteki,
	}.build(t)
	a := act(t, p)
	require.Equal(t, submarine.MoveTo(2, xy(2, 1)), a)
	require.Equal(t, []fsm.Event{fsm.Exhausted}, events(p))
	require.Equal(t, fsm.Attack, p.State())
	require.Equal(t, fsm.CellMsg(xy(3, 4)), p.m.Msg())
	c := best(t, p)
	require.Equal(t, "move s C2", c.Action)
	require.InDelta(t, 654.0, c.Score, 1e-9)
	d := p.Explain()
	require.Equal(t, "attack", d.State)
	require.Contains(t, d.Reason, "two-move")
	scores := map[string]float64{}
	for _, c := range d.Candidates {
		scores[c.Action] = c.Score
	}
	require.InDelta(t, 65.0, scores["move w C1"], 1e-9)
	require.InDelta(t, 633.0, scores["move c C1"], 1e-9)
	require.NotContains(t, scores, "move s E2", "would pin s")
	require.NotContains(t, scores, "move s B2", "no second leg into reach")
}

func TestSP2AttackOneMove(t *testing.T) {
	// Enemy s pinned on [4,2] (global rule 2: sakuteki -> attack [4,2]);
	// enemy w in row 0 minus [4,0], c sunk. My ships w [0,2], c [2,0],
	// s [0,4]; exposure w 25 cells, c 25, s 4 ([0,3],[0,4],[1,3],[1,4]).
	// [4,2] is out of reach. Single moves into around([4,2]) = x3..4,y1..3:
	// only w along row 2, to [3,2] (shift (3,0): 2*5 = 10 cells) or [4,2]
	// (shift (4,0): 5 cells). Score = 25^2 + 4^2 + after^2:
	//   [3,2]: 641 + 100 = 741 <- best;  [4,2]: 641 + 25 = 666.
	p := sp2Setup{
		pos:   [3]grid.Cell{xy(0, 2), xy(2, 0), xy(0, 4)},
		mine:  [3]grid.Set{board25, board25, cellsOf(xy(0, 3), xy(0, 4), xy(1, 3), xy(1, 4))},
		enemy: [3]grid.Set{cellsOf(xy(0, 0), xy(1, 0), xy(2, 0), xy(3, 0)), {}, cellsOf(xy(4, 2))},
		state: fsm.Sakuteki,
	}.build(t)
	require.Equal(t, submarine.MoveTo(0, xy(3, 2)), act(t, p))
	require.Equal(t, []fsm.Event{fsm.Pinned}, events(p))
	d := p.Explain()
	require.Equal(t, "attack", d.State)
	require.Equal(t, []explain.Candidate{{Action: "move w D3", Score: 741}, {Action: "move w E3", Score: 666}}, d.Candidates)
}

func TestSP2AttackPinnedShipMayMove(t *testing.T) {
	// A ship the enemy has already pinned may still move to attack: the design
	// forbids moves that narrow a ship down to one cell, and this one is
	// already narrowed down. My only other ships are far; w [0,2] pinned in
	// the enemy's eyes moves along row 2 to [3,2] (score 1 + 25^2 + 25^2 =
	// 1251, equal to [4,2]: first found wins).
	p := sp2Setup{
		pos:   [3]grid.Cell{xy(0, 2), xy(2, 0), xy(0, 4)},
		mine:  [3]grid.Set{cellsOf(xy(0, 2)), board25, board25},
		enemy: [3]grid.Set{cellsOf(xy(0, 0), xy(1, 0)), {}, cellsOf(xy(4, 2))},
		state: fsm.Sakuteki,
	}.build(t)
	require.Equal(t, submarine.MoveTo(0, xy(3, 2)), act(t, p))
	require.Equal(t, explain.Candidate{Action: "move w D3", Score: 1251}, best(t, p))
}

func TestSP2AttackInReachThenGiveUp(t *testing.T) {
	// attack with target [2,2] (not pinned: enemy w may be on [2,2] or [4,4]),
	// in reach of my w [1,1]: fire. Score 12.5*1.5 = 18.75 (its ring holds no
	// other cell of the set).
	p := sp2Setup{
		pos:   [3]grid.Cell{xy(1, 1), none, xy(0, 4)},
		enemy: [3]grid.Set{cellsOf(xy(2, 2), xy(4, 4)), {}, {}},
		state: fsm.Attack,
		msg:   fsm.CellMsg(xy(2, 2)),
	}.build(t)
	require.Equal(t, submarine.AttackAt(xy(2, 2)), act(t, p))
	require.Equal(t, explain.Candidate{Action: "attack C3", Score: 18.75}, best(t, p))
	require.True(t, p.targetFired)

	// Next turn, nothing pinned: the attack state does not fire at the same
	// target again (DEVIATION 3) but gives up; sakuteki, which counts the
	// target as searched, attacks elsewhere ([1,1], whose ring holds [2,2]:
	// 12.5).
	a := act(t, p)
	require.Equal(t, []fsm.Event{fsm.GiveUp}, events(p))
	require.Equal(t, submarine.AttackAt(xy(1, 1)), a)
	require.Equal(t, "sakuteki", p.Explain().State)
}

func TestSP2AttackTargetProvenEmpty(t *testing.T) {
	// attack's target [0,0] can hold no enemy ship any more, nor any cell
	// around it (enemy w only on [4,4]): give up without moving, and
	// sakuteki (nothing informative in reach) goes for [4,4] again:
	// exhausted -> attack [4,4], which the one move of s along row 4 to [3,4]
	// brings in reach (exposure 25^2+25^2+ (shift (3,0) of 25 cells = 10)^2).
	p := sp2Setup{
		pos:   [3]grid.Cell{xy(0, 1), xy(1, 0), xy(0, 4)},
		enemy: [3]grid.Set{cellsOf(xy(4, 4), xy(4, 3)), {}, {}},
		state: fsm.Attack,
		msg:   fsm.CellMsg(xy(0, 0)),
	}.build(t)
	a := act(t, p)
	require.Equal(t, []fsm.Event{fsm.GiveUp, fsm.Exhausted}, events(p))
	require.Equal(t, fsm.CellMsg(xy(4, 3)), p.m.Msg(), "E4 and E5 tie at 12.5*2.5; E4 comes first")
	require.Equal(t, submarine.MoveTo(2, xy(3, 4)), a)
	require.Equal(t, explain.Candidate{Action: "move s D5", Score: 625 + 625 + 100}, best(t, p))
}

// hitEvent is the enemy's attack on my ship (as told to me).
func hitEvent(at grid.Cell, ship int, near submarine.ShipMask) submarine.Event {
	return submarine.Event{Kind: submarine.Attack, At: at, Hit: ship, Near: near, Ship: submarine.NoShip, To: none}
}

// observeHit applies the enemy's hit on my ship to p with a consistent view.
func observeHit(p *StatePlayer2, at grid.Cell, ship int) {
	v := submarine.View{Me: p.me, EnemyHP: p.enemyHP}
	v.Me.HP[ship]--
	p.Observe(hitEvent(at, ship, 0), &v)
}

func TestSP2EscapeAfterHit(t *testing.T) {
	// My ships w [1,0], c [2,2], s [3,4]; the enemy knows nothing yet (25
	// cells each). Enemy w pinned on [3,2] (hp 3), c in row 0, s sunk.
	// The enemy hits my c on [2,2] (c: 2 -> 1 hp), near = [] (w [1,0] and
	// s [3,4] are at distance 2). Exposure: c = {[2,2]}, w and s lose the 9
	// cells around [2,2]: 16 cells each.
	// Counter? enemy w is in c's reach but c's hp 1 < w's hp 3: escape with c.
	//
	// escape: danger = around [3,2] = x2..4,y1..3. c's destinations outside
	// it: [2,0], [0,2], [1,2], [2,4]. Score = 5*distance + hp*|exposure| of
	// each other ship within 1 of the destination:
	//   [2,0]: 5*2 + w (3 hp * 16) = 58   <- best
	//   [0,2]: 10;  [1,2]: 5;  [2,4]: 10 + s (1 hp * 16) = 26
	p := sp2Setup{
		pos:   [3]grid.Cell{xy(1, 0), xy(2, 2), xy(3, 4)},
		enemy: [3]grid.Set{cellsOf(xy(3, 2)), cellsOf(xy(0, 0), xy(1, 0), xy(2, 0), xy(3, 0), xy(4, 0)), {}},
		state: fsm.Sakuteki,
	}.build(t)
	observeHit(p, xy(2, 2), 1)
	require.Equal(t, fsm.Escape, p.State())
	require.Equal(t, fsm.ShipMsg(1), p.m.Msg())
	require.Equal(t, 16, p.mine.Count(0))

	// Global rule 2 does not apply in escape, although w is pinned.
	a := act(t, p)
	require.Equal(t, submarine.MoveTo(1, xy(2, 0)), a)
	require.Equal(t, []fsm.Event{fsm.Hit, fsm.Escaped}, events(p))
	require.Equal(t, fsm.Sakuteki, p.State())
	d := p.Explain()
	require.Equal(t, "escape", d.State)
	require.Equal(t, []explain.Candidate{
		{Action: "move c C1", Score: 58}, {Action: "move c C5", Score: 26}, {Action: "move c A3", Score: 10}, {Action: "move c B3", Score: 5},
	}, d.Candidates)
}

func TestSP2CounterAttack(t *testing.T) {
	// As TestSP2EscapeAfterHit, but the pinned enemy on [3,2] is s (hp 1,
	// enemy w in row 0): my c (hp 1 after the hit) >= 1, so counter-attack:
	// attack [3,2] at once (it is in c's reach). Score: s term 25/1*1.5 =
	// 37.5, w term 0 (row 0 is not within 1 of [3,2]).
	p := sp2Setup{
		pos:   [3]grid.Cell{xy(1, 0), xy(2, 2), xy(3, 4)},
		enemy: [3]grid.Set{cellsOf(xy(0, 0), xy(1, 0), xy(2, 0), xy(3, 0), xy(4, 0)), {}, cellsOf(xy(3, 2))},
		state: fsm.Sakuteki,
	}.build(t)
	observeHit(p, xy(2, 2), 1)
	require.Equal(t, fsm.Attack, p.State())
	require.Equal(t, fsm.CellMsg(xy(3, 2)), p.m.Msg())
	require.Equal(t, submarine.AttackAt(xy(3, 2)), act(t, p))
	require.Equal(t, []fsm.Event{fsm.Counter}, events(p), "global rule 2 re-targets the same cell: a no-op")
	require.Equal(t, explain.Candidate{Action: "attack D3", Score: 37.5}, best(t, p))
}

func TestSP2CounterWithoutHPRule(t *testing.T) {
	// TestSP2EscapeAfterHit's position with counter.requires_hp = false:
	// c (hp 1) counter-attacks the pinned w (hp 3) on [3,2] instead of
	// escaping. Score 25/1*1.5 + 0 = 37.5.
	cfg := DefaultStatePlayer2Config()
	cfg.Counter.RequiresHP = false
	p := sp2Setup{
		cfg:   &cfg,
		pos:   [3]grid.Cell{xy(1, 0), xy(2, 2), xy(3, 4)},
		enemy: [3]grid.Set{cellsOf(xy(3, 2)), cellsOf(xy(0, 0), xy(1, 0), xy(2, 0), xy(3, 0), xy(4, 0)), {}},
		state: fsm.Sakuteki,
	}.build(t)
	observeHit(p, xy(2, 2), 1)
	require.Equal(t, fsm.Attack, p.State())
	require.Equal(t, submarine.AttackAt(xy(3, 2)), act(t, p))
	require.Equal(t, explain.Candidate{Action: "attack D3", Score: 37.5}, best(t, p))
}

func TestSP2EscapeCornered(t *testing.T) {
	// escape with c on [0,0]; w [1,0] and s [0,1]. c's destinations are
	// [2,0], [3,0], [4,0] (row) and [0,2], [0,3], [0,4] (column). My reach:
	// x0..2,y0..1 and x0..1,y0..2.
	pos := [3]grid.Cell{xy(1, 0), xy(0, 0), xy(0, 1)}

	t.Run("counter-attack a pinned enemy in reach", func(t *testing.T) {
		// Pinned enemies w [3,1], c [1,2], s [1,4]: around [3,1] covers the
		// row destinations, around [1,2] and [1,4] the column ones, so every
		// destination is in the danger zone. Enemy c on [1,2] is in reach
		// (fleet order: w [3,1] is not): cornered -> attack [1,2], fired at
		// once. Score: c term 25/1*1.5 = 37.5; [3,1] and [1,4] are not
		// within 1 of [1,2]: 37.5.
		p := sp2Setup{
			pos:   pos,
			enemy: [3]grid.Set{cellsOf(xy(3, 1)), cellsOf(xy(1, 2)), cellsOf(xy(1, 4))},
			state: fsm.Escape,
			msg:   fsm.ShipMsg(1),
		}.build(t)
		require.Equal(t, submarine.AttackAt(xy(1, 2)), act(t, p))
		require.Equal(t, []fsm.Event{fsm.Cornered}, events(p))
		require.Equal(t, explain.Candidate{Action: "attack B3", Score: 37.5}, best(t, p))
		require.Equal(t, "attack", p.Explain().State)
	})

	t.Run("nothing to counter: sakuteki", func(t *testing.T) {
		// Pinned enemies w [3,1] and c [1,3] (s sunk) cover every
		// destination; neither is in reach: give up to sakuteki. Cells in
		// reach whose ring holds a pinned cell score 25/1 = 25: [2,0], [2,1]
		// (ring has [3,1]), [0,2], [1,2] (ring has [1,3]); [1,1] and the
		// others 0. First in row-major order: [2,0]. (The global rules run
		// once per Act, before the first state.)
		p := sp2Setup{
			pos:   pos,
			enemy: [3]grid.Set{cellsOf(xy(3, 1)), cellsOf(xy(1, 3)), {}},
			state: fsm.Escape,
			msg:   fsm.ShipMsg(1),
		}.build(t)
		require.Equal(t, submarine.AttackAt(xy(2, 0)), act(t, p))
		require.Equal(t, []fsm.Event{fsm.GiveUp}, events(p))
		d := p.Explain()
		require.Equal(t, "sakuteki", d.State)
		require.Equal(t, []explain.Candidate{
			{Action: "attack C1", Score: 25}, {Action: "attack C2", Score: 25}, {Action: "attack A3", Score: 25}, {Action: "attack B3", Score: 25},
		}, d.Candidates)
	})
}

func TestSP2StealthMove(t *testing.T) {
	// Only s is left, on [1,1]; the enemy believes it is in {[0,1],[1,1],
	// [2,1]} (3 cells). Enemy w pinned on [3,3] (out of reach), c anywhere.
	// Global rule 1: stealth with s. Danger = around [3,3] = x2..4,y2..4; all
	// eight destinations are outside it. Score = distance + 25*after/3:
	//   [1,0] up 1: {[0,0],[1,0],[2,0]} 3 cells: 1 + 25 = 26
	//   [0,1] left 1: [-1,1] falls off, 2 cells: 1 + 16.667
	//   [2,1] 1 + 25;  [3,1] 2 + 25 = 27;  [4,1] 3 + 16.667
	//   [1,2] 1 + 25;  [1,3] 2 + 25 = 27;  [1,4] 3 + 25 = 28 <- best
	s3 := cellsOf(xy(0, 1), xy(1, 1), xy(2, 1))
	setup := sp2Setup{
		pos:   [3]grid.Cell{none, none, xy(1, 1)},
		mine:  [3]grid.Set{{}, {}, s3},
		enemy: [3]grid.Set{cellsOf(xy(3, 3)), board25, {}},
		state: fsm.Sakuteki,
	}
	p := setup.build(t)
	require.Equal(t, submarine.MoveTo(2, xy(1, 4)), act(t, p))
	require.Equal(t, []fsm.Event{fsm.LastShip}, events(p), "rule 1 wins over rule 2 (w is pinned)")
	d := p.Explain()
	require.Equal(t, "stealth", d.State)
	require.Equal(t, explain.Candidate{Action: "move s B5", Score: 28}, d.Candidates[0])
	require.Equal(t, explain.Candidate{Action: "move s D2", Score: 27}, d.Candidates[1], "tie with B4: row-major first")
	require.Equal(t, explain.Candidate{Action: "move s B4", Score: 27}, d.Candidates[2])
	require.Len(t, d.Candidates, 8)

	// DEVIATION 5: a cell left recently is avoided while there is another
	// safe destination: with [1,4] just left, [3,1] (27) wins.
	p = setup.build(t)
	p.left[0], p.leftN = xy(1, 4), 1
	require.Equal(t, submarine.MoveTo(2, xy(3, 1)), act(t, p))
}

func TestSP2StealthDangerZoneIncludesPinnedCell(t *testing.T) {
	// Only s, on [0,4], column 0 known to the enemy (5 cells). Enemy w pinned
	// on [4,4]. Row moves keep all 5 cells (ratio 1): [1,4] 26, [2,4] 27,
	// [3,4] 28, [4,4] 29; column moves lose cells. DEVIATION 1: the danger
	// zone is around [4,4] *including* [4,4] itself (the reference adds raw
	// coordinates and does not avoid the pinned cell), so [3,4] and [4,4] are
	// out and [2,4] (27) is best.
	col0 := cellsOf(xy(0, 0), xy(0, 1), xy(0, 2), xy(0, 3), xy(0, 4))
	p := sp2Setup{
		pos:   [3]grid.Cell{none, none, xy(0, 4)},
		mine:  [3]grid.Set{{}, {}, col0},
		enemy: [3]grid.Set{cellsOf(xy(4, 4)), {}, {}},
		state: fsm.Stealth,
		msg:   fsm.ShipMsg(2),
	}.build(t)
	require.Equal(t, submarine.MoveTo(2, xy(2, 4)), act(t, p))
	require.Equal(t, explain.Candidate{Action: "move s C5", Score: 27}, best(t, p))
	require.Equal(t, cellsOf(xy(3, 3), xy(4, 3), xy(3, 4), xy(4, 4)), p.danger())
}

func TestSP2StealthAttacksPinnedInReach(t *testing.T) {
	p := sp2Setup{
		pos:   [3]grid.Cell{xy(2, 2), none, none},
		enemy: [3]grid.Set{{}, cellsOf(xy(3, 3)), board25},
		state: fsm.Stealth,
		msg:   fsm.ShipMsg(0),
	}.build(t)
	// Only w [2,2] is left; enemy c pinned on [3,3] (in reach), s anywhere.
	// Score of [3,3]: c term 25/1*1.5 = 37.5; s term 25/25*(8+1.5) = 9.5.
	require.Equal(t, submarine.AttackAt(xy(3, 3)), act(t, p))
	require.Equal(t, "stealth", p.Explain().State)
	require.Equal(t, explain.Candidate{Action: "attack D4", Score: 47}, best(t, p))
}

func TestSP2StealthEverywhereDangerous(t *testing.T) {
	// A 4x1 board. Only my s is left, on [0,0]; enemy w pinned on [2,0] (out
	// of reach: distance 2). s may move to [1,0], [2,0], [3,0], all within 1
	// of [2,0]: stealth gives up to sakuteki, which attacks the best cell in
	// reach: [1,0] (its ring holds [2,0]: 25/1 = 25; [0,0] scores 0).
	r := &submarine.Rules{Board: grid.MustBoard(4, 1, nil), Fleet: submarine.DefaultFleet(), DrawLimit: 100}
	cfg := DefaultStatePlayer2Config()
	cfg.Placement.Samples = 3
	p := sp2Setup{
		rules: r,
		cfg:   &cfg,
		pos:   [3]grid.Cell{none, none, 0},
		mine:  [3]grid.Set{{}, {}, grid.Full(4)},
		enemy: [3]grid.Set{grid.Of(2), {}, {}},
		state: fsm.Stealth,
		msg:   fsm.ShipMsg(2),
	}.build(t)
	require.Equal(t, submarine.AttackAt(1), act(t, p))
	require.Equal(t, []fsm.Event{fsm.GiveUp}, events(p))
	require.Equal(t, explain.Candidate{Action: "attack B1", Score: 25}, best(t, p))
	// Next turn (no new information) global rule 1 brings it back to
	// stealth, which gives up again; sakuteki has searched [1,0] and nothing
	// else in reach is informative: exhausted -> attack [2,0] (P itself:
	// 25*1.5 = 37.5, better than [3,0]: 25). One move of s along row 0 into
	// around [2,0]: [1,0] (shift 1: 3 of the 4 cells stay, 3^2 = 9), [2,0]
	// (2 cells: 4); [3,0] would pin s. Move s to [1,0], score 9.
	require.Equal(t, submarine.MoveTo(2, 1), act(t, p))
	require.Equal(t, []fsm.Event{fsm.LastShip, fsm.GiveUp, fsm.Exhausted}, events(p))
	require.Equal(t, []explain.Candidate{{Action: "move s B1", Score: 9}, {Action: "move s C1", Score: 4}}, p.Explain().Candidates)
}

func TestSP2GlobalRules(t *testing.T) {
	pinned := [3]grid.Set{cellsOf(xy(4, 4)), board25, {}}
	free := [3]grid.Set{board25, board25, {}}
	three := [3]grid.Cell{xy(0, 0), xy(2, 0), xy(0, 2)}
	one := [3]grid.Cell{none, xy(2, 0), none}
	tests := []struct {
		name  string
		pos   [3]grid.Cell
		enemy [3]grid.Set
		state fsm.State
		msg   fsm.Msg
		want  fsm.State
		wmsg  fsm.Msg
	}{
		{"sakuteki, pinned -> attack", three, pinned, fsm.Sakuteki, fsm.NoMsg, fsm.Attack, fsm.CellMsg(xy(4, 4))},
		{"attack elsewhere, pinned -> attack pinned", three, pinned, fsm.Attack, fsm.CellMsg(0), fsm.Attack, fsm.CellMsg(xy(4, 4))},
		{"escape ignores pinned", three, pinned, fsm.Escape, fsm.ShipMsg(1), fsm.Escape, fsm.ShipMsg(1)},
		{"stealth ignores pinned", three, pinned, fsm.Stealth, fsm.ShipMsg(1), fsm.Stealth, fsm.ShipMsg(1)},
		{"nothing pinned", three, free, fsm.Sakuteki, fsm.NoMsg, fsm.Sakuteki, fsm.NoMsg},
		{"last ship from sakuteki", one, free, fsm.Sakuteki, fsm.NoMsg, fsm.Stealth, fsm.ShipMsg(1)},
		{"last ship beats pinned", one, pinned, fsm.Attack, fsm.CellMsg(3), fsm.Stealth, fsm.ShipMsg(1)},
		{"last ship from escape", one, pinned, fsm.Escape, fsm.ShipMsg(1), fsm.Stealth, fsm.ShipMsg(1)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := sp2Setup{pos: tc.pos, enemy: tc.enemy, state: tc.state, msg: tc.msg}.build(t)
			p.global()
			require.Zero(t, p.fsmErrs, "%v", p.lastErr)
			require.Equal(t, tc.want, p.State())
			require.Equal(t, tc.wmsg, p.m.Msg())
		})
	}
}

func TestSP2Spread(t *testing.T) {
	b := grid.MustBoard(5, 5, nil)
	// Samples [0,0], [1,1], [4,0], [0,4], [4,4]. Sums of squared distances:
	// any three of the four corners: 16 + 16 + 32 = 64; any triple with
	// [1,1] less (e.g. [1,1],[4,0],[0,4]: 10 + 10 + 32 = 52). Four-way tie
	// at 64; the first in lexicographic order of indices is (0, 2, 3):
	// w [0,0], c [4,0], s [0,4].
	sample := []grid.Cell{xy(0, 0), xy(1, 1), xy(4, 0), xy(0, 4), xy(4, 4)}
	got := sp2Spread(b, sample, 3)
	require.Equal(t, []int{0, 2, 3}, got[:3])

	// Against brute force on random samples.
	rng := rand.New(rand.NewPCG(7, 7))
	for range 200 {
		n := 3 + rng.IntN(7)
		perm := rng.Perm(25)[:n]
		s := make([]grid.Cell, n)
		for i, c := range perm {
			s[i] = grid.Cell(c)
		}
		d2 := func(a, c grid.Cell) int {
			ax, ay := b.XY(a)
			cx, cy := b.XY(c)
			return (ax-cx)*(ax-cx) + (ay-cy)*(ay-cy)
		}
		bestV, bestIdx := -1, []int(nil)
		for i := 0; i < n; i++ {
			for j := i + 1; j < n; j++ {
				for k := j + 1; k < n; k++ {
					if v := d2(s[i], s[j]) + d2(s[i], s[k]) + d2(s[j], s[k]); v > bestV {
						bestV, bestIdx = v, []int{i, j, k}
					}
				}
			}
		}
		got := sp2Spread(b, s, 3)
		require.Equal(t, bestIdx, got[:3])
	}
}

func TestSP2Place(t *testing.T) {
	r := submarine.DefaultRules()
	border := 0
	const n = 3000
	for k := range n {
		p := newStatePlayer2(r, DefaultStatePlayer2Config(), rand.New(rand.NewPCG(uint64(k), 3)))
		pl := p.Place()
		require.NoError(t, r.ValidatePlacement(pl))
		for _, c := range pl {
			if x, y := r.Board.XY(c); x == 0 || y == 0 || x == 4 || y == 4 {
				border++
			}
		}
		// deterministic by seed
		q := newStatePlayer2(r, DefaultStatePlayer2Config(), rand.New(rand.NewPCG(uint64(k), 3)))
		require.Equal(t, pl, q.Place())
	}
	// The reference puts about 97% of its ships on the border (spec).
	frac := float64(border) / (3 * n)
	t.Logf("ships on the border: %.3f", frac)
	require.InDelta(t, 0.97, frac, 0.03)
}

func TestSP2FirstAttackInterior(t *testing.T) {
	// Spec: "on an empty belief its first attack is always an interior cell".
	r := submarine.DefaultRules()
	for k := range 500 {
		p := newStatePlayer2(r, DefaultStatePlayer2Config(), rand.New(rand.NewPCG(uint64(k), 4)))
		p.Place()
		a := act(t, p)
		require.Equal(t, submarine.Attack, a.Kind)
		x, y := r.Board.XY(a.To)
		require.True(t, x > 0 && y > 0 && x < 4 && y < 4, "seed %d: first attack %s", k, r.CellName(a.To))
	}
}

func TestSP2ExplainCopies(t *testing.T) {
	p := sp2Setup{
		pos:   [3]grid.Cell{xy(0, 0), xy(4, 0), xy(2, 4)},
		enemy: [3]grid.Set{board25, board25, board25},
		state: fsm.Sakuteki,
	}.build(t)
	act(t, p)
	d1 := p.Explain()
	d1.Candidates[0].Score = -1
	d2 := p.Explain()
	require.InDelta(t, 28.5, d2.Candidates[0].Score, 1e-9, "Explain returns fresh slices")
	for i := 1; i < len(d2.Candidates); i++ {
		require.GreaterOrEqual(t, d2.Candidates[i-1].Score, d2.Candidates[i].Score, "best first")
	}
}

func TestSP2FallbackIsLegal(t *testing.T) {
	// A belief with no enemy cell left (only possible with a wrong belief):
	// nothing is informative anywhere, the searched list is restarted once,
	// then the fallback attacks the first best cell in reach — legal.
	p := sp2Setup{
		pos:   [3]grid.Cell{xy(2, 2), xy(4, 4), none},
		state: fsm.Sakuteki,
	}.build(t)
	p.searched = cellsOf(xy(1, 1))
	require.Equal(t, submarine.AttackAt(xy(1, 1)), act(t, p))
	d := p.Explain()
	require.Equal(t, "sakuteki", d.State)
	require.Contains(t, d.Reason, "fallback")
	require.Equal(t, []explain.Candidate{{Action: "attack B2", Score: 0}}, d.Candidates)
}
