package players

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/kaisen-ai/kaisen/game/submarine"
	"github.com/kaisen-ai/kaisen/internal/roster"
)

// StatePlayer2Config holds the weights of StatePlayer2 (YAML:
// configs/stateplayer2.yaml, whose values equal DefaultStatePlayer2Config).
// The defaults are the constants of the published reference player
// (spec stateplayer2.md, "Weights"); Stealth.Memory and Belief.Careful are
// Kaisen's additions that fix defects of the reference (docs/stateplayer2.md).
type StatePlayer2Config struct {
	Placement SP2Placement `mapstructure:"placement"`
	Sakuteki  SP2Sakuteki  `mapstructure:"sakuteki"`
	Attack    SP2Attack    `mapstructure:"attack"`
	Escape    SP2Escape    `mapstructure:"escape"`
	Stealth   SP2Stealth   `mapstructure:"stealth"`
	Counter   SP2Counter   `mapstructure:"counter"`
	Belief    SP2Belief    `mapstructure:"belief"`
}

// SP2Placement configures the initial placement.
type SP2Placement struct {
	// Samples is how many distinct random cells are drawn; the fleet goes on
	// the subset of them with the largest sum of squared pairwise distances.
	// Default 9 (few: random but clustered; many: spread but on the edges).
	Samples int `mapstructure:"samples"`
}

// SP2Sakuteki configures the search score of a candidate cell P: summed over
// the living enemy ships T with candidate set S_T,
// Normaliser/|S_T| * (SplashWeight * |ring(P) ∩ S_T| + DirectHitBonus * [P ∈ S_T]),
// where ring(P) are the cells around P.
type SP2Sakuteki struct {
	// SplashWeight weighs each cell around P that may hold T. Default 1.0.
	SplashWeight float64 `mapstructure:"splash_weight"`
	// DirectHitBonus weighs P itself when it may hold T. Default 1.5.
	DirectHitBonus float64 `mapstructure:"direct_hit_bonus"`
	// Normaliser is the numerator of the 1/|S_T| factor (the reference uses
	// the 25 cells of its board). Default 25.
	Normaliser float64 `mapstructure:"normaliser"`
}

// SP2Attack configures the moves of the attack state.
type SP2Attack struct {
	// ExposureExponent: a move is scored by the sum over my ships of
	// |enemy's candidate set for it after the move|^ExposureExponent.
	// Default 2.
	ExposureExponent float64 `mapstructure:"exposure_exponent"`
}

// SP2Escape configures the escape score of a destination: DistanceWeight *
// distance moved + AllyWeight * sum over my other ships that could attack the
// destination of hp * |enemy's candidate set for that ship|.
type SP2Escape struct {
	// DistanceWeight per cell moved. Default 5.
	DistanceWeight float64 `mapstructure:"distance_weight"`
	// AllyWeight on hp x exposure of each covering ally. Default 1.
	AllyWeight float64 `mapstructure:"ally_weight"`
}

// SP2Stealth configures the last ship's moves: DistanceWeight * distance +
// ExposureWeight * |candidate set after| / |candidate set before|.
type SP2Stealth struct {
	// DistanceWeight per cell moved. Default 1.
	DistanceWeight float64 `mapstructure:"distance_weight"`
	// ExposureWeight on the ratio of exposure after / before. Default 25.
	ExposureWeight float64 `mapstructure:"exposure_weight"`
	// Memory is how many recently left cells the last ship avoids when it
	// has another safe destination (0 = none, the reference, which can
	// shuttle between two cells forever). Kaisen addition. Default 4.
	Memory int `mapstructure:"memory"`
}

// SP2Counter configures the reaction to being hit.
type SP2Counter struct {
	// RequiresHP: counter-attack a pinned enemy in reach of the hit ship only
	// when the hit ship's hp is at least that enemy's hp (else escape).
	// Default true.
	RequiresHP bool `mapstructure:"requires_hp"`
}

// SP2Belief configures the belief updates.
type SP2Belief struct {
	// Careful also uses what the reference ignores: an attack reveals a ship
	// of the attacker within 1 of the attacked cell, and two ships of a fleet
	// never share a cell (belief.Ships.ObserveCareful). Applies to the enemy
	// field and to my own exposure alike. Kaisen addition. Default true.
	Careful bool `mapstructure:"careful"`
}

// DefaultStatePlayer2Config returns the built-in weights (the spec's table).
func DefaultStatePlayer2Config() StatePlayer2Config {
	return StatePlayer2Config{
		Placement: SP2Placement{Samples: 9},
		Sakuteki:  SP2Sakuteki{SplashWeight: 1.0, DirectHitBonus: 1.5, Normaliser: 25},
		Attack:    SP2Attack{ExposureExponent: 2},
		Escape:    SP2Escape{DistanceWeight: 5, AllyWeight: 1},
		Stealth:   SP2Stealth{DistanceWeight: 1, ExposureWeight: 25, Memory: 4},
		Counter:   SP2Counter{RequiresHP: true},
		Belief:    SP2Belief{Careful: true},
	}
}

// Limits of the StatePlayer2 weights.
const (
	sp2MaxSamples = 32
	sp2MaxMemory  = 16
	// sp2MaxSubsets bounds the placement search, C(samples, fleet size).
	sp2MaxSubsets = 1 << 20
)

// Validate checks the ranges of every weight.
func (c *StatePlayer2Config) Validate() error {
	var errs []error
	if c.Placement.Samples < 1 || c.Placement.Samples > sp2MaxSamples {
		errs = append(errs, fmt.Errorf("placement.samples %d: want 1 to %d", c.Placement.Samples, sp2MaxSamples))
	}
	nonNeg := []struct {
		key string
		v   float64
	}{
		{"sakuteki.splash_weight", c.Sakuteki.SplashWeight},
		{"sakuteki.direct_hit_bonus", c.Sakuteki.DirectHitBonus},
		{"attack.exposure_exponent", c.Attack.ExposureExponent},
		{"escape.distance_weight", c.Escape.DistanceWeight},
		{"escape.ally_weight", c.Escape.AllyWeight},
		{"stealth.distance_weight", c.Stealth.DistanceWeight},
		{"stealth.exposure_weight", c.Stealth.ExposureWeight},
	}
	for _, w := range nonNeg {
		if math.IsNaN(w.v) || math.IsInf(w.v, 0) || w.v < 0 {
			errs = append(errs, fmt.Errorf("%s %v: want a finite number >= 0", w.key, w.v))
		}
	}
	if n := c.Sakuteki.Normaliser; math.IsNaN(n) || math.IsInf(n, 0) || n <= 0 {
		errs = append(errs, fmt.Errorf("sakuteki.normaliser %v: want a finite number > 0", n))
	}
	if c.Stealth.Memory < 0 || c.Stealth.Memory > sp2MaxMemory {
		errs = append(errs, fmt.Errorf("stealth.memory %d: want 0 to %d", c.Stealth.Memory, sp2MaxMemory))
	}
	return errors.Join(errs...)
}

// CheckRules checks the config against the rules of a game: the placement
// needs at least one sample per ship, at most the usable cells, and a
// bounded number of subsets to compare.
func (c *StatePlayer2Config) CheckRules(r *submarine.Rules) error {
	if err := c.Validate(); err != nil {
		return err
	}
	n, k := c.Placement.Samples, len(r.Fleet)
	if n < k {
		return fmt.Errorf("placement.samples %d: fewer than the %d ships of the fleet", n, k)
	}
	if u := r.Board.Usable().Count(); n > u {
		// The board is the likelier mistake: the default samples fit
		// every board of 9 usable cells or more.
		return fmt.Errorf("the %dx%d board has %d usable cells, too few for the %d cells the AI samples to place its fleet (placement.samples): use a larger board, or weights with placement.samples at most %d",
			r.Board.Width(), r.Board.Height(), u, n, u)
	}
	if sp2Binomial(n, k) > sp2MaxSubsets {
		return fmt.Errorf("placement.samples %d: C(%d,%d) subsets is too many to compare (max %d)", n, n, k, sp2MaxSubsets)
	}
	return nil
}

func sp2Binomial(n, k int) int {
	if k < 0 || k > n {
		return 0
	}
	b := 1
	for i := 1; i <= k; i++ {
		b = b * (n - k + i) / i
	}
	return b
}

// buildStatePlayer2 is the registry's Build for "stateplayer2" (the
// registry prefixes its errors with the player's name).
func buildStatePlayer2(rules *submarine.Rules, load Loader) (Factory, error) {
	cfg, err := roster.Configure(load, DefaultStatePlayer2Config())
	if err != nil {
		return nil, err
	}
	if err := cfg.CheckRules(rules); err != nil {
		return nil, err
	}
	return func(rng *rand.Rand) Player { return newStatePlayer2(rules, cfg, rng) }, nil
}
