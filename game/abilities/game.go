package abilities

import (
	"fmt"
	"slices"

	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/game/battleship"
	"github.com/kaisen-ai/kaisen/game/grid"
)

// fleet is one seat's ships under the enemy's fire.
type fleet struct {
	ships     []battleship.Ship // current cells (1-decks move)
	owner     []int             // cell -> ship index, -1 for water
	hp        []int
	shot      grid.Set // cells the enemy fired at (a false miss included, an air defence not)
	damaged   grid.Set // ship cells answered hit or kill
	falseMiss grid.Set // the ship cell answered "miss" (at most one)
	afloat    int
	fmSpent   bool // the AI's false miss is spent
	airLeft   int  // the Humans' air defences left
}

func newFleet(r *Rules, p battleship.Placement) (*fleet, error) {
	if err := r.Base.ValidatePlacement(p); err != nil {
		return nil, err
	}
	p = p.Normalize()
	f := &fleet{owner: make([]int, r.Base.Board.Size()), hp: make([]int, len(p)), afloat: len(p), airLeft: AirDefenceCharges}
	for i := range f.owner {
		f.owner[i] = -1
	}
	for i, sh := range p {
		f.ships = append(f.ships, slices.Clone(sh))
		f.hp[i] = len(sh)
		for _, c := range sh {
			f.owner[c] = i
		}
	}
	return f, nil
}

func (f *fleet) clone() *fleet {
	o := *f
	o.ships = make([]battleship.Ship, len(f.ships))
	for i, s := range f.ships {
		o.ships[i] = slices.Clone(s)
	}
	o.owner = slices.Clone(f.owner)
	o.hp = slices.Clone(f.hp)
	return &o
}

func (f *fleet) cells() grid.Set {
	var s grid.Set
	for _, sh := range f.ships {
		for _, c := range sh {
			s.Add(c)
		}
	}
	return s
}

// turnUse is what the attacker has used in the current turn.
type turnUse struct{ move, salvo, special bool }

// Game is the full (omniscient) state of one game. It is not safe for
// concurrent use; Clone copies it.
type Game struct {
	rules  *Rules
	fleets [2]*fleet // fleets[s] is seat s's own fleet
	turn   int       // the attacker
	used   turnUse
	// suppression by ship index (bit i): next is set by the enemy's
	// suppressing shot, now holds during the seat's own turn.
	supNext, supNow [2]uint64
	// the volley being resolved: cells still to answer, and how it ends
	volley   []grid.Cell
	salvo    bool
	special  bool
	again    bool // the volley so far earns another turn (a shot: no miss, no repeat, no defence)
	defended bool // a defence was answered in the volley
	newHit   bool
	ask      *Question
	fired3   bool // the 3-deck's shot was fired in the current Apply
	// held is the attacker's view of the volley while the defender weighs
	// a defence: the attacker is told the volley at once when it is
	// answered, as if no question had been asked (a question would tell it
	// that the shot was on or next to the 4-deck)
	held   *Event
	shots  [2]int // cells fired at by each seat (air defences included)
	status game.Status
	winner int
}

// NewGame starts a game with both placements; seat first acts first.
func NewGame(r *Rules, p0, p1 battleship.Placement, first int) (*Game, error) {
	if err := r.Validate(); err != nil {
		return nil, err
	}
	if first != 0 && first != 1 {
		return nil, fmt.Errorf("abilities: first seat %d must be 0 or 1", first)
	}
	g := &Game{rules: r, turn: first, winner: -1}
	for seat, p := range []battleship.Placement{p0, p1} {
		f, err := newFleet(r, p)
		if err != nil {
			return nil, fmt.Errorf("abilities: seat %d: %w", seat, err)
		}
		g.fleets[seat] = f
	}
	return g, nil
}

// Clone returns an independent copy of g.
func (g *Game) Clone() *Game {
	o := *g
	o.fleets = [2]*fleet{g.fleets[0].clone(), g.fleets[1].clone()}
	o.volley = slices.Clone(g.volley)
	if g.held != nil {
		h := *g.held
		h.Cells = slices.Clone(h.Cells)
		o.held = &h
	}
	if g.ask != nil {
		q := *g.ask
		o.ask = &q
	}
	return &o
}

// Rules returns the game's rules.
func (g *Game) Rules() *Rules { return g.rules }

// Turn is the attacker: the seat whose turn it is. It is not always the
// seat to act: while a Question is pending the defender answers it (ToAct).
func (g *Game) Turn() int { return g.turn }

// ToAct is the seat to act now: the defender while a Question is pending,
// the attacker (Turn) otherwise.
func (g *Game) ToAct() int {
	if g.ask != nil {
		return g.ask.Seat
	}
	return g.turn
}

// Pending is the question the defender must answer, nil when none.
func (g *Game) Pending() *Question {
	if g.ask == nil {
		return nil
	}
	q := *g.ask
	return &q
}

// Status reports whether the game is over and how.
func (g *Game) Status() game.Status { return g.status }

// Winner is the winning seat, -1 while running or on a draw.
func (g *Game) Winner() int { return g.winner }

// Shots is the number of cells seat has fired at.
func (g *Game) Shots(seat int) int { return g.shots[seat] }

// Ships returns seat's ships where they are now (a copy).
func (g *Game) Ships(seat int) battleship.Placement {
	out := make(battleship.Placement, len(g.fleets[seat].ships))
	for i, s := range g.fleets[seat].ships {
		out[i] = slices.Clone(s)
	}
	return out
}

// Afloat reports whether ship i of seat is afloat.
func (g *Game) Afloat(seat, i int) bool { return g.fleets[seat].hp[i] > 0 }

// Shot is the set of seat's cells the enemy has fired at.
func (g *Game) Shot(seat int) grid.Set { return g.fleets[seat].shot }

// FalseMissSpent reports whether seat (AI) has spent its false miss.
func (g *Game) FalseMissSpent(seat int) bool { return g.fleets[seat].fmSpent }

// AirDefenceLeft is how many air defences seat (Humans) has left.
func (g *Game) AirDefenceLeft(seat int) int { return g.fleets[seat].airLeft }

// Used reports whether the attacker has used the ability of ships of
// length l (1 to 3) in the current turn.
func (g *Game) Used(l int) bool {
	switch l {
	case MoverLen:
		return g.used.move
	case SalvoLen:
		return g.used.salvo
	case SpecialLen:
		return g.used.special
	}
	return false
}

// Suppressed reports whether ship i of seat cannot use its ability in its
// current turn (a Humans' 3-deck shot near it in the enemy's turn before).
func (g *Game) Suppressed(seat, i int) bool {
	return g.supNow[seat]&(1<<uint(i)) != 0
}

// CanUse reports whether the attacker may now use the active ability of
// its ships of length l (1 to 3): an afloat, unsuppressed ship of that
// length, the ability unused this turn, no question pending.
func (g *Game) CanUse(l int) bool {
	if g.status != game.Running || g.ask != nil || g.Used(l) || l < MoverLen || l > SpecialLen {
		return false
	}
	return g.hasActive(g.turn, l)
}

func (g *Game) hasActive(seat, l int) bool {
	f := g.fleets[seat]
	for i, s := range f.ships {
		if len(s) == l && f.hp[i] > 0 && !g.Suppressed(seat, i) {
			return true
		}
	}
	return false
}

// Apply plays a, the action of the seat to act (ToAct), and returns what
// each seat is told. An illegal action (or any action once the game is
// over) returns an error wrapping ErrIllegal (ErrOver) and changes nothing.
func (g *Game) Apply(a Action) (Step, error) {
	if g.status != game.Running {
		return Step{}, ErrOver
	}
	if err := g.check(a); err != nil {
		return Step{}, fmt.Errorf("%w: seat %d %s: %w", ErrIllegal, g.ToAct(), a, err)
	}
	seat := g.ToAct()
	att := g.turn
	st := Step{Seat: seat, Action: a}
	g.fired3 = false
	var res [2][]CellResult // by viewer
	scan := -1
	var ev [2]Event
	for v := range ev {
		ev[v] = Event{Seat: seat, Mine: v == seat, Attacker: g.turn, Kind: a.Kind, From: -1, To: -1, Scan: -1}
	}
	switch a.Kind {
	case Move:
		f := g.fleets[seat]
		i := f.owner[a.At]
		f.owner[a.At], f.owner[a.To] = -1, i
		f.ships[i][0] = a.To
		g.used.move = true
		ev[seat].Moved, ev[seat].From, ev[seat].To = true, a.At, a.To
		ev[1-seat].Moved = !g.rules.Options.HideMoves
		ev[1-seat].Silent = g.rules.Options.HideMoves
	case Shoot:
		g.special = a.Special
		if a.Special {
			g.used.special = true
		}
		g.startVolley([]grid.Cell{a.At}, false)
	case Salvo:
		g.used.salvo = true
		if g.rules.Sides[seat] == AI {
			g.startVolley([]grid.Cell{a.At, a.To}, true)
		} else {
			d := 1 - seat
			cand := g.rules.Base.Board.Around(a.At).AndNot(g.fleets[d].shot)
			if cand.Count() <= 3 {
				g.startVolley(cand.Cells(), true)
			} else {
				g.startVolley(nil, true)
				g.ask = &Question{Ask: AskReveal, Seat: d, At: a.At, Cells: cand, Count: 3}
			}
		}
	case Reveal:
		g.ask = nil
		cells := slices.Clone(a.Cells)
		slices.Sort(cells)
		g.volley = cells
	case Defend:
		q := g.ask
		g.ask = nil
		r := g.fire(q.At, a.Use, q.Ask)
		res = appendRes(res, r, &scan, g)
		g.volley = g.volley[1:]
	}
	if a.Kind != Move {
		g.resolve(&res, &scan)
	}
	for v := range ev {
		ev[v].Cells = res[v]
		ev[v].Scan = scan
		ev[v].Special = g.fired3
	}
	if a.Kind != Move && g.ask == nil && len(g.volley) == 0 && g.status == game.Running {
		g.endVolley(&ev)
	} else if a.Kind != Move && g.status != game.Running {
		ev[0].TurnEnd, ev[1].TurnEnd = true, true
	}
	if a.Kind == Shoot && a.Special && g.ask != nil {
		ev[g.ask.Seat].Special = true // the defender asked is told the shot it weighs, 3-deck included
	}
	if g.ask != nil {
		for v := range ev {
			if v == g.ask.Seat || g.ask.Ask == AskReveal {
				q := *g.ask
				ev[v].Ask = &q
			}
		}
	}
	for v := range ev {
		ev[v].Status, ev[v].Winner, ev[v].Next = g.status, g.winner, g.ToAct()
	}
	if a.Kind != Move {
		ev[att] = g.hold(ev[att])
	}
	st.Views = ev
	st.Status, st.Winner, st.Next = g.status, g.winner, g.ToAct()
	return st, nil
}

// hold returns the attacker's view of the step: while a defence question is
// pending it is held back (Silent) and merged into the view of the step that
// answers it, so the attacker is told each volley in one event whether or
// not the defender was asked.
func (g *Game) hold(v Event) Event {
	if g.held != nil {
		h := *g.held
		h.Cells = append(h.Cells, v.Cells...)
		if v.Scan >= 0 {
			h.Scan = v.Scan
		}
		h.Special = h.Special || v.Special
		h.Ask, h.Status, h.Winner, h.Next, h.TurnEnd = v.Ask, v.Status, v.Winner, v.Next, v.TurnEnd
		v = h
		g.held = nil
	}
	if g.ask != nil && g.ask.Ask != AskReveal {
		h := v
		g.held = &h
		v.Silent, v.Cells = true, nil
	}
	return v
}

func appendRes(res [2][]CellResult, r fired, scan *int, g *Game) [2][]CellResult {
	att := g.turn
	res[att] = append(res[att], r.shooter)
	res[1-att] = append(res[1-att], r.defender)
	if r.scan >= 0 {
		*scan = r.scan
	}
	return res
}

func (g *Game) startVolley(cells []grid.Cell, salvo bool) {
	g.volley, g.salvo, g.again, g.newHit, g.defended = cells, salvo, true, false, false
	if !salvo {
		return
	}
	g.special = false
}

// resolve answers the volley's cells in order until one needs a question or
// the game ends.
func (g *Game) resolve(res *[2][]CellResult, scan *int) {
	for len(g.volley) > 0 && g.ask == nil && g.status == game.Running {
		c := g.volley[0]
		if g.special && g.rules.Options.SuppressPassive && g.rules.Sides[g.turn] == Humans {
			g.suppress(c) // the suppressing shot itself meets no defence
		}
		if q := g.question(c); q != AskReveal {
			g.ask = &Question{Ask: q, Seat: 1 - g.turn, At: c}
			return
		}
		*res = appendRes(*res, g.fire(c, false, AskReveal), scan, g)
		g.volley = g.volley[1:]
	}
}

// question returns the defence question a shot at c raises, AskReveal when
// none.
func (g *Game) question(c grid.Cell) Ask {
	d := 1 - g.turn
	f := g.fleets[d]
	for i, s := range f.ships {
		if len(s) != DefenderLen || f.hp[i] == 0 {
			continue
		}
		if g.rules.Options.SuppressPassive && g.supNext[d]&(1<<uint(i)) != 0 {
			continue
		}
		switch g.rules.Sides[d] {
		case AI:
			if f.fmSpent || f.owner[c] != i || f.damaged.Has(c) {
				continue
			}
			if g.rules.Options.FalseMissAnyHit || f.hp[i] == len(s) {
				return AskFalseMiss
			}
		case Humans:
			if f.airLeft == 0 {
				continue
			}
			for _, sc := range s {
				if g.rules.Base.Board.Chebyshev(sc, c) <= 1 {
					return AskAirDefence
				}
			}
		}
	}
	return AskReveal
}

// fired is one cell's answer as each side sees it.
type fired struct {
	shooter, defender CellResult
	scan              int
}

// fire answers a shot at c; use spends the defence asked (ask) on it.
func (g *Game) fire(c grid.Cell, use bool, ask Ask) fired {
	att, d := g.turn, 1-g.turn
	f := g.fleets[d]
	g.shots[att]++
	out := fired{scan: -1}
	if use && ask == AskAirDefence {
		f.airLeft--
		g.again, g.defended = false, true
		r := CellResult{At: c, AirDefence: true}
		out.shooter, out.defender = r, r
		return out
	}
	r := CellResult{At: c, Repeat: f.shot.Has(c) && !f.falseMiss.Has(c)}
	f.shot.Add(c)
	if g.special {
		g.special, g.fired3 = false, true
		if g.rules.Sides[att] == AI {
			out.scan = g.scanCount(c)
		} else {
			g.suppress(c)
		}
	}
	i := f.owner[c]
	switch {
	case use && ask == AskFalseMiss:
		f.fmSpent = true
		f.falseMiss.Add(c)
		g.again, g.defended = false, true
		out.shooter = r
		r.Outcome, r.FalseMiss = battleship.Hit, true
		out.defender = r
		return out
	case i < 0:
		g.again = false
	case r.Repeat:
		r.Outcome = battleship.Hit
		if f.hp[i] == 0 {
			r.Outcome, r.Sunk = battleship.Kill, slices.Clone(f.ships[i])
		}
		g.again = false
	default:
		f.falseMiss.Remove(c)
		f.damaged.Add(c)
		f.hp[i]--
		g.newHit = true
		r.Outcome = battleship.Hit
		if f.hp[i] == 0 {
			f.afloat--
			r.Outcome, r.Sunk = battleship.Kill, slices.Clone(f.ships[i])
			slices.Sort(r.Sunk)
			if f.afloat == 0 {
				g.status, g.winner = game.Won, att
			}
		}
	}
	out.shooter, out.defender = r, r
	out.defender.Sunk = slices.Clone(r.Sunk)
	return out
}

// scanCount is the number of the defender's ships with a cell within the
// 5x5 centred on c.
func (g *Game) scanCount(c grid.Cell) int {
	f := g.fleets[1-g.turn]
	n := 0
	for i, s := range f.ships {
		if g.rules.Options.ScanAfloatOnly && f.hp[i] == 0 {
			continue
		}
		for _, sc := range s {
			if g.rules.Base.Board.Chebyshev(sc, c) <= 2 {
				n++
				break
			}
		}
	}
	return n
}

// suppress marks the defender's afloat ships within the 3x3 centred on c.
func (g *Game) suppress(c grid.Cell) {
	d := 1 - g.turn
	f := g.fleets[d]
	for i, s := range f.ships {
		if f.hp[i] == 0 {
			continue
		}
		for _, sc := range s {
			if g.rules.Base.Board.Chebyshev(sc, c) <= 1 {
				g.supNext[d] |= 1 << uint(i)
				break
			}
		}
	}
}

// endVolley decides, once every cell of a volley is answered, whether the
// attacker acts again, and passes the turn otherwise.
func (g *Game) endVolley(ev *[2]Event) {
	again := g.again && g.newHit && !g.salvo
	if g.salvo && g.rules.Options.SalvoShootsAgain {
		again = g.newHit && !g.defended
	}
	g.volley, g.salvo, g.special = nil, false, false
	if g.shots[0]+g.shots[1] >= g.rules.Base.DrawLimit {
		g.status = game.Drawn
		ev[0].TurnEnd, ev[1].TurnEnd = true, true
		return
	}
	if again {
		return
	}
	ev[0].TurnEnd, ev[1].TurnEnd = true, true
	att := g.turn
	g.supNow[att] = 0
	g.turn = 1 - att
	g.supNow[g.turn], g.supNext[g.turn] = g.supNext[g.turn], 0
	g.used = turnUse{}
}
