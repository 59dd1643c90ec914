package players

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/kaisen-ai/kaisen/game/submarine"
)

// ErrUnknownPlayer is returned for a name the registry does not know.
var ErrUnknownPlayer = errors.New("players: unknown player")

// Entry describes one registered player.
type Entry struct {
	Name    string
	Summary string
	// Config is the YAML file under configs/ that documents the player's
	// weights ("" when it has none). The built-in defaults equal its contents.
	Config string
	// Build makes a factory for rules from the YAML config at configPath
	// ("" = built-in defaults). It fails on an unreadable config, an unknown
	// key (named in the error) or a value out of range.
	Build func(rules *submarine.Rules, configPath string) (Factory, error)
}

// registry lists every submarine player. Add new players here.
var registry = []Entry{
	{
		Name:    "random",
		Summary: "uniform over {attack, move}, then uniform over legal targets",
		Build: func(rules *submarine.Rules, configPath string) (Factory, error) {
			if configPath != "" {
				return nil, fmt.Errorf("players: random takes no config (got %s)", configPath)
			}
			return func(rng *rand.Rand) Player { return NewRandom(rules, rng) }, nil
		},
	},
	{
		Name:    "simple",
		Summary: "reference SimplePlayer: coin flip; random move or attack where a random enemy ship may be",
		Config:  "configs/simple.yaml",
		Build:   buildSimple,
	},
	{
		Name:    "state",
		Summary: "reference StatePlayer: attack/chase/escape, focuses the ship it hit",
		Config:  "configs/state.yaml",
		Build:   buildStatePlayer,
	},
	{
		Name:    "stateplayer2",
		Summary: "finite-state AI (search, attack, escape, stealth) on per-ship beliefs",
		Config:  "configs/stateplayer2.yaml",
		Build:   buildStatePlayer2,
	},
	{
		Name:    "admiral",
		Summary: "exact joint beliefs (enemy and own exposure), determinized expectimax over sampled enemy placements",
		Config:  "configs/admiral.yaml",
		Build:   buildAdmiral,
	},
}

// Entries lists the registered players in registry order.
func Entries() []Entry { return slices.Clone(registry) }

// Names lists the registered player names.
func Names() []string {
	names := make([]string, len(registry))
	for i, e := range registry {
		names[i] = e.Name
	}
	return names
}

// Lookup finds the entry called name.
func Lookup(name string) (Entry, error) {
	for _, e := range registry {
		if e.Name == name {
			return e, nil
		}
	}
	return Entry{}, fmt.Errorf("%w %q (known: %s)", ErrUnknownPlayer, name, strings.Join(Names(), ", "))
}

// New builds the factory of the player called name for rules, with the YAML
// config at configPath ("" = built-in defaults).
func New(name string, rules *submarine.Rules, configPath string) (Factory, error) {
	e, err := Lookup(name)
	if err != nil {
		return nil, err
	}
	f, err := e.Build(rules, configPath)
	if err != nil {
		return nil, fmt.Errorf("players: %s: %w", name, err)
	}
	return f, nil
}
