package wire

import (
	"fmt"
	"time"

	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/game/abilities"
	"github.com/kaisen-ai/kaisen/game/battleship"
	bswire "github.com/kaisen-ai/kaisen/game/battleship/wire"
	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/protocol"
)

// Server is the server side of the abilities wire for one rules value:
// what a server's turn loop sends a seat (the hello, what the seat is told
// of an action, the confirm lines of the constant shape, the lines of a
// forfeit) and how it reads a seat's lines (a placement, an action), with
// the game's errors. The placement line and its errors are Battleship's.
type Server struct{ Rules *abilities.Rules }

// Hello is the first line of a game to seat: the hello naming the
// protocol version, the seat, the sides and the options (EncodeHello).
func (s Server) Hello(seat int) []byte {
	return EncodeHello(Hello{Version: Version, Seat: seat, Sides: s.Rules.Sides, Options: s.Rules.Options})
}

// HelloEachRound implements game.RoundHello: in a series each game's hello
// follows its "roundK." greeting, naming the seat the client has in it.
func (Server) HelloEachRound() bool { return true }

// What names a seat's action in faults: "action".
func (Server) What() string { return "action" }

// NewGame starts a game (nothing to reset).
func (Server) NewGame() {}

// Late is added to the fault of a client that sent no action within d.
func (Server) Late(d time.Duration) string { return fmt.Sprintf(" (no action within %v)", d) }

// DecodePlacement reads a seat's placement line (Battleship's DecodeShips
// on the base rules).
func (s Server) DecodePlacement(_ int, line []byte) (battleship.Placement, error) {
	return bswire.DecodeShips(line, s.Rules.Base)
}

// PlacementError is the error of a placement the rules refused
// (Battleship's FleetError).
func (Server) PlacementError(err error) error { return bswire.FleetError(err) }

// DecodeAction reads an action line (DecodeAction).
func (s Server) DecodeAction(line []byte) (abilities.Action, error) {
	return DecodeAction(line, s.Rules)
}

// AppendTold appends the result line that tells a seat its view of an
// action (EncodeEvent).
func (s Server) AppendTold(b []byte, _ int, o *abilities.Told, outcome int) []byte {
	return append(b, EncodeEvent(s.Rules, o.Event, outcome)...)
}

// ForfeitLine is the line a client seat gets when a running game ends by a
// forfeit (won: the seat wins): {"outcome":..}, whatever the forfeit.
func (Server) ForfeitLine(_, won bool) []byte { return protocol.EncodeOutcome(won) }

// ErrorLine is the {"error":msg} line that tells a client why it lost.
func (Server) ErrorLine(msg string) []byte { return protocol.EncodeErrorLine(msg) }

// Continues reports whether the seat that played a goes on without "your
// turn" when it is to act next (protocol version 2: after its own move a
// client sends its next action at once, so a hidden move costs no round
// trip).
func (Server) Continues(a abilities.Action) bool { return a.Kind == abilities.Move }

// ConfirmLine is the confirm line of a shot at c (EncodeConfirm).
func (s Server) ConfirmLine(c grid.Cell) []byte { return EncodeConfirm(s.Rules, c) }

// CheckConfirm says why a is not the answer to a confirm line (nil: it is
// ConfirmAnswer): a *protocol.ProtocolError wrapping protocol.ErrUnexpected.
func (s Server) CheckConfirm(a abilities.Action) error {
	if a.Kind == ConfirmAnswer.Kind && a.Use == ConfirmAnswer.Use {
		return nil
	}
	return protocol.NewProtocolError(EncodeAction(s.Rules, a), fmt.Errorf("%w: a confirm is answered %s", protocol.ErrUnexpected,
		EncodeAction(s.Rules, ConfirmAnswer)))
}

// Hooks are the turn hooks of game g (game.Hooked): the constant shape of
// protocol version 2 (docs/abilities.md). After its own move a client
// sends its next action at once, without "your turn" (a hidden move costs
// no round trip: Continues); a volley about to be told to its shooter is
// preceded by the defender's confirms of the cells it was not asked about
// (Confirms); the game's action count (the server's Result.Actions) is
// the actions applied but hidden moves, plus the shots confirmed, so that
// it tells nothing hidden (a spent false miss is one answer where an
// unspent one is a confirm).
func (s Server) Hooks(g *abilities.Game) game.TurnHooks[abilities.Action, abilities.Step] {
	return &hooks{g: g, wire: s, sched: NewConfirms(s.Rules)}
}

var _ game.Hooked[*abilities.Game, abilities.Action, abilities.Step] = Server{}

// hooks are one game's turn hooks (Server.Hooks).
type hooks struct {
	g     *abilities.Game
	wire  Server
	sched *Confirms
}

func (h *hooks) Before(a abilities.Action) { h.sched.Answered(h.g.Pending(), a) }

func (h *hooks) Shown(mv int, a abilities.Action, st *abilities.Step, err error) int {
	if err != nil || a.Kind != abilities.Move || !st.Views[1-mv].Silent {
		return 1
	}
	return 0
}

func (h *hooks) Continues(a abilities.Action) bool { return h.wire.Continues(a) }

func (h *hooks) Confirms(st *abilities.Step) (int, [][]byte) {
	d, cells := h.sched.Told(*st)
	var lines [][]byte
	for _, c := range cells {
		lines = append(lines, h.wire.ConfirmLine(c))
	}
	return d, lines
}

func (h *hooks) CheckConfirm(a abilities.Action) error { return h.wire.CheckConfirm(a) }
