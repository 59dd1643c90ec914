package players

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/kaisen-ai/kaisen/game/submarine"
	"github.com/kaisen-ai/kaisen/internal/roster"
)

// JointGreedyConfig holds the weights of the joint-greedy family
// (docs/hirota.md; YAML: configs/joint-greedy.yaml, whose values equal
// DefaultJointGreedyConfig, and configs/hirota.yaml, whose values equal
// DefaultHirotaConfig). Float weights carry `tune:"min,max"` tags, the
// ranges `kaisen tune` searches; the other fields stay fixed in a run.
type JointGreedyConfig struct {
	Placement JGPlacement `mapstructure:"placement"`
	Belief    JGBelief    `mapstructure:"belief"`
	Attack    JGAttack    `mapstructure:"attack"`
	Flee      JGFlee      `mapstructure:"flee"`
	Approach  JGApproach  `mapstructure:"approach"`
	Idle      JGIdle      `mapstructure:"idle"`
}

// JGPlacement is the placement prior: a placement is drawn among those whose
// ships are pairwise at least MinDistance apart (Chebyshev; the largest
// feasible distance when none is), with weight
// exp(Edge * ships on the border + Corner * ships in a corner).
type JGPlacement struct {
	// MinDistance between any two ships, rounded down. hirota: 3.
	MinDistance float64 `mapstructure:"min_distance" tune:"0,4"`
	// Edge is the log-weight of each ship on the border. hirota: 0.
	Edge float64 `mapstructure:"edge" tune:"-3,3"`
	// Corner is the log-weight of each ship in a corner (on top of Edge).
	// hirota: 0.
	Corner float64 `mapstructure:"corner" tune:"-3,3"`
	// FirstOffLowEdges keeps the first ship of the fleet (w) off column 0 and
	// row 0, as hirota_player's placement does (its border test compares
	// with the number of cells, not the width, so only the low edges count).
	// hirota: true.
	FirstOffLowEdges bool `mapstructure:"first_off_low_edges"`
}

// JGBelief configures the joint beliefs (both fleets).
type JGBelief struct {
	// HitNear also checks the near report of a hit against the other ships
	// (the exact belief of package belief). hirota_player checks the near
	// report of a miss only. hirota: false.
	HitNear bool `mapstructure:"hit_near"`
}

// JGAttack configures the attack score of a cell in reach:
// sum over living enemy ships of P(ship on cell) / hp^HPExponent
// + Info * expected information of the answer in bits.
type JGAttack struct {
	// HPExponent divides each ship's probability by its hp to this power
	// (1: hirota's P/hp, prefer finishing weak ships; 0: plain hit chance).
	HPExponent float64 `mapstructure:"hp_exponent" tune:"0,3"`
	// Info weighs the expected information of the answer (hit, near set),
	// in bits. hirota: 0.
	Info float64 `mapstructure:"info" tune:"0,1"`
	// Min: a best score at or below Min is "nothing worth attacking" (then
	// the idle rules act). hirota: 0.
	Min float64 `mapstructure:"min" tune:"0,0.5"`
}

// JGFlee configures escapes. A living ship is threatened when the enemy
// locates it (P(it is on its cell), as the enemy can know it, >= Located) and
// it is in the enemy's reach (P(an enemy ship within 1) >= Reach). It flees
// to the reachable cell least likely in the enemy's reach, if that
// probability is <= Safe, unless the fleet is ahead: hp advantage (own hp -
// enemy hp) >= Ahead, or >= AheadWithTarget when an enemy ship is located
// (P >= TargetSure) in our reach. Among threatened ships the one with the
// safest refuge flees, ties to the lower hp.
type JGFlee struct {
	// Located: probability the enemy must have of our ship's cell. hirota: 1.
	Located float64 `mapstructure:"located" tune:"0.3,1"`
	// Reach: probability that the cell is in the enemy's reach. hirota: 1.
	Reach float64 `mapstructure:"reach" tune:"0.3,1"`
	// Safe: largest reach probability of an acceptable refuge. hirota: 0.
	Safe float64 `mapstructure:"safe" tune:"0,1"`
	// Ahead: hp advantage from which it stands. hirota: 1.
	Ahead float64 `mapstructure:"ahead" tune:"-6,7"`
	// AheadWithTarget: hp advantage from which it stands when it has a
	// located target in reach. hirota: 0.
	AheadWithTarget float64 `mapstructure:"ahead_with_target" tune:"-6,7"`
	// TargetSure: probability that makes an enemy ship located. hirota: 1.
	TargetSure float64 `mapstructure:"target_sure" tune:"0.3,1"`
	// Rate is the probability of fleeing when the rule says so (0: never,
	// a camper). hirota: 1.
	Rate float64 `mapstructure:"rate" tune:"0,1"`
}

// JGApproach configures what an idle player (nothing worth attacking) does
// when it is ahead: hp advantage > Ahead. With Target "score" it picks a
// destination among the cells of highest attack score (hirota's rule: the
// successive records of a scan of the board, at random) and moves the ship,
// among those at least HPEdge stronger than the enemy ship most likely
// there, to the cell that minimises the Manhattan distance to it + Safety *
// P(cell in the enemy's reach). With Target "reach" (the earlier published
// version, HKodai/submarine @ 8a6b3cb) it moves the ship and cell most likely
// in the enemy's reach (the last of the scan among equals), among ships at
// least HPEdge stronger than the enemy's strongest living ship.
type JGApproach struct {
	// Target: "score" (head for a likely enemy cell) or "reach" (enter the
	// enemy's likely reach). hirota: score.
	Target string `mapstructure:"target"`
	// Ahead: hp advantage above which it approaches (7: never on the
	// default fleet, a camper; -7: always, a chaser). hirota: 0.
	Ahead float64 `mapstructure:"ahead" tune:"-7,7"`
	// HPEdge: a ship approaches only when its hp - the target's hp >= HPEdge
	// (-10: any ship). hirota: -10.
	HPEdge float64 `mapstructure:"hp_edge" tune:"-10,3"`
	// Safety weighs the reach probability of the destination. hirota: 0.
	Safety float64 `mapstructure:"safety" tune:"0,4"`
}

// JGIdle configures an idle player that does not approach: it "passes" by
// attacking the cell in reach where the enemy most expects our ships (an
// attack that tells it the least), or, with probability Move, moves a ship
// to the cell least likely in the enemy's reach (ties at random).
type JGIdle struct {
	// Move: probability of a move instead of a pass. hirota: 0.
	Move float64 `mapstructure:"move" tune:"0,1"`
}

// The approach targets of JGApproach.Target.
const (
	JGApproachScore = "score"
	JGApproachReach = "reach"
)

// DefaultHirotaConfig returns hirota_player's rules as weights: the
// published player (HKodai/submarine, docs/hirota.md).
func DefaultHirotaConfig() JointGreedyConfig {
	return JointGreedyConfig{
		Placement: JGPlacement{MinDistance: 3, FirstOffLowEdges: true},
		Belief:    JGBelief{HitNear: false},
		Attack:    JGAttack{HPExponent: 1},
		Flee:      JGFlee{Located: 1, Reach: 1, Safe: 0, Ahead: 1, AheadWithTarget: 0, TargetSure: 1, Rate: 1},
		Approach:  JGApproach{Target: JGApproachScore, Ahead: 0, HPEdge: -10, Safety: 0},
		Idle:      JGIdle{Move: 0},
	}
}

// DefaultJointGreedyConfig returns the centre of the family: hirota's
// weights on Kaisen's exact belief (the near report of a hit is used) and
// without the placement quirk.
func DefaultJointGreedyConfig() JointGreedyConfig {
	c := DefaultHirotaConfig()
	c.Placement.FirstOffLowEdges = false
	c.Belief.HitNear = true
	return c
}

// Validate checks the ranges of every weight.
func (c *JointGreedyConfig) Validate() error {
	var errs []error
	for _, w := range []struct {
		key    string
		v      float64
		lo, hi float64
	}{
		{"placement.min_distance", c.Placement.MinDistance, 0, 16},
		{"placement.edge", c.Placement.Edge, -10, 10},
		{"placement.corner", c.Placement.Corner, -10, 10},
		{"attack.hp_exponent", c.Attack.HPExponent, 0, 8},
		{"attack.info", c.Attack.Info, 0, 100},
		{"attack.min", c.Attack.Min, 0, 100},
		{"flee.located", c.Flee.Located, 0, 1},
		{"flee.reach", c.Flee.Reach, 0, 1},
		{"flee.safe", c.Flee.Safe, 0, 1},
		{"flee.ahead", c.Flee.Ahead, -1000, 1000},
		{"flee.ahead_with_target", c.Flee.AheadWithTarget, -1000, 1000},
		{"flee.target_sure", c.Flee.TargetSure, 0, 1},
		{"flee.rate", c.Flee.Rate, 0, 1},
		{"approach.ahead", c.Approach.Ahead, -1000, 1000},
		{"approach.hp_edge", c.Approach.HPEdge, -1000, 1000},
		{"approach.safety", c.Approach.Safety, 0, 100},
		{"idle.move", c.Idle.Move, 0, 1},
	} {
		if math.IsNaN(w.v) || w.v < w.lo || w.v > w.hi {
			errs = append(errs, fmt.Errorf("%s %v: want %g to %g", w.key, w.v, w.lo, w.hi))
		}
	}
	if t := c.Approach.Target; t != JGApproachScore && t != JGApproachReach {
		errs = append(errs, fmt.Errorf("approach.target %q: want %q or %q", t, JGApproachScore, JGApproachReach))
	}
	return errors.Join(errs...)
}

// jgBuild makes the registry's Build of a joint-greedy player whose weights
// default to base.
func jgBuild(base func() JointGreedyConfig) func(*submarine.Rules, Loader) (Factory, error) {
	return func(rules *submarine.Rules, load Loader) (Factory, error) {
		cfg, err := roster.Configure(load, base())
		if err != nil {
			return nil, err
		}
		sh, err := newJGShared(rules, cfg)
		if err != nil {
			return nil, err
		}
		return func(rng *rand.Rand) Player { return newJointGreedy(sh, rng) }, nil
	}
}
