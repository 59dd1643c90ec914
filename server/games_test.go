package server

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/game/battleship"
	"github.com/kaisen-ai/kaisen/game/grid"
)

// TestRegisterRefuses: Register takes only games built by NewGame, under
// a name not served yet; a refused game leaves the list as it was.
func TestRegisterRefuses(t *testing.T) {
	before := Games()
	for _, tt := range []struct {
		name string
		g    Game
	}{
		{"zero game", Game{}},
		{"a built-in name", NewGame(Contract[*battleship.Rules, *battleship.Game, battleship.Placement, grid.Cell, battleship.Step, battleship.Event]{Name: GameBattleship})},
		{"the default game", NewGame(Contract[*battleship.Rules, *battleship.Game, battleship.Placement, grid.Cell, battleship.Step, battleship.Event]{Name: GameSubmarine})},
	} {
		t.Run(tt.name, func(t *testing.T) {
			require.ErrorIs(t, Register(tt.g), ErrRegister)
			require.Equal(t, before, Games())
		})
	}
}
