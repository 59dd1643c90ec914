package arena

import (
	"fmt"

	"github.com/kaisen-ai/kaisen/game/battleship"
	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/game/submarine"
)

// Config is a match config file (configs/match.yaml documents every key).
// The config layer (internal/config) loads a file over DefaultConfig, a
// list in the file replacing the default list as a whole, and runs Validate.
type Config struct {
	// Game is the game played: a name of the games registry (package
	// games, which checks it), "submarine" by default.
	Game string `mapstructure:"game"`
	// Rules are the submarine-game rules. Default: the published 5x5 game.
	Rules RulesConfig `mapstructure:"rules"`
	// Battleship are the Battleship rules, used when Game is "battleship".
	// Default: 10x10, the Russian fleet 4,3,3,2,2,2,1,1,1,1.
	Battleship BattleshipConfig `mapstructure:"battleship"`
	// Abilities are the sides and options of the abilities variant (game
	// "abilities"), played on the Battleship rules above.
	Abilities AbilitiesConfig `mapstructure:"abilities"`
}

// BattleshipConfig describes battleship.Rules in YAML
// (configs/battleship-match.yaml documents every key).
type BattleshipConfig struct {
	// Width is the number of columns. Default 10.
	Width int `mapstructure:"width"`
	// Height is the number of rows. Default 10.
	Height int `mapstructure:"height"`
	// Shape is "rectangle" (default), "rounded" or a list of rows of '#'
	// (sea) and '.' (rock), as in RulesConfig.
	Shape any `mapstructure:"shape"`
	// Rocks are extra rock cells as [x, y] pairs (x = column). Default none.
	Rocks [][2]int `mapstructure:"rocks"`
	// Fleet lists the ship lengths (any order). Default 4,3,3,2,2,2,1,1,1,1.
	Fleet []int `mapstructure:"fleet"`
	// DrawLimit is the number of shots (both sides counted) after which the
	// game is a draw; 0 (default) means four times the usable cells.
	DrawLimit int `mapstructure:"draw_limit"`
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
		Rocks: [][2]int{}, DrawLimit: submarine.DefaultDrawLimit},
		Battleship: BattleshipConfig{Width: 10, Height: 10, Shape: "rectangle", Rocks: [][2]int{},
			Fleet: battleship.DefaultFleet()}}
	for _, s := range submarine.DefaultFleet() {
		c.Rules.Fleet = append(c.Rules.Fleet, ShipConfig{Name: s.Name, HP: s.HP})
	}
	return c
}

// Validate checks the config; it builds the rules to do so.
func (c *Config) Validate() error {
	if c.Game == "" {
		return fmt.Errorf("arena: game is empty: name the game")
	}
	if _, err := c.Rules.Build(); err != nil {
		return err
	}
	_, err := c.Battleship.Build()
	return err
}

// Build returns the Battleship rules the config describes.
func (bc BattleshipConfig) Build() (*battleship.Rules, error) {
	b, err := buildBoard("arena: battleship", bc.Width, bc.Height, bc.Shape, bc.Rocks)
	if err != nil {
		return nil, err
	}
	if bc.DrawLimit < 0 {
		return nil, fmt.Errorf("arena: battleship: draw limit %d: want 0 (four times the usable cells) or more", bc.DrawLimit)
	}
	r, err := battleship.NewRules(b, bc.Fleet)
	if err != nil {
		return nil, fmt.Errorf("arena: battleship: %w", err)
	}
	if bc.DrawLimit > 0 {
		r.DrawLimit = bc.DrawLimit
	}
	return r, nil
}

// Build returns the rules the config describes.
func (rc RulesConfig) Build() (*submarine.Rules, error) {
	b, err := buildBoard("arena: rules", rc.Width, rc.Height, rc.Shape, rc.Rocks)
	if err != nil {
		return nil, err
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

// buildBoard makes the board of a rules section; prefix starts its errors.
func buildBoard(prefix string, width, height int, shape any, extra [][2]int) (*grid.Board, error) {
	var (
		b   *grid.Board
		err error
	)
	if width < 1 || height < 1 || width > grid.MaxCells || height > grid.MaxCells {
		return nil, fmt.Errorf("%s: board %dx%d: width and height must be 1 to %d (at most %d cells)", prefix,
			width, height, grid.MaxCells, grid.MaxCells)
	}
	switch sh := shape.(type) {
	case nil, string:
		switch sh {
		case nil, "", "rectangle":
			b, err = grid.NewBoard(width, height, nil)
		case "rounded":
			b, err = grid.Rounded(width, height)
		default:
			return nil, fmt.Errorf("%s: shape %q: want rectangle, rounded or a list of rows", prefix, sh)
		}
	case []any, []string:
		var rows []string
		if ss, ok := sh.([]string); ok {
			rows = ss
		} else {
			for i, r := range sh.([]any) {
				s, ok := r.(string)
				if !ok {
					return nil, fmt.Errorf("%s: shape row %d is %v, want a string of '#' and '.'", prefix, i, r)
				}
				rows = append(rows, s)
			}
		}
		b, err = grid.ParseShape(rows)
		if err == nil && (b.Width() != width || b.Height() != height) {
			return nil, fmt.Errorf("%s: shape is %dx%d but width x height is %dx%d (set both to the shape's size)", prefix,
				b.Width(), b.Height(), width, height)
		}
	default:
		return nil, fmt.Errorf("%s: shape %v: want rectangle, rounded or a list of rows", prefix, sh)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", prefix, err)
	}
	if len(extra) > 0 {
		rocks := b.Rocks()
		for _, p := range extra {
			c, ok := b.At(p[0], p[1])
			if !ok {
				return nil, fmt.Errorf("%s: rock [%d,%d] is off the %dx%d board", prefix, p[0], p[1], b.Width(), b.Height())
			}
			rocks = append(rocks, c)
		}
		if b, err = grid.NewBoard(b.Width(), b.Height(), rocks); err != nil {
			return nil, fmt.Errorf("%s: %w", prefix, err)
		}
	}
	return b, nil
}
