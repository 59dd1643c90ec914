package players

import (
	"math"
	"math/rand/v2"
	"slices"
	"sync"

	"github.com/kaisen-ai/kaisen/endgame"
	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/game/submarine"
)

// admiralShared is what every Admiral of one factory shares, read-only: the
// early-attack risk of every cell of the board.
type admiralShared struct {
	riskHit  []float64       // probability that a first attack lands on the cell
	riskNear []float64       // probability that a first attack splashes the cell
	prior    *spreadPrior    // the enemy placement prior's counts
	solver   *endgame.Solver // exact play once everything is known (nil: off)

	// Every placement with its cumulative weight, when there are at most
	// placement.candidates of them (computed once, on the first Place).
	once  sync.Once
	all   [][]grid.Cell
	cumul []float64
}

// placementRiskSeed seeds the risk simulation: the risk is a property of the
// board, the same for every game.
const placementRiskSeed = 0xad31a1

// newAdmiralShared simulates cfg.Placement.Samples opponents placed
// uniformly at random, each making the first attack a splash-maximising
// player makes: the cell of its reach with the most usable cells around it
// (ties at random). The frequencies are the risk maps.
func newAdmiralShared(rules *submarine.Rules, cfg AdmiralConfig) *admiralShared {
	b := rules.Board
	size := b.Size()
	sh := &admiralShared{riskHit: make([]float64, size), riskNear: make([]float64, size),
		prior: newSpreadPrior(rules, cfg.Belief.Spread)}
	if cfg.Endgame.Solve {
		// An error means a board the solver cannot take: play on without.
		sh.solver, _ = endgame.Shared(rules, endgame.Options{Nodes: cfg.Endgame.Nodes})
	}
	rng := rand.New(rand.NewPCG(placementRiskSeed, uint64(size)))
	n := cfg.Placement.Samples
	var best []grid.Cell
	for range n {
		pl := RandomPlacement(rules, rng)
		f := submarine.NewFleet(rules, pl)
		reach := rules.Reach(&f)
		top := -1
		best = best[:0]
		for c := range reach.All() {
			k := b.Around(c).Count()
			switch {
			case k > top:
				top = k
				best = append(best[:0], c)
			case k == top:
				best = append(best, c)
			}
		}
		at := best[rng.IntN(len(best))]
		sh.riskHit[at] += 1 / float64(n)
		for c := range b.Around(at).All() {
			if c != at {
				sh.riskNear[c] += 1 / float64(n)
			}
		}
	}
	return sh
}

// placementScore is the cost of placing the fleet on cells (lower is better).
func (sh *admiralShared) placementScore(b *grid.Board, cfg *AdmiralPlacement, cells []grid.Cell) float64 {
	s := 0.0
	var reach grid.Set
	for i, c := range cells {
		s += cfg.HitRisk*sh.riskHit[c] + cfg.NearRisk*sh.riskNear[c]
		reach = reach.Union(b.Around(c))
		for _, d := range cells[:i] {
			if b.Chebyshev(c, d) <= 1 {
				s += cfg.Cluster
			}
		}
	}
	return s - cfg.Cover*float64(reach.Count())/float64(b.Usable().Count())
}

// place draws a placement with probability proportional to
// exp(-Temperature * score): over every placement when there are at most
// cfg.Candidates of them, else over cfg.Candidates uniform ones.
func (sh *admiralShared) place(rules *submarine.Rules, cfg *AdmiralPlacement, rng *rand.Rand) submarine.Placement {
	n := len(rules.Fleet)
	total := 1.0
	for i := range n {
		total *= float64(rules.Board.Usable().Count() - i)
	}
	if total <= float64(cfg.Candidates) {
		sh.once.Do(func() {
			sh.all = allPlacements(rules)
			sh.cumul = sh.weigh(rules.Board, cfg, sh.all)
		})
		return sh.draw(sh.all, sh.cumul, rng)
	}
	cands := make([][]grid.Cell, cfg.Candidates)
	for k := range cands {
		cands[k] = RandomPlacement(rules, rng)
	}
	return sh.draw(cands, sh.weigh(rules.Board, cfg, cands), rng)
}

// allPlacements lists every placement of the fleet of rules.
func allPlacements(rules *submarine.Rules) [][]grid.Cell {
	n := len(rules.Fleet)
	usable := rules.Board.Usable().Cells()
	var out [][]grid.Cell
	cur := make([]grid.Cell, 0, n)
	var used grid.Set
	var rec func()
	rec = func() {
		if len(cur) == n {
			out = append(out, slices.Clone(cur))
			return
		}
		for _, c := range usable {
			if !used.Has(c) {
				used.Add(c)
				cur = append(cur, c)
				rec()
				cur = cur[:len(cur)-1]
				used.Remove(c)
			}
		}
	}
	rec()
	return out
}

// weigh returns the cumulative weights exp(-Temperature * (score - best)).
func (sh *admiralShared) weigh(b *grid.Board, cfg *AdmiralPlacement, cands [][]grid.Cell) []float64 {
	scores := make([]float64, len(cands))
	lo := math.Inf(1)
	for k, c := range cands {
		scores[k] = sh.placementScore(b, cfg, c)
		lo = math.Min(lo, scores[k])
	}
	sum := 0.0
	for k := range scores {
		sum += math.Exp(-cfg.Temperature * (scores[k] - lo))
		scores[k] = sum
	}
	return scores
}

// draw picks a candidate with probability proportional to its weight.
func (sh *admiralShared) draw(cands [][]grid.Cell, cumul []float64, rng *rand.Rand) submarine.Placement {
	u := rng.Float64() * cumul[len(cumul)-1]
	k, _ := slices.BinarySearch(cumul, u)
	k = min(k, len(cands)-1)
	return slices.Clone(submarine.Placement(cands[k]))
}
