package battleship

import (
	"errors"
	"fmt"
	"slices"

	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/game/grid"
)

// Outcome is the defender's answer to one shot.
type Outcome uint8

// Shot outcomes.
const (
	Miss Outcome = iota // no ship on the cell
	Hit                 // a ship cell; the ship is still afloat
	Kill                // the ship's last cell: it sinks
)

// String returns the wire name: miss, hit or kill.
func (o Outcome) String() string {
	switch o {
	case Miss:
		return "miss"
	case Hit:
		return "hit"
	case Kill:
		return "kill"
	default:
		return fmt.Sprintf("outcome(%d)", uint8(o))
	}
}

// ErrIllegal wraps the reason a shot is illegal (off the board or at a rock).
var ErrIllegal = errors.New("battleship: illegal shot")

// Result is the defender's answer to one legal shot.
//
// A shot at a cell shot before is legal but wasteful: it is answered with
// what the cell holds (miss for water, hit for a ship afloat, kill with the
// ship's cells for a sunk ship), Repeat is set, and it never earns another
// shot, so a game always moves on.
type Result struct {
	At      grid.Cell
	Outcome Outcome
	Sunk    Ship // on Kill: the sunk ship's cells, sorted
	Repeat  bool // the cell had been shot before
}

// Again reports whether the shooter shoots again: a new hit or kill.
func (r Result) Again() bool { return r.Outcome != Miss && !r.Repeat }

// Sea is one side's fleet under fire: where the ships are and what has been
// shot. It is not safe for concurrent use.
type Sea struct {
	rules  *Rules
	ships  Placement
	owner  []int // cell -> ship index, -1 for water
	hp     []int
	shot   grid.Set
	afloat int
}

// NewSea validates p and puts it under fire.
func NewSea(r *Rules, p Placement) (*Sea, error) {
	if err := r.ValidatePlacement(p); err != nil {
		return nil, err
	}
	p = p.Normalize()
	s := &Sea{rules: r, ships: p, owner: make([]int, r.Board.Size()), hp: make([]int, len(p)), afloat: len(p)}
	for i := range s.owner {
		s.owner[i] = -1
	}
	for i, sh := range p {
		s.hp[i] = len(sh)
		for _, c := range sh {
			s.owner[c] = i
		}
	}
	return s, nil
}

// Fire answers a shot at c. Off-board and rock cells are illegal (the error
// wraps ErrIllegal and nothing changes).
func (s *Sea) Fire(c grid.Cell) (Result, error) {
	if !s.rules.Board.IsUsable(c) {
		if c >= 0 && int(c) < s.rules.Board.Size() {
			return Result{}, fmt.Errorf("%w: %s is a rock", ErrIllegal, s.rules.CellName(c))
		}
		return Result{}, fmt.Errorf("%w: %s is off the board", ErrIllegal, s.rules.CellName(c))
	}
	res := Result{At: c, Repeat: s.shot.Has(c)}
	s.shot.Add(c)
	i := s.owner[c]
	if i < 0 {
		return res, nil
	}
	if !res.Repeat {
		s.hp[i]--
		if s.hp[i] == 0 {
			s.afloat--
		}
	}
	if s.hp[i] > 0 {
		res.Outcome = Hit
		return res, nil
	}
	res.Outcome = Kill
	res.Sunk = slices.Clone(s.ships[i])
	return res, nil
}

// Afloat is the number of ships not yet sunk.
func (s *Sea) Afloat() int { return s.afloat }

// Shot is the set of cells shot so far.
func (s *Sea) Shot() grid.Set { return s.shot }

// Ships returns the layout (normalized copy).
func (s *Sea) Ships() Placement { return s.ships.Normalize() }

// Event is what one side is told about one shot, its own or the enemy's.
// Both sides are told the same Result; Mine says whose shot it was.
type Event struct {
	Mine    bool
	Illegal bool // the shot was off the board or at a rock; the shooter lost
	Result
	Again bool // the shooter shoots again
}

// Step is the result of applying one shot.
type Step struct {
	Seat     int       // who shot
	At       grid.Cell // where
	Shooter  Event     // what the shooter is told
	Defender Event     // what the defender is told
	Status   game.Status
	Winner   int // winning seat when Status == game.Won, else -1
	Next     int // seat to shoot next (meaningless once the game is over)
}

// Game is the full (omniscient) state of one game. It is not safe for
// concurrent use; one goroutine owns each game.
type Game struct {
	rules  *Rules
	seas   [2]*Sea // seas[i] is seat i's own fleet
	turn   int
	shots  [2]int
	status game.Status
	winner int
}

// NewGame starts a game with both placements; seat first shoots first.
func NewGame(r *Rules, p0, p1 Placement, first int) (*Game, error) {
	if first != 0 && first != 1 {
		return nil, fmt.Errorf("battleship: first seat %d must be 0 or 1", first)
	}
	s0, err := NewSea(r, p0)
	if err != nil {
		return nil, fmt.Errorf("battleship: seat 0: %w", err)
	}
	s1, err := NewSea(r, p1)
	if err != nil {
		return nil, fmt.Errorf("battleship: seat 1: %w", err)
	}
	return &Game{rules: r, seas: [2]*Sea{s0, s1}, turn: first, winner: -1}, nil
}

// Rules returns the game's rules.
func (g *Game) Rules() *Rules { return g.rules }

// ToAct is the seat to shoot now.
func (g *Game) ToAct() int { return g.turn }

// Shots is the number of shots seat has fired.
func (g *Game) Shots(seat int) int { return g.shots[seat] }

// Status reports whether the game is over and how.
func (g *Game) Status() game.Status { return g.status }

// Winner is the winning seat, or -1 while running or on a draw.
func (g *Game) Winner() int { return g.winner }

// Sea returns seat's own fleet under fire (read it, do not fire at it).
func (g *Game) Sea(seat int) *Sea { return g.seas[seat] }

// Forfeit ends the game with seat losing (a disconnect, a timeout, a protocol
// error: anything outside the rules).
func (g *Game) Forfeit(seat int) {
	if g.status != game.Running {
		return
	}
	g.status, g.winner = game.Won, 1-seat
}

// Apply fires the shot of the seat to act (ToAct) at c and returns what each
// side is told. An illegal shot loses at once: the error says why (it wraps
// ErrIllegal) and the Step still tells both sides of it (Event.Illegal) with
// the Status it leaves. Apply on a finished game returns an error and a Step
// with the final Status, and changes nothing.
func (g *Game) Apply(c grid.Cell) (Step, error) {
	seat := g.turn
	st := Step{Seat: seat, At: c, Winner: -1, Next: seat}
	if g.status != game.Running {
		st.Status, st.Winner = g.status, g.winner
		return st, errors.New("battleship: game is over")
	}
	g.shots[seat]++
	res, err := g.seas[1-seat].Fire(c)
	if err != nil {
		st.Shooter = Event{Mine: true, Illegal: true, Result: Result{At: c}}
		st.Defender = Event{Illegal: true, Result: Result{At: c}}
		g.status, g.winner = game.Won, 1-seat
		st.Status, st.Winner = g.status, g.winner
		return st, err
	}
	again := res.Again()
	st.Shooter = Event{Mine: true, Result: res, Again: again}
	st.Defender = Event{Result: res, Again: again}
	st.Defender.Sunk = slices.Clone(res.Sunk)
	switch {
	case g.seas[1-seat].Afloat() == 0:
		g.status, g.winner = game.Won, seat
	case g.shots[0]+g.shots[1] >= g.rules.DrawLimit:
		g.status = game.Drawn
	case !again:
		g.turn = 1 - seat
	}
	st.Status, st.Winner, st.Next = g.status, g.winner, g.turn
	return st, nil
}
