package games_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/games"
)

// TestConformance runs the conformance suite (game/conformance) on every
// registered game: its rules and every one of its AIs.
func TestConformance(t *testing.T) {
	for _, g := range games.All() {
		t.Run(g.Name, func(t *testing.T) {
			require.NotNil(t, g.Conformance, "a registered game has no conformance checks")
			checks := g.Conformance()
			require.NotEmpty(t, checks)
			for _, c := range checks {
				t.Run(c.Name, func(t *testing.T) { c.Run(t) })
			}
		})
	}
}
