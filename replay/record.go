package replay

import (
	"github.com/kaisen-ai/kaisen/game"
)

// Start is what every replay header says of a game beside its rules: the
// seed, its place in a match, the players and the seat to act first. A
// game's record format writes it into its header (the game's Recorder).
type Start struct {
	Seed    uint64
	Match   *MatchRef
	Players [2]SeatInfo
	First   int
	// Adjudication is how the host ends games early (a research run's
	// kaisen match --adjudicate, --max-actions); nil: by the rules only.
	Adjudication *Adjudication
}

// OutcomeOf is the result line's outcome of a game a game.Table played.
func OutcomeOf(r *game.Result) string {
	if r.Winner < 0 {
		return OutcomeDraw
	}
	return OutcomeWin
}

// ForfeitsOf are the result line's forfeits of a game a game.Table played,
// by seat (nil when none).
func ForfeitsOf(r *game.Result) []Forfeit {
	var out []Forfeit
	for s, f := range r.Forfeits {
		if f.Kind != "" {
			out = append(out, Forfeit{Seat: s, Kind: f.Kind, Reason: f.Reason})
		}
	}
	return out
}
