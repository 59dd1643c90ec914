package players

import (
	"math/rand/v2"

	"github.com/kaisen-ai/kaisen/belief"
	"github.com/kaisen-ai/kaisen/explain"
	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/game/submarine"
	"github.com/kaisen-ai/kaisen/internal/roster"
)

// StatePlayerConfig holds the tunable constants of StatePlayer (YAML:
// configs/state.yaml, whose values equal DefaultStatePlayerConfig).
type StatePlayerConfig struct {
	// Counter configures the reaction to a hit on one of my ships.
	Counter RefCounterConfig `mapstructure:"counter"`
	// Belief configures how the enemy candidate sets are updated.
	Belief RefBeliefConfig `mapstructure:"belief"`
}

// RefCounterConfig configures StatePlayer's reaction to being hit.
type RefCounterConfig struct {
	// RequiresHP: counter-attack a pinned enemy ship within reach of my hit
	// ship only when my ship's hp is at least that enemy ship's hp; when
	// false, counter-attack any pinned enemy ship within reach. Otherwise
	// the hit ship escapes. Default true (the reference).
	RequiresHP bool `mapstructure:"requires_hp"`
}

// DefaultStatePlayerConfig returns the built-in constants of StatePlayer.
func DefaultStatePlayerConfig() StatePlayerConfig {
	return StatePlayerConfig{Counter: RefCounterConfig{RequiresHP: true}}
}

// buildStatePlayer is the registry's Build for "state" (the registry
// prefixes its errors with the player's name).
func buildStatePlayer(rules *submarine.Rules, load Loader) (Factory, error) {
	cfg, err := roster.Configure(load, DefaultStatePlayerConfig())
	if err != nil {
		return nil, err
	}
	return func(rng *rand.Rand) Player { return NewStatePlayer(rules, cfg, rng) }, nil
}

// refMode is the persistent state of StatePlayer between turns. (The chase
// state of the reference only ever lasts inside one Act: it is entered from
// attack and always returns to attack after its move.)
type refMode uint8

const (
	refAttack refMode = iota
	refEscape
)

// StatePlayer is the reference player "state" (a port of StatePlayer,
// state_player.rb of the published submarine game). It keeps the same
// per-ship enemy candidate sets as Simple, a focus (an enemy ship it hit and
// did not sink) and one of the states attack, chase and escape:
//
//   - attack (the initial state): the target is the focus when it is set,
//     else an enemy ship drawn uniformly among the living ones. Attack a
//     uniform cell of the target's candidate set within reach. If the
//     target may be nowhere within reach, attack the first other enemy ship
//     (fleet order) that is pinned (one candidate cell) within reach. If
//     there is none either, go to chase in the same turn.
//   - chase: move one ship into the row or the column of a cell where the
//     target may be. The reference repeats random trials (own ship uniform,
//     target = focus or uniform, target cell uniform in its candidate set;
//     first try the ship's row at the target's column, then the ship's
//     column at the target's row) until one is a legal move; Kaisen draws
//     from exactly that distribution by enumerating every trial with weight
//     1/|candidate set| and keeping the legal ones. Then back to attack.
//     When no trial is legal, a random legal move (Simple's), else an attack.
//   - escape: entered when the enemy hit one of my ships D that survived and
//     no counter-attack applies (see below). Move D to a uniform legal
//     destination that no enemy ship can attack from any of its candidate
//     cells; when there is none, to a uniform legal destination. Then back
//     to attack (in the same turn: attack when D cannot move at all).
//
// After my attack hits enemy ship T without sinking it, T becomes the focus;
// when the focus sinks, the focus is cleared. After the enemy hits my ship D
// without sinking it, the first enemy ship E (fleet order) that is pinned on
// a cell D can attack, and whose hp is at most D's hp (Counter.RequiresHP),
// becomes the focus and the state is attack (a counter-attack); else the
// state is escape with D.
//
// Placement is RandomPlacement (like the reference). Deviations from the
// Ruby code are listed in docs/reference-players.md: the belief also uses
// negative splash information; sinking a ship other than the focus keeps
// the focus (the reference cleared it on every sinking); no unbounded
// retry loops.
//
// StatePlayer is deterministic given its *rand.Rand; Act and Observe do not
// allocate.
type StatePlayer struct {
	rules   *submarine.Rules
	rng     *rand.Rand
	cfg     StatePlayerConfig
	me      submarine.Fleet
	enemyHP [submarine.MaxShips]int8
	enemy   belief.Ships
	mode    refMode
	focus   int // enemy ship aimed at, or NoShip
	escaper int // my ship to move away in escape, or NoShip
	last    refChoice
}

var (
	_ Player            = (*StatePlayer)(nil)
	_ explain.Explainer = (*StatePlayer)(nil)
)

// NewStatePlayer returns a state player for rules (which must be valid).
func NewStatePlayer(rules *submarine.Rules, cfg StatePlayerConfig, rng *rand.Rand) *StatePlayer {
	p := &StatePlayer{
		rules: rules, rng: rng, cfg: cfg,
		enemy: belief.NewShips(rules),
		focus: submarine.NoShip, escaper: submarine.NoShip,
	}
	for i, s := range rules.Fleet {
		p.enemyHP[i] = int8(s.HP)
	}
	return p
}

// State is the state the next Act starts in: "attack" or "escape".
func (p *StatePlayer) State() string {
	if p.mode == refEscape {
		return "escape"
	}
	return "attack"
}

// Focus is the enemy ship the player concentrates on, or NoShip.
func (p *StatePlayer) Focus() int { return p.focus }

// Enemy returns the player's belief about the enemy fleet (a copy).
func (p *StatePlayer) Enemy() belief.Ships { return p.enemy }

// Place implements Player.
func (p *StatePlayer) Place() submarine.Placement {
	pl := RandomPlacement(p.rules, p.rng)
	p.me = submarine.NewFleet(p.rules, pl)
	return pl
}

// Act implements Player.
func (p *StatePlayer) Act() submarine.Action {
	if p.mode == refEscape {
		d := p.escaper
		p.mode, p.escaper = refAttack, submarine.NoShip
		if a, ok := p.escape(d); ok {
			return a
		}
	}
	reach := p.rules.Reach(&p.me)
	if a, ok := p.attack(reach); ok {
		return a
	}
	return p.chase(reach)
}

// attack is the attack state; it reports false when the state goes to chase.
func (p *StatePlayer) attack(reach grid.Set) (submarine.Action, bool) {
	alive := p.enemy.Alive() & p.rules.AllShips()
	t := p.focus
	if !alive.Has(t) {
		t = refPickShip(alive, p.rng)
	}
	if t == submarine.NoShip { // every enemy ship sunk: the game is over
		return refAttackShip(p.rules, &p.enemy, t, reach, p.rng, &p.last), true
	}
	p.last.target = t
	if pool := p.enemy.Set(t).Intersect(reach); !pool.Empty() {
		p.last.reason = "attack where the target {ship} may be"
		p.last.set("attack", submarine.Attack, submarine.NoShip, pool)
		return submarine.AttackAt(refPick(pool, p.rng)), true
	}
	for i := range len(p.rules.Fleet) {
		if i == t {
			continue
		}
		if c, ok := p.enemy.Pinned(i); ok && reach.Has(c) {
			p.last.target = i
			p.last.reason = "the target is out of reach; attack the pinned enemy ship {ship}"
			p.last.set("attack", submarine.Attack, submarine.NoShip, grid.Of(c))
			return submarine.AttackAt(c), true
		}
	}
	return submarine.Action{}, false
}

// chase is the chase state: a move into the row or column of a cell where
// the target may be, drawn with the reference's trial distribution.
func (p *StatePlayer) chase(reach grid.Set) submarine.Action {
	alive := p.enemy.Alive() & p.rules.AllShips()
	targets := alive
	if alive.Has(p.focus) {
		targets = submarine.ShipMask(0).With(p.focus)
	}
	b := p.rules.Board
	var rowDest, colDest [grid.MaxCells]grid.Cell
	var total, u float64
	lastShip, lastDest, lastTarget := submarine.NoShip, grid.None, submarine.NoShip
	for pass := range 2 {
		if pass == 1 {
			if total == 0 {
				break
			}
			u = p.rng.Float64() * total
		}
		acc := 0.0
		for s := range len(p.rules.Fleet) {
			if !p.me.Alive.Has(s) {
				continue
			}
			p.chaseDests(s, &rowDest, &colDest)
			for t := range len(p.rules.Fleet) {
				if !targets.Has(t) {
					continue
				}
				set := p.enemy.Set(t)
				n := set.Count()
				if n == 0 {
					continue
				}
				w := 1 / float64(n)
				for c := range set.All() {
					cx, cy := b.XY(c)
					d := rowDest[cx]
					if d == grid.None {
						d = colDest[cy]
					}
					if d == grid.None {
						continue
					}
					acc += w
					lastShip, lastDest, lastTarget = s, d, t
					if pass == 1 && u < acc {
						return p.chased(s, d, t)
					}
				}
			}
		}
		total = acc
	}
	if lastShip != submarine.NoShip { // rounding left u at the very end
		return p.chased(lastShip, lastDest, lastTarget)
	}
	if a, ok := refRandomShipMove(p.rules, &p.me, p.rng, &p.last); ok {
		p.last.state = "chase"
		p.last.reason = "chase: no move reaches a target's row or column; a random legal move"
		return a
	}
	return refAttackShip(p.rules, &p.enemy, submarine.NoShip, reach, p.rng, &p.last)
}

func (p *StatePlayer) chased(s int, d grid.Cell, t int) submarine.Action {
	p.last.target = t
	p.last.reason = "chase {ship}: move into the row or column of a cell where it may be"
	p.last.set("chase", submarine.Move, s, grid.Set{})
	return submarine.MoveTo(s, d)
}

// chaseDests fills, for my ship s, rowDest[x] with the cell of column x in
// its row and colDest[y] with the cell of row y in its column when they are
// legal destinations, else grid.None. The chase tries rowDest[target x]
// first, then colDest[target y] (the reference's order).
func (p *StatePlayer) chaseDests(s int, rowDest, colDest *[grid.MaxCells]grid.Cell) {
	b := p.rules.Board
	sx, sy := b.XY(p.me.Pos[s])
	for x := range b.Width() {
		rowDest[x] = p.chaseLegal(x, sy)
	}
	for y := range b.Height() {
		colDest[y] = p.chaseLegal(sx, y)
	}
}

func (p *StatePlayer) chaseLegal(x, y int) grid.Cell {
	b := p.rules.Board
	c, ok := b.At(x, y)
	if !ok || !b.IsUsable(c) || p.me.Occupied.Has(c) {
		return grid.None
	}
	return c
}

// escape is the escape state for my ship d; it reports false when d cannot
// move (or is gone).
func (p *StatePlayer) escape(d int) (submarine.Action, bool) {
	if !p.me.Alive.Has(d) {
		return submarine.Action{}, false
	}
	dests := p.rules.MoveTargets(&p.me, d)
	if dests.Empty() {
		return submarine.Action{}, false
	}
	p.last.target = d
	pool := dests.AndNot(refDanger(p.rules.Board, &p.enemy))
	if pool.Empty() {
		pool = dests
		p.last.reason = "escape {ship}: every destination may be attacked; a random one"
	} else {
		p.last.reason = "escape {ship} to a cell no enemy ship can attack"
	}
	p.last.set("escape", submarine.Move, d, pool)
	return submarine.MoveTo(d, refPick(pool, p.rng)), true
}

// refDanger is every cell some living enemy ship could attack from one of
// its candidate cells.
func refDanger(b *grid.Board, enemy *belief.Ships) grid.Set {
	var danger grid.Set
	for c := range enemy.Any().All() {
		danger = danger.Union(b.Around(c))
	}
	return danger
}

// Observe implements Player.
func (p *StatePlayer) Observe(ev submarine.Event, v *submarine.View) {
	p.me = v.Me
	p.enemyHP = v.EnemyHP
	refObserve(p.rules, &p.enemy, ev, v, p.cfg.Belief.Careful)
	if !p.enemy.Alive().Has(p.focus) {
		p.focus = submarine.NoShip
	}
	if ev.Illegal || ev.Kind != submarine.Attack || ev.Hit == submarine.NoShip || ev.Sunk {
		return
	}
	if ev.Mine {
		p.focus = ev.Hit // hit, not sunk: concentrate on it
		return
	}
	d := ev.Hit // the enemy hit my ship d, which survived
	if !p.me.Alive.Has(d) {
		return
	}
	around := p.rules.Board.Around(p.me.Pos[d])
	for e := range len(p.rules.Fleet) {
		c, ok := p.enemy.Pinned(e)
		if !ok || !around.Has(c) {
			continue
		}
		if p.cfg.Counter.RequiresHP && p.me.HP[d] < p.enemyHP[e] {
			continue
		}
		p.focus, p.mode, p.escaper = e, refAttack, submarine.NoShip
		return
	}
	p.mode, p.escaper = refEscape, d
}

// Explain implements Explainer: the state that chose the last action, why,
// and, for attacks and escapes, the cells it was drawn from uniformly
// (score = probability).
func (p *StatePlayer) Explain() explain.Decision { return p.last.decision(p.rules) }
