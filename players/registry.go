package players

import (
	"errors"
	"math/rand/v2"

	"github.com/kaisen-ai/kaisen/game/submarine"
	"github.com/kaisen-ai/kaisen/internal/roster"
)

// ErrUnknownPlayer is returned for a name the registry does not know.
var ErrUnknownPlayer = errors.New("players: unknown player")

// Entry describes one registered player: its name, a one-line summary,
// the YAML file under configs/ that documents its weights ("" when it has
// none; the built-in defaults equal its contents) and Build, which makes a
// factory for rules from the YAML config at a path ("" = built-in defaults)
// and fails on an unreadable config, an unknown key (named in the error) or
// a value out of range.
type Entry = roster.Entry[*submarine.Rules, Factory]

// admiralPkg is the package that registers admiral's entries.
const admiralPkg = "github.com/kaisen-ai/kaisen/players/admiral"

// registry lists every submarine player. Add new players here, or, for a
// player in a package of its own (which imports this one), reserve its
// place here and Register it from that package's init.
var registry = roster.New(ErrUnknownPlayer, "players", []Entry{
	{
		Name:    "random",
		Summary: "uniform over {attack, move}, then uniform over legal targets",
		Build: func(rules *submarine.Rules, load Loader) (Factory, error) {
			if load != nil {
				return nil, errors.New("takes no config")
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
	// admiral and admiral-series: registered by players/admiral (its
	// init); the places keep the listed order.
	roster.Reserve[*submarine.Rules, Factory]("admiral", admiralPkg),
	roster.Reserve[*submarine.Rules, Factory]("admiral-series", admiralPkg),
	{Name: "hirota", Summary: "port of the published hirota_player: exact joint beliefs, attack max P(ship)/hp, flee when located and in reach", Config: "configs/hirota.yaml", Build: jgBuild(DefaultHirotaConfig)},
	{Name: "joint-greedy", Summary: "the family of hirota: tunable attack score, flee, approach, idling and placement prior", Config: "configs/joint-greedy.yaml", Build: jgBuild(DefaultJointGreedyConfig)},
}...)

// Register adds the players of a package of their own, from its init
// (players/admiral: import it, even blank, to link them in): an entry whose
// name the registry reserves takes its place, any other is appended. It
// panics on an entry with no name or no Build and on a name registered
// twice, as database/sql's Register does.
func Register(entries ...Entry) {
	for _, e := range entries {
		if err := registry.Register(e); err != nil {
			panic(err)
		}
	}
}

// Entries lists the registered players in registry order.
func Entries() []Entry { return registry.Entries() }

// Names lists the registered player names.
func Names() []string { return registry.Names() }

// Lookup finds the entry called name (an error wrapping ErrUnknownPlayer,
// listing the known names, when there is none).
func Lookup(name string) (Entry, error) { return registry.Lookup(name) }

// Loader overlays a settings file onto into, a pointer to a player's config
// struct holding its defaults (DefaultAdmiralConfig, ...). The config layer
// makes one from a YAML file (internal/config.File); nil means the built-in
// defaults.
type Loader = roster.Loader

// New builds the factory of the player called name for rules, with the
// settings load overlays on its defaults (nil = built-in defaults).
func New(name string, rules *submarine.Rules, load Loader) (Factory, error) {
	return registry.New(name, rules, load)
}
