package admiral

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/endgame"
	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/game/submarine"
	"github.com/kaisen-ai/kaisen/internal/race"
	"github.com/kaisen-ai/kaisen/players"
)

// randomKnown draws a position of perfect information: both fleets of the
// default rules on distinct cells of their own, random hp, some ships sunk
// (at least one living a side).
func randomKnown(r *submarine.Rules, rng *rand.Rand) (a, b submarine.Fleet) {
	draw := func() submarine.Fleet {
		cells := rng.Perm(r.Board.Size())
		pl := make(submarine.Placement, len(r.Fleet))
		for i := range pl {
			pl[i] = grid.Cell(cells[i])
		}
		f := submarine.NewFleet(r, pl)
		for i := range r.Fleet {
			f.HP[i] = int8(1 + rng.IntN(r.Fleet[i].HP))
			if i > 0 && rng.IntN(3) == 0 {
				f.HP[i] = 0
				f.Alive = f.Alive.Without(i)
				f.Occupied.Remove(f.Pos[i])
				f.Pos[i] = grid.None
			}
		}
		return f
	}
	return draw(), draw()
}

// singletonJG is the real joint-greedy player with the weights of base
// whose charts hold one placement each: its fleet me, ours en.
func singletonJG(t *testing.T, r *submarine.Rules, base *players.JointGreedy, me, en submarine.Fleet, rng *rand.Rand) *players.JointGreedy {
	t.Helper()
	return chartJG(t, base, me, en, []uint64{packLiving(r, &en)}, rng)
}

// chartJG is the real joint-greedy player whose chart of our fleet is
// chart and whose own chart holds its fleet me.
func chartJG(t *testing.T, base *players.JointGreedy, me, en submarine.Fleet, chart []uint64, rng *rand.Rand) *players.JointGreedy {
	t.Helper()
	return players.JointGreedyAt(base, me, en, chart, rng)
}

// TestJGPolicyMatchesPlayer: on random positions with the enemy fleet
// known and a chart of ours of 1 to 6 placements (the truth among them),
// every action the real joint-greedy player takes (its charts holding
// them) has positive probability under the model's policy of the same
// weights, the distribution's actions are legal and sum to 1.
func TestJGPolicyMatchesPlayer(t *testing.T) {
	r := submarine.DefaultRules()
	sv, err := endgame.Shared(r, endgame.Options{Nodes: 3000})
	require.NoError(t, err)
	n := 400
	if race.Enabled {
		n = 60
	}
	for _, pol := range modelFamily(sv)[:4] {
		jp := pol.(jgPolicy)
		t.Run(jp.label, func(t *testing.T) {
			sh, err := players.NewJointGreedy(r, jp.cfg, nil)
			require.NoError(t, err)
			rng := rand.New(rand.NewPCG(1, uint64(len(jp.label))))
			for range n {
				me, en := randomKnown(r, rng)
				// The chart: the truth and up to 5 other placements of
				// our living ships (our ships on distinct cells).
				chart := []uint64{packLiving(r, &en)}
				for range rng.IntN(6) {
					cells := rng.Perm(r.Board.Size())
					var u uint64
					for i := range r.Fleet {
						if en.Alive.Has(i) {
							u |= uint64(cells[i]) << (8 * i)
						}
					}
					chart = append(chart, u)
				}
				d := jp.dist(r, &modelView{them: &me, us: &en, chart: chart}, nil)
				sum := 0.0
				for _, ap := range d {
					sum += ap.p
					require.NoError(t, r.CheckAction(&me, ap.a))
				}
				require.InDelta(t, 1, sum, 1e-9)
				got := chartJG(t, sh, me, en, chart, rng).Act()
				p := 0.0
				for _, ap := range d {
					if ap.a == got {
						p += ap.p
					}
				}
				require.Positive(t, p, "action %+v of the player has probability 0 under the model", got)
			}
		})
	}
}

// TestPosteriorConcentrates: actions drawn from each point of the family
// (the joint-greedy points by the real player) on random positions of
// perfect information make the posterior a distribution that puts the
// most weight on the true policy.
func TestPosteriorConcentrates(t *testing.T) {
	r := submarine.DefaultRules()
	sv, err := endgame.Shared(r, endgame.Options{Nodes: 3000})
	require.NoError(t, err)
	fam := modelFamily(sv)
	n := 80
	if race.Enabled {
		n = 30
	}
	for k, pol := range fam {
		t.Run(pol.name(), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(2, uint64(k)))
			m := newOppModel(fam, 0.05)
			var sh *players.JointGreedy
			if jp, ok := pol.(jgPolicy); ok {
				sh, err = players.NewJointGreedy(r, jp.cfg, nil)
				require.NoError(t, err)
			}
			for range n {
				them, us := randomKnown(r, rng)
				var a submarine.Action
				switch pol.(type) {
				case jgPolicy:
					a = singletonJG(t, r, sh, them, us, rng).Act()
				default:
					d := pol.dist(r, knownView(r, &them, &us), nil)
					u, acc := rng.Float64(), 0.0
					a = d[len(d)-1].a
					for _, ap := range d {
						if acc += ap.p; u < acc {
							a = ap.a
							break
						}
					}
				}
				m.update(r, knownView(r, &them, &us), a)
				sum := 0.0
				for _, w := range m.w {
					require.False(t, math.IsNaN(w) || w < 0)
					sum += w
				}
				require.InDelta(t, 1, sum, 1e-9)
			}
			top, w := m.top()
			require.Equal(t, pol.name(), top, "posterior %s", m.String())
			require.Greater(t, w, 0.9, "posterior %s", m.String())
		})
	}
}

// TestExploitFindsWinAgainstChaser: a lone 3-hp ship against a lone 1-hp
// chaser is a draw under perfect play (a lone ship always escapes), but a
// chaser walks into our reach: against the chaser the search proves a win,
// against a perfect opponent it does not look, and the action it plays
// keeps the solver's value.
func TestExploitFindsWinAgainstChaser(t *testing.T) {
	r := submarine.DefaultRules()
	sv, err := endgame.Shared(r, endgame.Options{Nodes: 3000})
	require.NoError(t, err)
	pos, err := endgame.ParsePosition(r, "w@4,4:3 / s@0,0:1")
	require.NoError(t, err)
	v, err := sv.Solve(pos)
	require.NoError(t, err)
	require.Equal(t, endgame.Draw, v.Outcome)
	allowed := safeSet(t, sv, pos)
	fam := modelFamily(sv)
	m := newOppModel(fam, 0.05)
	for k, p := range fam {
		if p.name() != "chaser" {
			m.logw[k] = -50
		}
	}
	m.normalise()
	s := modelSearch{r: r, sv: sv, m: &m, support: 0.05}
	s.reset(20000)
	root := msState{us: pos.Mover, them: pos.Other, chart: []uint64{packLiving(r, &pos.Mover)}}
	act, depth, ok := s.exploit(root, func(a submarine.Action) bool { return allowed[a] }, 6)
	require.True(t, ok)
	require.True(t, allowed[act])
	require.LessOrEqual(t, depth, 6)
	// Deterministic: the same search again gives the same action.
	s2 := modelSearch{r: r, sv: sv, m: &m, support: 0.05}
	s2.reset(20000)
	act2, _, _ := s2.exploit(root, func(a submarine.Action) bool { return allowed[a] }, 6)
	require.Equal(t, act, act2)
	// A chaser played out: it never wins, we win.
	st := root
	for ply := 0; ply < 40 && st.us.Alive != 0 && st.them.Alive != 0; ply++ {
		s.reset(20000)
		p2, _ := endgame.NewPosition(r, st.us, st.them)
		al := safeSet(t, sv, p2)
		a, _, ok := s.exploit(st, func(a submarine.Action) bool { return al[a] }, 6)
		require.True(t, ok, "lost the proof at ply %d", ply)
		st, _ = s.after(st, a)
		if st.them.Alive == 0 {
			break
		}
		d := fam[2].dist(r, &modelView{them: &st.them, us: &st.us, chart: st.chart}, nil)
		st, _ = s.reply(st, d[0].a)
	}
	require.Zero(t, st.them.Alive, "the chaser survived")
	require.NotZero(t, st.us.Alive)
}

// safeSet is the set of actions the solver values at least as the
// position (never worse).
func safeSet(t *testing.T, sv *endgame.Solver, pos endgame.Position) map[submarine.Action]bool {
	t.Helper()
	acts, err := sv.Actions(pos)
	require.NoError(t, err)
	out := map[submarine.Action]bool{}
	for _, sa := range acts {
		if sa.Value.Compare(acts[0].Value) == 0 {
			out[sa.Action] = true
		}
	}
	return out
}

// pointModel is a posterior with all its weight on policy k of fam.
func pointModel(fam []modelPolicy, k int) oppModel {
	m := newOppModel(fam, 0.05)
	for j := range fam {
		if j != k {
			m.logw[j] = -50
		}
	}
	m.normalise()
	return m
}

// drawnRoot draws random positions of perfect information until one the
// table covers is drawn, and returns it as a root of the model's search
// with its safe set.
func drawnRoot(t *testing.T, r *submarine.Rules, sv *endgame.Solver, rng *rand.Rand) (msState, map[submarine.Action]bool) {
	t.Helper()
	for {
		us, them := randomKnown(r, rng)
		if !sv.Tablebase().Covers(us.Alive.Count(), them.Alive.Count()) {
			continue
		}
		pos, err := endgame.NewPosition(r, us, them)
		require.NoError(t, err)
		if v, err := sv.Solve(pos); err != nil || v.Outcome != endgame.Draw {
			continue
		}
		return msState{us: pos.Mover, them: pos.Other, chart: []uint64{packLiving(r, &pos.Mover)}}, safeSet(t, sv, pos)
	}
}

// TestExploitKeepsSolverValue: on random positions of perfect information
// covered by the table that are drawn, against each joint-greedy point,
// every action the search plays is one the solver values as a draw
// (checked against the value of every legal action), and whenever it
// claims a proof the model's replies indeed cannot stop it at depth 1
// (a sinking) or the proof is replayed one move later.
func TestExploitKeepsSolverValue(t *testing.T) {
	r := submarine.DefaultRules()
	sv, err := endgame.Shared(r, endgame.Options{Nodes: 3000})
	require.NoError(t, err)
	fam := modelFamily(sv)
	n := 150
	if race.Enabled {
		n = 20
	}
	found := 0
	for k := range 4 {
		m := pointModel(fam, k)
		rng := rand.New(rand.NewPCG(3, uint64(k)))
		for range n {
			us, them := randomKnown(r, rng)
			if !sv.Tablebase().Covers(us.Alive.Count(), them.Alive.Count()) {
				continue
			}
			pos, err := endgame.NewPosition(r, us, them)
			require.NoError(t, err)
			v, err := sv.Solve(pos)
			require.NoError(t, err)
			if v.Outcome != endgame.Draw {
				continue
			}
			all, err := sv.Actions(pos)
			require.NoError(t, err)
			value := map[submarine.Action]endgame.Value{}
			for _, sa := range all {
				value[sa.Action] = sa.Value
			}
			allowed := safeSet(t, sv, pos)
			s := modelSearch{r: r, sv: sv, m: &m, support: 0.05}
			s.reset(3000)
			root := msState{us: pos.Mover, them: pos.Other, chart: []uint64{packLiving(r, &pos.Mover)}}
			act, _, ok := s.exploit(root, func(a submarine.Action) bool { return allowed[a] }, 4)
			if !ok {
				continue
			}
			found++
			require.Equal(t, endgame.Draw, value[act].Outcome, "%s: %+v", pos, act)
		}
	}
	t.Logf("proofs found on %d drawn positions", found)
	require.Positive(t, found)
}

// TestAdmiralWithModelPlaysSoundGames: admiral with the opponent model on
// plays legal games against hirota with its beliefs holding the truth
// throughout (checkedGame), hirota's chart of us never contradicted, the
// posterior a distribution that learns.
func TestAdmiralWithModelPlaysSoundGames(t *testing.T) {
	r := submarine.DefaultRules()
	r.DrawLimit = 600
	games := 4
	if race.Enabled {
		r.DrawLimit, games = 200, 1
	}
	cfg := smallAdmiral()
	cfg.Opponent.Model = true
	sh := newAdmiralShared(r, cfg)
	hir := mustFactory(t, "hirota", r, "")
	updates := 0
	for g := range games {
		a := newAdmiral(r, cfg, rand.New(rand.NewPCG(uint64(g), 1)), sh)
		h := hir(rand.New(rand.NewPCG(uint64(g), 2)))
		ps := [2]players.Player{a, h}
		if g%2 == 1 {
			ps = [2]players.Player{h, a}
		}
		checkedGame(t, r, ps[0], ps[1], g%2)
		require.False(t, a.pubBroken)
		updates += a.model.updates
		sum := 0.0
		for _, w := range a.model.w {
			sum += w
		}
		require.InDelta(t, 1, sum, 1e-9)
	}
	if !race.Enabled {
		require.Positive(t, updates, "the posterior never saw a known position")
	}
}
