package abilities

import (
	"errors"
	"fmt"
	"slices"

	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/game/battleship"
	"github.com/kaisen-ai/kaisen/game/grid"
)

// ErrIllegal wraps the reason an action is refused. A refused action
// changes nothing; the host decides what follows (a forfeit, in a match).
var ErrIllegal = errors.New("abilities: illegal action")

// ErrOver is returned for an action on a finished game.
var ErrOver = errors.New("abilities: game is over")

// Kind is the kind of an Action.
type Kind uint8

// The action kinds. Shoot, Move and Salvo are the attacker's; Reveal and
// Defend answer a Question and are the defender's.
const (
	Shoot  Kind = iota // fire at At; Special uses the 3-deck's ability with it
	Move               // move the 1-deck on At to the orthogonal neighbour To
	Salvo              // AI: fire at At and its orthogonal neighbour To (At < To); Humans: the 3x3 centred on At (To = At)
	Reveal             // the Humans' salvo: the defender names the cells hit (Cells)
	Defend             // the 4-deck's defence on the cell asked about: Use spends it
)

var kindNames = [...]string{"shoot", "move", "salvo", "reveal", "defend"}

// String returns the action's name.
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("kind(%d)", uint8(k))
}

// Action is one move of the seat to act (Game.ToAct).
type Action struct {
	Kind    Kind
	At      grid.Cell   // Shoot, Move (the 1-deck), Salvo (first cell or centre)
	To      grid.Cell   // Move (destination), AI Salvo (second cell)
	Special bool        // Shoot: with the 3-deck's ability
	Cells   []grid.Cell // Reveal: the cells of the 3x3 hit
	Use     bool        // Defend: spend the defence
}

// Equal reports whether a and b are the same action (Cells in any order).
func (a Action) Equal(b Action) bool {
	if a.Kind != b.Kind {
		return false
	}
	switch a.Kind {
	case Shoot:
		return a.At == b.At && a.Special == b.Special
	case Move:
		return a.At == b.At && a.To == b.To
	case Salvo:
		return a.At == b.At && a.To == b.To
	case Reveal:
		return grid.Of(a.Cells...) == grid.Of(b.Cells...) && len(a.Cells) == len(b.Cells)
	case Defend:
		return a.Use == b.Use
	}
	return false
}

// String formats the action with cells as cell numbers.
func (a Action) String() string {
	switch a.Kind {
	case Shoot:
		if a.Special {
			return fmt.Sprintf("shoot*(%d)", a.At)
		}
		return fmt.Sprintf("shoot(%d)", a.At)
	case Move:
		return fmt.Sprintf("move(%d->%d)", a.At, a.To)
	case Salvo:
		return fmt.Sprintf("salvo(%d,%d)", a.At, a.To)
	case Reveal:
		c := slices.Clone(a.Cells)
		slices.Sort(c)
		return fmt.Sprintf("reveal%v", c)
	case Defend:
		return fmt.Sprintf("defend(%t)", a.Use)
	}
	return a.Kind.String()
}

// Ask is the kind of a Question.
type Ask uint8

// The questions a defender answers.
const (
	AskReveal     Ask = iota // which Count cells of Cells the Humans' salvo hits (answer: Reveal)
	AskFalseMiss             // the shot at At hits the AI's 4-deck: answer "miss"? (answer: Defend)
	AskAirDefence            // the shot at At is on or next to the Humans' 4-deck: "air defence"? (answer: Defend)
)

// Question is a choice the rules leave to the defender. While one is
// pending only the defender (Seat) acts.
type Question struct {
	Ask   Ask
	Seat  int       // the defender, who answers
	At    grid.Cell // AskReveal: the salvo's centre; otherwise the cell shot
	Cells grid.Set  // AskReveal: the cells it may name (unshot, in the 3x3)
	Count int       // AskReveal: how many to name
}

// CellResult is the answer for one cell fired at.
type CellResult struct {
	At      grid.Cell
	Outcome battleship.Outcome // as told to the viewer: a false miss is Miss to the shooter
	Sunk    battleship.Ship    // on Kill: the sunk ship's cells
	Repeat  bool               // the cell had been shot before (never earns another turn)
	// AirDefence: the Humans answered "air defence"; no shot happened.
	AirDefence bool
	// FalseMiss: the AI answered "miss" on a hit (told to the defender only).
	FalseMiss bool
}

// Event is what one seat is told about one action (its own or the enemy's).
type Event struct {
	Seat     int // who acted
	Mine     bool
	Attacker int // whose turn it was: the seat that fired the Cells (a Defend or Reveal is the other seat's)
	Kind     Kind
	Moved    bool      // Move: a 1-deck moved (the enemy is told unless Options.HideMoves)
	From     grid.Cell // Move: the owner is told From and To; the enemy -1
	To       grid.Cell
	// Silent: nothing of the action is told (an enemy move under HideMoves);
	// a host does not deliver it.
	Silent  bool
	Special bool         // the shot used the 3-deck's ability (to a defender asked about the shot: the shot declares it)
	Cells   []CellResult // the cells resolved by this action (the answers to a shot come with the Defend that settles them)
	Scan    int          // the AI's 5x5 count, -1 when none was made
	Ask     *Question    // a question now pending (the defender must answer)
	Status  game.Status
	Winner  int  // winning seat, -1 while running or on a draw
	Next    int  // seat to act next
	TurnEnd bool // the attacker's turn ended with this action
}

// Step is the result of one legal action: what each seat is told.
type Step struct {
	Seat   int // who acted
	Action Action
	Views  [2]Event // Views[s] is seat s's view
	Status game.Status
	Winner int
	Next   int
}
