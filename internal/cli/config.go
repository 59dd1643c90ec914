package cli

import (
	"github.com/kaisen-ai/kaisen/arena"
	"github.com/kaisen-ai/kaisen/internal/config"
)

// loadMatchConfig reads the match rules file at path over arena's defaults
// ("" = the defaults).
func loadMatchConfig(path string) (arena.Config, error) {
	c := arena.DefaultConfig()
	if path == "" {
		return c, nil
	}
	if err := config.Load(path, &c); err != nil {
		return arena.Config{}, err
	}
	return c, nil
}
