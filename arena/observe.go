package arena

import (
	"context"
	"os"
	"path/filepath"
	"sync"
)

// sequencer hands the results of a match with Match.Observe to it in
// game-index order and tallies the games up to the one where it stopped:
// the workers finish games in any order, the tally depends on the seed
// alone.
type sequencer struct {
	m      *Match
	cancel context.CancelFunc

	mu      sync.Mutex
	next    int                // index of the next game to observe
	pending map[int]GameResult // finished games waiting for an earlier one
	stopped bool               // Observe stopped the match
	late    []int              // games finished after the stop, left out
	tally   partial            // the games observed
}

// newSequencer is m's sequencer, nil when m has no Observe.
func newSequencer(m *Match, cancel context.CancelFunc) *sequencer {
	if m.Observe == nil {
		return nil
	}
	return &sequencer{m: m, cancel: cancel, next: m.First, pending: map[int]GameResult{}}
}

// put takes a finished game and observes every game it makes next in
// order.
func (s *sequencer) put(r GameResult) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stopped {
		s.late = append(s.late, r.Index)
		return
	}
	s.pending[r.Index] = r
	for {
		r, ok := s.pending[s.next]
		if !ok {
			return
		}
		delete(s.pending, s.next)
		s.next++
		s.tally.add(&r)
		if s.m.Observe(&r) {
			s.stopped = true
			s.cancel()
			for i := range s.pending {
				s.late = append(s.late, i)
			}
			clear(s.pending)
			return
		}
	}
}

// removeReplays removes the replays of the games left out after a stop
// (those of games never played do not exist).
func (s *sequencer) removeReplays() {
	if s.m.Replays == "" {
		return
	}
	for _, i := range s.late {
		_ = os.Remove(filepath.Join(s.m.Replays, ReplayName(i)))
	}
}
