package series_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/series"
)

func TestEnd(t *testing.T) {
	for _, tc := range []struct {
		name            string
		end             series.End
		won, lost, draw bool
	}{
		{"won in seat 0", series.End{Seat: 0, Winner: 0}, true, false, false},
		{"won in seat 1", series.End{Seat: 1, Winner: 1}, true, false, false},
		{"lost", series.End{Seat: 1, Winner: 0}, false, true, false},
		{"draw", series.End{Seat: 0, Winner: -1}, false, false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			require.Equal(t, tc.won, tc.end.Won())
			require.Equal(t, tc.lost, tc.end.Lost())
			require.Equal(t, tc.draw, tc.end.Draw())
		})
	}
}
