package wire

import (
	"fmt"
	"strings"
	"time"

	"github.com/kaisen-ai/kaisen/game/battleship"
	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/protocol"
)

// Server is the server side of the Battleship wire for one rules value:
// what a server's turn loop sends a seat (the greeting, what the seat is
// told of a shot, the lines of a forfeit) and how it reads a seat's lines
// (a placement, a shot), with the game's errors.
type Server struct{ Rules *battleship.Rules }

// Hello is the first line of a game to seat (the greeting: the same for
// both seats).
func (Server) Hello(int) []byte { return []byte(Greeting) }

// What names a seat's action in faults: "shot".
func (Server) What() string { return "shot" }

// NewGame starts a game (nothing to reset).
func (Server) NewGame() {}

// Late is added to the fault of a client that sent no shot within d.
func (Server) Late(d time.Duration) string { return fmt.Sprintf(" (no shot within %v)", d) }

// DecodePlacement reads a seat's placement line (DecodeShips).
func (s Server) DecodePlacement(_ int, line []byte) (battleship.Placement, error) {
	return DecodeShips(line, s.Rules)
}

// PlacementError is the error of a placement the rules refused
// (FleetError).
func (Server) PlacementError(err error) error { return FleetError(err) }

// DecodeAction reads a shot line (DecodeShoot).
func (s Server) DecodeAction(line []byte) (grid.Cell, error) { return DecodeShoot(line, s.Rules) }

// AppendTold appends the result line that tells a seat ev (EncodeShotResult).
func (s Server) AppendTold(b []byte, _ int, ev *battleship.Event, outcome int) []byte {
	return append(b, EncodeShotResult(s.Rules, *ev, outcome)...)
}

// ForfeitLine is the line a client seat gets when a running game ends by a
// forfeit (won: the seat wins): {"result":{"shot":false},"outcome":..} for
// an illegal shot, else {"outcome":..}.
func (s Server) ForfeitLine(illegal, won bool) []byte {
	if !illegal {
		return protocol.EncodeOutcome(won)
	}
	outcome := protocol.Lost
	if won {
		outcome = protocol.Won
	}
	return EncodeShotResult(s.Rules, battleship.Event{Illegal: true, Result: battleship.Result{At: grid.None}}, outcome)
}

// ErrorLine is the {"error":msg} line that tells a client why it lost.
func (Server) ErrorLine(msg string) []byte { return protocol.EncodeErrorLine(msg) }

// fleetError is an invalid layout, on one line (the engine's reasons joined
// with "; "). It matches protocol.ErrFleet and battleship.ErrPlacement.
type fleetError struct{ msg string }

func (e fleetError) Error() string   { return e.msg }
func (e fleetError) Unwrap() []error { return []error{protocol.ErrFleet, battleship.ErrPlacement} }

// FleetError flattens an error of Rules.ValidatePlacement into one line:
// the engine's reasons joined with "; ", each without the
// battleship.ErrPlacement prefix. The error matches protocol.ErrFleet and
// battleship.ErrPlacement.
func FleetError(err error) error {
	var parts []string
	var add func(error)
	add = func(e error) {
		if j, ok := e.(interface{ Unwrap() []error }); ok {
			for _, x := range j.Unwrap() {
				add(x)
			}
			return
		}
		parts = append(parts, strings.TrimPrefix(e.Error(), battleship.ErrPlacement.Error()+": "))
	}
	add(err)
	return fleetError{msg: strings.Join(parts, "; ")}
}
