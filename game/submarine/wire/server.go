package wire

import (
	"time"

	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/game/submarine"
	"github.com/kaisen-ai/kaisen/protocol"
)

// Server is the server side of the submarine wire for one pairing in one
// dialect: what a server's turn loop sends a seat (the greeting, the field
// line of the submarine-py dialect, the result lines) and how it reads a
// seat's lines (a placement, an action: DecodeActionFast), with the game's
// errors. It keeps the order in which each seat's placement named its
// ships, which its result lines follow. The dialect tells no error lines:
// a forfeit is told as an invalid action's result lines.
type Server struct {
	d      protocol.Dialect
	rules  *submarine.Rules
	enc    *ResultEncoder
	hello  []byte
	orders [2]Order
}

// NewServer is the server side of a pairing in dialect d under r, its
// result lines written by enc (NewResultEncoder(d, r), shared by the
// listener's pairings).
func NewServer(d protocol.Dialect, r *submarine.Rules, enc *ResultEncoder) *Server {
	return &Server{d: d, rules: r, enc: enc, hello: []byte(d.Greeting())}
}

// NewGame starts a game: each seat's ships are in fleet order until its
// placement names them.
func (s *Server) NewGame() {
	s.orders = [2]Order{DefaultOrder(s.rules), DefaultOrder(s.rules)}
}

// Hello is the first line of a game: the dialect's greeting.
func (s *Server) Hello(int) []byte { return s.hello }

// Names reports whether a client sends its name before its placement in
// game k of its pairing (the submarine-py dialect's first game).
func (s *Server) Names(k int) bool { return s.d == protocol.SubmarinePy && k == 1 }

// FieldLine is the line that answers a client's name (EncodeField).
func (s *Server) FieldLine() []byte { return EncodeField(s.rules.Board) }

// What names a seat's action in faults: "action".
func (*Server) What() string { return "action" }

// Late is added to the fault of a client that sent no action within d:
// nothing.
func (*Server) Late(time.Duration) string { return "" }

// DecodePlacement reads seat's placement line (DecodePlacement, which
// checks the layout too) and keeps the order it names the ships in.
func (s *Server) DecodePlacement(seat int, line []byte) (submarine.Placement, error) {
	p, o, err := DecodePlacement(line, s.rules)
	if err != nil {
		return nil, err
	}
	s.orders[seat] = o
	return p, nil
}

// PlacementError is the error of a placement the rules refused: err.
func (*Server) PlacementError(err error) error { return err }

// DecodeAction reads an action line (DecodeActionFast).
func (s *Server) DecodeAction(line []byte) (submarine.Action, error) {
	return DecodeActionFast(line, s.rules)
}

// AppendTold appends the result line that tells seat o (the enemy's ships
// in the order its placement named them).
func (s *Server) AppendTold(b []byte, seat int, o *submarine.Told, outcome int) []byte {
	return s.enc.AppendResult(b, o.Event, outcome, o.View, s.orders[seat], s.orders[1-seat])
}

// Invalid is the action a mover's fault is taken as (game.Forfeits): an
// invalid action, told to both seats as InvalidEvent.
func (*Server) Invalid() submarine.Action { return invalidAction }

// invalidAction is Invalid's action.
var invalidAction = submarine.Action{Kind: submarine.Invalid, Ship: submarine.NoShip, To: grid.None}

// ForfeitTold fills o with what seat is told when a seat of g forfeits
// while it was not its turn (game.Forfeits): the result of an invalid
// action, with the seat's view of g.
func (*Server) ForfeitTold(g *submarine.Game, seat int, o *submarine.Told) {
	if o.View == nil {
		o.View = new(submarine.View)
	}
	o.Event = InvalidEvent
	*o.View = g.View(seat)
}

// AppendWalkover appends the result line that tells seat, which placed p
// and whose opponent failed its handshake, that it won (game.Forfeits):
// an invalid action's result with the seat's own fleet, untouched, and the
// enemy's ships at full health in fleet order.
func (s *Server) AppendWalkover(b []byte, seat int, p submarine.Placement) []byte {
	v := submarine.View{Me: submarine.NewFleet(s.rules, p)}
	for i, sp := range s.rules.Fleet {
		v.EnemyHP[i] = int8(sp.HP)
	}
	return s.enc.AppendResult(b, InvalidEvent, protocol.Won, &v, s.orders[seat], nil)
}

// ForfeitLine is nil: the dialect tells a forfeit as an invalid action
// (game.Forfeits).
func (*Server) ForfeitLine(_, _ bool) []byte { return nil }

// ErrorLine is nil: the dialect tells no error lines.
func (*Server) ErrorLine(string) []byte { return nil }

// InvalidEvent is what both seats are told of an invalid action (and of a
// forfeit, which the dialect tells as one).
var InvalidEvent = submarine.Event{Kind: submarine.Invalid, Illegal: true, At: grid.None, Hit: submarine.NoShip, Ship: submarine.NoShip, To: grid.None}
