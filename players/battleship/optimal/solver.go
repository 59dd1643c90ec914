package bsoptimal

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"math/bits"
	"slices"

	bsbelief "github.com/kaisen-ai/kaisen/belief/battleship"
	"github.com/kaisen-ai/kaisen/game/battleship"
	"github.com/kaisen-ai/kaisen/game/grid"
)

// ErrTooLarge is wrapped by every refusal to solve a board beyond the
// Solver's reach (more than 64 cells, more layouts or states than Options
// allow).
var ErrTooLarge = errors.New("bsoptimal: too large to solve exactly")

// MaxCells is the largest board (cells, rocks included) a Solver takes: a
// layout is one uint64.
const MaxCells = 64

// Options bound the work of a Solver.
type Options struct {
	// MaxLayouts is the largest number of layouts of the empty board the
	// Solver enumerates (0: DefaultMaxLayouts).
	MaxLayouts int
	// MaxStates is the largest number of knowledge states it memoises, in
	// all its tables (0: DefaultMaxStates). Each takes about 100 bytes.
	MaxStates int
	// Done, when closed, stops a search: it returns an error wrapping
	// context.Canceled (pass a context's Done; nil: never).
	Done <-chan struct{}
}

// Defaults of Options.
const (
	DefaultMaxLayouts = 2_000_000
	DefaultMaxStates  = 20_000_000
)

// Solver holds the layouts of one board and fleet and the values of the
// knowledge states it has met. It is not safe for concurrent use.
type Solver struct {
	rules      *battleship.Rules
	opts       Options
	nShips     int
	fleetCells int
	occ        []uint64 // layout i's cells
	ships      []uint64 // layout i's ships: ships[i*nShips : (i+1)*nShips]
	all        []int32  // every layout index
	sym        []symmetry

	best   map[optKey]bound      // V* of a state, or a lower bound
	policy map[policyKey]float64 // V_π of a state, for the policy being evaluated
	states int                   // entries in all tables, ever
}

// New enumerates the layouts of r's board and fleet. It refuses (an error
// wrapping ErrTooLarge) a board of more than MaxCells cells or more layouts
// than opts.MaxLayouts, and a fleet that does not fit (no layout).
func New(r *battleship.Rules, opts Options) (*Solver, error) {
	if opts.MaxLayouts <= 0 {
		opts.MaxLayouts = DefaultMaxLayouts
	}
	if opts.MaxStates <= 0 {
		opts.MaxStates = DefaultMaxStates
	}
	b := r.Board
	if b.Size() > MaxCells {
		return nil, fmt.Errorf("%w: the %dx%d board has %d cells, the exact solver takes at most %d", ErrTooLarge, b.Width(), b.Height(), b.Size(), MaxCells)
	}
	s := &Solver{rules: r, opts: opts, nShips: len(r.Fleet), fleetCells: r.FleetCells(),
		best: map[optKey]bound{}, policy: map[policyKey]float64{}}
	if err := s.enumerate(); err != nil {
		return nil, err
	}
	if len(s.occ) == 0 {
		return nil, fmt.Errorf("bsoptimal: fleet %s does not fit on the %dx%d board", battleship.FormatFleet(r.Fleet), b.Width(), b.Height())
	}
	s.sym = symmetries(r.Board)
	s.all = make([]int32, len(s.occ))
	for i := range s.all {
		s.all[i] = int32(i)
	}
	return s, nil
}

// Layouts is the number of layouts of the empty board (ships of equal
// length not told apart).
func (s *Solver) Layouts() int { return len(s.occ) }

// States is the number of knowledge states valued so far.
func (s *Solver) States() int { return s.states }

// Rules are the solver's rules.
func (s *Solver) Rules() *battleship.Rules { return s.rules }

// segment is one position of one ship: its cells and its cells with their
// neighbours (corners included), which no other ship may touch.
type segment struct{ cells, halo uint64 }

// enumerate lists every layout: ships placed longest first, ships of equal
// length in increasing segment order (so that each layout is listed once).
func (s *Solver) enumerate() error {
	b := s.rules.Board
	segs := map[int][]segment{}
	for _, l := range s.rules.Fleet {
		if _, ok := segs[l]; !ok {
			for _, sp := range bsbelief.Spots(b, l) {
				segs[l] = append(segs[l], segment{sp.Cells[0], sp.Zone[0]}) // b.Size() <= 64
			}
		}
	}
	fleet := s.rules.Fleet
	placed := make([]uint64, len(fleet))
	var rec func(k, from int, occ, forbidden uint64) error
	rec = func(k, from int, occ, forbidden uint64) error {
		if k == len(fleet) {
			if len(s.occ) >= s.opts.MaxLayouts {
				return fmt.Errorf("%w: the %dx%d board has more than %d layouts of fleet %s", ErrTooLarge, b.Width(), b.Height(), s.opts.MaxLayouts, battleship.FormatFleet(fleet))
			}
			s.occ = append(s.occ, occ)
			s.ships = append(s.ships, placed...)
			return nil
		}
		if k > 0 && fleet[k] != fleet[k-1] {
			from = 0
		}
		for i := from; i < len(segs[fleet[k]]); i++ {
			sg := segs[fleet[k]][i]
			if sg.cells&forbidden != 0 {
				continue
			}
			placed[k] = sg.cells
			if err := rec(k+1, i+1, occ|sg.cells, forbidden|sg.halo); err != nil {
				return err
			}
		}
		return nil
	}
	return rec(0, 0, 0, 0)
}

// state is one knowledge state: the consistent layouts (indices, in
// increasing order) and the shots' marks as masks: shot cells, the hits
// among them (sunk ships included) and the cells of sunk ships.
type state struct {
	set             []int32
	shot, hit, sunk uint64
}

// done: the whole fleet is sunk.
func (s *Solver) done(st *state) bool { return bits.OnesCount64(st.sunk) == s.fleetCells }

// child is one answer to a shot: its probability and the state it leads to.
type child struct {
	p  float64
	st state
	lb float64 // lowerBound of st
}

// children partitions st's layouts by the answer to a shot at cell c:
// miss, hit, or kill of the ship containing c.
func (s *Solver) children(st *state, c int) []child {
	bit := uint64(1) << uint(c)
	shot := st.shot | bit
	// answers: a miss, a hit, or a kill of the ship with these cells
	const miss, hit = ^uint64(0), uint64(0)
	type group struct {
		answer uint64 // miss, hit, or the sunk ship's cells
		set    []int32
		size   int
	}
	var groups [4]group // at most a miss, a hit and kills
	ng := 0
	of := make([]uint8, len(st.set)) // each layout's group
	for j, i := range st.set {
		a := miss
		if s.occ[i]&bit != 0 {
			a = hit
			for _, sh := range s.ships[int(i)*s.nShips : (int(i)+1)*s.nShips] {
				if sh&bit != 0 {
					if sh&^shot == 0 {
						a = sh
					}
					break
				}
			}
		}
		k := 0
		for k < ng && groups[k].answer != a {
			k++
		}
		if k == ng {
			if ng == len(groups) {
				panic("bsoptimal: more than four answers to one shot")
			}
			groups[k].answer = a
			ng++
		}
		groups[k].size++
		of[j] = uint8(k)
	}
	// one backing array, cut into the groups' sets in layout order
	backing := make([]int32, len(st.set))
	at := 0
	for k := range ng {
		groups[k].set = backing[at : at : at+groups[k].size]
		at += groups[k].size
	}
	for j, i := range st.set {
		groups[of[j]].set = append(groups[of[j]].set, i)
	}
	out := make([]child, ng)
	n := float64(len(st.set))
	for k, g := range groups[:ng] {
		ch := state{set: g.set, shot: shot, hit: st.hit, sunk: st.sunk}
		switch g.answer {
		case miss:
		case hit:
			ch.hit |= bit
		default:
			ch.hit |= bit
			ch.sunk |= g.answer
		}
		out[k] = child{p: float64(len(g.set)) / n, st: ch, lb: s.lowerBound(&ch)}
	}
	return out
}

// lowerBound is a number of shots that no policy beats on average from
// st: the mean number of unshot ship cells of st's layouts (each must be
// shot) plus a bound on the misses before the next hit. On the path where
// the next k shots all miss, a policy's cells are fixed, so that path's
// probability is at least 1 − the sum of their shares of layouts, which is
// at least 1 − T_k, T_k the sum of the k largest shares: E[misses] ≥
// Σ_k≥1 max(0, 1 − T_k).
func (s *Solver) lowerBound(st *state) float64 {
	if s.done(st) {
		return 0
	}
	cnt, union := s.counts(st)
	return s.boundOf(st, cnt, union)
}

// boundOf is lowerBound from st's counts.
func (s *Solver) boundOf(st *state, cnt [MaxCells]int32, union uint64) float64 {
	n := int32(len(st.set))
	var top []int32
	rest := 0
	for rem := union &^ st.shot; rem != 0; rem &= rem - 1 {
		c := cnt[bits.TrailingZeros64(rem)]
		rest += int(c)
		top = append(top, c)
	}
	slices.SortFunc(top, func(a, b int32) int { return int(b - a) })
	misses, sum := 0.0, int32(0)
	for _, c := range top {
		sum += c
		if sum >= n {
			break
		}
		misses += float64(n-sum) / float64(n)
	}
	return float64(rest)/float64(n) + misses
}

// counts returns, per cell, how many of st's layouts cover it unshot, and
// the union of their cells.
func (s *Solver) counts(st *state) (cnt [MaxCells]int32, union uint64) {
	for _, i := range st.set {
		o := s.occ[i]
		union |= o
		for rem := o &^ st.shot; rem != 0; rem &= rem - 1 {
			cnt[bits.TrailingZeros64(rem)]++
		}
	}
	return cnt, union
}

// optKey identifies a knowledge state for its optimal value: the union U
// of the consistent layouts' cells and the hits, sunk ships apart (the
// shots on U: a miss rules out every layout through its cell). The
// consistent layouts are exactly the layouts inside U that agree with the
// hits (shots outside U only ruled out layouts that leave U), and shots
// outside U are worthless, so states with one key have one value; so have
// their images under the board's symmetries (canonical).
type optKey struct{ union, hit, sunk uint64 }

func (s *Solver) remember(n int) error {
	s.states += n
	select {
	case <-s.opts.Done:
		return fmt.Errorf("bsoptimal: stopped after %d knowledge states: %w", s.states, context.Canceled)
	default:
	}
	if s.states > s.opts.MaxStates {
		return fmt.Errorf("%w: more than %d knowledge states on the %dx%d board with fleet %s (Options.MaxStates)", ErrTooLarge,
			s.opts.MaxStates, s.rules.Board.Width(), s.rules.Board.Height(), battleship.FormatFleet(s.rules.Fleet))
	}
	return nil
}

// start is the empty board's state.
func (s *Solver) start() state { return state{set: s.all} }

// Optimal is the least expected number of shots that sinks a uniformly
// placed fleet, over every policy that may use everything it knows.
func (s *Solver) Optimal() (float64, error) {
	st := s.start()
	return s.opt(&st)
}

// eps absorbs rounding in the comparisons of expected values.
const eps = 1e-9

func (s *Solver) opt(st *state) (float64, error) {
	v, _, err := s.bounded(st, math.Inf(1))
	return v, err
}

// bound is a memoised value: exact, or a lower bound found by a search
// cut at it.
type bound struct {
	v     float64
	exact bool
}

// bounded is V*(st) (exact true) when V*(st) < cut, else a lower bound on
// V*(st) that is at least cut (exact false): a branch-and-bound search that
// stops as soon as the state cannot be worth less than cut to its caller.
func (s *Solver) bounded(st *state, cut float64) (float64, bool, error) {
	if s.done(st) {
		return 0, true, nil
	}
	cnt, union := s.counts(st)
	key := s.canonical(optKey{union, st.hit, st.sunk})
	m, seen := s.best[key]
	if seen && (m.exact || m.v >= cut-eps) {
		return m.v, m.exact, nil
	}
	lb := s.boundOf(st, cnt, union)
	if seen {
		lb = max(lb, m.v)
	}
	if lb >= cut-eps {
		return s.store(key, seen, bound{lb, false})
	}
	n := int32(len(st.set))
	var cands []int
	for rem := union &^ st.shot; rem != 0; rem &= rem - 1 {
		c := bits.TrailingZeros64(rem)
		if cnt[c] == n {
			cands = []int{c} // certain: shoot it now
			break
		}
		cands = append(cands, c)
	}
	slices.SortStableFunc(cands, func(a, b int) int { return int(cnt[b] - cnt[a]) })
	// cells: the unshot ship cells of all layouts; after a shot at c the
	// answers' means average to (cells − count(c))/n, a bound on Q(c) that
	// falls as count(c) grows
	cells := 0
	for c := range cnt {
		cells += int(cnt[c])
	}
	best := math.Inf(1)  // the best exact Q below cut
	floor := math.Inf(1) // the least lower bound of the candidates cut
	for _, c := range cands {
		limit := min(best, cut)
		if b := 1 + float64(cells-int(cnt[c]))/float64(n); b >= limit-eps {
			floor = min(floor, b)
			break // densest first: no later cell can do better
		}
		v, exact, err := s.q(st, c, limit)
		if err != nil {
			return 0, false, err
		}
		if exact {
			best = min(best, v) // an exact Q may come back above limit
		} else {
			floor = min(floor, v)
		}
	}
	if best < cut-eps {
		return s.store(key, seen, bound{best, true})
	}
	return s.store(key, seen, bound{max(lb, min(floor, best)), false})
}

// store memoises b under key (counting a new state) and returns it.
func (s *Solver) store(key optKey, seen bool, b bound) (float64, bool, error) {
	if !seen {
		if err := s.remember(1); err != nil {
			return 0, false, err
		}
	}
	s.best[key] = b
	return b.v, b.exact, nil
}

// q is 1 + the expected optimal value after a shot at c (exact true) when
// it is below cut, else a lower bound on it that is at least cut.
func (s *Solver) q(st *state, c int, cut float64) (float64, bool, error) {
	ch := s.children(st, c)
	slices.SortStableFunc(ch, func(a, b child) int { return cmp.Compare(b.p, a.p) })
	lb := 1.0 // 1 + Σ p × (the child's value, or its lower bound until it is searched)
	for _, x := range ch {
		lb += x.p * x.lb
	}
	if lb >= cut-eps {
		return lb, false, nil
	}
	for _, x := range ch {
		// the child's value at which the whole reaches cut
		w, exact, err := s.bounded(&x.st, x.lb+(cut-lb)/x.p)
		if err != nil {
			return 0, false, err
		}
		lb += x.p * (w - x.lb)
		if !exact {
			return max(lb, cut), false, nil
		}
	}
	return lb, true, nil
}

// Q is 1 + the expected optimal number of shots after a shot at cell c
// from the knowledge k: the value of shooting c, then playing perfectly.
func (s *Solver) Q(k *Knowledge, c grid.Cell) (float64, error) {
	if c < 0 || int(c) >= s.rules.Board.Size() || k.st.shot&(1<<uint(c)) != 0 {
		return 0, fmt.Errorf("bsoptimal: %s is not an unshot cell", s.rules.CellName(c))
	}
	v, _, err := s.q(&k.st, int(c), math.Inf(1))
	return v, err
}

// Value is the optimal expected number of shots from the knowledge k.
func (s *Solver) Value(k *Knowledge) (float64, error) { return s.opt(&k.st) }
