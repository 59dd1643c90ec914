package cli

import (
	"fmt"

	"github.com/kaisen-ai/kaisen/arena"
	"github.com/kaisen-ai/kaisen/games"
	"github.com/kaisen-ai/kaisen/internal/config"
)

// loadMatchConfig reads the match rules file at path over arena's defaults
// ("" = the defaults); its game must be one of the registry.
func loadMatchConfig(path string) (arena.Config, error) {
	cfg, err := config.LoadOr(path, arena.DefaultConfig())
	if err != nil {
		return cfg, err
	}
	if _, err := games.Lookup(cfg.Game); err != nil {
		return cfg, &UsageError{Err: fmt.Errorf("config: %s: %w", path, err)}
	}
	return cfg, nil
}
