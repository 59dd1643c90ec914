package sonar

import (
	"cmp"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/kaisen-ai/kaisen/explain"
	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/internal/roster"
	"github.com/kaisen-ai/kaisen/series"
)

// Factory makes the game's players (the contract's factory).
type Factory = game.Factory[Placement, Action, Told]

// ErrUnknownPlayer is wrapped by the error for a name that is no AI of the
// game.
var ErrUnknownPlayer = errors.New("sonar: unknown player")

// AIs are the game's AIs, in roster order.
var AIs = roster.New[*Rules, Factory](ErrUnknownPlayer, "sonar",
	roster.Entry[*Rules, Factory]{Name: "sonar-random", Summary: "pings a random cell, now and then moves a random boat",
		Build: func(r *Rules, _ roster.Loader) (Factory, error) {
			return func(rng *rand.Rand, _ int) game.Player[Placement, Action, Told] {
				return &random{fleet: newFleet(r), rng: rng}
			}, nil
		}},
	roster.Entry[*Rules, Factory]{Name: "sonar-hunter", Summary: "pings the likeliest cell from the echoes, evades near pings, learns across a series where the enemy hides",
		Build: func(r *Rules, load roster.Loader) (Factory, error) {
			cfg, err := roster.Configure(load, DefaultHunterConfig())
			if err != nil {
				return nil, err
			}
			return func(rng *rand.Rand, _ int) game.Player[Placement, Action, Told] {
				h := &hunter{fleet: newFleet(r), cfg: cfg, prior: make([]float64, r.Cells())}
				h.NewGame(rng)
				return h
			}, nil
		}},
)

// HunterConfig are sonar-hunter's weights (its YAML settings, which kaisen
// tune tunes; the test game has no file under configs/: the defaults are
// these).
type HunterConfig struct {
	// Evade is the chance that a boat an enemy ping came near moves away
	// instead of pinging. Default 0.5.
	Evade float64 `mapstructure:"evade" tune:"0,1"`
	// Near is what a "near" echo adds to the score of each cell next to
	// the ping. Default 2.
	Near float64 `mapstructure:"near" tune:"0,8"`
	// Floor is added to every cell after an enemy move (a boat may have
	// gone anywhere). Default 0.05.
	Floor float64 `mapstructure:"floor" tune:"0,1"`
	// Prior is the weight of each hit on a cell in the series' earlier
	// games in the cell's starting score. Default 1.
	Prior float64 `mapstructure:"prior" tune:"0,4"`
}

// DefaultHunterConfig returns sonar-hunter's defaults.
func DefaultHunterConfig() HunterConfig {
	return HunterConfig{Evade: 0.5, Near: 2, Floor: 0.05, Prior: 1}
}

// Validate checks every weight against its range.
func (c HunterConfig) Validate() error {
	for _, w := range []struct {
		name   string
		v, max float64
	}{{"evade", c.Evade, 1}, {"near", c.Near, 8}, {"floor", c.Floor, 1}, {"prior", c.Prior, 4}} {
		if !(w.v >= 0 && w.v <= w.max) {
			return fmt.Errorf("sonar-hunter: %s is %g, want 0 to %g", w.name, w.v, w.max)
		}
	}
	return nil
}

// fleet is what a player knows of its own boats.
type fleet struct {
	rules *Rules
	own   [MaxBoats]Cell
}

func newFleet(r *Rules) fleet {
	f := fleet{rules: r}
	f.reset()
	return f
}

func (f *fleet) reset() {
	for i := range f.own {
		f.own[i] = None
	}
}

// place hides the boats on distinct random cells.
func (f *fleet) place(rng *rand.Rand) Placement {
	p := make(Placement, f.rules.Boats)
	for i, c := range rng.Perm(f.rules.Cells())[:f.rules.Boats] {
		p[i] = Cell(c)
		f.own[i] = Cell(c)
	}
	return p
}

// observe follows the own boats: moves and sinkings.
func (f *fleet) observe(o Told) {
	switch {
	case o.Mine && o.Kind == Move && !o.Illegal:
		f.own[o.Boat] = o.At
	case !o.Mine && o.Kind == Ping && o.Echo == Hit:
		for i, c := range f.own {
			if c == o.At {
				f.own[i] = None
			}
		}
	}
}

// moves are the legal moves of the own boats.
func (f *fleet) moves() []Action {
	var out []Action
	for i, b := range f.own {
		if b == None {
			continue
		}
		for _, to := range f.rules.Neighbours(b) {
			if !slices.Contains(f.own[:], to) {
				out = append(out, Action{Kind: Move, Boat: i, At: to})
			}
		}
	}
	return out
}

// random pings a random cell, and moves a random boat one time in four.
type random struct {
	fleet
	rng *rand.Rand
}

func (p *random) Place() Placement { return p.place(p.rng) }

func (p *random) Act() Action {
	if p.rng.IntN(4) == 0 {
		if m := p.moves(); len(m) > 0 {
			return m[p.rng.IntN(len(m))]
		}
	}
	return Action{Kind: Ping, At: Cell(p.rng.IntN(p.rules.Cells()))}
}

func (p *random) Observe(o Told) { p.observe(o) }

// hunter keeps a score per enemy cell (how likely a boat is there) from
// the echoes, pings the best one and, when an enemy ping came near one of
// its boats, moves that boat away (HunterConfig.Evade: half of the time).
// Across a series it learns where the enemy's boats were hit: its next
// games start from that prior.
type hunter struct {
	fleet
	cfg    HunterConfig
	rng    *rand.Rand
	score  []float64
	prior  []float64 // hits per cell in the series' earlier games
	threat Cell      // the enemy's last ping near an own boat, None when none
	last   explain.Decision
}

var (
	_ game.Learner      = (*hunter)(nil)
	_ explain.Explainer = (*hunter)(nil)
)

// NewGame implements game.Learner: the position is forgotten, the prior
// kept.
func (h *hunter) NewGame(rng *rand.Rand) {
	h.rng, h.threat, h.last = rng, None, explain.Decision{}
	h.reset()
	h.score = make([]float64, h.rules.Cells())
	for c := range h.score {
		h.score[c] = 1 + h.cfg.Prior*h.prior[c]
	}
}

// EndGame implements game.Learner (what it learns, it learnt from hits).
func (h *hunter) EndGame(series.End) {}

func (h *hunter) Place() Placement { return h.place(h.rng) }

func (h *hunter) Act() Action {
	if h.threat != None && h.rng.Float64() < h.cfg.Evade {
		if a, ok := h.evade(); ok {
			h.last = explain.Decision{Reason: fmt.Sprintf("an enemy ping at %d came near: boat %d moves to %d", h.threat, a.Boat, a.At)}
			h.threat = None
			return a
		}
	}
	h.threat = None
	order := make([]Cell, len(h.score))
	for c := range order {
		order[c] = Cell(c)
	}
	h.rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
	slices.SortStableFunc(order, func(a, b Cell) int { return cmp.Compare(h.score[b], h.score[a]) })
	h.last = explain.Decision{Reason: "ping the likeliest cell"}
	for _, c := range order[:min(3, len(order))] {
		h.last.Candidates = append(h.last.Candidates, explain.Candidate{Action: fmt.Sprintf("ping %d", c), Score: h.score[c]})
	}
	return Action{Kind: Ping, At: order[0]}
}

// evade is the move of the boat nearest the threat that goes farthest
// from it.
func (h *hunter) evade() (Action, bool) {
	best, far := Action{}, -1
	for _, m := range h.moves() {
		if !h.rules.near(h.own[m.Boat], h.threat) {
			continue
		}
		if d := dist(h.rules, m.At, h.threat); d > far {
			best, far = m, d
		}
	}
	return best, far >= 0
}

func dist(r *Rules, a, b Cell) int {
	return abs(int(a)%r.Width-int(b)%r.Width) + abs(int(a)/r.Width-int(b)/r.Width)
}

// Explain implements explain.Explainer.
func (h *hunter) Explain() explain.Decision { return h.last }

func (h *hunter) Observe(o Told) {
	h.observe(o)
	r := h.rules
	switch {
	case o.Illegal:
	case o.Mine && o.Kind == Ping:
		h.echo(o.At, o.Echo)
	case !o.Mine && o.Kind == Move:
		h.blur()
	case !o.Mine && o.Kind == Ping && o.Echo != Miss:
		for _, b := range h.own {
			if b != None && r.near(b, o.At) {
				h.threat = o.At
			}
		}
	}
}

// echo takes in the echo of an own ping at c.
func (h *hunter) echo(c Cell, e Echo) {
	r := h.rules
	for d := range h.score {
		if !r.near(Cell(d), c) {
			continue
		}
		switch {
		case Cell(d) == c:
			h.score[d] = 0
		case e == Near:
			h.score[d] += h.cfg.Near
		case e == Miss:
			h.score[d] = 0
		}
	}
	if e == Hit {
		h.prior[c]++
	}
}

// blur spreads the scores after an enemy move (a boat went one cell).
func (h *hunter) blur() {
	next := make([]float64, len(h.score))
	for c, s := range h.score {
		next[c] += s / 2
		nb := h.rules.Neighbours(Cell(c))
		for _, n := range nb {
			next[n] += s / 2 / float64(len(nb))
		}
	}
	for c := range next {
		h.score[c] = next[c] + h.cfg.Floor
	}
}
