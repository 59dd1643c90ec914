package server

import (
	"log/slog"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/game/battleship"
	"github.com/kaisen-ai/kaisen/game/grid"
	bsplayers "github.com/kaisen-ai/kaisen/players/battleship"
	"github.com/kaisen-ai/kaisen/series"
)

// stubPlayer is a Battleship house AI that does not learn; stubLearner
// does, and counts the games of its series.
type stubPlayer struct{}

func (*stubPlayer) Place() battleship.Placement { return nil }
func (*stubPlayer) Shoot() grid.Cell            { return 0 }
func (*stubPlayer) Observe(battleship.Event)    {}

type stubLearner struct {
	stubPlayer
	newGames, ends int
}

func (l *stubLearner) NewGame(*rand.Rand) { l.newGames++ }
func (l *stubLearner) EndGame(series.End) { l.ends++ }

// TestKeptHouseThroughAdapter: the turn loop's house AI of a series is
// the one player made for its first game when it is a Learner, found
// through the contract's adapter (bsplayers.Adapt) and started anew with
// NewGame for each later game; a player that does not learn, or one
// outside a series, is made fresh for every game.
func TestKeptHouseThroughAdapter(t *testing.T) {
	for _, tc := range []struct {
		name      string
		learner   bool
		series    bool
		wantMade  int
		wantStart int // NewGame calls on the first player made
		wantEnds  int // EndGame calls on it
	}{
		{"learner in a series", true, true, 1, 2, 1},
		{"learner outside a series", true, false, 3, 0, 0},
		{"non-learner in a series", false, true, 3, 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var made []bsplayers.Player
			f := bsplayers.Adapt(func(*rand.Rand) bsplayers.Player {
				var p bsplayers.Player = &stubPlayer{}
				if tc.learner {
					p = &stubLearner{}
				}
				made = append(made, p)
				return p
			})
			s := &seat{}
			var got []game.Player[battleship.Placement, grid.Cell, battleship.Event]
			for k := range 3 {
				rng := rand.New(rand.NewPCG(uint64(k), 0))
				got = append(got, keptHouse(s, rng, tc.series, func(rng *rand.Rand) game.Player[battleship.Placement, grid.Cell, battleship.Event] {
					return f(rng, 1)
				}))
			}
			require.Len(t, made, tc.wantMade)
			m := &match{seats: [2]*seat{{}, s}, log: slog.New(slog.DiscardHandler)}
			m.learn(&Result{Outcome: OutcomeWin, Winner: 0}, 3)
			if l, ok := made[0].(*stubLearner); ok {
				require.Equal(t, tc.wantStart, l.newGames)
				require.Equal(t, tc.wantEnds, l.ends, "the series' learner is told how the game ended")
			}
			if tc.wantMade == 1 {
				require.Same(t, got[0].(game.Wrapper).Unwrap(), got[2].(game.Wrapper).Unwrap())
			}
		})
	}
}
