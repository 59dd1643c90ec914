package abplayers

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"math/rand/v2"
	"slices"
	"time"

	bsbelief "github.com/kaisen-ai/kaisen/belief/battleship"
	"github.com/kaisen-ai/kaisen/belief/hiddenfleet"
	"github.com/kaisen-ai/kaisen/game/abilities"
	"github.com/kaisen-ai/kaisen/game/battleship"
	"github.com/kaisen-ai/kaisen/game/grid"
	bsplayers "github.com/kaisen-ai/kaisen/players/battleship"
)

// BotConfig holds the ability bot's settings (configs/abilities-density.yaml;
// configs/abilities-plain.yaml is the same bot with abilities off).
type BotConfig struct {
	// Abilities: use the abilities at all. Off, the bot is the density bot
	// of classic Battleship: it never moves, salvoes or uses its 3-deck and
	// declines every defence; it still answers a Humans' salvo as the rules
	// make it (water first). Default true.
	Abilities bool `mapstructure:"abilities"`
	// Budget is the exact count's time per move, turned into deterministic
	// work (WorkPerMS per millisecond); 0 always samples. Default 0.
	Budget time.Duration `mapstructure:"budget"`
	// WorkPerMS calibrates Budget (as in configs/density.yaml). Default 100000.
	WorkPerMS int64 `mapstructure:"work_per_ms"`
	// Samples is how many layouts a density estimate draws. Default 600.
	Samples int `mapstructure:"samples"`
	// SalvoRatio: salvo when the salvo's expected hits reach SalvoRatio
	// times the best single cell's chance (the defender's pick counted
	// against the Humans' salvo: its 3 least likely cells). Default 1.3.
	SalvoRatio float64 `mapstructure:"salvo_ratio" tune:"1,3"`
	// SalvoTargeting: salvo also while an enemy ship is hit and afloat (a
	// single shot there usually hits and shoots again). Default false.
	SalvoTargeting bool `mapstructure:"salvo_targeting"`
	// MoveThreshold: move a 1-deck when the enemy's estimated chance of a
	// ship on its cell is at least this. Default 0.2.
	MoveThreshold float64 `mapstructure:"move_threshold" tune:"0,0.5"`
	// MoveGain: the move must lower that chance by at least this. Default 0.05.
	MoveGain float64 `mapstructure:"move_gain" tune:"0,0.2"`
	// AirDefenceNear: spend an air defence on a shot next to the 4-deck too
	// (by default only on a shot that would hit it). Default false.
	AirDefenceNear bool `mapstructure:"air_defence_near"`
	// EmptyScanWeight scales the chance of the cells of a 5x5 the AI's
	// 3-deck counted no ship in (a 1-deck may move in later, so they are
	// not ruled out); 1 ignores the counts. Default 0.2.
	EmptyScanWeight float64 `mapstructure:"empty_scan_weight" tune:"0,1"`
	// Belief: "classic" (the layouts of classic Battleship on the cells
	// as told, relaxed when none fits) or "hidden" (belief/hiddenfleet:
	// the layouts some hidden history of moves and lies leads to, the
	// 5x5 counts and air defences included; the enemy's belief about the
	// own fleet, for the moves, the same way). Default "classic".
	Belief string `mapstructure:"belief"`
	// SpecialTop: with the hidden belief, the AI's 3-deck goes with the
	// cell whose 5x5 count is least predictable (the most information)
	// among the cells within SpecialTop of the best cell's chance (1: the
	// best cell only). Default 1.
	SpecialTop float64 `mapstructure:"special_top" tune:"0.5,1"`
	// HistoryWork bounds, with the hidden belief, the search for a hidden
	// history of one drawn layout (nodes); a layout whose search needs more
	// is kept as consistent (rare, and mostly layouts nearly consistent).
	// 0: hiddenfleet.DefaultMaxWork. Default 0; ab-belief 300.
	HistoryWork int `mapstructure:"history_work"`
}

// The beliefs of BotConfig.Belief.
const (
	BeliefClassic = "classic"
	BeliefHidden  = "hidden"
)

// DefaultBotConfig is the built-in configuration (equal to
// configs/abilities-density.yaml).
func DefaultBotConfig() BotConfig {
	return BotConfig{Abilities: true, WorkPerMS: 100000, Samples: 600, SalvoRatio: 1.3, MoveThreshold: 0.2, MoveGain: 0.05, EmptyScanWeight: 0.2,
		Belief: BeliefClassic, SpecialTop: 1}
}

// DefaultBeliefConfig is the ability bot on the hidden belief
// ("ab-belief", configs/abilities-belief.yaml).
func DefaultBeliefConfig() BotConfig {
	c := DefaultBotConfig()
	c.Belief = BeliefHidden
	c.SalvoRatio = 1.3
	c.MoveThreshold = 0.1
	c.MoveGain = 0.02
	c.EmptyScanWeight = 1
	c.HistoryWork = 300
	return c
}

// DefaultPlainConfig is the ability bot with abilities off
// (configs/abilities-plain.yaml).
func DefaultPlainConfig() BotConfig {
	c := DefaultBotConfig()
	c.Abilities = false
	return c
}

// Validate checks the ranges.
func (c *BotConfig) Validate() error {
	errs := bsplayers.CountingErrors(c.Budget, c.WorkPerMS, c.Samples, 1_000_000)
	if c.SalvoRatio < 0 || c.SalvoRatio > 10 {
		errs = append(errs, fmt.Errorf("salvo_ratio %g: want 0 to 10", c.SalvoRatio))
	}
	if c.MoveThreshold < 0 || c.MoveThreshold > 1 {
		errs = append(errs, fmt.Errorf("move_threshold %g: want 0 to 1", c.MoveThreshold))
	}
	if c.EmptyScanWeight < 0 || c.EmptyScanWeight > 1 {
		errs = append(errs, fmt.Errorf("empty_scan_weight %g: want 0 to 1", c.EmptyScanWeight))
	}
	if c.MoveGain < 0 || c.MoveGain > 1 {
		errs = append(errs, fmt.Errorf("move_gain %g: want 0 to 1", c.MoveGain))
	}
	if c.Belief != BeliefClassic && c.Belief != BeliefHidden {
		errs = append(errs, fmt.Errorf("belief %q: want %s or %s", c.Belief, BeliefClassic, BeliefHidden))
	}
	if c.HistoryWork < 0 {
		errs = append(errs, fmt.Errorf("history_work %d: want 0 or more", c.HistoryWork))
	}
	if c.SpecialTop < 0 || c.SpecialTop > 1 {
		errs = append(errs, fmt.Errorf("special_top %g: want 0 to 1", c.SpecialTop))
	}
	return errors.Join(errs...)
}

// Bot ("ab-density") is the density bot of classic Battleship with the
// abilities: it fires where the most layouts consistent with what it was
// told put a ship; it salvoes when the salvo's expected hits beat the best
// single shot by SalvoRatio (not while finishing a hit ship); it uses its
// 3-deck with every first shot of a turn; it moves a 1-deck the enemy's
// own density (from the enemy's shots) threatens to the free neighbour
// where it is least expected; it spends the false miss on the first hit
// on its 4-deck, and air defence on shots that would hit it; it reveals
// water first. Against the AI's false miss it forgets, when the layouts
// run out, the misses next to its hits (one of them may be the lie).
type Bot struct {
	rules  *abilities.Rules
	seat   int
	cfg    BotConfig
	placer *bsbelief.UniformPlacer
	rng    *rand.Rand
	own    *ownFleet
	pos    *battleship.Position // the enemy fleet as told
	used   [4]bool
	count  bsbelief.Counter
	fmHit  bool     // own 4-deck hit (the false miss is for the first hit only)
	empty  grid.Set // cells of a 5x5 its 3-deck counted no ship in
	water  grid.Set // cells answered miss twice: water for good (the false miss is once, and a 1-deck never enters a shot cell)
	// with the hidden belief: the own belief over the enemy fleet, and
	// the enemy's over the own fleet (from what the enemy was told)
	track, threat *hiddenfleet.Tracker
}

var _ Player = (*Bot)(nil)

// NewBot returns an ability bot for seat.
func NewBot(r *abilities.Rules, seat int, cfg BotConfig, placer *bsbelief.UniformPlacer, rng *rand.Rand) *Bot {
	b := &Bot{rules: r, seat: seat, cfg: cfg, placer: placer, rng: rng, pos: battleship.NewPosition(r.Base)}
	if cfg.Belief == BeliefHidden {
		// New fails only for a bad seat or more than MaxOnes 1-decks: the
		// bot then plays on the classic belief
		b.track, _ = hiddenfleet.New(r, seat)
		b.threat, _ = hiddenfleet.New(r, 1-seat)
	}
	return b
}

// Place implements Player.
func (b *Bot) Place() battleship.Placement {
	l := placeOrEmpty(b.placer, b.rng)
	b.own = newOwnFleet(b.rules, l)
	return l
}

// Observe implements Player.
func (b *Bot) Observe(ev abilities.Event) {
	b.own.observe(ev, b.seat)
	if b.track != nil {
		b.track.Observe(ev)
		b.threat.Observe(enemyView(ev, b.rules.Options.HideMoves))
	}
	if ev.Attacker == b.seat {
		for _, r := range ev.Cells {
			if r.Repeat && r.Outcome == battleship.Miss {
				b.water.Add(r.At)
			}
			if !r.AirDefence {
				b.pos.Record(battleship.Result{At: r.At, Outcome: r.Outcome, Sunk: r.Sunk, Repeat: r.Repeat})
			}
		}
		if ev.Scan == 0 && len(ev.Cells) > 0 {
			board := b.rules.Base.Board
			for c := range board.Usable().All() {
				if board.Chebyshev(c, ev.Cells[0].At) <= 2 {
					b.empty.Add(c)
				}
			}
		}
		switch ev.Kind {
		case abilities.Move:
			b.used[abilities.MoverLen] = true
		case abilities.Salvo:
			b.used[abilities.SalvoLen] = true
		}
		if ev.Special {
			b.used[abilities.SpecialLen] = true
		}
	} else if b.own != nil {
		for _, r := range ev.Cells {
			if i := b.own.shipAt(r.At); i >= 0 && len(b.own.ships[i]) == abilities.DefenderLen && (r.Outcome != battleship.Miss || r.FalseMiss) {
				b.fmHit = true
			}
		}
	}
	if ev.TurnEnd {
		b.used = [4]bool{}
	}
}

// Act implements Player.
func (b *Bot) Act(q *abilities.Question) abilities.Action {
	if q != nil {
		return b.answer(q)
	}
	if b.cfg.Abilities && !b.used[abilities.MoverLen] {
		if a, ok := b.escape(); ok {
			b.used[abilities.MoverLen] = true
			return a
		}
	}
	p, unknown := b.hiddenDensity()
	if p == nil {
		p, unknown = b.classicDensity()
	}
	best := b.best(unknown, p)
	if b.cfg.Abilities && !b.used[abilities.SalvoLen] && b.own.has(abilities.SalvoLen) &&
		(b.cfg.SalvoTargeting || b.pos.Set(battleship.Damaged).Empty()) {
		if a, v := b.salvo(unknown, p); v >= b.cfg.SalvoRatio*p[best] && v > 0 {
			return a
		}
	}
	special := b.cfg.Abilities && !b.used[abilities.SpecialLen] && b.own.has(abilities.SpecialLen)
	if special && b.track != nil && b.cfg.SpecialTop < 1 && b.rules.Sides[b.seat] == abilities.AI {
		best = b.scanCell(unknown, p, best)
	}
	return abilities.Action{Kind: abilities.Shoot, At: best, Special: special}
}

// classicDensity is the density of the classic belief (the cells as told)
// and the cells worth a shot: not fired at; then the misses a false miss
// may hide; then any cell not proven water by a second miss.
func (b *Bot) classicDensity() ([]float64, grid.Set) {
	p := b.density(b.pos)
	if b.cfg.Abilities {
		for c := range b.empty.All() {
			p[c] *= b.cfg.EmptyScanWeight
		}
	}
	unknown := b.pos.Set(battleship.Unknown)
	if unknown.Empty() {
		unknown = b.relax(b.pos).Set(battleship.Unknown)
	}
	if unknown.Empty() {
		unknown = b.rules.Base.Board.Usable().AndNot(b.water)
	}
	if unknown.Empty() {
		unknown = b.rules.Base.Board.Usable()
	}
	return p, unknown
}

// hiddenDensity is the density of the hidden belief and the cells worth a
// shot (not known to be a ship cell, and a chance of a ship: a miss may
// hide the lie); nil when the bot is on the classic belief or no layout
// was drawn.
func (b *Bot) hiddenDensity() ([]float64, grid.Set) {
	if b.track == nil {
		return nil, grid.Set{}
	}
	est := b.track.Estimate(b.rng, b.cfg.Samples, b.cfg.HistoryWork)
	if est.Stats.Consistent == 0 {
		return nil, grid.Set{}
	}
	p := make([]float64, b.rules.Base.Board.Size())
	var unknown grid.Set
	for c := range b.rules.Base.Board.Usable().AndNot(b.track.Hits()).All() {
		p[c] = est.Share(c)
		if p[c] > 0 || !b.track.Shot().Has(c) {
			unknown.Add(c)
		}
	}
	if unknown.Empty() {
		return nil, grid.Set{}
	}
	return p, unknown
}

// scanCell picks, among the cells within SpecialTop of the best cell's
// chance, the one whose 5x5 holds the most uncertain number of ships (the
// sum of the chances of its cells closest to half its cells' worth: a
// cheap stand-in for the count's entropy).
func (b *Bot) scanCell(cells grid.Set, p []float64, best grid.Cell) grid.Cell {
	board := b.rules.Base.Board
	top := p[best] * b.cfg.SpecialTop
	pick, score := best, -1.0
	for c := range cells.All() {
		if p[c] < top {
			continue
		}
		var sum, v float64
		for d := range board.Usable().All() {
			if board.Chebyshev(c, d) <= 2 {
				sum += p[d]
				v += p[d] * (1 - p[d])
			}
		}
		if v > score {
			pick, score = c, v
		}
	}
	return pick
}

// enemyView turns an event told to the bot into what the enemy was told of
// it, for the enemy's belief about the bot's own fleet: a false miss was a
// miss, and an own move is only "a 1-deck moved" (nothing under HideMoves).
func enemyView(ev abilities.Event, hide bool) abilities.Event {
	v := ev
	v.Mine = !ev.Mine
	if ev.Kind == abilities.Move && ev.Mine {
		v.From, v.To, v.Moved, v.Silent = -1, -1, !hide, hide
	}
	if slices.ContainsFunc(ev.Cells, func(r abilities.CellResult) bool { return r.FalseMiss }) {
		v.Cells = slices.Clone(ev.Cells)
		for i, r := range v.Cells {
			if r.FalseMiss {
				v.Cells[i] = abilities.CellResult{At: r.At}
			}
		}
	}
	return v
}

// best returns the most likely cell of cells, ties broken at random.
func (b *Bot) best(cells grid.Set, p []float64) grid.Cell {
	var top []grid.Cell
	for c := range cells.All() {
		switch {
		case len(top) == 0 || p[c] > p[top[0]]:
			top = []grid.Cell{c}
		case p[c] == p[top[0]]:
			top = append(top, c)
		}
	}
	return top[b.rng.IntN(len(top))]
}

// salvo returns the best salvo and its expected hits.
func (b *Bot) salvo(unknown grid.Set, p []float64) (abilities.Action, float64) {
	board := b.rules.Base.Board
	var best abilities.Action
	bestV := -1.0
	for c := range board.Usable().All() {
		if b.rules.Sides[b.seat] == abilities.AI {
			for _, n := range abilities.Neighbours(board, c) {
				if n < c {
					continue
				}
				v := 0.0
				for _, x := range []grid.Cell{c, n} {
					if unknown.Has(x) {
						v += p[x]
					}
				}
				if v > bestV {
					best, bestV = abilities.Action{Kind: abilities.Salvo, At: c, To: n}, v
				}
			}
			continue
		}
		// the Humans' 3x3: the defender names the cells; assume its 3 least
		// likely unshot ones (the candidates are the cells not fired at,
		// which the bot knows as not Water/Damaged/Sunk... approximately
		// its unknown cells)
		var vs []float64
		for x := range board.Around(c).Intersect(unknown).All() {
			vs = append(vs, p[x])
		}
		if len(vs) == 0 {
			continue
		}
		slices.Sort(vs)
		v := 0.0
		for _, x := range vs[:min(3, len(vs))] {
			v += x
		}
		if v > bestV {
			best, bestV = abilities.Action{Kind: abilities.Salvo, At: c, To: c}, v
		}
	}
	return best, bestV
}

// escape moves the most threatened 1-deck, if the threat is high enough
// and a free neighbour is enough safer.
func (b *Bot) escape() (abilities.Action, bool) {
	moves := b.own.moves()
	if len(moves) == 0 {
		return abilities.Action{}, false
	}
	threat := b.threatDensity()
	var best abilities.Action
	gain := -1.0
	for _, m := range moves {
		if threat[m.At] < b.cfg.MoveThreshold {
			continue
		}
		if g := threat[m.At] - threat[m.To]; g >= b.cfg.MoveGain && g > gain {
			best, gain = m, g
		}
	}
	return best, gain >= 0
}

// threatDensity is the enemy's chance of a ship on each own cell: from the
// enemy's hidden belief about the own fleet, else the classic density of
// the enemy's shots.
func (b *Bot) threatDensity() []float64 {
	if b.threat != nil {
		est := b.threat.Estimate(b.rng, b.cfg.Samples, b.cfg.HistoryWork)
		if est.Stats.Consistent > 0 {
			p := make([]float64, b.rules.Base.Board.Size())
			for c := range p {
				p[c] = est.Share(grid.Cell(c))
			}
			return p
		}
	}
	return b.density(b.own.enemyPos)
}

// answer makes the defender's choices.
func (b *Bot) answer(q *abilities.Question) abilities.Action {
	if b.own == nil {
		return randomAnswer(q, b.rng)
	}
	i := b.own.shipAt(q.At)
	onFour := i >= 0 && len(b.own.ships[i]) == abilities.DefenderLen
	switch q.Ask {
	case abilities.AskFalseMiss:
		return abilities.Action{Kind: abilities.Defend, Use: b.cfg.Abilities && onFour && !b.fmHit}
	case abilities.AskAirDefence:
		return abilities.Action{Kind: abilities.Defend, Use: b.cfg.Abilities && (onFour || b.cfg.AirDefenceNear)}
	}
	var water, ships []grid.Cell
	for c := range q.Cells.All() {
		if b.own.shipAt(c) < 0 {
			water = append(water, c)
		} else {
			ships = append(ships, c)
		}
	}
	b.rng.Shuffle(len(water), func(i, j int) { water[i], water[j] = water[j], water[i] })
	b.rng.Shuffle(len(ships), func(i, j int) { ships[i], ships[j] = ships[j], ships[i] })
	return abilities.Action{Kind: abilities.Reveal, Cells: append(water, ships...)[:q.Count]}
}

// density is the share of the consistent layouts with a ship on each cell
// of pos: exact within the budget, sampled otherwise. When no layout is
// consistent (a false miss, or a 1-deck that moved next to a miss), the
// misses next to hits are forgotten and it tries again; failing that, every
// unknown cell is equally likely.
func (b *Bot) density(pos *battleship.Position) []float64 {
	if p, ok := b.tryDensity(pos); ok {
		return p
	}
	relaxed := b.relax(pos)
	if p, ok := b.tryDensity(relaxed); ok {
		return p
	}
	p := make([]float64, b.rules.Base.Board.Size())
	for c := range relaxed.Set(battleship.Unknown).All() {
		p[c] = 1
	}
	return p
}

// relax forgets the misses next to unsunk hits (one of them may be a false
// miss), except the ones a second miss proved.
func (b *Bot) relax(pos *battleship.Position) *battleship.Position {
	relaxed := pos.Clone()
	for c := range pos.Set(battleship.Damaged).All() {
		for _, n := range abilities.Neighbours(b.rules.Base.Board, c) {
			if relaxed.Marks[n] == battleship.Water && !b.water.Has(n) {
				relaxed.Marks[n] = battleship.Unknown
			}
		}
	}
	return relaxed
}

func (b *Bot) tryDensity(pos *battleship.Position) ([]float64, bool) {
	n := b.rules.Base.Board.Size()
	p := make([]float64, n)
	if b.cfg.Budget > 0 {
		counts, err := b.count.Count(context.Background(), pos, bsbelief.CountOptions{MaxWork: bsplayers.MaxWork(b.cfg.Budget, b.cfg.WorkPerMS)})
		if err == nil && counts.Total.Sign() > 0 {
			total := new(big.Float).SetInt(counts.Total)
			for c, v := range counts.Cells {
				p[c], _ = new(big.Float).Quo(new(big.Float).SetInt(v), total).Float64()
			}
			return p, true
		}
	}
	est, err := bsbelief.EstimateCounts(pos, b.rng, b.cfg.Samples)
	if err != nil || est.Kept == 0 {
		return nil, false
	}
	for c := range p {
		p[c] = est.Share(grid.Cell(c))
	}
	return p, true
}
