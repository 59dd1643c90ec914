package endgame

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/game/submarine"
)

// Outcome is the result of perfect play for the side to move.
type Outcome int8

// The outcomes. Unknown is the search's answer when its budget ran out
// before a proof: the position may be won, drawn or lost.
const (
	Unknown Outcome = iota
	Loss
	Draw
	Win
)

func (o Outcome) String() string {
	switch o {
	case Loss:
		return "loss"
	case Draw:
		return "draw"
	case Win:
		return "win"
	default:
		return "unknown"
	}
}

// Value is the value of a position for the side to move.
type Value struct {
	Outcome Outcome
	// Plies is, for a Win or a Loss, the number of actions (both sides
	// counted) until the loser's last ship sinks when the winner wins as fast
	// as it can and the loser delays as long as it can. 0 otherwise.
	Plies int
	// Exact reports that Outcome and Plies come from the tablebase. A value
	// from the search has the right Outcome (Win and Loss are proved) but
	// Plies is only an upper bound: a forced end in at most that many plies.
	// A search never proves a Draw; it says Unknown.
	Exact bool
}

func (v Value) String() string {
	switch {
	case v.Outcome != Win && v.Outcome != Loss:
		return v.Outcome.String()
	case v.Exact:
		return fmt.Sprintf("%s in %d", v.Outcome, v.Plies)
	default:
		return fmt.Sprintf("%s in <=%d", v.Outcome, v.Plies)
	}
}

// rank orders values for the side to move: a faster win is better than a
// slower one, any win better than a draw, a draw better than an unknown, an
// unknown better than any loss, and a slower loss better than a faster one.
func (v Value) rank() int {
	switch v.Outcome {
	case Win:
		return 3<<20 - v.Plies
	case Draw:
		return 2 << 20
	case Unknown:
		return 1 << 20
	default:
		return v.Plies
	}
}

// Compare returns +1 when v is better than w for the side to move, -1 when
// worse and 0 when equal, in the order of Actions.
func (v Value) Compare(w Value) int { return cmp.Compare(v.rank(), w.rank()) }

// after turns the value of the position after an action (for the side then
// to move) into the value of the action for the side that took it.
func (v Value) after() Value {
	switch v.Outcome {
	case Win:
		return Value{Outcome: Loss, Plies: v.Plies + 1, Exact: v.Exact}
	case Loss:
		return Value{Outcome: Win, Plies: v.Plies + 1, Exact: v.Exact}
	}
	return v
}

// fromDist decodes a tablebase distance.
func fromDist(d uint8) Value {
	switch {
	case d == 0:
		return Value{Outcome: Draw, Exact: true}
	case d%2 == 1:
		return Value{Outcome: Win, Plies: int(d), Exact: true}
	default:
		return Value{Outcome: Loss, Plies: int(d), Exact: true}
	}
}

// ScoredAction is one legal action with its value for the side taking it.
type ScoredAction struct {
	Action submarine.Action
	Value  Value
}

// Options tunes a Solver.
type Options struct {
	// TableLimit bounds the class pairs the tablebase solves (see
	// NewTablebase); <= 0: DefaultTableLimit.
	TableLimit int
	// Nodes is the search's node budget for one Solve, or for one Actions
	// or Best call as a whole; <= 0: DefaultNodes.
	Nodes int
}

// DefaultNodes is the default search budget (nodes per call).
const DefaultNodes = 100_000

// Solver values positions of one board: by the tablebase where it covers
// the material, by search elsewhere. It is safe for concurrent use; each
// call searches with its own transposition table.
type Solver struct {
	board *grid.Board
	tb    *Tablebase
	nodes int
}

// New returns a Solver for the board of rules with its own tablebase.
func New(rules *submarine.Rules, opt Options) (*Solver, error) {
	if rules == nil || rules.Board == nil {
		return nil, fmt.Errorf("endgame: new solver: %w", submarine.ErrRules)
	}
	return newSolver(NewTablebase(rules.Board, opt.TableLimit), opt), nil
}

func newSolver(tb *Tablebase, opt Options) *Solver {
	if opt.Nodes <= 0 {
		opt.Nodes = DefaultNodes
	}
	return &Solver{board: tb.board, tb: tb, nodes: opt.Nodes}
}

var (
	sharedMu     sync.Mutex
	sharedTables = map[string]*Tablebase{}
)

// Shared returns a Solver for the board of rules whose tablebase is shared
// by every Shared solver of the same board shape and table limit in the
// process, so concurrent games and successive matches solve each class
// once. opt.Nodes applies to the returned Solver only.
func Shared(rules *submarine.Rules, opt Options) (*Solver, error) {
	if rules == nil || rules.Board == nil {
		return nil, fmt.Errorf("endgame: shared solver: %w", submarine.ErrRules)
	}
	if opt.TableLimit <= 0 {
		opt.TableLimit = DefaultTableLimit
	}
	key := fmt.Sprintf("%d|%s", opt.TableLimit, strings.Join(rules.Board.Shape(), "/"))
	sharedMu.Lock()
	tb := sharedTables[key]
	if tb == nil {
		tb = NewTablebase(rules.Board, opt.TableLimit)
		sharedTables[key] = tb
	}
	sharedMu.Unlock()
	return newSolver(tb, opt), nil
}

// Tablebase returns the solver's tablebase.
func (s *Solver) Tablebase() *Tablebase { return s.tb }

func (s *Solver) check(p *Position) error {
	if p.Rules == nil || p.Rules.Board == nil {
		return fmt.Errorf("%w: %w", ErrPosition, submarine.ErrRules)
	}
	if b := p.Rules.Board; b != s.board && (b.Width() != s.board.Width() || b.Height() != s.board.Height() || b.Usable() != s.board.Usable()) {
		return fmt.Errorf("%w: board %dx%d is not the solver's %dx%d", ErrPosition, p.Rules.Board.Width(), p.Rules.Board.Height(), s.board.Width(), s.board.Height())
	}
	if p.Mover.Alive == 0 || p.Other.Alive == 0 {
		return fmt.Errorf("%w: a side has no living ship (the game is over)", ErrPosition)
	}
	return nil
}

// Solve returns the value of p for the side to move.
func (s *Solver) Solve(p Position) (Value, error) {
	if err := s.check(&p); err != nil {
		return Value{}, err
	}
	st := fromPosition(&p)
	if s.tb.Covers(st.s[0].n, st.s[1].n) {
		d, err := s.tb.probe(&st)
		if err != nil {
			return Value{}, err
		}
		return fromDist(d), nil
	}
	sr := s.searcher(s.nodes)
	defer sr.release()
	return sr.value(&st)
}

// Probe is Solve for a position the tablebase covers, on fleets taken as
// they are: mover to move against other. It skips the checks of
// NewPosition and Solve, so the fleets must be ones NewPosition returns
// unchanged (each living ship, and only those, in Alive with hp 1 to its
// fleet hp, on distinct usable cells) on the solver's board. ok is false
// when the tablebase does not cover the material; it never searches.
func (s *Solver) Probe(r *submarine.Rules, mover, other *submarine.Fleet) (v Value, ok bool, err error) {
	st := state{s: [2]side{fromFleet(r, mover), fromFleet(r, other)}}
	if !s.tb.Covers(st.s[0].n, st.s[1].n) {
		return Value{}, false, nil
	}
	d, err := s.tb.probe(&st)
	if err != nil {
		return Value{}, false, err
	}
	return fromDist(d), true, nil
}

// Actions returns every legal action of the side to move with its value for
// that side, best first (see Value.Compare); actions of equal value keep
// the order attacks by cell, then moves by ship and cell. Where the search
// values the positions the actions lead to, it deepens all the unproved ones
// together one ply at a time until the budget (Options.Nodes for the whole
// call) runs out.
func (s *Solver) Actions(p Position) ([]ScoredAction, error) {
	if err := s.check(&p); err != nil {
		return nil, err
	}
	r := p.Rules
	var out []ScoredAction
	var kids []state
	var kidOf []int
	seen := map[state]int{}
	add := func(a submarine.Action, mover, other submarine.Fleet) {
		out = append(out, ScoredAction{Action: a})
		if other.Alive == 0 {
			kidOf = append(kidOf, -1)
			return
		}
		ch := state{s: [2]side{fromFleet(r, &other), fromFleet(r, &mover)}}
		k, ok := seen[ch]
		if !ok {
			k = len(kids)
			seen[ch] = k
			kids = append(kids, ch)
		}
		kidOf = append(kidOf, k)
	}
	for c := range r.Reach(&p.Mover).All() {
		other := p.Other
		if i := other.ShipAt(c); i != submarine.NoShip {
			other.HP[i]--
			if other.HP[i] == 0 {
				other.Alive = other.Alive.Without(i)
				other.Occupied.Remove(c)
			}
		}
		add(submarine.AttackAt(c), p.Mover, other)
	}
	for i := range len(r.Fleet) {
		for c := range r.MoveTargets(&p.Mover, i).All() {
			mover := p.Mover
			mover.Occupied.Remove(mover.Pos[i])
			mover.Occupied.Add(c)
			mover.Pos[i] = c
			add(submarine.MoveTo(i, c), mover, p.Other)
		}
	}
	sr := s.searcher(s.nodes)
	defer sr.release()
	vals, err := sr.values(kids)
	if err != nil {
		return nil, err
	}
	for k := range vals {
		vals[k] = vals[k].after()
	}
	for i := range out {
		if kidOf[i] < 0 {
			out[i].Value = Value{Outcome: Win, Plies: 1, Exact: true}
		} else {
			out[i].Value = vals[kidOf[i]]
		}
	}
	slices.SortStableFunc(out, func(a, b ScoredAction) int { return b.Value.Compare(a.Value) })
	return out, nil
}

// Best returns the best action of the side to move (the first of Actions)
// and its value.
func (s *Solver) Best(p Position) (ScoredAction, error) {
	acts, err := s.Actions(p)
	if err != nil {
		return ScoredAction{}, err
	}
	return acts[0], nil
}
