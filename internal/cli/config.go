package cli

import (
	"github.com/kaisen-ai/kaisen/arena"
	"github.com/kaisen-ai/kaisen/internal/config"
)

// loadMatchConfig reads the match rules file at path over arena's defaults
// ("" = the defaults).
func loadMatchConfig(path string) (arena.Config, error) {
	return config.LoadOr(path, arena.DefaultConfig())
}
