package record_test

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/game/submarine"
	subrecord "github.com/kaisen-ai/kaisen/game/submarine/record"
	"github.com/kaisen-ai/kaisen/replay"
)

// TestServerRecorder: the server's recorder keeps the first seat in its
// header and the server's outcomes as they are (aborted too), which a
// game.Result cannot say.
func TestServerRecorder(t *testing.T) {
	r := submarine.DefaultRules()
	for _, tt := range []struct {
		name    string
		first   int
		outcome string
		winner  int
		ff      []replay.Forfeit
	}{
		{"aborted, seat 1 first", 1, replay.OutcomeAborted, -1, nil},
		{"won by a forfeit", 0, replay.OutcomeWin, 1, []replay.Forfeit{{Seat: 0, Kind: replay.ForfeitProtocol, Reason: "timeout"}}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var b bytes.Buffer
			players := [2]replay.SeatInfo{{Seat: 0, Name: "a"}, {Seat: 1, Name: "b"}}
			rec := subrecord.NewRecorder(&b, r, replay.Start{Seed: 7, First: tt.first, Players: players})
			rec.Placement(0, nil, false)
			rec.Placement(1, nil, false)
			rec.Outcome(tt.outcome, tt.winner, game.Count{Actions: 3}, tt.ff)
			require.NoError(t, rec.Flush())
			rp, err := subrecord.Read(&b)
			require.NoError(t, err)
			require.Equal(t, tt.first, rp.Header.First)
			require.Equal(t, uint64(7), rp.Header.Seed)
			require.Equal(t, tt.outcome, rp.Result.Outcome)
			require.Equal(t, tt.winner, rp.Result.Winner)
			require.Equal(t, 3, rp.Result.Actions)
			require.Equal(t, tt.ff, rp.Result.Forfeits)
		})
	}
}
