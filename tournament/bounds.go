package tournament

import (
	"encoding/json"
	"fmt"
	"math"

	"github.com/kaisen-ai/kaisen/elo"
)

// unbound opens the side of the interval a perfect record does not bound:
// every game lost leaves the rating unbounded below, every game won
// unbounded above. The fit's prior keeps the rating itself finite, and the
// bootstrap can only resample the same perfect record, so its percentile
// on that side is the prior's, not a bound the games give.
func (r *Rating) unbound() {
	if r.Games == 0 || r.Draws > 0 {
		return
	}
	if r.Wins == 0 {
		r.Lo = math.Inf(-1)
	}
	if r.Losses == 0 {
		r.Hi = math.Inf(1)
	}
}

// Interval formats the rating's interval as "[-120, +35]", an unbounded
// side as -inf or +inf.
func (r Rating) Interval() string {
	return fmt.Sprintf("[%s, %s]", elo.Format(r.Lo, "%+.0f"), elo.Format(r.Hi, "%+.0f"))
}

// ratingJSON is a Rating as JSON writes it.
type ratingJSON Rating

// MarshalJSON writes an unbounded side of the interval as null.
func (r Rating) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		ratingJSON
		Lo *float64 `json:"lo"`
		Hi *float64 `json:"hi"`
	}{ratingJSON(r), finiteOrNil(r.Lo), finiteOrNil(r.Hi)})
}

// UnmarshalJSON reads MarshalJSON's output: a null lo is -Inf, a null hi
// +Inf.
func (r *Rating) UnmarshalJSON(b []byte) error {
	var in struct {
		ratingJSON
		Lo *float64 `json:"lo"`
		Hi *float64 `json:"hi"`
	}
	if err := json.Unmarshal(b, &in); err != nil {
		return err
	}
	*r = Rating(in.ratingJSON)
	r.Lo, r.Hi = math.Inf(-1), math.Inf(1)
	if in.Lo != nil {
		r.Lo = *in.Lo
	}
	if in.Hi != nil {
		r.Hi = *in.Hi
	}
	return nil
}

func finiteOrNil(x float64) *float64 {
	if math.IsInf(x, 0) || math.IsNaN(x) {
		return nil
	}
	return &x
}
