package hygiene

import "testing"

// TestSubmarineTerminalWhy shadows the scripted opponent with AIs that
// explain themselves: the terminal seat may not print their reasons
// during play (issue 25, item 2: they name cells within reach of the AI's
// hidden ships).
func TestSubmarineTerminalWhy(t *testing.T) { submarineTerminal(t, "simple", "stateplayer2") }
