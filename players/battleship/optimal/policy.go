package bsoptimal

import (
	"cmp"
	"errors"
	"fmt"
	"maps"
	"math"
	"math/bits"
	"slices"

	"github.com/kaisen-ai/kaisen/game/battleship"
	"github.com/kaisen-ai/kaisen/game/grid"
)

// Knowledge is what the shooter knows at one point of a game: the shots and
// their answers, and so the layouts consistent with them. Do not keep it
// beyond the call it is passed to.
type Knowledge struct {
	s   *Solver
	st  state
	cnt [MaxCells]int32
}

func (s *Solver) knowledge(st state) *Knowledge {
	k := &Knowledge{s: s, st: st}
	k.cnt, _ = s.counts(&k.st)
	return k
}

// Start is the knowledge before the first shot.
func (s *Solver) Start() *Knowledge { return s.knowledge(s.start()) }

// Layouts is the number of consistent layouts.
func (k *Knowledge) Layouts() int { return len(k.st.set) }

// Count is the number of consistent layouts with a ship on cell c; 0 for a
// shot cell.
func (k *Knowledge) Count(c grid.Cell) int {
	if c < 0 || int(c) >= k.s.rules.Board.Size() {
		return 0
	}
	return int(k.cnt[c])
}

// Unknown is the set of usable cells not shot yet.
func (k *Knowledge) Unknown() grid.Set {
	var u grid.Set
	for c := range k.s.rules.Board.Usable().All() {
		if k.st.shot&(1<<uint(c)) == 0 {
			u.Add(c)
		}
	}
	return u
}

// Shots is the number of shots so far.
func (k *Knowledge) Shots() int { return bits.OnesCount64(k.st.shot) }

// Damaged reports whether an unsunk hit is on the board (the target mode
// of the classic bots).
func (k *Knowledge) Damaged() bool { return k.st.hit&^k.st.sunk != 0 }

// Afloat is the number of ships not sunk yet.
func (k *Knowledge) Afloat() int {
	// every consistent layout has the sunk ships: count them in one
	i := int(k.st.set[0])
	n := 0
	for _, sh := range k.s.ships[i*k.s.nShips : (i+1)*k.s.nShips] {
		if sh&^k.st.sunk != 0 {
			n++
		}
	}
	return n
}

// Position is the knowledge as a battleship.Position (what the bots see).
func (k *Knowledge) Position() *battleship.Position {
	p := battleship.NewPosition(k.s.rules)
	for rem := k.st.shot; rem != 0; rem &= rem - 1 {
		c := bits.TrailingZeros64(rem)
		bit := uint64(1) << uint(c)
		switch {
		case k.st.sunk&bit != 0:
			p.Marks[c] = battleship.Sunk
		case k.st.hit&bit != 0:
			p.Marks[c] = battleship.Damaged
		default:
			p.Marks[c] = battleship.Water
		}
	}
	return p
}

// A Policy names the cells it would shoot from the knowledge k; it shoots
// one of them uniformly at random. It must name at least one unshot cell.
type Policy func(k *Knowledge) []grid.Cell

// Greedy is the density bot's greedy strategy: the unshot cells covered by
// the most consistent layouts.
func Greedy(k *Knowledge) []grid.Cell {
	var best []grid.Cell
	top := int32(0)
	for c := range k.Unknown().All() {
		switch v := k.cnt[c]; {
		case v > top:
			top, best = v, []grid.Cell{c}
		case v == top && top > 0:
			best = append(best, c)
		}
	}
	return best
}

// policyKey identifies a knowledge state for a policy: every shot and its
// answer (a policy may look at any of them).
type policyKey struct{ shot, hit, sunk uint64 }

// ErrPolicy wraps a policy's invalid choice (no cell, a shot cell).
var ErrPolicy = errors.New("bsoptimal: invalid policy choice")

// choose asks pol for its cells and checks them.
func (s *Solver) choose(pol Policy, k *Knowledge) ([]grid.Cell, error) {
	cells := pol(k)
	if len(cells) == 0 {
		return nil, fmt.Errorf("%w: no cell after %d shots", ErrPolicy, k.Shots())
	}
	for _, c := range cells {
		if !s.rules.Board.IsUsable(c) || k.st.shot&(1<<uint(c)) != 0 {
			return nil, fmt.Errorf("%w: %s is not an unshot cell", ErrPolicy, s.rules.CellName(c))
		}
	}
	return cells, nil
}

// Evaluate is the expected number of shots of policy pol against a
// uniformly placed fleet. Each call starts afresh (the values of another
// policy are forgotten).
func (s *Solver) Evaluate(pol Policy) (float64, error) {
	clear(s.policy)
	return s.eval(pol, s.start())
}

func (s *Solver) eval(pol Policy, st state) (float64, error) {
	if s.done(&st) {
		return 0, nil
	}
	key := policyKey{st.shot, st.hit, st.sunk}
	if v, ok := s.policy[key]; ok {
		return v, nil
	}
	cells, err := s.choose(pol, s.knowledge(st))
	if err != nil {
		return 0, err
	}
	v := 0.0
	for _, c := range cells {
		for _, x := range s.children(&st, int(c)) {
			w, err := s.eval(pol, x.st)
			if err != nil {
				return 0, err
			}
			v += x.p * w
		}
	}
	v = 1 + v/float64(len(cells))
	if err := s.remember(1); err != nil {
		return 0, err
	}
	s.policy[key] = v
	return v, nil
}

// A Visit is one knowledge state a policy reaches, with the cost of its
// move: Reach is the probability that the policy reaches it, Best the
// optimal value from it (V*), Chosen the policy's cells and Q the value of
// shooting each (then playing perfectly). The policy's excess over the
// optimum is Σ Reach × (mean Q − Best) over its visits.
type Visit struct {
	Knowledge *Knowledge
	Reach     float64
	Best      float64
	Chosen    []grid.Cell
	Q         []float64
}

// Regret is the mean Q of the chosen cells minus Best: what the move costs
// against perfect play, in expected shots, once it is reached.
func (v Visit) Regret() float64 {
	m := 0.0
	for _, q := range v.Q {
		m += q
	}
	return m/float64(len(v.Q)) - v.Best
}

// Regrets walks the states policy pol reaches, shot by shot, and calls
// visit on each with its reach probability and the optimal values of its
// move; it returns the optimal value and the policy's (the sum of the
// regrets weighted by reach is their difference).
func (s *Solver) Regrets(pol Policy, visit func(Visit)) (best, value float64, err error) {
	best, err = s.Optimal()
	if err != nil {
		return 0, 0, err
	}
	level := map[policyKey]*reached{{}: {st: s.start(), p: 1}}
	for len(level) > 0 {
		next := map[policyKey]*reached{}
		keys := slices.Collect(maps.Keys(level))
		slices.SortFunc(keys, func(a, b policyKey) int {
			return cmp.Or(cmp.Compare(a.shot, b.shot), cmp.Compare(a.hit, b.hit), cmp.Compare(a.sunk, b.sunk))
		})
		for _, key := range keys { // in order: the sums and the memo do not depend on map order
			r := level[key]
			k := s.knowledge(r.st)
			cells, err := s.choose(pol, k)
			if err != nil {
				return 0, 0, err
			}
			value += r.p // one shot from every state reached
			v := Visit{Knowledge: k, Reach: r.p, Chosen: cells}
			if v.Best, err = s.opt(&r.st); err != nil {
				return 0, 0, err
			}
			for _, c := range cells {
				q, _, err := s.q(&r.st, int(c), math.Inf(1))
				if err != nil {
					return 0, 0, err
				}
				v.Q = append(v.Q, q)
				for _, x := range s.children(&r.st, int(c)) {
					if s.done(&x.st) {
						continue
					}
					key := policyKey{x.st.shot, x.st.hit, x.st.sunk}
					if n := next[key]; n != nil {
						n.p += r.p / float64(len(cells)) * x.p
					} else {
						next[key] = &reached{st: x.st, p: r.p / float64(len(cells)) * x.p}
					}
				}
			}
			visit(v)
		}
		level = next
	}
	return best, value, nil
}

// reached is a state and the probability of reaching it.
type reached struct {
	st state
	p  float64
}
