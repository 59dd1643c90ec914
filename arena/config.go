package arena

import (
	"fmt"

	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/game/submarine"
	"github.com/kaisen-ai/kaisen/internal/config"
)

// Config is a match config file (configs/match.yaml documents every key).
type Config struct {
	// Game is the game family; only "submarine" for now. Default "submarine".
	Game string `mapstructure:"game"`
	// Rules are the submarine-game rules. Default: the published 5x5 game.
	Rules RulesConfig `mapstructure:"rules"`
}

// RulesConfig describes submarine.Rules in YAML.
type RulesConfig struct {
	// Width is the number of columns. Default 5.
	Width int `mapstructure:"width"`
	// Height is the number of rows. Default 5.
	Height int `mapstructure:"height"`
	// Shape is "rectangle" (default), "rounded" (the four corner cells are
	// rocks) or a list of rows of '#' (sea) and '.' (rock), which must have
	// Height rows of Width characters.
	Shape any `mapstructure:"shape"`
	// Rocks are extra rock cells as [x, y] pairs. Default none.
	Rocks [][2]int `mapstructure:"rocks"`
	// Fleet lists the ships in fleet order. Default w 3, c 2, s 1.
	Fleet []ShipConfig `mapstructure:"fleet"`
	// DrawLimit is the number of actions (both players counted) after which
	// the game is a draw. Default 10000.
	DrawLimit int `mapstructure:"draw_limit"`
}

// ShipConfig is one ship type.
type ShipConfig struct {
	Name string `mapstructure:"name"` // one-word name, as on the wire
	HP   int    `mapstructure:"hp"`   // 1 to 127
}

// DefaultConfig is the built-in match config: the published submarine game.
func DefaultConfig() Config {
	c := Config{Game: "submarine", Rules: RulesConfig{Width: 5, Height: 5, Shape: "rectangle",
		Rocks: [][2]int{}, DrawLimit: submarine.DefaultDrawLimit}}
	for _, s := range submarine.DefaultFleet() {
		c.Rules.Fleet = append(c.Rules.Fleet, ShipConfig{Name: s.Name, HP: s.HP})
	}
	return c
}

// LoadConfig reads a match config; path "" gives DefaultConfig. Keys absent
// from the file keep their defaults; a fleet in the file replaces the default
// fleet as a whole.
func LoadConfig(path string) (Config, error) {
	if path == "" {
		return DefaultConfig(), nil
	}
	c := DefaultConfig()
	def := c
	// A list is decoded over the default element by element, so an entry
	// without hp would inherit a default ship's hp, and an interface value
	// keeps the default's type: start both from nothing.
	c.Rules.Fleet, c.Rules.Shape = nil, nil
	if err := config.Load(path, &c); err != nil {
		return Config{}, err
	}
	if c.Rules.Fleet == nil {
		c.Rules.Fleet = def.Rules.Fleet
	}
	if c.Rules.Shape == nil {
		c.Rules.Shape = def.Rules.Shape
	}
	if err := c.Validate(); err != nil {
		return Config{}, fmt.Errorf("config: %s: %w", path, err)
	}
	return c, nil
}

// Validate checks the config; it builds the rules to do so.
func (c *Config) Validate() error {
	if c.Game != "submarine" {
		return fmt.Errorf("arena: game %q: only \"submarine\" is supported", c.Game)
	}
	if c.Rules.Fleet == nil { // LoadConfig fills the default after decoding
		return nil
	}
	_, err := c.Rules.Build()
	return err
}

// Build returns the rules the config describes.
func (rc RulesConfig) Build() (*submarine.Rules, error) {
	var (
		b   *grid.Board
		err error
	)
	if rc.Width < 1 || rc.Height < 1 || rc.Width > grid.MaxCells || rc.Height > grid.MaxCells {
		return nil, fmt.Errorf("arena: rules: board %dx%d: width and height must be 1 to %d (at most %d cells)",
			rc.Width, rc.Height, grid.MaxCells, grid.MaxCells)
	}
	switch sh := rc.Shape.(type) {
	case nil, string:
		switch sh {
		case nil, "", "rectangle":
			b, err = grid.NewBoard(rc.Width, rc.Height, nil)
		case "rounded":
			b, err = grid.Rounded(rc.Width, rc.Height)
		default:
			return nil, fmt.Errorf("arena: rules: shape %q: want rectangle, rounded or a list of rows", sh)
		}
	case []any, []string:
		var rows []string
		if ss, ok := sh.([]string); ok {
			rows = ss
		} else {
			for i, r := range sh.([]any) {
				s, ok := r.(string)
				if !ok {
					return nil, fmt.Errorf("arena: rules: shape row %d is %v, want a string of '#' and '.'", i, r)
				}
				rows = append(rows, s)
			}
		}
		b, err = grid.ParseShape(rows)
		if err == nil && (b.Width() != rc.Width || b.Height() != rc.Height) {
			return nil, fmt.Errorf("arena: rules: shape is %dx%d but width x height is %dx%d (set both to the shape's size)",
				b.Width(), b.Height(), rc.Width, rc.Height)
		}
	default:
		return nil, fmt.Errorf("arena: rules: shape %v: want rectangle, rounded or a list of rows", sh)
	}
	if err != nil {
		return nil, fmt.Errorf("arena: rules: %w", err)
	}
	if len(rc.Rocks) > 0 {
		rocks := b.Rocks()
		for _, p := range rc.Rocks {
			c, ok := b.At(p[0], p[1])
			if !ok {
				return nil, fmt.Errorf("arena: rules: rock [%d,%d] is off the %dx%d board", p[0], p[1], b.Width(), b.Height())
			}
			rocks = append(rocks, c)
		}
		if b, err = grid.NewBoard(b.Width(), b.Height(), rocks); err != nil {
			return nil, fmt.Errorf("arena: rules: %w", err)
		}
	}
	r := &submarine.Rules{Board: b, DrawLimit: rc.DrawLimit}
	for _, s := range rc.Fleet {
		r.Fleet = append(r.Fleet, submarine.ShipSpec{Name: s.Name, HP: s.HP})
	}
	if err := r.Validate(); err != nil {
		return nil, fmt.Errorf("arena: rules: %w", err)
	}
	return r, nil
}
