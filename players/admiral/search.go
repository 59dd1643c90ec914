package admiral

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/kaisen-ai/kaisen/endgame"
	"github.com/kaisen-ai/kaisen/explain"
	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/game/submarine"
)

// planner chooses Admiral's actions. Its buffers are reused between turns.
type planner struct {
	a    *Admiral
	size int
	nf   int // fleet size

	pe, po  pool
	pall    pool      // the whole enemy belief, when the placement prior weighs it
	weights []float64 // its prior weights
	oe, oo  order
	// the pools in their visiting orders (order.visit)
	peSeq, poSeq []uint64

	// scratch
	slots  []slot
	none   slot // the slot of every move this decision (partitionNone)
	noneOK bool // none is this decision's
	// worldsCap: the worlds a slot keeps while the pool is partitioned.
	worldsCap int
	keySlot   []int16
	occBuf    []uint32
	exp       exposure
	expCount  []uint32
	reachCnt  []uint32
	buf       submarine.Placement
	packed    []uint64 // a whole joint belief, packed (fromJoint)
	cands     []scored
	reachE    []float64 // P(the enemy can attack c)
	guard     []int8    // per cell: hp of the strongest enemy ship that guards it (guards)
	guardOcc  []int     // guards' scratch: per cell, the pool's placements with the ship there
	margin    int8      // hp over a located enemy ship that the stall rule needs to approach it
	kind      opponentKind
	seen      float64 // P(our ship on its cell), in the enemy's eyes, from which it is seen
	leakW     float64 // the leak weight against this opponent
	// survivors: our placements still consistent after the candidate
	// action (filled by expose in the one-ply pass, without the reach).
	survivors []uint64
	// attackCells: the enemy's modelled next attack in each sampled world.
	attackCells []grid.Cell
	detectReach [admiralDetectWorlds]grid.Set // the enemy's reach in those worlds (enemyReach)
	// detectMatch: per ship and cell, the attack cells of detectBits at
	// which that ship there answers as ours does (rows of living ships,
	// cells of the board).
	detectMatch [submarine.MaxShips][256]admiralDetectMask
	ro          rollState
	ms          modelSearch        // the search against the opponent model (model_search.go)
	lean        patience           // its node budget in stalled games (exploit_lean.go)
	memo        actionsMemo        // the solver's answers to this player's positions
	allowed     []submarine.Action // solve's buffer of the actions that keep the value
	rc          recall             // the decisions of this stall (recall.go)
	note        searchNote         // the last searched decision, for its explanation
}

func (p *planner) init(a *Admiral) {
	p.a = a
	p.size = a.rules.Board.Size()
	p.nf = len(a.rules.Fleet)
	p.keySlot = make([]int16, (p.nf+1)<<p.nf)
	p.exp.occ = make([]float64, p.size)
	p.exp.ship = make([]float64, p.nf*p.size)
	p.exp.reachP = make([]float64, p.size)
	p.expCount = make([]uint32, p.nf*p.size)
	p.reachCnt = make([]uint32, p.size)
	p.ro.eship = make([]float64, p.nf*p.size)
	p.reachE = make([]float64, p.size)
	p.guard = make([]int8, p.size)
	p.guardOcc = make([]int, p.size)
}

// decide chooses the action of this turn.
func (p *planner) decide() (submarine.Action, explain.Decision) {
	a := p.a
	start := time.Now()
	reach := a.rules.Reach(&a.me)
	fallback := submarine.AttackAt(reach.First())
	p.snapshot()
	if len(p.pe.tup) == 0 {
		return fallback, explain.Decision{State: "lost", Reason: "no enemy placement is consistent; attacking the first reachable cell"}
	}
	bold := p.boldness()
	p.kind = a.opp.kind(&a.cfg.Opponent)
	p.margin, p.leakW = 1, a.cfg.Value.Leak
	p.seen = a.cfg.Opponent.Seen
	switch p.kind {
	case kindMover:
		p.margin = int8(a.cfg.Opponent.MoverMargin)
	case kindEvader:
		p.leakW *= a.cfg.Opponent.EvaderLeak
	}
	limit := time.Duration(a.cfg.Search.MaxMillis) * time.Millisecond
	capped := false
	p.generate(&reach)
	sol, err := p.solve()
	if err != nil {
		a.beliefEr++ // a belief the solver refuses is inconsistent
	}
	if (sol.on && (sol.value.Outcome == endgame.Win || sol.value.Outcome == endgame.Loss)) ||
		(sol.partial && sol.value.Outcome == endgame.Win) {
		// A forced result: the fastest win, or the slowest loss.
		dec := explain.Decision{State: "solved", Reason: "perfect information: " + sol.value.String() + " (exact solver)"}
		dec.Candidates = []explain.Candidate{{Action: a.actionName(sol.best), Score: 0}}
		return sol.best, dec
	}
	p.keepAllowed(&sol)
	if act, dec, ok := p.exploit(&sol); ok {
		return act, dec
	}
	if act, v, ok := p.gamble(&sol); ok {
		top, w := a.model.top()
		return act, explain.Decision{State: "gamble", Reason: fmt.Sprintf(
			"enemy fleet known (%s against an enemy that knew ours); a win against the model (%s %.2f) with discounted chance %.2f, every action keeping the solver's value",
			sol.value, top, w, v)}
	}
	if act, note, ok := p.look(); ok {
		p.note = note
		p.note.bold, p.note.opp, p.note.recalled = bold, a.opp, true
		return act, explain.Decision{}
	}
	p.enemyReach()
	p.guards()
	for k := range p.cands {
		p.evaluate(&p.cands[k], bold, false)
	}
	byKey := func(key func(*scored) float64) func(x, y scored) int {
		return func(x, y scored) int {
			switch kx, ky := key(&x), key(&y); {
			case kx > ky:
				return -1
			case kx < ky:
				return 1
			}
			return 0
		}
	}
	oneply := func(s *scored) float64 { return s.oneply }
	key := oneply
	slices.SortStableFunc(p.cands, byKey(oneply))
	if a.cfg.Search.Worlds > 0 {
		// The best candidates by the one-ply value are played out.
		k := min(len(p.cands), p.playouts(&sol, bold))
		k = p.keepRetreat(k)
		evaluated := 0
		for i := range k {
			if limit > 0 && i > 0 && time.Since(start) > limit {
				capped = true
				break
			}
			p.evaluate(&p.cands[i], bold, true)
			evaluated++
		}
		p.cands = p.cands[:evaluated]
		key = func(s *scored) float64 { return s.deep }
		slices.SortStableFunc(p.cands, byKey(key))
	}
	best := p.cands[0]
	// The explanation is written only if asked for (Explain): the note
	// keeps what it reads, as it was at this decision.
	n := &p.note
	*n = searchNote{state: p.phase(), best: best, bold: bold, capped: capped,
		enemyFull: p.pe.full, ownFull: p.po.full, kind: p.kind, opp: a.opp, solved: sol.on, value: sol.value}
	for _, c := range p.cands[:min(len(n.top), len(p.cands))] {
		n.top[n.n] = noted{act: c.act, score: math.Round(key(&c)*1000) / 1000}
		n.n++
	}
	p.remember(best.act)
	return best.act, explain.Decision{}
}

// searchNote is what the explanation of a searched decision reads.
type searchNote struct {
	state              string
	best               scored
	bold               float64
	capped             bool
	enemyFull, ownFull int
	kind               opponentKind
	opp                opponentStats
	solved             bool
	value              endgame.Value
	top                [6]noted // the best candidates, best first
	n                  int
	recalled           bool // made before in this stall (recall.go)
}

type noted struct {
	act   submarine.Action
	score float64
}

// explain writes the decision the note describes.
func (n *searchNote) explain(a *Admiral) explain.Decision {
	dec := explain.Decision{State: n.state, Reason: n.reason()}
	if n.solved {
		dec.Reason += "; perfect information: " + n.value.String() + ", kept by every candidate"
	}
	for _, c := range n.top[:n.n] {
		dec.Candidates = append(dec.Candidates, explain.Candidate{Action: a.actionName(c.act), Score: c.score})
	}
	return dec
}

func (p *planner) phase() string {
	for _, i := range p.pe.ships {
		if p.pinnedEnemy(i) != grid.None {
			return "strike"
		}
	}
	return "hunt"
}

// pinnedEnemy reports the cell of enemy ship i when every placement agrees.
func (p *planner) pinnedEnemy(i int) grid.Cell {
	t0 := p.pe.tup[0]
	c := cellOf(t0, i)
	for _, t := range p.pe.tup {
		if cellOf(t, i) != c {
			return grid.None
		}
	}
	return c
}

func (n *searchNote) reason() string {
	s := &n.best
	var b strings.Builder
	switch s.act.Kind {
	case submarine.Attack:
		fmt.Fprintf(&b, "hit %.0f%%, gain %.2f bits, leak %.2f bits", 100*s.pHit, s.ig, s.leak)
	default:
		fmt.Fprintf(&b, "reposition, leak %.2f bits", s.leak)
	}
	fmt.Fprintf(&b, "; one-ply %.3f, search %.3f; enemy belief %d placements, ours %d", s.oneply, s.deep, n.enemyFull, n.ownFull)
	if n.bold < 1 {
		fmt.Fprintf(&b, "; stalling: caution x%.2f", n.bold)
	}
	fmt.Fprintf(&b, "; opponent %s (%s)", n.kind, &n.opp)
	if n.capped {
		b.WriteString("; time cap reached")
	}
	if n.recalled {
		b.WriteString("; recalled: the decision made in this position earlier in the stall")
	}
	return b.String()
}
