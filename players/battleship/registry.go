package bsplayers

import (
	"errors"
	"math/rand/v2"

	bsbelief "github.com/kaisen-ai/kaisen/belief/battleship"
	"github.com/kaisen-ai/kaisen/game/battleship"
	"github.com/kaisen-ai/kaisen/internal/roster"
)

// ErrUnknownPlayer is returned for a name the registry does not know.
var ErrUnknownPlayer = errors.New("bsplayers: unknown player")

// Entry describes one registered player: its name, a one-line summary,
// the YAML file under configs/ that documents its settings ("" when it has
// none; the built-in defaults equal its contents) and Build, which makes a
// factory for rules from the YAML config at a path ("" = built-in defaults).
type Entry = roster.Entry[*battleship.Rules, Factory]

// registry lists every battleship player. Add new players here.
var registry = roster.New(ErrUnknownPlayer, "bsplayers", []Entry{
	{
		Name:    "bs-random",
		Summary: "fires at a uniformly random cell not shot yet (configs/bs-random.yaml: placement)",
		Config:  "configs/bs-random.yaml",
		Build: configured(DefaultRandomConfig, func(r *battleship.Rules, _ RandomConfig, placer bsbelief.Placer, rng *rand.Rand) *Random {
			return NewRandom(r, placer, rng)
		}),
	},
	{
		Name:    "gridbot",
		Summary: "classic hunt/target: hunt pattern n=4,3,2,1 (diagonal), then neighbours and the ship's line",
		Config:  "configs/gridbot.yaml",
		Build:   configured(DefaultGridConfig, NewGridBot),
	},
	{
		Name:    "density",
		Summary: "greedy, with an optional one-ply lookahead over the answers (configs/density.yaml: lookahead)",
		Config:  "configs/density.yaml",
		Build:   configured(DefaultDensityConfig, NewDensity),
	},
	{
		Name:    "greedy",
		Summary: "fires where the most consistent layouts put a ship (exact count, sampling beyond the budget)",
		Config:  "configs/greedy.yaml",
		Build:   configured(DefaultGreedyConfig, NewDensity),
	},
	{
		Name:    "adaptive",
		Summary: "density that learns the opponent's placement by rings over a series (kaisen shots --series)",
		Config:  "configs/adaptive.yaml",
		Build:   buildAdaptive,
	},
}...)

// buildAdaptive is the adaptive bot's Build: each factory call makes a bot
// with a model of its own (nothing learnt), sharing the uniform estimate.
func buildAdaptive(r *battleship.Rules, load Loader) (Factory, error) {
	cfg, err := roster.Configure(load, DefaultAdaptiveConfig())
	if err != nil {
		return nil, err
	}
	placer, err := bsbelief.NewUniformPlacer(r)
	if err != nil {
		return nil, err
	}
	base, err := NewPlacementModel(r, placer, rand.New(rand.NewPCG(1, 1)), cfg.BaseDraws)
	if err != nil {
		return nil, err
	}
	own, err := bsbelief.NewStylePlacer(r, cfg.Placement)
	if err != nil {
		return nil, err
	}
	return func(rng *rand.Rand) Player { return NewAdaptive(r, cfg, base.Fresh(), own, rng) }, nil
}

// Entries lists the registered players in registry order.
func Entries() []Entry { return registry.Entries() }

// Names lists the registered player names.
func Names() []string { return registry.Names() }

// Lookup finds the entry called name (an error wrapping ErrUnknownPlayer,
// listing the known names, when there is none).
func Lookup(name string) (Entry, error) { return registry.Lookup(name) }

// Loader overlays a settings file onto into, a pointer to a player's config
// struct holding its defaults (DefaultGridConfig, ...). The config layer
// makes one from a YAML file (internal/config.File); nil means the built-in
// defaults.
type Loader = roster.Loader

// New builds the factory of the player called name for rules, with the
// settings load overlays on its defaults (nil = built-in defaults).
func New(name string, r *battleship.Rules, load Loader) (Factory, error) {
	return registry.New(name, r, load)
}

// configured is the Build of a player with settings: the defaults,
// overlaid by load and validated, and a uniform placer.
// placed is the configuration of a player that places its fleet by a
// placement style (the YAML key placement).
type placed interface{ placementStyle() string }

func configured[C placed, P Player](defaults func() C, make func(*battleship.Rules, C, bsbelief.Placer, *rand.Rand) P) func(*battleship.Rules, Loader) (Factory, error) {
	return func(r *battleship.Rules, load Loader) (Factory, error) {
		cfg, err := roster.Configure(load, defaults())
		if err != nil {
			return nil, err
		}
		placer, err := bsbelief.NewStylePlacer(r, cfg.placementStyle())
		if err != nil {
			return nil, err
		}
		return func(rng *rand.Rand) Player { return make(r, cfg, placer, rng) }, nil
	}
}
