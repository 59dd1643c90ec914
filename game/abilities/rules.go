package abilities

import (
	"errors"
	"fmt"

	"github.com/kaisen-ai/kaisen/game/battleship"
)

// Name is the game's name: the --game value and a replay header's "game".
const Name = "abilities"

// ErrRules reports an invalid rules configuration.
var ErrRules = errors.New("abilities: invalid rules")

// Side is the side a seat plays: its ships' abilities.
type Side uint8

// The sides.
const (
	AI     Side = iota // Искусственный Интеллект: pair salvo, 5x5 count, false miss
	Humans             // Люди: 3x3 salvo, suppression, air defence
)

// String returns "ai" or "humans".
func (s Side) String() string {
	switch s {
	case AI:
		return "ai"
	case Humans:
		return "humans"
	default:
		return fmt.Sprintf("side(%d)", uint8(s))
	}
}

// ParseSide reads "ai" or "humans".
func ParseSide(s string) (Side, error) {
	switch s {
	case "ai":
		return AI, nil
	case "humans":
		return Humans, nil
	}
	return 0, fmt.Errorf("%w: side %q: want ai or humans", ErrRules, s)
}

// The ship lengths that carry an ability; other lengths have none.
const (
	MoverLen    = 1 // moves one cell
	SalvoLen    = 2 // fires a salvo
	SpecialLen  = 3 // counts (AI) or suppresses (Humans) with a shot
	DefenderLen = 4 // false miss (AI) or air defence (Humans)
)

// AirDefenceCharges is how many times per game the Humans answer "air
// defence".
const AirDefenceCharges = 2

// Options are the readings of the points the seed leaves open. The zero
// value is the default reading (the one a player at the table would take);
// docs/abilities.md gives a worked example of each.
type Options struct {
	// SalvoShootsAgain: a salvo with a new hit and no defence answered
	// gives another turn. Default false: the seed says the turn ends "in
	// any case".
	SalvoShootsAgain bool `mapstructure:"salvo_shoots_again" json:"salvo_shoots_again,omitempty"`
	// FalseMissAnyHit: the AI may spend its false miss on any new hit on a
	// 4-deck, the one that would sink it included. Default false: only on
	// the first hit on a 4-deck ("при первом попадании"); declining it
	// there loses it.
	FalseMissAnyHit bool `mapstructure:"false_miss_any_hit" json:"false_miss_any_hit,omitempty"`
	// MoveMayTouch: a moved 1-deck may end next to another ship (afloat or
	// sunk). Default false: ships never touch, moved or not.
	MoveMayTouch bool `mapstructure:"move_may_touch" json:"move_may_touch,omitempty"`
	// HideMoves: the enemy is not told that a 1-deck moved. Default false:
	// it is told that one moved, never which one or where.
	HideMoves bool `mapstructure:"hide_moves" json:"hide_moves,omitempty"`
	// ScanAfloatOnly: the AI's 5x5 count leaves out sunk ships. Default
	// false: every ship in the square counts, sunk or not.
	ScanAfloatOnly bool `mapstructure:"scan_afloat_only" json:"scan_afloat_only,omitempty"`
	// SuppressPassive: a suppressed 4-deck also cannot answer with its
	// defence (false miss, air defence) for the rest of the suppressing
	// turn. Default false: suppression is for the defender's next turn,
	// in which only its active abilities (move, salvo, 3-deck) are used.
	SuppressPassive bool `mapstructure:"suppress_passive" json:"suppress_passive,omitempty"`
}

// Rules is the configuration of one game: the classic rules (board, fleet,
// draw limit counted in cells fired at) and each seat's side.
type Rules struct {
	Base    *battleship.Rules
	Sides   [2]Side
	Options Options
}

// NewRules returns rules on base with seat 0 playing s0 and seat 1 s1.
func NewRules(base *battleship.Rules, s0, s1 Side, opt Options) (*Rules, error) {
	r := &Rules{Base: base, Sides: [2]Side{s0, s1}, Options: opt}
	if err := r.Validate(); err != nil {
		return nil, err
	}
	return r, nil
}

// DefaultRules are the classic 10x10 rules with seat 0 AI and seat 1 Humans.
func DefaultRules() *Rules {
	return &Rules{Base: battleship.DefaultRules(), Sides: [2]Side{AI, Humans}}
}

// Validate checks the base rules and the sides.
func (r *Rules) Validate() error {
	if r.Base == nil {
		return fmt.Errorf("%w: no base rules", ErrRules)
	}
	if err := r.Base.Validate(); err != nil {
		return fmt.Errorf("%w: %w", ErrRules, err)
	}
	for seat, s := range r.Sides {
		if s != AI && s != Humans {
			return fmt.Errorf("%w: seat %d: %v", ErrRules, seat, s)
		}
	}
	return nil
}
