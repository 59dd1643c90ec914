package belief

import "github.com/kaisen-ai/kaisen/game/submarine"

// Side says which fleet a belief tracks, relative to the player that receives
// the events (submarine.Event.Mine is relative to that player).
type Side uint8

const (
	// Enemy tracks the opponent's fleet: events with Mine set are the player's
	// attacks on it; events without Mine are the opponent's moves and attacks.
	Enemy Side = iota
	// Own tracks the player's own fleet as the opponent can know it: events
	// without Mine are the opponent's attacks on it; events with Mine are the
	// player's own moves and attacks.
	Own
)

func (s Side) String() string {
	if s == Own {
		return "own"
	}
	return "enemy"
}

// byTracked reports whether the action of ev was taken by the tracked fleet.
func byTracked(ev *submarine.Event, side Side) bool { return ev.Mine == (side == Own) }
