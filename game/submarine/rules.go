// Package submarine holds the pure rules of the submarine game (潜水艦ゲーム):
// a board with hidden one-cell ships that move along rows and columns and
// attack the cells around them, as specified in shared/spec/submarine.md.
//
// The package does no I/O and keeps no globals. A Game is advanced by Apply,
// which returns exactly what each side is told about the action (an Event for
// the actor and one for the other side), never more. Server, arena, replays
// and belief tests all call the same step.
package submarine

import (
	"errors"
	"fmt"

	"github.com/kaisen-ai/kaisen/game/grid"
)

// Name is the game's name: the --game value, a replay header's "game" and a
// server listener's game (package games lists every game).
const Name = "submarine"

// MaxShips is the largest fleet a Rules may declare.
const MaxShips = 8

// DefaultDrawLimit is the number of actions (both players counted) after which
// an undecided game is a draw.
const DefaultDrawLimit = 10000

// NoShip is the ship index meaning "none" (for example, an attack that hit nothing).
const NoShip = -1

// ShipSpec is one ship type of the fleet.
type ShipSpec struct {
	Name string // one-word wire name, e.g. "w"
	HP   int
}

// Rules is the configuration of one game: board, fleet and draw limit.
// Ships are addressed by their index in Fleet everywhere in the engine.
type Rules struct {
	Board     *grid.Board
	Fleet     []ShipSpec
	DrawLimit int
}

// DefaultFleet is the fleet of the published game: battleship w (3 hp),
// cruiser c (2 hp), submarine s (1 hp).
func DefaultFleet() []ShipSpec {
	return []ShipSpec{{Name: "w", HP: 3}, {Name: "c", HP: 2}, {Name: "s", HP: 1}}
}

// DefaultRules are the rules of the published game: 5x5, w3 c2 s1, 10000 actions.
func DefaultRules() *Rules {
	return &Rules{Board: grid.MustBoard(5, 5, nil), Fleet: DefaultFleet(), DrawLimit: DefaultDrawLimit}
}

// ErrRules reports an invalid rules configuration.
var ErrRules = errors.New("submarine: invalid rules")

// Validate checks the rules for consistency.
func (r *Rules) Validate() error {
	var errs []error
	if r.Board == nil {
		errs = append(errs, fmt.Errorf("%w: no board", ErrRules))
	}
	if len(r.Fleet) == 0 || len(r.Fleet) > MaxShips {
		errs = append(errs, fmt.Errorf("%w: fleet has %d ships, want 1 to %d", ErrRules, len(r.Fleet), MaxShips))
	}
	seen := map[string]bool{}
	for i, s := range r.Fleet {
		if s.Name == "" {
			errs = append(errs, fmt.Errorf("%w: ship %d has no name", ErrRules, i))
		}
		if seen[s.Name] {
			errs = append(errs, fmt.Errorf("%w: ship name %q appears twice", ErrRules, s.Name))
		}
		seen[s.Name] = true
		if s.HP < 1 || s.HP > 127 {
			errs = append(errs, fmt.Errorf("%w: ship %q has hp %d, want 1 to 127", ErrRules, s.Name, s.HP))
		}
	}
	if r.Board != nil && len(r.Fleet) > r.Board.Usable().Count() {
		errs = append(errs, fmt.Errorf("%w: %d ships do not fit on %d usable cells", ErrRules, len(r.Fleet), r.Board.Usable().Count()))
	}
	if r.DrawLimit < 1 {
		errs = append(errs, fmt.Errorf("%w: draw limit %d must be positive", ErrRules, r.DrawLimit))
	}
	return errors.Join(errs...)
}

// ShipIndex returns the fleet index of the ship called name.
func (r *Rules) ShipIndex(name string) (int, bool) {
	for i, s := range r.Fleet {
		if s.Name == name {
			return i, true
		}
	}
	return NoShip, false
}

// AllShips is the mask of every ship of the fleet.
func (r *Rules) AllShips() ShipMask { return ShipMask(1)<<uint(len(r.Fleet)) - 1 }

// Names returns the names of the ships of m, in fleet order (ships outside
// the fleet are left out).
func (r *Rules) Names(m ShipMask) []string {
	var out []string
	for i, s := range r.Fleet {
		if m.Has(i) {
			out = append(out, s.Name)
		}
	}
	return out
}

// ShipMask is a set of fleet indices.
type ShipMask uint8

// Has reports whether ship i is in m.
func (m ShipMask) Has(i int) bool { return i >= 0 && m&(1<<uint(i)) != 0 }

// With returns m ∪ {i}.
func (m ShipMask) With(i int) ShipMask { return m | 1<<uint(i) }

// Without returns m \ {i}.
func (m ShipMask) Without(i int) ShipMask { return m &^ (1 << uint(i)) }

// Count is the number of ships in m.
func (m ShipMask) Count() int {
	n := 0
	for ; m != 0; m &= m - 1 {
		n++
	}
	return n
}

// Placement gives the cell of every ship, indexed by fleet index.
type Placement []grid.Cell

// ErrPlacement reports an invalid placement.
var ErrPlacement = errors.New("submarine: invalid placement")

// ValidatePlacement checks that p places every ship of the fleet on a distinct
// usable cell.
func (r *Rules) ValidatePlacement(p Placement) error {
	if len(p) != len(r.Fleet) {
		return fmt.Errorf("%w: %d ships placed, the fleet has %d", ErrPlacement, len(p), len(r.Fleet))
	}
	var used grid.Set
	for i, c := range p {
		if !r.Board.IsUsable(c) {
			if int(c) >= 0 && int(c) < r.Board.Size() {
				return fmt.Errorf("%w: ship %q is on a rock", ErrPlacement, r.Fleet[i].Name)
			}
			return fmt.Errorf("%w: ship %q is off the board", ErrPlacement, r.Fleet[i].Name)
		}
		if used.Has(c) {
			return fmt.Errorf("%w: ship %q shares a cell with another ship", ErrPlacement, r.Fleet[i].Name)
		}
		used.Add(c)
	}
	return nil
}

// Kind is the kind of an action.
type Kind uint8

// The action kinds. Invalid stands for an action that is neither (an empty or
// unparseable request); it is always illegal.
const (
	Invalid Kind = iota
	Attack
	Move
)

func (k Kind) String() string {
	switch k {
	case Attack:
		return "attack"
	case Move:
		return "move"
	default:
		return "invalid"
	}
}

// Action is what a player does on its turn. Ship is used by moves only.
type Action struct {
	Kind Kind
	Ship int
	To   grid.Cell
}

// AttackAt returns an attack on c.
func AttackAt(c grid.Cell) Action { return Action{Kind: Attack, Ship: NoShip, To: c} }

// MoveTo returns a move of ship to c.
func MoveTo(ship int, c grid.Cell) Action { return Action{Kind: Move, Ship: ship, To: c} }
