package games

import (
	"testing"

	"github.com/kaisen-ai/kaisen/game/conformance"
)

// TestConformanceWire runs the wire check on the built-in games' Defs
// (the check alone: their entries' Conformance builds every AI first):
// in each dialect, seeded games over the real server and client loops are
// the same games played in-process. The matrix's "wire dialects" column
// runs it through every registered game's entry, the test game's too.
func TestConformanceWire(t *testing.T) {
	for _, tt := range []struct {
		name  string
		check conformance.Check
	}{
		{"submarine", wireCheck(submarineDef())},
		{"battleship", wireCheck(battleshipDef())},
		{"abilities", wireCheck(abilitiesDef())},
	} {
		t.Run(tt.name, func(t *testing.T) { tt.check.Run(t) })
	}
}
