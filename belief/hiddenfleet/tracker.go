package hiddenfleet

import (
	"errors"
	"fmt"
	"slices"

	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/game/abilities"
	"github.com/kaisen-ai/kaisen/game/battleship"
	"github.com/kaisen-ai/kaisen/game/grid"
)

// ErrTracker reports a tracker that cannot be built (a seat not 0 or 1,
// more 1-decks than MaxOnes).
var ErrTracker = errors.New("hiddenfleet: bad tracker")

// MaxOnes is the most 1-decks a fleet may have for a Tracker.
const MaxOnes = 12

// answer is the kind of one recorded answer to the seat's fire.
type answer uint8

const (
	ansMiss  answer = iota // "miss" at a cell first shot: water, or the lie
	ansWater               // "miss" at a cell shot before: water
	ansHit                 // a new hit
	ansKill                // a new kill (the sunk ship recorded)
	ansAir                 // "air defence": no shot happened
)

// shot is one answer to the seat's fire, in order (seq).
type shot struct {
	at    grid.Cell
	kind  answer
	seq   int
	epoch int
	// centres of the seat's suppressing shots (Humans' 3-deck) so far in
	// this turn, this shot's own included: under Options.SuppressPassive
	// a 4-deck near one of them could neither lie nor air-defend
	centres []grid.Cell
}

// scan is the AI's 5x5 count made with the shot seq.
type scan struct {
	at         grid.Cell
	count      int
	seq, epoch int
}

// bound separates epoch e from e+1: an enemy turn in which a 1-deck moved
// (exact: one did, the enemy was told) or may have moved (HideMoves).
type bound struct {
	exact   bool
	centres []grid.Cell // the seat's suppressing shots of its turn before: those ships could not move
}

// use is the enemy's salvo (length 2) or 3-deck shot (length 3) in a turn
// after the seat suppressed ships: one ship of that length was not.
type use struct {
	length  int
	centres []grid.Cell
	seq     int
}

// volley is one of the seat's salvoes under Options.SalvoShootsAgain that
// hit something new: whether its turn went on tells whether one of its
// misses was a lie.
type volley struct {
	misses []grid.Cell
	lie    bool
}

// sunkShip is an enemy ship the seat sank.
type sunkShip struct {
	cells      battleship.Ship
	seq, epoch int
}

// Tracker is one seat's record of what it was told about the enemy fleet.
// Feed it every event the seat is told (Observe); ask it for the layouts
// consistent with them (Consistent, Layouts, Estimate). It is not safe for
// concurrent use.
type Tracker struct {
	rules  *abilities.Rules
	board  *grid.Board
	seat   int
	enemy  abilities.Side
	mine   abilities.Side
	opt    abilities.Options
	big    []int // the enemy's ship lengths of 2 or more, longest first
	ones   int   // the enemy's 1-decks
	around []grid.Set
	scan5  []grid.Set // the 5x5 around each cell

	seq     int
	shots   []shot
	scans   []scan
	bounds  []bound
	uses    []use
	sunk    []sunkShip
	volleys []volley
	shotSet grid.Set   // cells the seat fired at (air-defended ones are not shot)
	shotAt  []grid.Set // shotAt[e]: the cells shot by the end of the closed epoch e
	hits    grid.Set   // cells answered hit or kill
	sunkSet grid.Set   // cells of sunk ships

	enemyTurn   bool
	turnCentres []grid.Cell // the seat's suppressing shots in its current turn
	prevCentres []grid.Cell // those of its last finished turn
}

// New returns the tracker of seat (whose enemy is the other seat) under r.
func New(r *abilities.Rules, seat int) (*Tracker, error) {
	if seat != 0 && seat != 1 {
		return nil, fmt.Errorf("%w: seat %d", ErrTracker, seat)
	}
	b := r.Base.Board
	t := &Tracker{rules: r, board: b, seat: seat, enemy: r.Sides[1-seat], mine: r.Sides[seat], opt: r.Options,
		around: make([]grid.Set, b.Size()), scan5: make([]grid.Set, b.Size())}
	for _, l := range r.Base.Fleet {
		if l == 1 {
			t.ones++
		} else {
			t.big = append(t.big, l)
		}
	}
	if t.ones > MaxOnes {
		return nil, fmt.Errorf("%w: %d 1-decks, at most %d", ErrTracker, t.ones, MaxOnes)
	}
	slices.SortFunc(t.big, func(a, b int) int { return b - a })
	for c := range b.Usable().All() {
		t.around[c] = b.Around(c)
		for d := range b.Usable().All() {
			if b.Chebyshev(c, d) <= 2 {
				t.scan5[c].Add(d)
			}
		}
	}
	return t, nil
}

// Epoch is the number of enemy turns with a (possible) move so far.
func (t *Tracker) Epoch() int { return len(t.bounds) }

// Shot is the set of cells the seat has fired at.
func (t *Tracker) Shot() grid.Set { return t.shotSet }

// Hits is the set of cells answered hit or kill.
func (t *Tracker) Hits() grid.Set { return t.hits }

// Sunk is the set of cells of the enemy ships sunk.
func (t *Tracker) Sunk() grid.Set { return t.sunkSet }

// SunkShips lists the enemy ships sunk, in the order they sank.
func (t *Tracker) SunkShips() battleship.Placement {
	out := make(battleship.Placement, len(t.sunk))
	for i, s := range t.sunk {
		out[i] = slices.Clone(s.cells)
	}
	return out
}

// Observe records one event told to the seat (every event it is delivered;
// a silent one is ignored).
func (t *Tracker) Observe(ev abilities.Event) {
	if ev.Silent {
		return
	}
	enemy := 1 - t.seat
	if ev.Attacker == enemy {
		if !t.enemyTurn {
			t.enemyTurn = true
			t.prevCentres, t.turnCentres = t.turnCentres, nil
			if t.opt.HideMoves && t.onesAfloat() > 0 {
				t.closeEpoch(false)
			}
		}
		switch {
		case ev.Kind == abilities.Move && ev.Seat == enemy && ev.Moved:
			t.closeEpoch(true)
		case ev.Kind == abilities.Salvo && ev.Seat == enemy && len(t.prevCentres) > 0:
			t.uses = append(t.uses, use{length: abilities.SalvoLen, centres: t.prevCentres, seq: t.seq})
		}
		if ev.Special && len(t.prevCentres) > 0 {
			t.uses = append(t.uses, use{length: abilities.SpecialLen, centres: t.prevCentres, seq: t.seq})
		}
		if ev.TurnEnd {
			t.enemyTurn = false
		}
		return
	}
	if ev.Kind == abilities.Move {
		return
	}
	if ev.Special && t.mine == abilities.Humans && len(ev.Cells) > 0 {
		t.turnCentres = append(t.turnCentres, ev.Cells[0].At)
	}
	for i, r := range ev.Cells {
		t.seq++
		if i == 0 && ev.Scan >= 0 && !r.AirDefence {
			t.scans = append(t.scans, scan{at: r.At, count: ev.Scan, seq: t.seq, epoch: len(t.bounds)})
		}
		s := shot{at: r.At, seq: t.seq, epoch: len(t.bounds), centres: t.turnCentres}
		switch {
		case r.AirDefence:
			s.kind = ansAir
		case r.Outcome == battleship.Miss && r.Repeat:
			s.kind = ansWater
		case r.Outcome == battleship.Miss:
			s.kind = ansMiss
		case r.Repeat:
			continue // a hit or kill already told
		case r.Outcome == battleship.Hit:
			s.kind = ansHit
		default:
			s.kind = ansKill
			sh := slices.Clone(r.Sunk)
			slices.Sort(sh)
			t.sunk = append(t.sunk, sunkShip{cells: sh, seq: t.seq, epoch: len(t.bounds)})
			t.sunkSet = t.sunkSet.Union(grid.Of(sh...))
		}
		if s.kind != ansAir {
			t.shotSet.Add(r.At)
		}
		if s.kind == ansHit || s.kind == ansKill {
			t.hits.Add(r.At)
		}
		t.shots = append(t.shots, s)
	}
	t.observeVolley(ev)
}

// observeVolley records, under SalvoShootsAgain, whether a salvo that hit
// something new met a lie: its turn ends only if a defence was answered.
func (t *Tracker) observeVolley(ev abilities.Event) {
	if !t.opt.SalvoShootsAgain || ev.Ask != nil || ev.Status != game.Running ||
		(ev.Kind != abilities.Salvo && ev.Kind != abilities.Reveal) {
		return
	}
	v := volley{lie: ev.TurnEnd}
	hit := false
	for _, r := range ev.Cells {
		switch {
		case r.AirDefence:
			return // a defence told: the turn ends anyway
		case r.Outcome == battleship.Miss && !r.Repeat:
			v.misses = append(v.misses, r.At)
		case r.Outcome != battleship.Miss && !r.Repeat:
			hit = true
		}
	}
	if hit {
		t.volleys = append(t.volleys, v)
	}
}

func (t *Tracker) closeEpoch(exact bool) {
	t.shotAt = append(t.shotAt, t.shotSet)
	t.bounds = append(t.bounds, bound{exact: exact, centres: t.prevCentres})
}

func (t *Tracker) onesAfloat() int {
	n := t.ones
	for _, s := range t.sunk {
		if len(s.cells) == 1 {
			n--
		}
	}
	return n
}

// shotBy is the set of cells shot by the end of epoch e.
func (t *Tracker) shotBy(e int) grid.Set {
	if e < len(t.shotAt) {
		return t.shotAt[e]
	}
	return t.shotSet
}
