package arena_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/arena"
)

// recorded is what Match.Record was given: game indices, results and
// replays, in call order.
type recorded struct {
	index   []int
	results []arena.GameResult
	replays [][]byte
}

func (c *recorded) record(r *arena.GameResult, replay []byte) error {
	c.index = append(c.index, r.Index)
	c.results = append(c.results, *r)
	c.replays = append(c.replays, append([]byte(nil), replay...))
	return nil
}

// sameSummary clears what differs between two runs of one match (the
// clock and the workers).
func sameSummary(s arena.Summary) arena.Summary {
	s.Elapsed, s.Workers = 0, 0
	return s
}

// TestMatchRecord: Record gets every game in index order whatever the
// workers, with the replay the Table wrote (the file of Replays, byte for
// byte).
func TestMatchRecord(t *testing.T) {
	for _, workers := range []int{1, 3} {
		dir := t.TempDir()
		var c recorded
		m := arena.Match{Family: randomFamily(), Games: 12, Seed: 5, Workers: workers, Replays: dir, Pairs: true, Record: c.record}
		sum, err := m.Run(context.Background(), nil)
		require.NoError(t, err)
		require.Equal(t, 12, sum.Games)
		require.Len(t, c.index, 12)
		for i := range c.index {
			require.Equal(t, i, c.index[i], "workers %d: game order", workers)
			want, err := os.ReadFile(filepath.Join(dir, arena.ReplayName(i)))
			require.NoError(t, err)
			require.Equal(t, string(want), string(c.replays[i]), "game %d's replay", i)
		}
	}
}

// TestMatchResume: a match given the results of its first games (Done)
// plays and records only the others and sums up to the uninterrupted
// match, Observe seeing every game in order.
func TestMatchResume(t *testing.T) {
	var full recorded
	m := arena.Match{Family: randomFamily(), Games: 10, Seed: 9, Workers: 2, Pairs: true, Record: full.record}
	want, err := m.Run(context.Background(), nil)
	require.NoError(t, err)
	for _, k := range []int{0, 3, 10} {
		var rest recorded
		var seen []int
		m := arena.Match{Family: randomFamily(), Games: 10, Seed: 9, Workers: 3, Pairs: true, Record: rest.record,
			Done:    full.results[:k],
			Observe: func(r *arena.GameResult) bool { seen = append(seen, r.Index); return false }}
		got, err := m.Run(context.Background(), nil)
		require.NoError(t, err)
		require.Equal(t, sameSummary(want), sameSummary(got), "resumed after %d games", k)
		require.Equal(t, full.index[k:], append([]int{}, rest.index...), "only the missing games are recorded")
		require.Equal(t, full.replays[k:], append([][]byte{}, rest.replays...))
		require.Len(t, seen, 10, "every game observed")
	}
}

// TestMatchRecordError: a failing Record stops the match with its error.
func TestMatchRecordError(t *testing.T) {
	boom := errors.New("disk full")
	n := 0
	m := arena.Match{Family: randomFamily(), Games: 50, Seed: 1, Workers: 2,
		Record: func(*arena.GameResult, []byte) error {
			if n++; n == 5 {
				return boom
			}
			return nil
		}}
	_, err := m.Run(context.Background(), nil)
	require.ErrorIs(t, err, boom)
}

// TestMatchDoneValidate: Done must be the match's first games, in order,
// and cannot resume a series.
func TestMatchDoneValidate(t *testing.T) {
	tests := []struct {
		name string
		m    arena.Match
	}{
		{"out of order", arena.Match{Family: randomFamily(), Games: 4, Done: []arena.GameResult{{Index: 1}}}},
		{"too many", arena.Match{Family: randomFamily(), Games: 1, Done: []arena.GameResult{{Index: 0}, {Index: 1}}}},
		{"series", arena.Match{Family: randomFamily(), Games: 4, Series: 2, Done: []arena.GameResult{{Index: 0}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.ErrorIs(t, tt.m.Validate(), arena.ErrMatch)
		})
	}
}
