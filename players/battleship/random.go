package bsplayers

import (
	"math/rand/v2"

	bsbelief "github.com/kaisen-ai/kaisen/belief/battleship"
	"github.com/kaisen-ai/kaisen/game/battleship"
	"github.com/kaisen-ai/kaisen/game/grid"
)

// RandomConfig holds bs-random's settings (configs/bs-random.yaml).
type RandomConfig struct {
	// Placement is how the bot places its own fleet: a placement style
	// (bsbelief.Styles: uniform, human, inner, edge). Default uniform.
	Placement string `mapstructure:"placement"`
}

// DefaultRandomConfig is the built-in configuration (equal to
// configs/bs-random.yaml).
func DefaultRandomConfig() RandomConfig { return RandomConfig{Placement: bsbelief.StyleUniform} }

// Validate checks the placement style.
func (c *RandomConfig) Validate() error { return checkStyle(c.Placement) }

func (c RandomConfig) placementStyle() string { return c.Placement }

// Random ("bs-random") fires at a cell drawn uniformly from the usable cells
// it has not shot yet, and places its fleet by its placement style
// (uniform by default). A slow hunter whose fleet can be placed in any
// style: the sparring partner for measuring how fast another bot finds a
// style of placement.
type Random struct {
	rules  *battleship.Rules
	placer bsbelief.Placer
	rng    *rand.Rand
	left   grid.Set // usable cells not shot yet
}

var _ Player = (*Random)(nil)

// NewRandom returns a random shooter for rules that places its fleet with
// placer; placer may be shared between players.
func NewRandom(r *battleship.Rules, placer bsbelief.Placer, rng *rand.Rand) *Random {
	return &Random{rules: r, placer: placer, rng: rng, left: r.Board.Usable()}
}

// Place implements Player.
func (p *Random) Place() battleship.Placement { return placeOrEmpty(p.placer, p.rng) }

// Shoot implements Player.
func (p *Random) Shoot() grid.Cell {
	n := p.left.Count()
	if n == 0 {
		return p.rules.Board.Usable().First()
	}
	return p.left.Nth(p.rng.IntN(n))
}

// Observe implements Player.
func (p *Random) Observe(ev battleship.Event) {
	if ev.Mine && !ev.Illegal && p.rules.Board.IsUsable(ev.At) {
		p.left.Remove(ev.At)
	}
}
