package arena

import (
	"errors"
	"fmt"
	"io"
	"log/slog"

	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/game/abilities"
	abrecord "github.com/kaisen-ai/kaisen/game/abilities/record"
	"github.com/kaisen-ai/kaisen/game/battleship"
	abplayers "github.com/kaisen-ai/kaisen/players/abilities"
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

// AbilitiesEntrant is one player of an abilities match.
type AbilitiesEntrant struct {
	Name    string
	Factory abplayers.Factory
}

// Abilities is the Family of the abilities variant of Battleship: seat 0
// acts first (unless AlternateFirst); P1 takes seat 0 in even games and so plays seat 0's side
// there, seat 1's in odd games. A seat that places an invalid fleet, plays
// an illegal action or panics forfeits. GameResult.Shots holds the cells
// fired at by each seat, Actions every action (answers included).
// Replays are written by abrecord.Recorder, with the actors' decisions
// when explanations are asked (Deal.Explain).
type Abilities struct {
	Rules  *abilities.Rules
	P1, P2 AbilitiesEntrant
	// AlternateFirst lets seat 1 act first when Deal.Index/2 is odd.
	AlternateFirst bool
}

var _ Family = (*Abilities)(nil)

// Game implements Family.
func (a *Abilities) Game() string { return abilities.Name }

// Players implements Family.
func (a *Abilities) Players() (p1, p2 string) { return a.P1.Name, a.P2.Name }

// NewTable implements Family.
func (a *Abilities) NewTable(log *slog.Logger) Table {
	return newGameTable(tableSpec[*abilities.Game, battleship.Placement, abilities.Action, abilities.Step, abilities.Told]{
		rules: a.Rules,
		names: [2]string{a.P1.Name, a.P2.Name},
		f:     [2]game.Factory[battleship.Placement, abilities.Action, abilities.Told]{abplayers.Adapt(a.P1.Factory), abplayers.Adapt(a.P2.Factory)},
		first: func(d Deal) int {
			if a.AlternateFirst && d.Index/2%2 == 1 {
				return 1
			}
			return 0
		},
		record: func(w io.Writer, h recordHeader) recorder[battleship.Placement, abilities.Action, abilities.Step] {
			return abrecord.NewRecorder(w, a.Rules, h)
		},
	}, log)
}
