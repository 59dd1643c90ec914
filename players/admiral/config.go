package admiral

import (
	"errors"
	"fmt"
	"math/rand/v2"

	"github.com/kaisen-ai/kaisen/game/submarine"
	"github.com/kaisen-ai/kaisen/internal/roster"
	"github.com/kaisen-ai/kaisen/players"
)

// AdmiralConfig holds every weight and budget of the Admiral player (YAML:
// configs/admiral.yaml, whose values equal DefaultAdmiralConfig; the file
// explains each key). Float weights carry `tune:"min,max"` tags: the ranges
// `kaisen tune` searches. The default weights were tuned by `kaisen tune`
// from the hand-set values of testdata/admiral-handset.yaml
// (docs/admiral.md gives the runs and the measured gain).
type AdmiralConfig struct {
	Search    AdmiralSearch    `mapstructure:"search"`
	Value     AdmiralValue     `mapstructure:"value"`
	Model     AdmiralModel     `mapstructure:"model"`
	Endgame   AdmiralEndgame   `mapstructure:"endgame"`
	Placement AdmiralPlacement `mapstructure:"placement"`
	Belief    AdmiralBelief    `mapstructure:"belief"`
	Opponent  AdmiralOpponent  `mapstructure:"opponent"`
}

// AdmiralSearch is the per-move budget of the search.
type AdmiralSearch struct {
	// Worlds is the number of enemy placements sampled from the joint belief
	// (determinizations) on which every candidate action is played out; the
	// same worlds serve every candidate (common random numbers). 0 turns the
	// deep search off (one-ply expectimax only). Default 48.
	Worlds int `mapstructure:"worlds"`
	// Candidates is how many actions, best first by the one-ply value, are
	// played out in the worlds (the others keep their one-ply rank below
	// them). 1 to 1024. Default 5: the play-outs refine the one-ply ranking
	// but are a model, and the wider the field they choose from, the more
	// often a candidate wins on the model's errors (measured in
	// docs/admiral.md: 3 to 7 beat 10, 20 loses ground).
	Candidates int `mapstructure:"candidates"`
	// Depth is the number of enemy replies each play-out simulates (with our
	// simple turns in between): 1 values the position right after the
	// enemy's reply. 1 to 16. Default 3.
	Depth int `mapstructure:"depth"`
	// Discount multiplies the value of every further turn of a play-out
	// (sooner is better). Default 0.924.
	Discount float64 `mapstructure:"discount" tune:"0.5,1"`
	// EvalCap bounds the placements scanned per candidate: a larger belief is
	// scanned through an evenly spaced subsample of this size (exact below
	// it). Default 2000.
	EvalCap int `mapstructure:"eval_cap"`
	// MaxMillis is an optional cap on the wall time of one decision: the deep
	// search stops adding candidates once it is exceeded. 0 (the default)
	// means none, so play is a pure function of the seed; a cap makes play
	// depend on the machine's speed whenever it triggers. Default 0.
	MaxMillis int `mapstructure:"max_millis"`
	// DrawnCandidates is how many candidates are played out (at most
	// Candidates) in a stalled drawn position: the solver values it a draw
	// (the enemy fleet known) and the stall rule has started (at least
	// endgame.stall of our turns without a hit). Such positions fill the
	// long drawn games; the play-outs are there to find an opponent's
	// mistake, not to hold the draw, which the solver's actions keep.
	// 1 to 1024. Default 2.
	DrawnCandidates int `mapstructure:"drawn_candidates"`
	// Opening plays the first decision from the opening book
	// (opening.go, docs/admiral.md "The opening book") when the book was
	// built for these rules and these weights: our first action when we
	// act first, and our answer to an enemy's first attack. The book holds
	// the search's own choice there, so play is as strong and the first
	// decision, the costliest of a game, is free. Any other weights (a
	// tuning run's) search as before. Default true.
	Opening bool `mapstructure:"opening"`
}

// AdmiralValue weighs the terms of an action's value (in "hits": one enemy
// hp removed is worth Hit).
type AdmiralValue struct {
	// Hit is the value of removing one hp of an enemy ship. Default 1.33.
	Hit float64 `mapstructure:"hit" tune:"0.2,3"`
	// Sink is the extra value of sinking an enemy ship. Default 0.51.
	Sink float64 `mapstructure:"sink" tune:"0,4"`
	// Win is the value of sinking the last enemy ship. Default 10.4.
	Win float64 `mapstructure:"win" tune:"2,60"`
	// Hurt is the cost of one hp of ours lost to the enemy's reply. Default 1.1.
	Hurt float64 `mapstructure:"hurt" tune:"0.2,4"`
	// Lost is the extra cost of a ship of ours sunk by the reply. Default 1.22.
	Lost float64 `mapstructure:"lost" tune:"0,4"`
	// Info weighs the expected information an attack gains about the enemy
	// fleet, per bit. Default 0.62.
	Info float64 `mapstructure:"info" tune:"0,1.5"`
	// Leak weighs the information an action gives away about our fleet (the
	// drop of the entropy of the enemy's exact belief about us), per bit.
	// Default 0.21.
	Leak float64 `mapstructure:"leak" tune:"0,1.5"`
	// Detect weighs the information the enemy's next attack is expected to
	// gain about our fleet (where it would attack, modelled on sampled enemy
	// placements, and what our answer there would tell it), per bit.
	// Default 0.186.
	Detect float64 `mapstructure:"detect" tune:"0,1.5"`
	// Next weighs the follow-up: the probability that our best attack on the
	// next turn hits, after the enemy's modelled reply. Default 0.198.
	Next float64 `mapstructure:"next" tune:"0,2"`
	// Edge values the endgame a play-out leads to: per hp by which our
	// strongest living ship outlasts the enemy's strongest (negative when
	// the enemy's is stronger). Once both fleets are known only a stronger
	// ship can seek contact, so this, not the summed hp, decides the
	// endgame. Default 2 (against hirota, 400 games at a draw limit of
	// 2000: 49 wins against 36 with 0).
	Edge float64 `mapstructure:"edge" tune:"0,3"`
	// Repeat is the cost of a move that returns the fleet to a formation it
	// held in the last endgame.memory turns (per earlier occurrence).
	// Default 0.01.
	Repeat float64 `mapstructure:"repeat" tune:"0,2"`
}

// AdmiralModel is the model of the enemy's reply used by the search.
type AdmiralModel struct {
	// Flee is the probability (as the enemy sees it) that one of its pinned
	// ships is within our reach above which the model moves it away instead
	// of attacking. Default 1: only when it is certain, as the published
	// joint-belief players flee (docs/admiral.md, "Staying unlocated"; 0.3
	// until then).
	Flee float64 `mapstructure:"flee" tune:"0.05,1"`
	// Attack is the hit probability from which our side of a play-out
	// attacks an unlocated cell (below it, it waits). Default 0.113.
	Attack float64 `mapstructure:"attack" tune:"0,1"`
	// Sure is the probability of hitting above which the model attacks a cell
	// of ours rather than flee (a counter-attack). Default 0.959.
	Sure float64 `mapstructure:"sure" tune:"0.3,1"`
	// Refuge is the largest risk (the probability, as the enemy sees it,
	// that a cell is within our reach) of a cell the modelled enemy flees
	// to: 1 = any cell less exposed than where it stands; 0 (the default)
	// = only a cell certainly out of our reach, as the published
	// joint-belief players flee (issue 11). The risk of a cell is exact at
	// 0 (no placement of ours the enemy holds possible reaches it) and 1
	// (every one does), sampled in between.
	Refuge float64 `mapstructure:"refuge" tune:"0,1"`
}

// AdmiralEndgame keeps games from stalling into the draw limit.
type AdmiralEndgame struct {
	// Memory is how many of our recent turns the repetition check looks back.
	// Default 12.
	Memory int `mapstructure:"memory"`
	// Stall is the number of our turns without a hit (either side) after
	// which the player gets bolder: every cost of ours (leak, danger, hurt,
	// lost, the lost game) is multiplied by Boldness once per Stall turns of
	// stalling. Default 10.
	Stall int `mapstructure:"stall"`
	// Boldness is the factor applied to our costs per Stall turns of
	// stalling (0 < boldness <= 1). Default 0.854.
	Boldness float64 `mapstructure:"boldness" tune:"0.2,1"`
	// Solve turns on the exact solver (package endgame) once both joint
	// beliefs hold one placement each: take a win, never step from a draw
	// into a loss, choose among the actions that keep the value. Default
	// true.
	Solve bool `mapstructure:"solve"`
	// Nodes is the solver's search budget per turn (positions the table
	// does not cover: three ships against two or three on 5x5), counted in
	// nodes so that play stays a function of the seed. 1000 to 10000000.
	// Default 3000 (p99 decision time 10 ms against hirota; 20000 took 52).
	Nodes int `mapstructure:"nodes"`
	// Recall is the number of our turns without a hit (either side) after
	// which a searched decision is remembered and a position met again in
	// the same stall gets the same action without a search (recall.go;
	// the solver and the opponent model's search still run first). 0 turns
	// it off. 0 to 100000. Default 100.
	Recall int `mapstructure:"recall"`
	// RecallSamples is how many searched decisions a position keeps before
	// it is recalled: later visits draw one of them at random, so the
	// play-outs' variety, which breaks a drawn game's cycles, stays.
	// 1 to 16. Default 4.
	RecallSamples int `mapstructure:"recall_samples"`
}

// AdmiralPlacement chooses the initial placement: a placement is drawn with
// probability proportional to exp(-Temperature * risk), where risk weighs
// the cells a plausible opponent attacks first.
type AdmiralPlacement struct {
	// Samples is the number of random opponent placements simulated to find
	// the cells a first attack favours. Default 400.
	Samples int `mapstructure:"samples"`
	// HitRisk weighs the probability that an early attack lands on a ship.
	// Default 5.85.
	HitRisk float64 `mapstructure:"hit_risk" tune:"0,12"`
	// NearRisk weighs the probability that an early attack reports a ship near.
	// Default 2.13.
	NearRisk float64 `mapstructure:"near_risk" tune:"0,6"`
	// Cluster is the cost of two of our ships within distance 1 of each other
	// (one splash reports both). Default 0.445.
	Cluster float64 `mapstructure:"cluster" tune:"0,3"`
	// Cover rewards the fraction of the board our ships can attack at once.
	// Default 0.077.
	Cover float64 `mapstructure:"cover" tune:"0,4"`
	// Temperature sharpens the choice (0 = uniform over placements; large =
	// always a lowest-risk placement). Default 4 (12 put 86% of ships on
	// corners, a placement a prior-aware opponent could exploit; with Aware
	// 0.5, 33% are; docs/admiral.md).
	Temperature float64 `mapstructure:"temperature" tune:"0,20"`
	// Aware is the weight, in the opening-attack risk, of an opponent that
	// knows our placement distribution and makes the opening attack that
	// is best against it (the equilibrium of the opening, solved by
	// fictitious play over every placement); the rest is the simulated
	// splash-maximising opener. 0 to 1 (boards scored by sampling
	// placements use the splash opener only). Default 0.5: the best opening
	// attack of an opponent that knows the distribution hits 25% instead of
	// 42% (docs/admiral.md, "Placement").
	Aware float64 `mapstructure:"aware" tune:"0,1"`
	// Candidates is the number of random placements scored when the board is
	// too large to score them all. Default 20000.
	Candidates int `mapstructure:"candidates"`
}

// AdmiralBelief bounds the exact beliefs.
type AdmiralBelief struct {
	// MaxJoint is the largest number of placements an exact joint belief may
	// list; with more (large boards, big fleets) the player falls back to
	// per-ship beliefs sampled into Particles placements. Default 500000.
	MaxJoint int `mapstructure:"max_joint"`
	// Particles is the number of placements sampled from per-ship beliefs in
	// the fallback. Default 3000.
	Particles int `mapstructure:"particles"`
	// Spread is the distance (Chebyshev) at which the enemy placement
	// prior's "spread" part puts every pair of enemy ships at least: every
	// published joint-belief player places its ships pairwise at least 3
	// apart. 0 turns the prior off. 0 to 16. Default 3.
	Spread int `mapstructure:"spread"`
	// SpreadWeight is the weight of the spread part of the enemy placement
	// prior, a mixture with the uniform prior (0: uniform, the belief's own
	// weighting). 0 to 1. Default 0.5.
	SpreadWeight float64 `mapstructure:"spread_weight" tune:"0,1"`
	// EnemyPrior is an enemy placement prior learnt from a corpus of
	// replays (kaisen placements): by fleet index, how many of the corpus's
	// games the ship started on each cell of the board (row-major, rocks
	// 0). It weighs the enemy placements as admiral-series' prior learnt
	// over a series does (learntPrior), from the first game on, on top of
	// the spread prior. Empty (the default): none.
	EnemyPrior [][]int `mapstructure:"enemy_prior"`
}

// AdmiralOpponent recognises the kind of enemy from its actions in the
// game (move share, moves of its located ships) and adapts to it.
type AdmiralOpponent struct {
	// MinActions is the number of enemy actions seen before any kind is
	// recognised. Default 10.
	MinActions int `mapstructure:"min_actions"`
	// Mover is the share of moves among the enemy's actions from which it
	// is a mover (a chaser or a wanderer): against a mover the stall rule
	// may approach a located enemy ship with a ship of equal hp (a mover
	// flees or walks into our reach rather than waits for us); against
	// anyone else only with a stronger one. Default 0.5.
	Mover float64 `mapstructure:"mover" tune:"0,1"`
	// MoverMargin is the hp by which our ship must exceed a located enemy
	// ship for the stall rule to approach it when the enemy is a mover
	// (against other kinds: 1, strictly stronger). 0 allows an equal
	// ship; a negative margin allows weaker ones. -100 to 1. Default 0.
	MoverMargin int `mapstructure:"mover_margin"`
	// Seen is the probability, in the enemy's eyes, that our ship is on its
	// cell from which the enemy is taken to know where it is: an unseen ship
	// may approach a located enemy ship whatever their hp (it shoots
	// first), a seen one only when stronger. 0 to 1 (1: only a ship the
	// enemy has located exactly counts as seen). Default 0.5.
	Seen float64 `mapstructure:"seen" tune:"0,1"`
	// GuardShare: an enemy ship guards a cell (the caution rule never lets
	// the stall rule discount a hit it may take there, unless our ship is
	// stronger) when it can attack the cell in at least this share of the
	// placements of our belief. 1: only a ship every placement puts on the
	// same cell (a located one) guards. 0 < guard_share <= 1. Default 0.75
	// (docs/admiral.md, "Why a camper wins": it turns most losses to
	// patient players into draws).
	GuardShare float64 `mapstructure:"guard_share" tune:"0.05,1"`
	// Camper is the share of moves at or below which the enemy is a camper.
	// Default 0.1.
	Camper float64 `mapstructure:"camper" tune:"0,1"`
	// Evader is the share of its turns with a located ship in which the
	// enemy moved a located ship (and more often away from us than closer)
	// from which it is an evader. Default 0.5.
	Evader float64 `mapstructure:"evader" tune:"0,1"`
	// EvaderLeak multiplies the cost of leaked information against an
	// evader: stay unlocated, since a located ship of ours is what it
	// waits for. Default 1.
	EvaderLeak float64 `mapstructure:"evader_leak" tune:"0.5,4"`
	// Model keeps the online opponent model (model.go): a
	// posterior over a family of policies (joint-greedy points, the
	// solver's perfect player, uniform), updated by every enemy action
	// taken with both fleets known, and, in positions the solver calls
	// drawn, a search for a win forced against it. Default true.
	Model bool `mapstructure:"model"`
	// Epsilon is the share of the uniform policy mixed into every
	// policy's probability of an action, so that one surprise does not
	// rule a policy out. 0 < epsilon < 1. Default 0.05.
	Epsilon float64 `mapstructure:"epsilon" tune:"0.001,0.5"`
	// ExploitMin is the posterior weight the exploitable policies (the
	// joint-greedy points) need before the search plays against them.
	// 0 to 1. Default 0.8.
	ExploitMin float64 `mapstructure:"exploit_min" tune:"0,1"`
	// ExploitSupport: replies of the model with at least this share of
	// the mixture's probability must all lose for a proof. 0 to 1.
	// Default 0.05.
	ExploitSupport float64 `mapstructure:"exploit_support" tune:"0,1"`
	// ExploitDepth is the most moves of ours a proof may take. 1 to 64.
	// Default 6.
	ExploitDepth int `mapstructure:"exploit_depth"`
	// ExploitNodes is the search's node budget per decision (counted, so
	// play stays a function of the seed). 0 (off) to 10000000.
	// Default 2000.
	ExploitNodes int `mapstructure:"exploit_nodes"`
	// ExploitPatience is the number of consecutive searches that ran out
	// of their budget without a proof, with nothing changed in between (no
	// hit or sinking by either side, no change of the enemy's chart of
	// us), after which the search runs on ExploitLean nodes until
	// something changes or a proof is found. 0 = never lean. 0 to 1000000.
	// Default 10.
	ExploitPatience int `mapstructure:"exploit_patience"`
	// ExploitLean is the node budget of a search once ExploitPatience
	// searches in a row have failed (at most ExploitNodes). 1 to 10000000.
	// Default 400.
	ExploitLean int `mapstructure:"exploit_lean"`
	// ExploitFloor: once lean, the budget halves after every further
	// ExploitPatience searches in a row that failed with nothing changed,
	// down to ExploitFloor nodes (at or above ExploitLean: it never
	// halves). 1 to 10000000. Default 100.
	ExploitFloor int `mapstructure:"exploit_floor"`
	// GambleDepth: when the model's search proves no win in a position the
	// solver calls drawn with the enemy fleet known, an expectimax search
	// of this many moves of ours values each action that keeps the
	// solver's value by its chance of a win against the model
	// (model_chance.go). 0 (off) to 16. Default 0: off until it pays for
	// its CPU (docs/admiral.md, "Gambles that cost nothing"); 6 measured.
	GambleDepth int `mapstructure:"gamble_depth"`
	// GambleNodes is that search's node budget per decision (counted, so
	// play stays a function of the seed; the values it finished are kept
	// for the next decisions). 1 to 10000000. Default 2000.
	GambleNodes int `mapstructure:"gamble_nodes"`
	// GambleMin is the chance (discounted) from which the best such action
	// is played (a chance of 0 is never played). 0 to 1. Default 0.1.
	GambleMin float64 `mapstructure:"gamble_min" tune:"0.01,1"`
	// GambleDiscount is what a win counts per further move of ours
	// (sooner is better; 1 = no discount). 0 < discount <= 1. Default 0.95.
	GambleDiscount float64 `mapstructure:"gamble_discount" tune:"0.5,1"`
}

// DefaultAdmiralConfig returns the built-in weights (configs/admiral.yaml).
func DefaultAdmiralConfig() AdmiralConfig {
	return AdmiralConfig{
		Search: AdmiralSearch{Worlds: 48, Candidates: 5, Depth: 3, Discount: 0.924, EvalCap: 2000, MaxMillis: 0, DrawnCandidates: 2, Opening: true},
		Value: AdmiralValue{Hit: 1.33, Sink: 0.51, Win: 10.4, Hurt: 1.1, Lost: 1.22, Info: 0.62, Leak: 0.21, Detect: 0.186,
			Next: 0.198, Edge: 2, Repeat: 0.01},
		Model:     AdmiralModel{Flee: 1, Sure: 0.959, Attack: 0.113, Refuge: 0},
		Endgame:   AdmiralEndgame{Memory: 12, Stall: 10, Boldness: 0.854, Solve: true, Nodes: 3000, Recall: 100, RecallSamples: 4},
		Placement: AdmiralPlacement{Samples: 400, HitRisk: 5.85, NearRisk: 2.13, Cluster: 0.445, Cover: 0.077, Temperature: 4, Aware: 0.5, Candidates: 20000},
		Belief:    AdmiralBelief{MaxJoint: 500000, Particles: 3000, Spread: 3, SpreadWeight: 0.5, EnemyPrior: [][]int{}},
		Opponent: AdmiralOpponent{MinActions: 10, Mover: 0.5, MoverMargin: 0, Seen: 0.5, GuardShare: 0.75, Camper: 0.1, Evader: 0.5, EvaderLeak: 1,
			Model: true, Epsilon: 0.05, ExploitMin: 0.8, ExploitSupport: 0.05, ExploitDepth: 6, ExploitNodes: 2000,
			ExploitPatience: 10, ExploitLean: 400, ExploitFloor: 100, GambleDepth: 0, GambleNodes: 2000, GambleMin: 0.1, GambleDiscount: 0.95},
	}
}

// Validate checks the ranges of every key.
func (c *AdmiralConfig) Validate() error {
	var errs []error
	check := func(ok bool, format string, args ...any) {
		if !ok {
			errs = append(errs, fmt.Errorf("admiral: "+format, args...))
		}
	}
	s := c.Search
	check(s.Worlds >= 0 && s.Worlds <= 4096, "search.worlds %d: want 0 to 4096", s.Worlds)
	check(s.Candidates >= 1 && s.Candidates <= 1024, "search.candidates %d: want 1 to 1024", s.Candidates)
	check(s.Depth >= 1 && s.Depth <= 16, "search.depth %d: want 1 to 16", s.Depth)
	check(s.Discount > 0 && s.Discount <= 1, "search.discount %g: want 0 < discount <= 1", s.Discount)
	check(s.EvalCap >= 100 && s.EvalCap <= 10_000_000, "search.eval_cap %d: want 100 to 10000000", s.EvalCap)
	check(s.DrawnCandidates >= 1 && s.DrawnCandidates <= 1024, "search.drawn_candidates %d: want 1 to 1024", s.DrawnCandidates)
	check(s.MaxMillis >= 0 && s.MaxMillis <= 60_000, "search.max_millis %d: want 0 to 60000", s.MaxMillis)
	v := c.Value
	for _, w := range []struct {
		name string
		v    float64
	}{{"hit", v.Hit}, {"sink", v.Sink}, {"win", v.Win}, {"hurt", v.Hurt}, {"lost", v.Lost},
		{"info", v.Info}, {"leak", v.Leak}, {"detect", v.Detect}, {"next", v.Next}, {"edge", v.Edge}, {"repeat", v.Repeat}} {
		check(w.v >= 0 && w.v <= 1000, "value.%s %g: want 0 to 1000", w.name, w.v)
	}
	check(c.Model.Flee >= 0 && c.Model.Flee <= 1, "model.flee %g: want 0 to 1", c.Model.Flee)
	check(c.Model.Attack >= 0 && c.Model.Attack <= 1, "model.attack %g: want 0 to 1", c.Model.Attack)
	check(c.Model.Sure >= 0 && c.Model.Sure <= 1, "model.sure %g: want 0 to 1", c.Model.Sure)
	check(c.Model.Refuge >= 0 && c.Model.Refuge <= 1, "model.refuge %g: want 0 to 1", c.Model.Refuge)
	e := c.Endgame
	check(e.Memory >= 0 && e.Memory <= 1000, "endgame.memory %d: want 0 to 1000", e.Memory)
	check(e.Stall >= 1 && e.Stall <= 100000, "endgame.stall %d: want 1 to 100000", e.Stall)
	check(e.Boldness > 0 && e.Boldness <= 1, "endgame.boldness %g: want 0 < boldness <= 1", e.Boldness)
	check(e.Nodes >= 1000 && e.Nodes <= 10_000_000, "endgame.nodes %d: want 1000 to 10000000", e.Nodes)
	check(e.Recall >= 0 && e.Recall <= 100000, "endgame.recall %d: want 0 to 100000", e.Recall)
	check(e.RecallSamples >= 1 && e.RecallSamples <= recallSamplesMax, "endgame.recall_samples %d: want 1 to %d", e.RecallSamples, recallSamplesMax)
	p := c.Placement
	check(p.Samples >= 1 && p.Samples <= 100000, "placement.samples %d: want 1 to 100000", p.Samples)
	check(p.Candidates >= 1 && p.Candidates <= 1_000_000, "placement.candidates %d: want 1 to 1000000", p.Candidates)
	for _, w := range []struct {
		name string
		v    float64
	}{{"hit_risk", p.HitRisk}, {"near_risk", p.NearRisk}, {"cluster", p.Cluster}, {"cover", p.Cover}, {"temperature", p.Temperature}} {
		check(w.v >= 0 && w.v <= 1000, "placement.%s %g: want 0 to 1000", w.name, w.v)
	}
	check(p.Aware >= 0 && p.Aware <= 1, "placement.aware %g: want 0 to 1", p.Aware)
	b := c.Belief
	check(b.MaxJoint >= 0 && b.MaxJoint <= 50_000_000, "belief.max_joint %d: want 0 to 50000000", b.MaxJoint)
	check(b.Particles >= 10 && b.Particles <= 1_000_000, "belief.particles %d: want 10 to 1000000", b.Particles)
	check(b.Spread >= 0 && b.Spread <= 16, "belief.spread %d: want 0 to 16", b.Spread)
	check(b.SpreadWeight >= 0 && b.SpreadWeight <= 1, "belief.spread_weight %g: want 0 to 1", b.SpreadWeight)
	check(len(b.EnemyPrior) <= submarine.MaxShips, "belief.enemy_prior: %d ships, at most %d", len(b.EnemyPrior), submarine.MaxShips)
	for i, row := range b.EnemyPrior {
		for c, n := range row {
			check(n >= 0 && n <= 1_000_000_000, "belief.enemy_prior: ship %d, cell %d: count %d, want 0 to 1000000000", i, c, n)
		}
	}
	o := c.Opponent
	check(o.MinActions >= 1 && o.MinActions <= 100000, "opponent.min_actions %d: want 1 to 100000", o.MinActions)
	check(o.Mover >= 0 && o.Mover <= 1, "opponent.mover %g: want 0 to 1", o.Mover)
	check(o.MoverMargin >= -100 && o.MoverMargin <= 1, "opponent.mover_margin %d: want -100 to 1", o.MoverMargin)
	check(o.Seen >= 0 && o.Seen <= 1, "opponent.seen %g: want 0 to 1", o.Seen)
	check(o.GuardShare > 0 && o.GuardShare <= 1, "opponent.guard_share %g: want 0 < guard_share <= 1", o.GuardShare)
	check(o.Camper >= 0 && o.Camper <= 1, "opponent.camper %g: want 0 to 1", o.Camper)
	check(o.Evader >= 0 && o.Evader <= 1, "opponent.evader %g: want 0 to 1", o.Evader)
	check(o.EvaderLeak > 0 && o.EvaderLeak <= 100, "opponent.evader_leak %g: want 0 < evader_leak <= 100", o.EvaderLeak)
	check(o.Epsilon > 0 && o.Epsilon < 1, "opponent.epsilon %g: want 0 < epsilon < 1", o.Epsilon)
	check(o.ExploitMin >= 0 && o.ExploitMin <= 1, "opponent.exploit_min %g: want 0 to 1", o.ExploitMin)
	check(o.ExploitSupport >= 0 && o.ExploitSupport <= 1, "opponent.exploit_support %g: want 0 to 1", o.ExploitSupport)
	check(o.ExploitDepth >= 1 && o.ExploitDepth <= 64, "opponent.exploit_depth %d: want 1 to 64", o.ExploitDepth)
	check(o.ExploitNodes >= 0 && o.ExploitNodes <= 10_000_000, "opponent.exploit_nodes %d: want 0 to 10000000", o.ExploitNodes)
	check(o.ExploitPatience >= 0 && o.ExploitPatience <= 1_000_000, "opponent.exploit_patience %d: want 0 to 1000000", o.ExploitPatience)
	check(o.ExploitLean >= 1 && o.ExploitLean <= 10_000_000, "opponent.exploit_lean %d: want 1 to 10000000", o.ExploitLean)
	check(o.ExploitFloor >= 1 && o.ExploitFloor <= 10_000_000, "opponent.exploit_floor %d: want 1 to 10000000", o.ExploitFloor)
	check(o.GambleDepth >= 0 && o.GambleDepth <= 16, "opponent.gamble_depth %d: want 0 to 16", o.GambleDepth)
	check(o.GambleNodes >= 1 && o.GambleNodes <= 10_000_000, "opponent.gamble_nodes %d: want 1 to 10000000", o.GambleNodes)
	check(o.GambleMin >= 0 && o.GambleMin <= 1, "opponent.gamble_min %g: want 0 to 1", o.GambleMin)
	check(o.GambleDiscount > 0 && o.GambleDiscount <= 1, "opponent.gamble_discount %g: want 0 < discount <= 1", o.GambleDiscount)
	return errors.Join(errs...)
}

func buildAdmiral(rules *submarine.Rules, load players.Loader) (players.Factory, error) {
	cfg, err := roster.Configure(load, DefaultAdmiralConfig())
	if err != nil {
		return nil, err
	}
	if err := rules.Validate(); err != nil {
		return nil, err
	}
	corpus, err := corpusPrior(rules, cfg.Belief.EnemyPrior)
	if err != nil {
		return nil, err
	}
	sh := newAdmiralShared(rules, cfg) // read-only, shared by every game
	sh.corpus = corpus
	return func(rng *rand.Rand) players.Player { return newAdmiral(rules, cfg, rng, sh) }, nil
}
