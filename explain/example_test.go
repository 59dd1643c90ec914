package explain_test

import (
	"encoding/json"
	"fmt"

	"github.com/kaisen-ai/kaisen/explain"
)

// thinker is a toy player that remembers why it chose its last action.
type thinker struct{ last explain.Decision }

func (t *thinker) Explain() explain.Decision { return t.last }

var _ explain.Explainer = (*thinker)(nil)

// A Decision as a replay records it: empty fields are left out.
func ExampleDecision() {
	var p explain.Explainer = &thinker{last: explain.Decision{
		State:  "attack",
		Reason: "the enemy w is in reach",
		Candidates: []explain.Candidate{
			{Action: "attack [1,2]", Score: 0.75},
			{Action: "move w [2,2]", Score: 0.25},
		},
	}}
	b, _ := json.Marshal(p.Explain())
	fmt.Println(string(b))
	b, _ = json.Marshal(explain.Decision{Reason: "only legal action"})
	fmt.Println(string(b))
	// Output:
	// {"state":"attack","reason":"the enemy w is in reach","candidates":[{"action":"attack [1,2]","score":0.75},{"action":"move w [2,2]","score":0.25}]}
	// {"reason":"only legal action"}
}
