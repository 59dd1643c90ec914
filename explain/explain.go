package explain

// Decision explains a player's last choice, for replays and debugging.
type Decision struct {
	State      string      `json:"state,omitempty"`      // the player's state (for state machines)
	Reason     string      `json:"reason,omitempty"`     // why, in words
	Candidates []Candidate `json:"candidates,omitempty"` // what was considered, best first
	Heatmaps   []Heatmap   `json:"heatmaps,omitempty"`   // the player's beliefs when it chose (Mapper, Full)
}

// Candidate is one scored option of a Decision.
type Candidate struct {
	Action string  `json:"action"` // human-readable action, e.g. "attack [1,2]"
	Score  float64 `json:"score"`
}

// Explainer is implemented by players that can explain their last Act.
type Explainer interface {
	Explain() Decision
}
