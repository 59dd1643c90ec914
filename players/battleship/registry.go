package bsplayers

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/kaisen-ai/kaisen/game/battleship"
	"github.com/kaisen-ai/kaisen/internal/config"
)

// ErrUnknownPlayer is returned for a name the registry does not know.
var ErrUnknownPlayer = errors.New("bsplayers: unknown player")

// Entry describes one registered player.
type Entry struct {
	Name    string
	Summary string
	// Config is the YAML file under configs/ that documents the player's
	// settings ("" when it has none). The built-in defaults equal its contents.
	Config string
	// Build makes a factory for rules from the YAML config at configPath
	// ("" = built-in defaults).
	Build func(rules *battleship.Rules, configPath string) (Factory, error)
}

// registry lists every battleship player. Add new players here.
var registry = []Entry{
	{
		Name:    "bs-random",
		Summary: "fires at a uniformly random cell not shot yet",
		Build: func(r *battleship.Rules, configPath string) (Factory, error) {
			if configPath != "" {
				return nil, fmt.Errorf("bs-random takes no config (got %s)", configPath)
			}
			placer, err := battleship.NewUniformPlacer(r)
			if err != nil {
				return nil, err
			}
			return func(rng *rand.Rand) Player { return NewRandom(r, placer, rng) }, nil
		},
	},
	{
		Name:    "gridbot",
		Summary: "classic hunt/target: hunt pattern n=4,3,2,1 (diagonal), then neighbours and the ship's line",
		Config:  "configs/gridbot.yaml",
		Build: func(r *battleship.Rules, configPath string) (Factory, error) {
			cfg := DefaultGridConfig()
			if configPath != "" {
				if err := config.Load(configPath, &cfg); err != nil {
					return nil, err
				}
			}
			placer, err := battleship.NewUniformPlacer(r)
			if err != nil {
				return nil, err
			}
			return func(rng *rand.Rand) Player { return NewGridBot(r, cfg, placer, rng) }, nil
		},
	},
	{
		Name:    "density",
		Summary: "fires where the most consistent layouts put a ship (exact count, sampling beyond the budget)",
		Config:  "configs/density.yaml",
		Build: func(r *battleship.Rules, configPath string) (Factory, error) {
			cfg := DefaultDensityConfig()
			if configPath != "" {
				if err := config.Load(configPath, &cfg); err != nil {
					return nil, err
				}
			}
			placer, err := battleship.NewUniformPlacer(r)
			if err != nil {
				return nil, err
			}
			return func(rng *rand.Rand) Player { return NewDensity(r, cfg, placer, rng) }, nil
		},
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
func New(name string, r *battleship.Rules, configPath string) (Factory, error) {
	e, err := Lookup(name)
	if err != nil {
		return nil, err
	}
	f, err := e.Build(r, configPath)
	if err != nil {
		return nil, fmt.Errorf("bsplayers: %s: %w", name, err)
	}
	return f, nil
}
