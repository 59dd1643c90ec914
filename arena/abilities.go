package arena

import (
	"errors"
	"fmt"

	"github.com/kaisen-ai/kaisen/game/abilities"
	"github.com/kaisen-ai/kaisen/game/battleship"
)

// AbilitiesConfig describes the sides and options of the abilities variant
// in YAML (the board and fleet are the battleship section's).
type AbilitiesConfig struct {
	// Sides are seat 0's and seat 1's sides, "ai" or "humans". Default
	// [ai, humans].
	Sides []string `mapstructure:"sides"`
	// Options are the rules options (docs/abilities.md); default all off.
	Options abilities.Options `mapstructure:"options"`
	// AlternateFirst: seat 1 acts first in games 2, 3, 6, 7, ... (index/2
	// odd), so that over every four games each AI plays each side both
	// first and second. Default false: seat 0 always acts first.
	AlternateFirst bool `mapstructure:"alternate_first"`
}

// Build returns the abilities rules on base.
func (ac AbilitiesConfig) Build(base *battleship.Rules) (*abilities.Rules, error) {
	sides := [2]abilities.Side{abilities.AI, abilities.Humans}
	if len(ac.Sides) != 0 {
		if len(ac.Sides) != 2 {
			return nil, fmt.Errorf("arena: abilities: sides %v: want two, seat 0's then seat 1's", ac.Sides)
		}
		for i, s := range ac.Sides {
			side, err := abilities.ParseSide(s)
			if err != nil {
				return nil, fmt.Errorf("arena: abilities: %w", err)
			}
			sides[i] = side
		}
	}
	return abilities.NewRules(base, sides[0], sides[1], ac.Options)
}

// Listener returns the abilities rules on base of a turn server's
// listener (its abilities section): alternate_first is refused there, a
// listener says who acts first with its first policy.
func (ac AbilitiesConfig) Listener(base *battleship.Rules) (*abilities.Rules, error) {
	if ac.AlternateFirst {
		return nil, errors.New("abilities.alternate_first is for matches; a listener says who acts first with first")
	}
	r, err := ac.Build(base)
	if err != nil {
		return nil, fmt.Errorf("abilities: %w", err)
	}
	return r, nil
}
