package admiral

import (
	"github.com/kaisen-ai/kaisen/endgame"
	"github.com/kaisen-ai/kaisen/game/submarine"
)

// actionsMemo remembers the exact solver's answers (endgame.Solver.Actions)
// for one player. Actions is a function of the position alone: every call
// searches from a cleared transposition table with the same node budget,
// so a remembered answer is the answer the solver would give again, and
// play is unchanged. Long drawn games revisit the same positions thousands
// of times (docs/admiral.md, "Performance").
type actionsMemo struct {
	sv *endgame.Solver
	m  map[[2]submarine.Fleet][]endgame.ScoredAction
}

// actionsMemoCap bounds the positions remembered; the memo starts afresh
// when it is full.
const actionsMemoCap = 1 << 12

// actions is sv.Actions(pos). The slice returned is shared: read it only.
func (m *actionsMemo) actions(pos endgame.Position) ([]endgame.ScoredAction, error) {
	key := [2]submarine.Fleet{pos.Mover, pos.Other}
	if acts, ok := m.m[key]; ok {
		return acts, nil
	}
	acts, err := m.sv.Actions(pos)
	if err != nil {
		return nil, err
	}
	if m.m == nil || len(m.m) >= actionsMemoCap {
		m.m = make(map[[2]submarine.Fleet][]endgame.ScoredAction)
	}
	m.m[key] = acts
	return acts, nil
}
