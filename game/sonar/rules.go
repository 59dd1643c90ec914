package sonar

import (
	"errors"
	"fmt"

	"github.com/kaisen-ai/kaisen/game"
)

// Name is the game's name in the registry.
const Name = "sonar"

// MaxBoats is the largest fleet.
const MaxBoats = 4

// Cell is a cell of a sea, y*Width + x; None is no cell.
type Cell int

// None is no cell (a sunk boat's, an enemy move's destination).
const None Cell = -1

// Rules are the game's settings.
type Rules struct {
	Width, Height int // the sea, at most 8x8
	Boats         int // boats per seat, 1 to MaxBoats
	DrawLimit     int // actions (both seats) after which the game is drawn
}

// DefaultRules are a 4x4 sea, two boats each, drawn after 60 actions.
func DefaultRules() *Rules { return &Rules{Width: 4, Height: 4, Boats: 2, DrawLimit: 60} }

// Validate checks the settings.
func (r *Rules) Validate() error {
	switch {
	case r.Width < 1 || r.Height < 1 || r.Width > 8 || r.Height > 8:
		return fmt.Errorf("sonar: a %dx%d sea, want 1x1 to 8x8", r.Width, r.Height)
	case r.Boats < 1 || r.Boats > MaxBoats || r.Boats >= r.Width*r.Height:
		return fmt.Errorf("sonar: %d boats, want 1 to %d and fewer than the cells", r.Boats, MaxBoats)
	case r.DrawLimit < 1:
		return fmt.Errorf("sonar: draw limit %d, want at least 1", r.DrawLimit)
	}
	return nil
}

// Cells is the number of cells of a sea.
func (r *Rules) Cells() int { return r.Width * r.Height }

// on reports whether c is a cell of the sea.
func (r *Rules) on(c Cell) bool { return c >= 0 && int(c) < r.Cells() }

// near reports whether a and b are within one cell of each other (the
// eight cells around, or the same cell).
func (r *Rules) near(a, b Cell) bool {
	ax, ay, bx, by := int(a)%r.Width, int(a)/r.Width, int(b)%r.Width, int(b)/r.Width
	return abs(ax-bx) <= 1 && abs(ay-by) <= 1
}

// Neighbours are the cells orthogonally next to c, up, right, down, left.
func (r *Rules) Neighbours(c Cell) []Cell {
	x, y := int(c)%r.Width, int(c)/r.Width
	var out []Cell
	for _, d := range [4][2]int{{0, -1}, {1, 0}, {0, 1}, {-1, 0}} {
		if nx, ny := x+d[0], y+d[1]; nx >= 0 && ny >= 0 && nx < r.Width && ny < r.Height {
			out = append(out, Cell(ny*r.Width+nx))
		}
	}
	return out
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

// Placement is where a seat hides its boats, boat by boat.
type Placement []Cell

// ValidatePlacement says why p is not a legal placement: Boats distinct
// cells of the sea.
func (r *Rules) ValidatePlacement(p Placement) error {
	if len(p) != r.Boats {
		return fmt.Errorf("sonar: %d boats placed, want %d", len(p), r.Boats)
	}
	for i, c := range p {
		if !r.on(c) {
			return fmt.Errorf("sonar: boat %d on cell %d, off the sea", i, c)
		}
		for _, d := range p[:i] {
			if d == c {
				return fmt.Errorf("sonar: two boats on cell %d", c)
			}
		}
	}
	return nil
}

// Kind is what an action does.
type Kind uint8

// The action kinds.
const (
	Ping Kind = iota + 1 // ping a cell of the enemy sea
	Move                 // move an own boat to a free orthogonal neighbour
)

// Action is one seat's move: Ping At, or Move Boat to At.
type Action struct {
	Kind Kind
	Boat int
	At   Cell
}

// Echo answers a ping.
type Echo uint8

// The echoes.
const (
	Miss Echo = iota // no enemy boat on or around the cell
	Near             // an enemy boat afloat on one of the eight cells around
	Hit              // an enemy boat on the cell: it sinks
)

// ErrIllegal is wrapped by the error of an illegal action.
var ErrIllegal = errors.New("sonar: illegal action")

// ErrOver is the error of an action once the game is over.
var ErrOver = errors.New("sonar: the game is over")

// Step is what one action did.
type Step struct {
	Seat    int
	Action  Action
	Illegal bool
	Echo    Echo // a ping's
	Status  game.Status
	Winner  int
}

// Told is what one seat is told of one action. The actor is told its
// action and the echo; the other seat is told where it was pinged and the
// echo, or that a boat of the enemy moved (At and Boat None and -1).
// Afloat are the boats afloat, the seat's own first.
type Told struct {
	Mine    bool
	Kind    Kind
	Illegal bool
	At      Cell
	Boat    int
	Echo    Echo
	Afloat  [2]int
}

// Game is one game in play.
type Game struct {
	rules   *Rules
	boats   [2][MaxBoats]Cell // None once sunk
	turn    int
	actions int
	pings   [2]int
	status  game.Status
	winner  int
}

var (
	_ game.Rules[*Game, Placement, Action, Step, Told] = (*Rules)(nil)
	_ game.Legal[*Game, Action]                        = (*Rules)(nil)
)

// Start begins a game (game.Rules).
func (r *Rules) Start(pl [2]Placement, first int) (*Game, error) {
	if first != 0 && first != 1 {
		return nil, fmt.Errorf("sonar: first seat %d", first)
	}
	g := &Game{rules: r, turn: first, winner: -1}
	for s, p := range pl {
		if err := r.ValidatePlacement(p); err != nil {
			return nil, fmt.Errorf("seat %d: %w", s, err)
		}
		for i := range g.boats[s] {
			g.boats[s][i] = None
		}
		copy(g.boats[s][:], p)
	}
	return g, nil
}

// ToAct is the seat to act.
func (g *Game) ToAct() int { return g.turn }

// Status is how the game stands.
func (g *Game) Status() game.Status { return g.status }

// Winner is the winning seat, -1 while running or on a draw.
func (g *Game) Winner() int { return g.winner }

// Afloat is the number of seat's boats afloat.
func (g *Game) Afloat(seat int) int {
	n := 0
	for _, c := range g.boats[seat] {
		if c != None {
			n++
		}
	}
	return n
}

// Forfeit ends a running game with seat losing.
func (g *Game) Forfeit(seat int) {
	if g.status == game.Running {
		g.status, g.winner = game.Won, 1-seat
	}
}

// check says why a is not legal for the seat to act (nil: it is).
func (g *Game) check(a Action) error {
	r := g.rules
	switch a.Kind {
	case Ping:
		if !r.on(a.At) {
			return fmt.Errorf("%w: ping at %d, off the sea", ErrIllegal, a.At)
		}
		return nil
	case Move:
		own := &g.boats[g.turn]
		if a.Boat < 0 || a.Boat >= r.Boats || own[a.Boat] == None {
			return fmt.Errorf("%w: no boat %d afloat", ErrIllegal, a.Boat)
		}
		if !r.on(a.At) || abs(int(a.At)%r.Width-int(own[a.Boat])%r.Width)+abs(int(a.At)/r.Width-int(own[a.Boat])/r.Width) != 1 {
			return fmt.Errorf("%w: boat %d cannot move from %d to %d", ErrIllegal, a.Boat, own[a.Boat], a.At)
		}
		for _, c := range own {
			if c == a.At {
				return fmt.Errorf("%w: cell %d holds a boat", ErrIllegal, a.At)
			}
		}
		return nil
	}
	return fmt.Errorf("%w: unknown kind %d", ErrIllegal, a.Kind)
}

// Apply plays a for the seat to act. An illegal action loses at once (the
// step says Illegal, the error wraps ErrIllegal).
func (g *Game) Apply(a Action) (Step, error) {
	seat := g.turn
	st := Step{Seat: seat, Action: a, Winner: -1}
	if g.status != game.Running {
		st.Status, st.Winner = g.status, g.winner
		return st, ErrOver
	}
	g.actions++
	if err := g.check(a); err != nil {
		st.Illegal = true
		g.status, g.winner = game.Won, 1-seat
		st.Status, st.Winner = g.status, g.winner
		return st, err
	}
	switch a.Kind {
	case Ping:
		g.pings[seat]++
		st.Echo = g.ping(1-seat, a.At)
	case Move:
		g.boats[seat][a.Boat] = a.At
	}
	switch {
	case g.Afloat(1-seat) == 0:
		g.status, g.winner = game.Won, seat
	case g.actions >= g.rules.DrawLimit:
		g.status = game.Drawn
	}
	g.turn = 1 - seat
	st.Status, st.Winner = g.status, g.winner
	return st, nil
}

// ping answers a ping of the enemy sea of seat at c, sinking a boat hit.
func (g *Game) ping(seat int, c Cell) Echo {
	echo := Miss
	for i, b := range g.boats[seat] {
		switch {
		case b == None:
		case b == c:
			g.boats[seat][i] = None
			return Hit
		case g.rules.near(b, c):
			echo = Near
		}
	}
	return echo
}

// Tell fills *o with what seat is told of st (game.Rules): both seats are
// told every action.
func (r *Rules) Tell(g *Game, st *Step, _ error, seat int, o *Told) bool {
	a := st.Action
	*o = Told{Mine: seat == st.Seat, Kind: a.Kind, Illegal: st.Illegal, At: a.At, Boat: a.Boat, Echo: st.Echo,
		Afloat: [2]int{g.Afloat(seat), g.Afloat(1 - seat)}}
	if !o.Mine && a.Kind == Move {
		o.At, o.Boat = None, -1
	}
	return true
}

// Count is what finished game g amounts to (game.Rules).
func (r *Rules) Count(g *Game, _ int) game.Count {
	return game.Count{Actions: g.actions, Shots: g.pings}
}

// Legal lists the legal actions of the seat to act (game.Legal): a ping
// of every cell, then each afloat boat's moves.
func (r *Rules) Legal(g *Game) []Action {
	if g.status != game.Running {
		return nil
	}
	out := make([]Action, 0, r.Cells()+4*r.Boats)
	for c := range Cell(r.Cells()) {
		out = append(out, Action{Kind: Ping, At: c})
	}
	for i, b := range g.boats[g.turn] {
		if b == None {
			continue
		}
		for _, to := range r.Neighbours(b) {
			if a := (Action{Kind: Move, Boat: i, At: to}); g.check(a) == nil {
				out = append(out, a)
			}
		}
	}
	return out
}

// Clone returns an independent copy of g (game.Legal).
func (r *Rules) Clone(g *Game) *Game {
	c := *g
	return &c
}
