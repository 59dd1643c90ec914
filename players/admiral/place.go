package admiral

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sync"

	"github.com/kaisen-ai/kaisen/endgame"
	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/game/submarine"
	"github.com/kaisen-ai/kaisen/players"
	"github.com/kaisen-ai/kaisen/players/chart"
)

// admiralShared is what every Admiral of one factory shares, read-only: the
// early-attack risk of every cell of the board.
type admiralShared struct {
	riskHit  []float64       // probability that a first attack lands on the cell
	riskNear []float64       // probability that a first attack splashes the cell
	prior    *spreadPrior    // the enemy placement prior's counts
	solver   *endgame.Solver // exact play once everything is known (nil: off)
	corpus   *learntPrior    // the enemy placement prior of belief.enemy_prior (nil: none)
	opening  *opening        // the opening book, when it was built for these rules and weights (nil: none)

	// Every placement with its cumulative weight, when there are at most
	// placement.candidates of them (computed once, on the first Place).
	once  sync.Once
	all   [][]grid.Cell
	cumul []float64

	// Every placement of the fleet, packed (chart.Enumerate), for the
	// enemy's chart of us that the opponent model reads: enumerated once,
	// on the first game, and copied by every game (read it only).
	chartOnce sync.Once
	chartAll  []uint64
	chartErr  error
}

// chartPlacements is chart.Enumerate(rules, chart.MaxPlacements), computed
// once for every game that shares sh.
func (sh *admiralShared) chartPlacements(rules *submarine.Rules) ([]uint64, error) {
	sh.chartOnce.Do(func() { sh.chartAll, sh.chartErr = chart.Enumerate(rules, chart.MaxPlacements) })
	return sh.chartAll, sh.chartErr
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
		prior: newSpreadPrior(rules, cfg.Belief.Spread), opening: openingFor(rules, cfg)}
	if cfg.Endgame.Solve {
		// An error means a board the solver cannot take: play on without.
		sh.solver, _ = endgame.Shared(rules, endgame.Options{Nodes: cfg.Endgame.Nodes})
	}
	rng := rand.New(rand.NewPCG(placementRiskSeed, uint64(size)))
	n := cfg.Placement.Samples
	var best []grid.Cell
	for range n {
		pl := players.RandomPlacement(rules, rng)
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
	if placementsOf(rules) <= float64(cfg.Candidates) {
		sh.once.Do(func() { sh.all, sh.cumul = sh.distribution(rules, cfg) })
		return sh.draw(sh.all, sh.cumul, rng)
	}
	cands := make([][]grid.Cell, cfg.Candidates)
	for k := range cands {
		cands[k] = players.RandomPlacement(rules, rng)
	}
	return sh.draw(cands, sh.weigh(rules.Board, cfg, cands), rng)
}

// placementCache holds the exact placement distribution of the
// (rules, placement weights) seen in the process: with placement.aware it
// costs fictitious play over every placement, which every factory of the
// same weights would otherwise repeat. The placements themselves are kept
// once per board and fleet; the distributions of at most
// admiralPlacementCache weight sets (a tuning run tries many).
var placementCache struct {
	sync.Mutex
	lists map[string]*placementList
	dists map[string]*placementDist
}

// admiralPlacementCache bounds the distributions kept.
const admiralPlacementCache = 16

type placementList struct {
	once sync.Once
	all  [][]grid.Cell
}

type placementDist struct {
	once  sync.Once
	cumul []float64
}

// distribution is every placement with its cumulative weight.
func (sh *admiralShared) distribution(rules *submarine.Rules, cfg *AdmiralPlacement) ([][]grid.Cell, []float64) {
	board := fmt.Sprintf("%v|%v", rules.Board.Shape(), rules.Fleet)
	key := fmt.Sprintf("%s|%+v", board, *cfg)
	c := &placementCache
	c.Lock()
	if c.lists == nil || len(c.dists) >= admiralPlacementCache {
		if c.lists == nil {
			c.lists = map[string]*placementList{}
		}
		c.dists = map[string]*placementDist{}
	}
	l := c.lists[board]
	if l == nil {
		l = &placementList{}
		c.lists[board] = l
	}
	d := c.dists[key]
	if d == nil {
		d = &placementDist{}
		c.dists[key] = d
	}
	c.Unlock()
	l.once.Do(func() { l.all = allPlacements(rules) })
	d.once.Do(func() { d.cumul = sh.aware(rules.Board, cfg, l.all).weigh(rules.Board, cfg, l.all) })
	return l.all, d.cumul
}

// admiralOpeningRounds is the number of fictitious-play rounds of the
// opening game (aware).
const admiralOpeningRounds = 300

// aware returns risk maps (in an admiralShared that holds only them) that
// mix into ours, with weight cfg.Aware, the opening attack
// of an opponent that knows our placement distribution: the equilibrium of
// the opening game in which we draw a placement from exp(-Temperature *
// cost) under the risk maps and the attacker picks the cell of the largest
// expected cost to us (hit_risk x P(a ship on it) + near_risk x the ships
// expected within 1). Fictitious play: each round the attacker best
// responds to our current distribution, and the risk maps follow the
// average of its responses. The attacker is assumed able to reach any cell
// (it chooses its own placement), so this is the cautious side.
func (sh *admiralShared) aware(b *grid.Board, cfg *AdmiralPlacement, all [][]grid.Cell) *admiralShared {
	if cfg.Aware <= 0 || len(all) == 0 {
		return sh
	}
	size := b.Size()
	splashHit, splashNear := sh.riskHit, sh.riskNear
	out := &admiralShared{riskHit: slices.Clone(splashHit), riskNear: slices.Clone(splashNear)}
	// The cost of a placement is static (cluster, cover) plus the sum of
	// a per-cell cost under the risk maps: only the latter changes.
	static := make([]float64, len(all))
	zero := &admiralShared{riskHit: make([]float64, size), riskNear: make([]float64, size)}
	for k, pl := range all {
		static[k] = zero.placementScore(b, cfg, pl)
	}
	cell := make([]float64, size)
	score := make([]float64, len(all))
	mix := make([]float64, size) // the attacker's average response
	occ := make([]float64, size)
	for round := range admiralOpeningRounds {
		for c := range size {
			cell[c] = cfg.HitRisk*out.riskHit[c] + cfg.NearRisk*out.riskNear[c]
		}
		lo := math.Inf(1)
		for k, pl := range all {
			v := static[k]
			for _, c := range pl {
				v += cell[c]
			}
			score[k] = v
			lo = math.Min(lo, v)
		}
		clear(occ)
		total := 0.0
		for k, pl := range all {
			q := math.Exp(-cfg.Temperature * (score[k] - lo))
			total += q
			for _, c := range pl {
				occ[c] += q
			}
		}
		best, bc := -1.0, grid.None
		for c := range b.Usable().All() {
			near := 0.0
			for d := range b.Around(c).All() {
				if d != c {
					near += occ[d]
				}
			}
			if v := (cfg.HitRisk*occ[c] + cfg.NearRisk*near) / total; v > best {
				best, bc = v, c
			}
		}
		for c := range mix {
			mix[c] *= float64(round) / float64(round+1)
		}
		mix[bc] += 1 / float64(round+1)
		for c := range size {
			out.riskHit[c] = (1-cfg.Aware)*splashHit[c] + cfg.Aware*mix[c]
			out.riskNear[c] = (1 - cfg.Aware) * splashNear[c]
			for a := range b.Around(grid.Cell(c)).All() {
				if a != grid.Cell(c) {
					out.riskNear[c] += cfg.Aware * mix[a]
				}
			}
		}
	}
	return out
}

// placementsOf is the number of placements of the fleet of rules.
func placementsOf(rules *submarine.Rules) float64 {
	total := 1.0
	for i := range len(rules.Fleet) {
		total *= float64(rules.Board.Usable().Count() - i)
	}
	return total
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

// placementLeak describes how much an opponent that knows the placement
// distribution (a prior-aware player, an exploiter tuned against us) gains
// from it, over every placement of the board (nil when there are more than
// placement.candidates).
type placementLeak struct {
	Entropy float64 // bits of the distribution (uniform: log2 of the placements)
	Bits    float64 // its head start: log2(placements) - Entropy
	// BestHit is the chance that the best opening attack of such an
	// opponent lands on a ship (the cell most likely occupied); Uniform is
	// the same against a uniform placement.
	BestHit, Uniform float64
	// BestSplash is the chance that its best opening attack hits or reports
	// a ship near (some ship within 1 of the cell).
	BestSplash float64
	Corners    float64 // share of ships on corner cells
}

// leak computes placementLeak for the exact distribution of cfg.
func (sh *admiralShared) leak(rules *submarine.Rules, cfg *AdmiralPlacement) *placementLeak {
	b := rules.Board
	if placementsOf(rules) > float64(cfg.Candidates) {
		return nil
	}
	all, cumul := sh.distribution(rules, cfg)
	total := cumul[len(cumul)-1]
	occ := make([]float64, b.Size())
	splash := make([]float64, b.Size())
	out := &placementLeak{}
	prev := 0.0
	for k, pl := range all {
		q := (cumul[k] - prev) / total
		prev = cumul[k]
		if q > 0 {
			out.Entropy -= q * math.Log2(q)
		}
		var near grid.Set
		for _, c := range pl {
			occ[c] += q
			near = near.Union(b.Around(c))
			x, y := b.XY(c)
			if (x == 0 || x == b.Width()-1) && (y == 0 || y == b.Height()-1) {
				out.Corners += q / float64(len(pl))
			}
		}
		for c := range near.All() {
			splash[c] += q
		}
	}
	out.Bits = math.Log2(float64(len(all))) - out.Entropy
	out.BestHit, out.BestSplash = slices.Max(occ), slices.Max(splash)
	out.Uniform = float64(len(rules.Fleet)) / float64(b.Usable().Count())
	return out
}
