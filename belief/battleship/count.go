package bsbelief

// Exact counting of fleet layouts: a transfer-matrix dynamic programme over a
// broken row profile.
//
// The board (transposed when it is wider than tall, so that the profile is
// the short side) is filled one cell at a time in row-major order; a layout
// is a 0/1 colouring. A colouring is a valid layout exactly when no two
// occupied cells touch diagonally (that alone makes every 4-connected group a
// straight segment, because any bent group contains an L of three cells whose
// ends touch diagonally) and the group lengths form the fleet.
//
// The state after cell (r, c) is the profile: one code per column, for the
// cells (r, 0..c) and (r-1, c+1..w-1):
//
//	E0  empty
//	E1  empty, and the cell above it is occupied (only for the cell just
//	    filled: the next cell needs to know its upper-left neighbour)
//	C   occupied, part of a horizontal ship that is already counted or will
//	    be counted by the run code to its right
//	Open(k, u)  occupied, the lowest cell of a vertical run of k cells (k = 1:
//	    a single cell) that may still grow downwards
//	Run(h, u)   occupied, the right end (so far) of a horizontal run of h >= 2
//	    cells in the current row
//
// u records whether the ship has at least one cell that is not a known hit:
// a ship made only of hits would have been reported sunk, so it is not a
// consistent layout. A ship is finished (and its length counted) when the cell
// below a vertical run, or right of a horizontal run, is filled empty.
//
// The fleet is not part of the key. Each profile carries a vector indexed by
// the multiset of finished ships a (mixed radix over the counts of each
// length, at most the remaining fleet's count; 120 entries for the Russian
// fleet): finishing a ship of length l shifts the vector by that length's
// stride, dropping entries that would exceed the fleet. So one profile
// transition moves a vector instead of doing one hash lookup per (profile,
// fleet) pair. Only the "useful" entries are stored (see counter).
//
// Per-cell counts come from a forward and a backward pass. F(t, s)[a] counts
// the fillings of the first t cells that end in profile s having finished
// ships a; B(t, s)[b] counts the fillings of the rest that finish ships b
// (open ships included). Layouts through s number sum_a F[a]·B[K-a], K the
// whole remaining fleet. After the last cell of row r the profile shows the
// whole row, so the count of layouts with a ship on (r, c) is that sum over
// the row-end profiles whose column c is occupied. The forward pass keeps F
// at row ends only, plus the transition table; the backward pass walks the
// table in reverse and combines at row ends. Every row end sees every layout
// once, so the row totals must agree: run checks that they do.
//
// On a board symmetric top to bottom the two halves are joined at the
// middle row (join.go): the passes walk the top half only.
//
// Numbers are vectors of m 64-bit limbs; m = 1 is the fast path, and any
// overflow restarts the count with twice the limbs, so results are exact.
// With one limb the numeric passes store each profile's vector densely over
// the span of its useful entries and move contiguous runs (span.go); with
// more they store the useful entries compactly (transfer.go, also the
// reference the tests hold the span passes to).

import (
	"context"
	"errors"
	"fmt"
	"math/big"

	"github.com/kaisen-ai/kaisen/game/battleship"
)

// ErrBudget is returned when counting would take more work than allowed.
var ErrBudget = errors.New("battleship: counting budget exceeded")

// BudgetError is the error of a count that broke CountOptions.MaxWork
// (errors.Is(err, ErrBudget) holds): how far its first pass, the
// profiles cell by cell, got.
type BudgetError struct {
	// Done is the number of cells the first pass completed, of Cells:
	// Done < Cells when the count broke the budget in that pass, Done ==
	// Cells when it broke it after (the numeric passes would not fit).
	Done, Cells int
	err         error
}

func (e *BudgetError) Error() string { return e.err.Error() }

// Unwrap returns the error wrapping ErrBudget.
func (e *BudgetError) Unwrap() error { return e.err }

// InFirstPass reports whether the count broke its budget before its
// first pass was complete.
func (e *BudgetError) InFirstPass() bool { return e.Done < e.Cells }

// errOverflow makes the counter restart with more limbs.
var errOverflow = errors.New("battleship: limb overflow")

// maxLimbs bounds the precision (64*maxLimbs bits per intermediate number).
const maxLimbs = 16

// Counts is the exact number of layouts consistent with a position.
type Counts struct {
	// Total is the number of layouts of the remaining fleet consistent with
	// the position (ships of equal length are not told apart).
	Total *big.Int
	// Cells holds, per cell index, how many of them put a ship on that cell:
	// Total for unsunk hits, 0 for misses, sunk ships and rocks.
	Cells []*big.Int
	// Remaining is the fleet not yet sunk, longest first.
	Remaining []int
	// States is the number of profiles the programme created; Work is the
	// work it did in units of about 10 ns (16 per profile created, 1 per
	// fleet-vector entry moved): the unit of CountOptions.MaxWork.
	States int
	Work   int64
}

// CountOptions tunes Count.
type CountOptions struct {
	// MaxWork bounds the work (0 = no bound; units as Counts.Work, about
	// 1e5 per millisecond on one core of the reference machine). A count
	// that needs more stops early with ErrBudget: as soon as the work done,
	// or the work done plus a proven lower bound of what remains, passes it.
	MaxWork int64
	// Progress, when set, is called after each cell of each of the three
	// long passes, with done of total steps (total is 3 cells, less the
	// bottom rows of the frame on a board symmetric top to bottom, whose
	// halves are joined at the middle: about 1.5 cells; a count that
	// restarts with more precision starts over from 0). The two
	// numeric passes of a count without MaxWork run at the same time on
	// two goroutines: the calls are serialized, in order of done, but may
	// come from either.
	Progress func(done, total int)
	// Workers bounds the goroutines a count splits its heavy steps over
	// (the numeric transfers, pass 2 and the join; only on layers large
	// enough to gain from it): 0 = runtime.GOMAXPROCS(0), 1 = none. The
	// results, errors and work are the same for every value.
	Workers int
	// splitMin, when positive, replaces minSplit (the tests split every
	// layer, small boards too).
	splitMin int
}

// Count returns the exact number of layouts of the remaining fleet consistent
// with the position, overall and per cell. It checks ctx between cells.
func Count(ctx context.Context, pos *battleship.Position, opt CountOptions) (*Counts, error) {
	return count(ctx, pos, opt, nil)
}

func count(ctx context.Context, pos *battleship.Position, opt CountOptions, cc *Counter) (*Counts, error) {
	pr, err := newProblem(pos)
	if err != nil {
		return nil, err
	}
	var work int64
	for m := 1; m <= maxLimbs; m *= 2 {
		c := &counter{problem: pr, m: m, ctx: ctx, maxWork: opt.MaxWork, work: work, progress: opt.Progress, mirror: pr.symmetric}
		c.setWorkers(opt)
		if cc != nil {
			c.reuse, c.keepAll = cc.last, true
		}
		res, err := c.run()
		if cc != nil {
			cc.last = c.cache()
		}
		work = c.work
		if errors.Is(err, errOverflow) {
			continue
		}
		if errors.Is(err, ErrBudget) {
			return nil, &BudgetError{Done: c.done, Cells: c.enumEnd(), err: err}
		}
		if err != nil {
			return nil, err
		}
		res.Remaining = pr.remaining
		res.Work = work
		return res, nil
	}
	return nil, fmt.Errorf("battleship: count exceeds %d bits", 64*maxLimbs)
}
