package players

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/spf13/viper"
	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/belief"
	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/game/submarine"
	"github.com/kaisen-ai/kaisen/internal/config"
	"github.com/kaisen-ai/kaisen/players/chart"
)

func TestJGConfigFilesEqualDefaults(t *testing.T) {
	tests := []struct {
		path string
		want JointGreedyConfig
	}{
		{"../configs/hirota.yaml", DefaultHirotaConfig()},
		{"../configs/joint-greedy.yaml", DefaultJointGreedyConfig()},
	}
	for _, tc := range tests {
		t.Run(tc.path, func(t *testing.T) {
			got := tc.want
			require.NoError(t, config.Load(tc.path, &got))
			require.Equal(t, tc.want, got)
			v := viper.New()
			v.SetConfigFile(tc.path)
			require.NoError(t, v.ReadInConfig())
			keys := v.AllKeys()
			slices.Sort(keys)
			want := sp2Keys(reflect.TypeFor[JointGreedyConfig](), "")
			slices.Sort(want)
			require.Equal(t, want, keys, "every key is written in the YAML file")
		})
	}
	// Loading hirota's file over the family's defaults gives hirota.
	got := DefaultJointGreedyConfig()
	require.NoError(t, config.Load("../configs/hirota.yaml", &got))
	require.Equal(t, DefaultHirotaConfig(), got)
}

func TestJGConfigValidate(t *testing.T) {
	tests := []struct {
		name string
		edit func(*JointGreedyConfig)
		key  string
	}{
		{"negative exponent", func(c *JointGreedyConfig) { c.Attack.HPExponent = -1 }, "attack.hp_exponent"},
		{"probability above 1", func(c *JointGreedyConfig) { c.Flee.Located = 1.5 }, "flee.located"},
		{"NaN", func(c *JointGreedyConfig) { c.Idle.Move = nanFloat() }, "idle.move"},
		{"distance", func(c *JointGreedyConfig) { c.Placement.MinDistance = 17 }, "placement.min_distance"},
		{"approach target", func(c *JointGreedyConfig) { c.Approach.Target = "closest" }, "approach.target"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cfg := DefaultJointGreedyConfig()
			tc.edit(&cfg)
			require.ErrorContains(t, cfg.Validate(), tc.key)
		})
	}
	cfg := DefaultJointGreedyConfig()
	err := config.LoadString("x.yaml", "flee:\n  rat: 0.5\n", &cfg)
	require.ErrorIs(t, err, config.ErrUnknownKey)
	require.ErrorContains(t, err, "flee.rat")
	_, err = New("joint-greedy", submarine.DefaultRules(), config.File("testdata/does-not-exist.yaml"))
	require.Error(t, err)
}

func nanFloat() float64 { z := 0.0; return z / z }

// jgPack packs placements (cells by fleet index) into chart entries.
func jgPack(ps ...[]grid.Cell) []uint64 {
	out := make([]uint64, len(ps))
	for k, p := range ps {
		for i, c := range p {
			out[k] |= uint64(c) << (8 * i)
		}
	}
	return out
}

// jgPosition builds a hand-made position: our fleet at me (full hp unless
// hp says otherwise), the enemy fleet in one of enemy, ours as the enemy can
// know it in one of own.
func jgPosition(t *testing.T, cfg JointGreedyConfig, me []grid.Cell, enemy, own [][]grid.Cell) *JointGreedy {
	t.Helper()
	r := submarine.DefaultRules()
	p, err := NewJointGreedy(r, cfg, rand.New(rand.NewPCG(1, 2)))
	require.NoError(t, err)
	p.me = submarine.NewFleet(r, me)
	p.enemy.Set(jgPack(enemy...), p.enemy.Alive())
	p.own.Set(jgPack(own...), p.own.Alive())
	return p
}

func TestJGAttackMaximisesProbabilityOverHP(t *testing.T) {
	me := []grid.Cell{xy(0, 0), xy(4, 4), xy(2, 4)}
	// The enemy w is surely on [1,1] (in reach, score 1/3); its s is on [1,0]
	// or on [3,4] (in reach, score 1/2 each); its c on [2,2] is out of reach.
	enemy := [][]grid.Cell{
		{xy(1, 1), xy(2, 2), xy(1, 0)},
		{xy(1, 1), xy(2, 2), xy(3, 4)},
	}
	own := [][]grid.Cell{me, {xy(0, 1), xy(4, 4), xy(2, 4)}}
	tests := []struct {
		name     string
		exponent float64
		want     []grid.Cell
		best     float64
	}{
		{"P/hp prefers the likely submarine", 1, []grid.Cell{xy(1, 0), xy(3, 4)}, 0.5},
		{"plain probability prefers the sure battleship", 0, []grid.Cell{xy(1, 1)}, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cfg := DefaultHirotaConfig()
			cfg.Attack.HPExponent = tc.exponent
			seen := map[grid.Cell]bool{}
			for k := range uint64(40) {
				p := jgPosition(t, cfg, me, enemy, own)
				p.rng = rand.New(rand.NewPCG(k, k+7))
				a := p.Act()
				require.Equal(t, submarine.Attack, a.Kind)
				require.Contains(t, tc.want, a.To)
				seen[a.To] = true
				d := p.Explain()
				require.Equal(t, "attack", d.State)
				if len(tc.want) > 1 {
					require.Contains(t, d.Reason, "2 cells tied")
				}
				require.InDelta(t, tc.best, d.Candidates[0].Score, 1e-12, "best candidate first")
			}
			require.Len(t, seen, len(tc.want), "ties are broken at random")
		})
	}
}

func TestJGFleesOnlyWhenLocatedAndInReach(t *testing.T) {
	me := []grid.Cell{xy(0, 0), xy(4, 4), xy(2, 4)}
	// Every enemy placement has a ship next to our w on [0,0], none of them
	// surely in our reach; [0,3] is the first cell of w's lines out of every
	// enemy ship's reach.
	covering := [][]grid.Cell{
		{xy(1, 0), xy(4, 2), xy(2, 2)},
		{xy(1, 1), xy(4, 2), xy(2, 2)},
	}
	notCovering := append(slices.Clone(covering), []grid.Cell{xy(3, 0), xy(4, 2), xy(2, 2)})
	located := [][]grid.Cell{me}
	unsure := [][]grid.Cell{me, {xy(0, 1), xy(4, 4), xy(2, 4)}}
	tests := []struct {
		name       string
		enemy, own [][]grid.Cell
		enemyWHP   int8
		flee       bool
	}{
		{"located and in reach", covering, located, 3, true},
		{"not surely located", covering, unsure, 3, false},
		{"not surely in reach", notCovering, located, 3, false},
		{"ahead by one hp", covering, located, 2, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := jgPosition(t, DefaultHirotaConfig(), me, tc.enemy, tc.own)
			p.enemyHP[0] = tc.enemyWHP
			a := p.Act()
			if !tc.flee {
				require.NotEqual(t, "flee", p.Explain().State)
				return
			}
			require.Equal(t, submarine.MoveTo(0, xy(0, 3)), a)
			d := p.Explain()
			require.Equal(t, "flee", d.State)
			require.Contains(t, d.Reason, "flees to A4")
		})
	}
}

func TestJGIdle(t *testing.T) {
	me := []grid.Cell{xy(0, 0), xy(4, 4), xy(2, 4)}
	far := [][]grid.Cell{{xy(2, 1), xy(3, 2), xy(4, 1)}, {xy(2, 1), xy(3, 2), xy(4, 2)}}
	located := [][]grid.Cell{me}
	t.Run("level: pass on the cell the enemy most expects us", func(t *testing.T) {
		p := jgPosition(t, DefaultHirotaConfig(), me, far, located)
		// Our three cells are equally exposed; the last of the scan wins.
		require.Equal(t, submarine.AttackAt(xy(4, 4)), p.Act())
		require.Equal(t, "pass", p.Explain().State)
	})
	t.Run("ahead: approach", func(t *testing.T) {
		p := jgPosition(t, DefaultHirotaConfig(), me, far, located)
		p.enemyHP[0] = 2
		a := p.Act()
		require.Equal(t, submarine.Move, a.Kind)
		d := p.Explain()
		require.Equal(t, "approach", d.State)
		// The destinations are the enemy's likely cells; the move gets as
		// close to the drawn one as any move can.
		dest := p.last.dest
		require.Contains(t, []grid.Cell{xy(2, 1), xy(3, 2)}, dest)
		require.Equal(t, 0.0, p.last.score, "a move lands on the destination")
		require.Equal(t, dest, a.To)
	})
	t.Run("ahead: enter the enemy's likely reach (earlier version)", func(t *testing.T) {
		cfg := DefaultHirotaConfig()
		cfg.Approach.Target = JGApproachReach
		p := jgPosition(t, cfg, me, far, located)
		p.enemyHP[0] = 2
		a := p.Act()
		require.Equal(t, submarine.Move, a.Kind)
		require.Equal(t, "approach", p.Explain().State)
		best := 0
		for i := range 3 {
			for c := range p.rules.MoveTargets(&p.me, i).All() {
				best = max(best, p.enemy.Covered(c))
			}
		}
		require.Equal(t, best, p.enemy.Covered(a.To), "no move is more likely in reach")
		require.Equal(t, 2, best, "surely in reach")
	})
	t.Run("camper never approaches", func(t *testing.T) {
		cfg := DefaultHirotaConfig()
		cfg.Approach.Ahead = 7
		p := jgPosition(t, cfg, me, far, located)
		p.enemyHP[0] = 2
		require.Equal(t, submarine.Attack, p.Act().Kind)
		require.Equal(t, "pass", p.Explain().State)
	})
	t.Run("mover wanders to a safe cell", func(t *testing.T) {
		cfg := DefaultHirotaConfig()
		cfg.Idle.Move = 1
		p := jgPosition(t, cfg, me, far, located)
		a := p.Act()
		require.Equal(t, submarine.Move, a.Kind)
		require.Zero(t, p.enemy.Covered(a.To))
	})
}

func TestJGPlacementPrior(t *testing.T) {
	r := submarine.DefaultRules()
	b := r.Board
	tests := []struct {
		name  string
		cfg   JointGreedyConfig
		check func(t *testing.T, p submarine.Placement)
	}{
		{"hirota: pairwise 3 apart, w off the low edges", DefaultHirotaConfig(), func(t *testing.T, p submarine.Placement) {
			x, y := b.XY(p[0])
			require.True(t, x > 0 && y > 0, "w at [%d,%d]", x, y)
		}},
		{"family: pairwise 3 apart", DefaultJointGreedyConfig(), func(*testing.T, submarine.Placement) {}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(3, 4))
			distinct := map[[3]grid.Cell]bool{}
			for range 300 {
				p, err := NewJointGreedy(r, tc.cfg, rng)
				require.NoError(t, err)
				pl := p.Place()
				require.NoError(t, r.ValidatePlacement(pl))
				for i := range pl {
					for j := i + 1; j < len(pl); j++ {
						require.GreaterOrEqual(t, b.Chebyshev(pl[i], pl[j]), 3)
					}
				}
				tc.check(t, pl)
				distinct[[3]grid.Cell(pl)] = true
			}
			require.Greater(t, len(distinct), 20, "placements are drawn, not fixed")
		})
	}
	t.Run("corner weight", func(t *testing.T) {
		cfg := DefaultJointGreedyConfig()
		cfg.Placement.MinDistance = 0
		cfg.Placement.Corner = 10
		p, err := NewJointGreedy(r, cfg, rand.New(rand.NewPCG(5, 6)))
		require.NoError(t, err)
		for _, c := range p.Place() {
			x, y := b.XY(c)
			require.True(t, (x == 0 || x == 4) && (y == 0 || y == 4), "in a corner")
		}
	})
	t.Run("infeasible distance is lowered", func(t *testing.T) {
		cfg := DefaultJointGreedyConfig()
		cfg.Placement.MinDistance = 16
		p, err := NewJointGreedy(r, cfg, rand.New(rand.NewPCG(5, 6)))
		require.NoError(t, err)
		require.NoError(t, r.ValidatePlacement(p.Place()))
	})
}

// TestJGChartMatchesJoint checks the explicit chart against package belief:
// with the near report of a hit it is the same exact belief (same counts per
// ship and cell); without it (hirota_player's chart) it is a superset that
// still holds the true placement.
func TestJGChartMatchesJoint(t *testing.T) {
	r := submarine.DefaultRules()
	all, err := chart.Enumerate(r, chart.MaxPlacements)
	require.NoError(t, err)
	require.Len(t, all, 13800)
	for seed := range uint64(6) {
		rng := rand.New(rand.NewPCG(seed, 99))
		ps := [2]Player{NewRandom(r, rng), NewRandom(r, rng)}
		pl := [2]submarine.Placement{ps[0].Place(), ps[1].Place()}
		g, err := submarine.NewGame(r, pl[0], pl[1], 0)
		require.NoError(t, err)
		var exact, loose [2]chart.Chart // seat 0's beliefs: [0] enemy, [1] own
		var joint [2]*belief.Joint
		for k := range 2 {
			exact[k].Reset(r.Board, 3, true, all)
			loose[k].Reset(r.Board, 3, false, all)
			joint[k], err = belief.NewJoint(r, 0)
			require.NoError(t, err)
		}
		for step := 0; g.Status() == game.Running && step < 150; step++ {
			seat := g.ToAct()
			st, err := g.Apply(ps[seat].Act())
			require.NoError(t, err)
			for s := range 2 {
				v := g.View(s)
				ev := st.Actor
				if s != seat {
					ev = st.Other
				}
				ps[s].Observe(ev, &v)
			}
			ev := st.Actor
			if seat != 0 {
				ev = st.Other
			}
			for k, side := range []belief.Side{belief.Enemy, belief.Own} {
				require.NoError(t, joint[k].Observe(ev, side))
				for _, c := range []*chart.Chart{&exact[k], &loose[k]} {
					require.True(t, c.Observe(ev, side == belief.Own))
				}
				require.Equal(t, joint[k].Count(), exact[k].Total(), "seed %d step %d side %s", seed, step, side)
				truth := g.Fleet(1 - k)
				for i := range 3 {
					for c := range grid.Cell(25) {
						want := int(joint[k].ShipProb(i, c)*float64(joint[k].Count()) + 0.5)
						require.Equal(t, want, exact[k].Count(i, c), "ship %d cell %d", i, c)
					}
					if truth.Alive.Has(i) {
						require.Positive(t, loose[k].Count(i, truth.Pos[i]), "the loose chart keeps the truth")
					}
				}
				require.GreaterOrEqual(t, loose[k].Total(), exact[k].Total())
			}
		}
	}
}
