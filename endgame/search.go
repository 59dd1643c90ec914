package endgame

import (
	"sync"

	"github.com/kaisen-ai/kaisen/game/grid"
)

// Search scores are from the side to move at the node, counted from the
// root: mate-p is a win whose last hit lands p plies after the root,
// -(mate-p) a loss, 0 a position not proved either way within the horizon
// (or a tablebase draw). Scores beyond ±mateBound are proofs.
const (
	mate      = 1 << 24
	mateBound = mate - 1<<16
	infinity  = mate + 1
	maxDepth  = 1000
)

// Transposition-table bounds.
const (
	exact uint8 = iota
	lower
	upper
)

type ttEntry struct {
	score int32 // node-relative for proofs (see toTT)
	depth int16
	flag  uint8
	move  uint16 // index of the best child + 1; 0 = none
}

// searcher is one search: a depth-first alpha-beta over successors with
// iterative deepening, a transposition table keyed by the canonical state
// and the tablebase at every node whose material it covers.
type searcher struct {
	b       *grid.Board
	tb      *Tablebase
	tt      map[state]ttEntry
	kids    [][]state // children buffer per ply
	nodes   int
	budget  int
	aborted bool
	err     error
}

var searchers = sync.Pool{New: func() any { return &searcher{tt: map[state]ttEntry{}} }}

func (s *Solver) searcher(budget int) *searcher {
	sr := searchers.Get().(*searcher)
	clear(sr.tt)
	sr.b, sr.tb = s.board, s.tb
	sr.nodes, sr.budget, sr.aborted, sr.err = 0, budget, false, nil
	return sr
}

func (sr *searcher) release() { searchers.Put(sr) }

// value returns the value of st (see values).
func (sr *searcher) value(st *state) (Value, error) {
	v, err := sr.values([]state{*st})
	if err != nil {
		return Value{}, err
	}
	return v[0], nil
}

// values returns the value of each state: from the tablebase when it covers
// the state's material, else from a search deepened one ply at a time for
// all the states not yet proved, until each is proved or the budget ends
// (so the budget goes to the states that need it, at an even depth).
func (sr *searcher) values(sts []state) ([]Value, error) {
	vals := make([]Value, len(sts))
	var open []int
	for k := range sts {
		st := &sts[k]
		switch {
		case st.s[0].n == 0:
			vals[k] = Value{Outcome: Loss, Exact: true}
		case sr.tb.Covers(st.s[0].n, st.s[1].n):
			d, err := sr.tb.probe(st)
			if err != nil {
				return nil, err
			}
			vals[k] = fromDist(d)
		default:
			open = append(open, k)
		}
	}
	for depth := 1; depth <= maxDepth && len(open) > 0 && !sr.aborted; depth++ {
		next := open[:0]
		for _, k := range open {
			if sr.aborted {
				next = append(next, k)
				continue
			}
			v := sr.negamax(&sts[k], depth, 0, -infinity, infinity)
			switch {
			case sr.err != nil:
				return nil, sr.err
			case sr.aborted:
				next = append(next, k)
			case v >= mateBound:
				vals[k] = Value{Outcome: Win, Plies: mate - v}
			case v <= -mateBound:
				vals[k] = Value{Outcome: Loss, Plies: mate + v}
			default:
				next = append(next, k)
			}
		}
		open = next
	}
	return vals, nil
}

func scoreOf(d uint8, ply int) int {
	switch {
	case d == 0:
		return 0
	case d%2 == 1:
		return mate - (ply + int(d))
	default:
		return -(mate - (ply + int(d)))
	}
}

// toTT makes a proof's score relative to the node, fromTT back to the root.
func toTT(s, ply int) int32 {
	switch {
	case s >= mateBound:
		return int32(s + ply)
	case s <= -mateBound:
		return int32(s - ply)
	}
	return int32(s)
}

func fromTT(s int32, ply int) int {
	v := int(s)
	switch {
	case v >= mateBound:
		return v - ply
	case v <= -mateBound:
		return v + ply
	}
	return v
}

func (sr *searcher) negamax(st *state, depth, ply, alpha, beta int) int {
	if sr.tb.Covers(st.s[0].n, st.s[1].n) {
		d, err := sr.tb.probe(st)
		if err != nil {
			sr.err, sr.aborted = err, true
			return 0
		}
		return scoreOf(d, ply)
	}
	if depth == 0 {
		return 0
	}
	sr.nodes++
	if sr.nodes > sr.budget {
		sr.aborted = true
		return 0
	}
	// No result can beat a win on the next ply.
	if best := mate - (ply + 1); best <= alpha {
		return best
	}
	alpha0 := alpha
	first := -1
	if e, ok := sr.tt[*st]; ok {
		first = int(e.move) - 1
		if int(e.depth) >= depth {
			s := fromTT(e.score, ply)
			switch e.flag {
			case exact:
				return s
			case lower:
				alpha = max(alpha, s)
			case upper:
				beta = min(beta, s)
			}
			if alpha >= beta {
				return s
			}
		}
	}
	for len(sr.kids) <= ply {
		sr.kids = append(sr.kids, nil)
	}
	kids := appendSuccessors(sr.b, st, sr.kids[ply][:0])
	sr.kids[ply] = kids
	best, bestI := -infinity, -1
	try := func(i int) bool {
		ch := &sr.kids[ply][i]
		var s int
		if ch.s[0].n == 0 {
			s = mate - (ply + 1)
		} else {
			s = -sr.negamax(ch, depth-1, ply+1, -beta, -alpha)
		}
		if sr.aborted {
			return false
		}
		if s > best {
			best, bestI = s, i
		}
		alpha = max(alpha, s)
		return alpha < beta
	}
	if first >= 0 && first < len(kids) && !try(first) {
		return sr.store(st, depth, ply, alpha0, beta, best, bestI)
	}
	for i := range len(kids) {
		if i != first && !try(i) {
			break
		}
	}
	return sr.store(st, depth, ply, alpha0, beta, best, bestI)
}

func (sr *searcher) store(st *state, depth, ply, alpha0, beta, best, bestI int) int {
	if sr.aborted {
		return 0
	}
	flag := exact
	switch {
	case best <= alpha0:
		flag = upper
	case best >= beta:
		flag = lower
	}
	sr.tt[*st] = ttEntry{score: toTT(best, ply), depth: int16(depth), flag: flag, move: uint16(bestI + 1)}
	return best
}
