package admiral

import (
	"math"

	"github.com/kaisen-ai/kaisen/endgame"
	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/game/submarine"
)

// Gambles against the opponent model (docs/admiral.md, "Gambles that cost
// nothing"): when the enemy fleet is known and the solver calls the
// position drawn, but no win is forced against the model (model_search.go),
// admiral looks for the action with the best chance of a win against it.
// An expectimax search: our side chooses, the model's replies are weighed
// by their posterior probability, a win at our k-th move counts
// gamble_discount^(k-1), everything else 0. The root's actions are the ones
// that keep the solver's value, which assumes an enemy that knows our fleet:
// whatever the enemy really does, the gamble keeps the draw.
//
// This is what the AND-OR search cannot see: a camper does not know where
// our hidden ship went, and its attack at the likeliest cell in its reach
// is a coin flip between two cells. A ship that steps next to it wins the
// exchange half of the time, and the other half the position stays drawn.
//
// Our nodes' values go to a transposition table (ctt, kept while the
// model's tables are, like tt), keyed by the position and the depth it was
// searched to, so a value is exactly the depth-limited
// expectimax's (TestGambleMatchesBruteForce); the searches of a stalled
// game, which ask the same positions again, build on each other. A search
// out of budget returns the best root action of the last depth it
// finished, and stores nothing unfinished. Only the actions that can
// matter within a few moves are searched (chanceActions).

// chanceValue is the value of st (us to move) within depth of our moves:
// the best of our actions' values, 1 if the solver already calls the
// position won.
func (s *modelSearch) chanceValue(st *msState, depth int) float64 {
	us, them := &st.us, &st.them
	k := s.key(st)
	k[4] ^= uint64(depth) * 0x9e3779b97f4a7c15 // a position's value at each depth
	if hi, lo, ok := s.ctt.get(&k); ok {
		return math.Float64frombits(uint64(uint32(hi))<<32 | uint64(uint32(lo)))
	}
	s.nodes++
	if s.aborted() {
		return 0
	}
	switch s.solverSays(us, them) {
	case endgame.Win:
		return 1
	case endgame.Loss:
		return 0
	}
	mark := len(s.ours)
	s.ours = s.chanceActions(st, s.ours)
	best := 0.0
	for i := mark; i < len(s.ours) && best < 1; i++ {
		if q := s.chanceQ(*st, s.ours[i], depth, best); q > best {
			best = q
		}
		if s.aborted() {
			s.ours = s.ours[:mark]
			return best // unfinished: a floor, not stored
		}
	}
	s.ours = s.ours[:mark]
	return s.storeChance(&k, best)
}

// storeChance keeps v as the value of key k: its bits in the entry's two
// numbers.
func (s *modelSearch) storeChance(k *msKey, v float64) float64 {
	s.gen++
	s.cgen++
	b := math.Float64bits(v)
	s.ctt.put(k, int32(b>>32), int32(uint32(b)))
	return v
}

// chanceQ is the value of our action a in st within depth of our moves (a
// included): 1 for a win, the discounted expectation over the model's
// replies otherwise. alpha is the best value of a sibling: once the
// replies left cannot lift the value above it, chanceQ returns a value of
// at most alpha without searching them.
func (s *modelSearch) chanceQ(st msState, a submarine.Action, depth int, alpha float64) float64 {
	mark := len(s.charts)
	v := s.chanceIn(st, a, depth, alpha)
	s.charts = s.charts[:mark] // the charts of this node and below
	return v
}

// chanceIn is chanceQ without the charts' cleanup.
func (s *modelSearch) chanceIn(st msState, a submarine.Action, depth int, alpha float64) float64 {
	st2, won := s.after(st, a)
	s.nodes++
	if won {
		return 1
	}
	switch s.solverSays(&st2.them, &st2.us) {
	case endgame.Win:
		return 0 // a step into a loss under perfect play: never
	case endgame.Loss:
		return 1 // won whatever the enemy does
	}
	if depth <= 1 {
		return 0
	}
	k := s.key(&st2)
	off, nb, known := s.replyTT.get(&k)
	var replies []msAction
	if known {
		// A node counted as replies counts one: a gamble's nodes do not
		// depend on which replies another search left in the table.
		s.nodes++
		n := nb & msReplyMask
		replies = s.acts[off : off+n : off+n]
	} else {
		replies, off = s.replies(&st2, &k)
	}
	probs := s.probs[off : int(off)+len(replies)]
	left := 0.0 // the probability of the replies not yet searched
	for _, p := range probs {
		left += float64(p)
	}
	disc := s.discount
	sum := 0.0
	for j, b := range replies {
		p := float64(probs[j])
		left -= p
		st3, lost := s.reply(st2, b.action())
		if !lost {
			sum += p * s.chanceValue(&st3, depth-1)
		}
		if s.aborted() || disc*(sum+left) <= alpha {
			break
		}
	}
	return disc * sum
}

// chanceActions appends our actions that can matter within a gamble's
// few moves to out: ourActions (attacks on enemy ships, the pass), with
// only the moves that end or start within chanceReach of an enemy ship.
func (s *modelSearch) chanceActions(st *msState, out []submarine.Action) []submarine.Action {
	mark := len(out)
	out = s.ourActions(st, nil, out)
	kept := out[:mark]
	for _, a := range out[mark:] {
		if a.Kind == submarine.Attack || s.near(st, a.To) || s.near(st, st.us.Pos[a.Ship]) {
			kept = append(kept, a)
		}
	}
	return kept
}

// near reports whether c is within chanceReach of an enemy ship.
func (s *modelSearch) near(st *msState, c grid.Cell) bool {
	b := s.r.Board
	for i := range len(s.r.Fleet) {
		if st.them.Alive.Has(i) && b.Chebyshev(c, st.them.Pos[i]) <= chanceReach {
			return true
		}
	}
	return false
}

// chanceReach is how far (Chebyshev) from an enemy ship a move of the
// gamble search may end or start: a step into contact, or one move from it.
const chanceReach = 2

// gamble looks for the allowed root action of the best chance of a win
// against the model within maxDepth of our moves, by iterative deepening
// within the node budget. It returns the action, its value and the depth
// of the last search that valued every root action.
//
// A gamble reads its root, ctt and the replies' lists, which never change
// once in the table, and counts its nodes the same whether a list was
// there or not: a search that left ctt as it was is a function of its
// root, ctt and the budget, so while ctt stands still (cgen) the same root
// gets the remembered answer (groots), as the AND-OR search's roots do.
func (s *modelSearch) gamble(root0 msState, allowed func(submarine.Action) bool, maxDepth int) (submarine.Action, float64, int) {
	root := s.ourActions(&root0, allowed, nil)
	key := s.groots.key(&root0, root, maxDepth, s.budget)
	if r, ok := s.groots.get(s.cgen, &key); ok {
		s.nodes = r.nodes
		return r.act, r.val, r.depth
	}
	cgen := s.cgen
	act, val, depth := s.chanceDeepen(root0, root, maxDepth)
	if s.cgen == cgen {
		s.groots.put(cgen, &key, rootResult{act: act, depth: depth, nodes: s.nodes, val: val})
	}
	return act, val, depth
}

// chanceDeepen is gamble's search of the root actions, by iterative
// deepening.
func (s *modelSearch) chanceDeepen(root0 msState, root []submarine.Action, maxDepth int) (submarine.Action, float64, int) {
	var act submarine.Action
	val, depth := 0.0, 0
	for d := 1; d <= maxDepth; d++ {
		best, bestV := submarine.Action{}, 0.0
		for _, a := range root {
			if q := s.chanceQ(root0, a, d, bestV); q > bestV {
				best, bestV = a, q
			}
			if s.aborted() {
				return act, val, depth
			}
		}
		act, val, depth = best, bestV, d
		if val >= 1 {
			break
		}
	}
	return act, val, depth
}

// gamble plays the best chance of a win against the opponent model, in a
// position the solver calls drawn with the enemy fleet known, when it is at
// least opponent.gamble_min (model_chance.go).
func (p *planner) gamble(s *solved) (submarine.Action, float64, bool) {
	a := p.a
	o := &a.cfg.Opponent
	if o.GambleDepth == 0 || !(s.on || s.partial) || s.value.Outcome != endgame.Draw || !p.exploitable() {
		return submarine.Action{}, 0, false
	}
	ms := &p.ms
	ms.discount = o.GambleDiscount
	ms.reset(o.GambleNodes)
	root := msState{us: s.pos.Mover, them: s.pos.Other, chart: append([]uint64(nil), a.pub.Placements()...)}
	act, v, depth := ms.gamble(root, s.keeps, o.GambleDepth)
	if depth == 0 || v <= 0 || v < o.GambleMin {
		return submarine.Action{}, v, false
	}
	a.gambles++
	return act, v, true
}

// Gambles is the number of decisions in which admiral played a gamble
// against the opponent model.
func (a *Admiral) Gambles() int { return a.gambles }
