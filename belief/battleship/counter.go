package bsbelief

// A Counter keeps the first pass of its last count and starts the next
// one from the longest prefix of cells whose statuses are unchanged.

import (
	"context"
	"slices"

	"github.com/kaisen-ai/kaisen/game/battleship"
)

// Counter is Count for a sequence of positions, such as those of one game:
// it keeps the first pass of the programme of its last count (the profiles
// cell by cell, about 40 bytes each, at most maxCachedStates of them) and
// starts the next count from the last cell boundary that pass shares with
// it, the boundary before the first cell whose status changed, when the
// board and the remaining fleet are the same. Its results, errors and
// work, hence its budget decisions, are exactly those of Count. The zero
// value is ready to use; a Counter is not safe for concurrent use.
type Counter struct {
	last *enumCache
}

// Count is Count (the function), reusing the previous count's first pass.
func (cc *Counter) Count(ctx context.Context, pos *battleship.Position, opt CountOptions) (*Counts, error) {
	return count(ctx, pos, opt, cc)
}

// maxCachedStates bounds the first pass a Counter keeps (about 40 bytes a
// profile); a larger one is dropped. A count within the density bot's
// default budget makes at most 312 500 profiles.
const maxCachedStates = 1 << 20

// enumCache is the first pass of one count, as a Counter keeps it: the
// profiles, forward supports and transitions of the boundaries it
// completed. Boundary t depends only on the frame, the remaining fleet
// and the statuses of cells 0..t-1, so it is valid for any problem that
// shares those.
type enumCache struct {
	w, h   int
	tr     bool // the frame is the board transposed
	mirror bool // row-end profiles merged with their mirror images
	kc     []int
	status []uint8
	keys   [][]key    // per boundary 0..done
	fwd    [][]uint64 // per boundary 0..done
	trans  [][]uint32 // per cell 0..done-1
	done   int
	// failKeys > 0: cell done failed the budget once failKeys profiles of
	// boundary done+1 were made (a lower bound of their number).
	failKeys int
}

// cache returns the first pass of d for a later count, or nil.
func (d *counter) cache() *enumCache {
	if d.done == 0 && d.failKeys == 0 || d.states > maxCachedStates {
		return nil
	}
	return &enumCache{
		w: d.w, h: d.h, tr: d.tr, mirror: d.mirror, kc: d.kc, status: d.status,
		keys: d.keys[:d.done+1], fwd: d.fwd[:d.done+1], trans: d.trans[:d.done],
		done: d.done, failKeys: d.failKeys,
	}
}

// prefix reports whether the cache fits p's frame and fleet and, if so,
// the number of leading cells whose status is the same (d.cells() when all
// are: the virtual last row always is).
func (c *enumCache) prefix(p *problem) (int, bool) {
	if c.w != p.w || c.h != p.h || c.tr != p.tr || c.mirror != p.symmetric || !slices.Equal(c.kc, p.kc) {
		return 0, false
	}
	for i, st := range p.status {
		if c.status[i] != st {
			return i, true
		}
	}
	return p.w * (p.h + 1), true
}
