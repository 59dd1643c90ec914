package arena

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
)

// sequencer hands the results of a match with Match.Observe, Record or
// Done to them in game-index order and tallies the games up to the one
// where Observe stopped (or Record failed): the workers finish games in
// any order, the tally and the record depend on the seed alone.
type sequencer struct {
	m      *Match
	cancel context.CancelFunc

	mu      sync.Mutex
	next    int            // index of the next game to observe
	pending map[int]played // finished games waiting for an earlier one
	stopped bool           // Observe stopped the match (or Record failed)
	err     error          // Record's error
	late    []int          // games finished after the stop, left out
	tally   partial        // the games observed
}

// played is a finished game and its replay.
type played struct {
	r      GameResult
	replay []byte
	before bool // one of Match.Done: not recorded again
}

// newSequencer is m's sequencer, nil when m has no Observe, Record or
// Done.
func newSequencer(m *Match, cancel context.CancelFunc) *sequencer {
	if m.Observe == nil && m.Record == nil && len(m.Done) == 0 {
		return nil
	}
	return &sequencer{m: m, cancel: cancel, next: m.First, pending: map[int]played{}}
}

// put takes a finished game with its replay (before: one of Match.Done)
// and observes and records every game it makes next in order.
func (s *sequencer) put(r GameResult, replay []byte, before bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stopped {
		s.late = append(s.late, r.Index)
		return
	}
	s.pending[r.Index] = played{r, replay, before}
	for {
		p, ok := s.pending[s.next]
		if !ok {
			return
		}
		delete(s.pending, s.next)
		s.next++
		r := p.r
		s.tally.add(&r)
		if s.m.Record != nil && !p.before {
			if err := s.m.Record(&r, p.replay); err != nil {
				s.err = fmt.Errorf("arena: record game %d: %w", r.Index, err)
			}
		}
		if s.err != nil || (s.m.Observe != nil && s.m.Observe(&r)) {
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
