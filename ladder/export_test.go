package ladder

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestExport: every game in rating order with both seats' ratings, equal
// to what each bot's history says.
func TestExport(t *testing.T) {
	forEachBackend(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		s := openDSN(t, dsn)
		for _, b := range []string{"a", "b", "c"} {
			_, err := s.Register(ctx, b)
			require.NoError(t, err)
		}
		end := time.UnixMilli(1_700_000_000_000).UTC()
		games := []Game{
			{ID: "g-1", Bots: [2]string{"a", "b"}, Outcome: OutcomeWin, Winner: 0, Reason: "sunk", Actions: 12, Seed: 1<<63 + 5, Start: end.Add(-time.Minute), End: end},
			{ID: "g-2", Bots: [2]string{"c", "a"}, Outcome: OutcomeDraw, Winner: -1, Reason: "draw", Actions: 128, First: 1, Start: end.Add(-time.Minute), End: end},
			{ID: "g-3", Bots: [2]string{"b", "c"}, Outcome: OutcomeWin, Winner: 1, Reason: "forfeit", Replay: "g-3.jsonl", Start: end.Add(-time.Minute), End: end},
		}
		for _, g := range games {
			_, err := s.RecordGame(ctx, g)
			require.NoError(t, err)
		}
		got, err := s.Export(ctx)
		require.NoError(t, err)
		require.Len(t, got, len(games))
		for i, r := range got {
			require.Equal(t, int64(i+1), r.Seq)
			g := games[i]
			require.Equal(t, g, r.Game)
			for seat, bot := range r.Game.Bots {
				h, err := s.History(ctx, bot)
				require.NoError(t, err)
				found := false
				for _, p := range h {
					if p.Game.ID == r.Game.ID {
						found = true
						require.Equal(t, seat, p.Seat)
						require.Equal(t, p.Before, r.Before[seat])
						require.Equal(t, p.After, r.After[seat])
					}
				}
				require.True(t, found, "%s not in %s's history", r.Game.ID, bot)
			}
		}
		require.Equal(t, got[0].After[0], got[1].Before[1], "a starts game 2 where game 1 left it")
	})
}
