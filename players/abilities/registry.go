package abplayers

import (
	"errors"
	"math/rand/v2"

	bsbelief "github.com/kaisen-ai/kaisen/belief/battleship"
	"github.com/kaisen-ai/kaisen/game/abilities"
	"github.com/kaisen-ai/kaisen/internal/roster"
)

// ErrUnknownPlayer is returned for a name the registry does not know.
var ErrUnknownPlayer = errors.New("abplayers: unknown player")

// Entry describes one registered player (see roster.Entry).
type Entry = roster.Entry[*abilities.Rules, Factory]

// Loader overlays a settings file onto a player's config struct (nil = the
// built-in defaults); the config layer makes one from a YAML file.
type Loader = roster.Loader

var registry = roster.New(ErrUnknownPlayer, "abplayers", []Entry{
	{
		Name:    "ab-random",
		Summary: "shoots a random cell not fired at; uses each ability at random (1 in 4); answers at random",
		Build: func(r *abilities.Rules, load Loader) (Factory, error) {
			if load != nil {
				return nil, errors.New("ab-random takes no config")
			}
			placer, err := bsbelief.NewUniformPlacer(r.Base)
			if err != nil {
				return nil, err
			}
			return func(rng *rand.Rand, seat int) Player { return NewRandom(r, seat, placer, rng) }, nil
		},
	},
	{
		Name:    "ab-density",
		Summary: "density bot with the abilities: salvo when it pays, 3-deck on every turn, moves threatened 1-decks, false miss / air defence on the 4-deck's first hits",
		Config:  "configs/abilities-density.yaml",
		Build:   configured(DefaultBotConfig),
	},
	{
		Name:    "ab-belief",
		Summary: "the ability bot on the hidden belief (moves, lies, 5x5 counts, air defence): shoots and salvoes by it, moves 1-decks away from the enemy's belief",
		Config:  "configs/abilities-belief.yaml",
		Build:   configured(DefaultBeliefConfig),
	},
	{
		Name:    "ab-plain",
		Summary: "the same density bot with abilities off (the baseline the ability bot must beat)",
		Config:  "configs/abilities-plain.yaml",
		Build:   configured(DefaultPlainConfig),
	},
}...)

// Entries lists the registered players in registry order.
func Entries() []Entry { return registry.Entries() }

// Names lists the registered player names.
func Names() []string { return registry.Names() }

// Lookup finds the entry called name (an error wrapping ErrUnknownPlayer
// when there is none).
func Lookup(name string) (Entry, error) { return registry.Lookup(name) }

// New builds the factory of the player called name for rules, with the
// settings load overlays on its defaults (nil = built-in defaults).
func New(name string, r *abilities.Rules, load Loader) (Factory, error) {
	return registry.New(name, r, load)
}

func configured(defaults func() BotConfig) func(*abilities.Rules, Loader) (Factory, error) {
	return func(r *abilities.Rules, load Loader) (Factory, error) {
		cfg, err := roster.Configure(load, defaults())
		if err != nil {
			return nil, err
		}
		placer, err := bsbelief.NewUniformPlacer(r.Base)
		if err != nil {
			return nil, err
		}
		return func(rng *rand.Rand, seat int) Player { return NewBot(r, seat, cfg, placer, rng) }, nil
	}
}
