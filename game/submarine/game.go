package submarine

import (
	"errors"
	"fmt"

	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/game/grid"
)

// Fleet is one side's ships: cell and hp per fleet index. A sunk ship has hp 0,
// is not in Alive and not in Occupied.
type Fleet struct {
	Pos      [MaxShips]grid.Cell
	HP       [MaxShips]int8
	Alive    ShipMask
	Occupied grid.Set
}

// NewFleet places the fleet of r as p (which must be valid) at full hp.
func NewFleet(r *Rules, p Placement) Fleet {
	var f Fleet
	for i := range f.Pos {
		f.Pos[i] = grid.None
	}
	for i, c := range p {
		f.Pos[i] = c
		f.HP[i] = int8(r.Fleet[i].HP)
		f.Alive = f.Alive.With(i)
		f.Occupied.Add(c)
	}
	return f
}

// ShipAt returns the living ship on c, or NoShip.
func (f *Fleet) ShipAt(c grid.Cell) int {
	if !f.Occupied.Has(c) {
		return NoShip
	}
	for i := range MaxShips {
		if f.Alive.Has(i) && f.Pos[i] == c {
			return i
		}
	}
	return NoShip
}

// Reach is the set of cells this fleet may attack: every usable cell within
// Chebyshev distance 1 of a living ship.
func (r *Rules) Reach(f *Fleet) grid.Set {
	var s grid.Set
	for i := range len(r.Fleet) {
		if f.Alive.Has(i) {
			s = s.Union(r.Board.Around(f.Pos[i]))
		}
	}
	return s
}

// MoveTargets is the set of legal destinations of ship i of f: the usable cells
// of its row and column that hold no own ship. It is empty for a sunk ship.
func (r *Rules) MoveTargets(f *Fleet, i int) grid.Set {
	if i < 0 || i >= len(r.Fleet) || !f.Alive.Has(i) {
		return grid.Set{}
	}
	return r.Board.Lines(f.Pos[i]).AndNot(f.Occupied)
}

// ErrIllegal wraps every reason an action is illegal.
var ErrIllegal = errors.New("submarine: illegal action")

// CheckAction reports why a is illegal for fleet f, or nil when it is legal.
func (r *Rules) CheckAction(f *Fleet, a Action) error {
	switch a.Kind {
	case Attack:
		if !r.Board.IsUsable(a.To) {
			return fmt.Errorf("%w: attack on %s, which is off the board or a rock", ErrIllegal, r.CellName(a.To))
		}
		for i := range len(r.Fleet) {
			if f.Alive.Has(i) && r.Board.Around(f.Pos[i]).Has(a.To) {
				return nil
			}
		}
		return fmt.Errorf("%w: attack on %s is out of reach of every living ship", ErrIllegal, r.CellName(a.To))
	case Move:
		if a.Ship < 0 || a.Ship >= len(r.Fleet) {
			return fmt.Errorf("%w: move of unknown ship %d", ErrIllegal, a.Ship)
		}
		name := r.Fleet[a.Ship].Name
		if !f.Alive.Has(a.Ship) {
			return fmt.Errorf("%w: move of sunk ship %q", ErrIllegal, name)
		}
		if !r.Board.IsUsable(a.To) {
			return fmt.Errorf("%w: move of %q to %s, which is off the board or a rock", ErrIllegal, name, r.CellName(a.To))
		}
		from := f.Pos[a.Ship]
		if from == a.To {
			return fmt.Errorf("%w: move of %q onto its own cell %s", ErrIllegal, name, r.CellName(a.To))
		}
		fx, fy := r.Board.XY(from)
		tx, ty := r.Board.XY(a.To)
		if fx != tx && fy != ty {
			return fmt.Errorf("%w: move of %q from %s to %s is not along a row or column", ErrIllegal, name, r.CellName(from), r.CellName(a.To))
		}
		if f.Occupied.Has(a.To) {
			return fmt.Errorf("%w: move of %q onto own ship at %s", ErrIllegal, name, r.CellName(a.To))
		}
		return nil
	default:
		return fmt.Errorf("%w: neither attack nor move", ErrIllegal)
	}
}

// CellName names c for people, a column letter and a row from 1 ("C4" is
// x 2, y 3), or "off-board(n)" when c is not a board index. The wire's
// form is WireCoord's [x,y].
func (r *Rules) CellName(c grid.Cell) string { return r.Board.Name(c) }

// WireCoord is c as the wire writes it, [x,y] ("[2,3]" for C4).
func (r *Rules) WireCoord(c grid.Cell) string {
	x, y := r.Board.XY(c)
	return fmt.Sprintf("[%d,%d]", x, y)
}

// Event is what one side is told about one action (its own or the enemy's).
//
// For an attack both sides are told the same: At, Hit (NoShip when nothing was
// hit), Sunk and Near (the defender's other living ships within distance 1 of
// At, computed before a sinking). For a move the mover knows its ship and
// destination (Ship, To, DX, DY); the other side is told Ship, DX and DY only
// (To is grid.None). An illegal action sets Illegal; its Kind says which kind
// was attempted (Invalid when it was neither).
type Event struct {
	Mine    bool // the action was this side's own
	Kind    Kind
	Illegal bool
	At      grid.Cell
	Hit     int
	Sunk    bool
	Near    ShipMask
	Ship    int
	To      grid.Cell
	DX, DY  int
}

// Step is the result of applying one action.
type Step struct {
	Seat   int // who acted
	Action Action
	Actor  Event // what the actor is told
	Other  Event // what the other side is told
	Status game.Status
	Winner int // seat of the winner when Status == game.Won
}

// Game is the full (omniscient) state of one game. It is not safe for
// concurrent use; one goroutine owns each game.
type Game struct {
	rules   *Rules
	fleets  [2]Fleet
	turn    int
	actions int
	status  game.Status
	winner  int
}

// NewGame starts a game with both placements; seat first acts first.
func NewGame(r *Rules, p0, p1 Placement, first int) (*Game, error) {
	if err := r.ValidatePlacement(p0); err != nil {
		return nil, fmt.Errorf("seat 0: %w", err)
	}
	if err := r.ValidatePlacement(p1); err != nil {
		return nil, fmt.Errorf("seat 1: %w", err)
	}
	if first != 0 && first != 1 {
		return nil, fmt.Errorf("submarine: first seat %d must be 0 or 1", first)
	}
	return &Game{rules: r, fleets: [2]Fleet{NewFleet(r, p0), NewFleet(r, p1)}, turn: first, winner: -1}, nil
}

// Rules returns the game's rules.
func (g *Game) Rules() *Rules { return g.rules }

// ToAct is the seat to act now.
func (g *Game) ToAct() int { return g.turn }

// Actions is the number of actions applied so far.
func (g *Game) Actions() int { return g.actions }

// Status reports whether the game is over and how.
func (g *Game) Status() game.Status { return g.status }

// Winner is the winning seat, or -1 while running or on a draw.
func (g *Game) Winner() int { return g.winner }

// Fleet returns a copy of seat's fleet.
func (g *Game) Fleet(seat int) Fleet { return g.fleets[seat] }

// Forfeit ends the game with seat losing (a disconnect, a timeout, a protocol
// error: anything outside the rules that the server decides).
func (g *Game) Forfeit(seat int) {
	if g.status != game.Running {
		return
	}
	g.status = game.Won
	g.winner = 1 - seat
}

// Apply plays action a for the seat to act (ToAct) and returns what each side
// is told. An illegal action loses the game at once: the error says why (it
// wraps ErrIllegal) and the Step still tells both sides of it (Event.Illegal)
// with the Status it leaves. Apply on a finished game returns an error and a
// Step with the final Status, and changes nothing.
func (g *Game) Apply(a Action) (Step, error) {
	var st Step
	err := g.ApplyInto(a, &st)
	return st, err
}

// ApplyInto is Apply with the step written to *st (game.StepInto): the
// hosts that keep the step in a buffer of their own spare its copy.
func (g *Game) ApplyInto(a Action, st *Step) error {
	seat := g.turn
	if g.status != game.Running {
		*st = Step{Seat: seat, Action: a, Status: g.status, Winner: g.winner}
		return fmt.Errorf("submarine: game is over")
	}
	// Every way below sets the step's events, Status and Winner, so *st is
	// not cleared first (TestApplyIntoOverwritesStep).
	st.Seat, st.Action = seat, a
	r := g.rules
	me, enemy := &g.fleets[seat], &g.fleets[1-seat]
	if !inReach(r, me, a) {
		if err := r.CheckAction(me, a); err != nil {
			ev := Event{Kind: a.Kind, Illegal: true, At: grid.None, Hit: NoShip, Ship: NoShip, To: grid.None}
			st.Actor, st.Other = ev, ev
			st.Actor.Mine = true
			g.actions++
			g.status, g.winner = game.Won, 1-seat
			st.Status, st.Winner = g.status, g.winner
			return err
		}
	}
	switch a.Kind {
	case Attack:
		ev := Event{Kind: Attack, At: a.To, Hit: NoShip, Ship: NoShip, To: grid.None}
		hit := enemy.ShipAt(a.To)
		// A game's fleet is valid: Occupied is the cells of its living
		// ships, so no enemy ship is near when none stands around a.To.
		if around := r.Board.Around(a.To); around.Intersects(enemy.Occupied) {
			for i := range len(r.Fleet) {
				if i != hit && enemy.Alive.Has(i) && around.Has(enemy.Pos[i]) {
					ev.Near = ev.Near.With(i)
				}
			}
		}
		if hit != NoShip {
			ev.Hit = hit
			enemy.HP[hit]--
			if enemy.HP[hit] <= 0 {
				enemy.HP[hit] = 0
				ev.Sunk = true
				enemy.Alive = enemy.Alive.Without(hit)
				enemy.Occupied.Remove(a.To)
			}
		}
		st.Actor, st.Other = ev, ev
		st.Actor.Mine = true
	case Move:
		from := me.Pos[a.Ship]
		fx, fy := r.Board.XY(from)
		tx, ty := r.Board.XY(a.To)
		me.Occupied.Remove(from)
		me.Occupied.Add(a.To)
		me.Pos[a.Ship] = a.To
		ev := Event{Kind: Move, At: grid.None, Hit: NoShip, Ship: a.Ship, To: grid.None, DX: tx - fx, DY: ty - fy}
		st.Other = ev
		ev.Mine, ev.To = true, a.To
		st.Actor = ev
	}
	g.actions++
	switch {
	case enemy.Alive == 0:
		g.status, g.winner = game.Won, seat
	case g.actions >= r.DrawLimit:
		g.status = game.Drawn
	}
	g.turn = 1 - seat
	st.Status, st.Winner = g.status, g.winner
	return nil
}

// inReach reports that a is an attack of a game's fleet f on a usable cell
// that a living ship of f reaches: CheckAction's verdict on the commonest
// action, found with one set intersection. A game's fleet is valid (its
// ships on usable cells, Occupied the cells of the living ones) and Around
// is symmetric between usable cells, so a ship reaches a.To when it stands
// around a.To. false says nothing: CheckAction decides.
func inReach(r *Rules, f *Fleet, a Action) bool {
	return a.Kind == Attack && r.Board.IsUsable(a.To) && r.Board.Around(a.To).Intersects(f.Occupied)
}

// View is what one side knows after an action besides the Event itself: its
// own fleet (cells and hp) and the enemy's hp per ship (0 = sunk). It is the
// wire protocol's "condition".
type View struct {
	Me      Fleet
	EnemyHP [MaxShips]int8
}

// View returns what seat knows of the current state.
func (g *Game) View(seat int) View {
	v := View{Me: g.fleets[seat]}
	v.EnemyHP = g.fleets[1-seat].HP
	return v
}
