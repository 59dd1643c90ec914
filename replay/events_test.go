package replay_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	subrecord "github.com/kaisen-ai/kaisen/game/submarine/record"
	"github.com/kaisen-ai/kaisen/replay"
)

// TestHTMLEvents: a frame is a hit when a ship's hp falls, a sinking when
// it reaches 0, a move when a board records one; checked against the
// submarine replays' own record of every step.
func TestHTMLEvents(t *testing.T) {
	for _, name := range []string{"scripted", "html-hirota", "random"} {
		t.Run(name, func(t *testing.T) {
			rp, err := subrecord.ReadFile("testdata/" + name + ".jsonl")
			require.NoError(t, err)
			ev := htmlData(t, name).Events()
			require.Len(t, ev, len(rp.Steps)+1)
			require.Zero(t, ev[0], "the start")
			var hits, moves int
			for i, st := range rp.Steps {
				e := ev[i+1]
				assert.Equal(t, st.Error == "" && st.Actor.Hit != "", e&replay.EventHit != 0, "step %d hit", st.N)
				assert.Equal(t, st.Error == "" && st.Actor.Sunk, e&replay.EventSunk != 0, "step %d sunk", st.N)
				assert.Equal(t, st.Error == "" && st.Action.Kind == "move", e&replay.EventMove != 0, "step %d move", st.N)
				if e&replay.EventHit != 0 {
					hits++
				}
				if e&replay.EventMove != 0 {
					moves++
				}
			}
			require.Positive(t, hits)
			require.Positive(t, moves)
		})
	}
}

func TestQuietStretches(t *testing.T) {
	const (
		h = replay.EventHit
		s = replay.EventHit | replay.EventSunk
		m = replay.EventMove
	)
	tests := []struct {
		name string
		ev   []replay.Event
		n    int
		want [][2]int
	}{
		{"none", nil, 3, nil},
		{"the start is not quiet", []replay.Event{0, h, h}, 1, nil},
		{"too short", []replay.Event{0, 0, 0, h, 0, 0}, 3, nil},
		{"one in the middle", []replay.Event{0, h, 0, m, 0, s, 0}, 3, [][2]int{{2, 4}}},
		{"up to the end", []replay.Event{0, h, 0, m, 0}, 3, [][2]int{{2, 4}}},
		{"from the start", []replay.Event{0, 0, m, 0, h}, 3, [][2]int{{1, 3}}},
		{"two", []replay.Event{0, 0, 0, h, m, m, s}, 2, [][2]int{{1, 2}, {4, 5}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.Equal(t, tt.want, replay.QuietStretches(tt.ev, tt.n))
		})
	}
}
