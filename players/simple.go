package players

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"

	"github.com/kaisen-ai/kaisen/belief"
	"github.com/kaisen-ai/kaisen/explain"
	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/game/submarine"
	"github.com/kaisen-ai/kaisen/internal/roster"
)

// SimpleConfig holds the tunable constants of Simple (YAML:
// configs/simple.yaml, whose values equal DefaultSimpleConfig).
type SimpleConfig struct {
	// MoveProbability is the chance of moving instead of attacking on a turn.
	// Default 0.5 (the reference flips a fair coin).
	MoveProbability float64 `mapstructure:"move_probability"`
	// Belief configures how the enemy candidate sets are updated.
	Belief RefBeliefConfig `mapstructure:"belief"`
}

// RefBeliefConfig configures the belief of the reference players Simple and
// StatePlayer.
type RefBeliefConfig struct {
	// Careful also uses what the reference players ignore: an enemy attack at
	// P means an enemy ship within 1 of P, and two enemy ships never share a
	// cell (belief.Ships.ObserveCareful instead of Observe). Default false
	// (the reference behaviour).
	Careful bool `mapstructure:"careful"`
}

// DefaultSimpleConfig returns the built-in constants of Simple.
func DefaultSimpleConfig() SimpleConfig {
	return SimpleConfig{MoveProbability: 0.5}
}

// Validate checks the ranges of the constants.
func (c *SimpleConfig) Validate() error {
	if p := c.MoveProbability; math.IsNaN(p) || p < 0 || p > 1 {
		return fmt.Errorf("move_probability %v: want a number from 0 to 1", p)
	}
	return nil
}

// Simple is the reference player "simple" (a port of SimplePlayer,
// ai_player_simple.rb of the published submarine game). It keeps, for every
// enemy ship, the set of cells where it may be (a belief.Ships updated with
// the events of the game) and plays:
//
//  1. With probability MoveProbability (a fair coin by default) it moves:
//     a ship drawn uniformly among its living ships that have a legal move,
//     to a destination drawn uniformly among that ship's legal destinations
//     (same row or column, on the board, no own ship there). If no ship can
//     move it attacks instead.
//  2. Otherwise it attacks: it draws an enemy ship T uniformly among the
//     living ones, then a cell uniformly from T's candidate set ∩ the cells
//     it can attack. When T may be nowhere within reach, it falls back to a
//     uniform cell of (any living enemy ship's candidate set) ∩ reach, and
//     when no enemy ship may be within reach, to a uniform cell of its reach.
//
// Placement is RandomPlacement (three distinct uniform cells, like the
// reference).
//
// Deviations from the Ruby reference, all documented in
// docs/reference-players.md: the candidate sets also drop the cells around an
// attack for the ships absent from "near" (belief.Ships.Observe; the Ruby
// code only intersected the sets of the ships in "near"); the reference
// retried 61 random candidates before attacking a uniform cell of its reach,
// Kaisen draws directly from candidates ∩ reach and has a middle fallback
// (other ships' candidates) before the uniform one.
//
// Simple is deterministic given its *rand.Rand; Act and Observe do not
// allocate.
type Simple struct {
	rules *submarine.Rules
	rng   *rand.Rand
	cfg   SimpleConfig
	me    submarine.Fleet
	enemy belief.Ships
	last  refChoice
}

var (
	_ Player            = (*Simple)(nil)
	_ explain.Explainer = (*Simple)(nil)
)

// NewSimple returns a simple player for rules (which must be valid).
func NewSimple(rules *submarine.Rules, cfg SimpleConfig, rng *rand.Rand) *Simple {
	return &Simple{rules: rules, rng: rng, cfg: cfg, enemy: belief.NewShips(rules)}
}

// buildSimple is the registry's Build for "simple" (the registry prefixes
// its errors with the player's name).
func buildSimple(rules *submarine.Rules, load Loader) (Factory, error) {
	cfg, err := roster.Configure(load, DefaultSimpleConfig())
	if err != nil {
		return nil, err
	}
	return func(rng *rand.Rand) Player { return NewSimple(rules, cfg, rng) }, nil
}

// Enemy returns the player's belief about the enemy fleet (a copy).
func (p *Simple) Enemy() belief.Ships { return p.enemy }

// Place implements Player.
func (p *Simple) Place() submarine.Placement {
	pl := RandomPlacement(p.rules, p.rng)
	p.me = submarine.NewFleet(p.rules, pl)
	return pl
}

// Act implements Player.
func (p *Simple) Act() submarine.Action {
	if p.rng.Float64() < p.cfg.MoveProbability {
		if a, ok := refRandomShipMove(p.rules, &p.me, p.rng, &p.last); ok {
			p.last.reason = "coin says move: a random legal move of a random ship"
			return a
		}
	}
	reach := p.rules.Reach(&p.me)
	t := refPickShip(p.enemy.Alive()&p.rules.AllShips(), p.rng)
	return refAttackShip(p.rules, &p.enemy, t, reach, p.rng, &p.last)
}

// Observe implements Player.
func (p *Simple) Observe(ev submarine.Event, v *submarine.View) {
	p.me = v.Me
	refObserve(p.rules, &p.enemy, ev, v, p.cfg.Belief.Careful)
}

// Explain implements Explainer: the last action was drawn uniformly from
// the listed candidates (score = probability).
func (p *Simple) Explain() explain.Decision { return p.last.decision(p.rules) }

// refChoice records how a reference player chose its last action, so that
// Explain can build a Decision without Act allocating.
type refChoice struct {
	state  string
	reason string         // constant text (Act must not allocate); "{ship}" stands for target
	target int            // the enemy ship aimed at, or NoShip
	kind   submarine.Kind // kind of the candidates in pool
	ship   int            // the moving ship when kind is Move
	pool   grid.Set       // the action was drawn uniformly from these cells
}

func (c *refChoice) set(state string, kind submarine.Kind, ship int, pool grid.Set) {
	c.state, c.kind, c.ship, c.pool = state, kind, ship, pool
}

func (c *refChoice) decision(r *submarine.Rules) explain.Decision {
	name := "?"
	if c.target >= 0 && c.target < len(r.Fleet) {
		name = r.Fleet[c.target].Name
	}
	d := explain.Decision{State: c.state, Reason: strings.ReplaceAll(c.reason, "{ship}", name)}
	n := c.pool.Count()
	if n == 0 {
		return d
	}
	d.Candidates = make([]explain.Candidate, 0, n)
	for cell := range c.pool.All() {
		name := "attack " + r.CellName(cell)
		if c.kind == submarine.Move && c.ship >= 0 && c.ship < len(r.Fleet) {
			name = "move " + r.Fleet[c.ship].Name + " " + r.CellName(cell)
		}
		d.Candidates = append(d.Candidates, explain.Candidate{Action: name, Score: 1 / float64(n)})
	}
	return d
}

// refObserve applies ev to the enemy belief of a reference player, and drops
// the enemy ships that the view reports sunk (a belief that missed an event
// stays consistent with the hp everybody is told).
func refObserve(r *submarine.Rules, enemy *belief.Ships, ev submarine.Event, v *submarine.View, careful bool) {
	if careful {
		enemy.ObserveCareful(ev, belief.Enemy)
	} else {
		enemy.Observe(ev, belief.Enemy)
	}
	for i := range len(r.Fleet) {
		if v.EnemyHP[i] <= 0 && enemy.Alive().Has(i) {
			enemy.Sink(i)
		}
	}
}

// refPickShip draws a ship uniformly from m, or returns NoShip when m is empty.
func refPickShip(m submarine.ShipMask, rng *rand.Rand) int {
	n := m.Count()
	if n == 0 {
		return submarine.NoShip
	}
	k := rng.IntN(n)
	for i := range submarine.MaxShips {
		if m.Has(i) {
			if k == 0 {
				return i
			}
			k--
		}
	}
	return submarine.NoShip
}

// refPick draws a cell uniformly from s, or returns grid.None when s is empty.
func refPick(s grid.Set, rng *rand.Rand) grid.Cell {
	n := s.Count()
	if n == 0 {
		return grid.None
	}
	return s.Nth(rng.IntN(n))
}

// refRandomShipMove draws a ship uniformly among the living ships of f that
// have a legal move, then a destination uniformly among its legal ones. It
// reports false when no ship can move.
func refRandomShipMove(r *submarine.Rules, f *submarine.Fleet, rng *rand.Rand, c *refChoice) (submarine.Action, bool) {
	var movable submarine.ShipMask
	for i := range len(r.Fleet) {
		if !r.MoveTargets(f, i).Empty() {
			movable = movable.With(i)
		}
	}
	s := refPickShip(movable, rng)
	if s == submarine.NoShip {
		return submarine.Action{}, false
	}
	targets := r.MoveTargets(f, s)
	c.target = submarine.NoShip
	c.set("move", submarine.Move, s, targets)
	return submarine.MoveTo(s, refPick(targets, rng)), true
}

// refAttackShip attacks a uniform cell of ship t's candidate set within
// reach; failing that, a uniform cell within reach where any living enemy
// ship may be; failing that, a uniform cell of reach.
func refAttackShip(r *submarine.Rules, enemy *belief.Ships, t int, reach grid.Set, rng *rand.Rand, c *refChoice) submarine.Action {
	c.target = t
	pool := enemy.Set(t).Intersect(reach)
	switch {
	case !pool.Empty():
		c.reason = "attack where the chosen enemy ship {ship} may be"
	case !enemy.Any().Intersect(reach).Empty():
		pool = enemy.Any().Intersect(reach)
		c.reason = "the chosen enemy ship {ship} may be nowhere in reach: attack where another may be"
	default:
		pool = reach
		c.reason = "no enemy ship may be within reach: attack any cell in reach"
	}
	c.set("attack", submarine.Attack, submarine.NoShip, pool)
	return submarine.AttackAt(refPick(pool, rng))
}
