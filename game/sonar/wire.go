package sonar

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/protocol"
)

// The game's wire codec: the classic framing, greeting, "your turn" /
// "waiting" and end lines (package protocol), and its own lines in
// compact JSON, one object a line, cells as [x, y]:
//
//	placement  {"boats":[[0,0],[1,1]]}
//	action     {"action":"ping","at":[2,1]}  or  {"action":"move","boat":0,"at":[1,0]}
//	told       {"told":{"by":"me","action":"ping","at":[2,1],"echo":"near","afloat":[2,2]}}
//
// A told line says who acted ("me" or "enemy"), the action, its cell and
// boat where the seat may know them (an enemy's move has neither), a
// ping's echo ("miss", "near", "hit"), "illegal":true for an illegal
// action, and the boats afloat, the seat's own first; the last told line
// of a game has "outcome" (true: the seat won). A forfeit is told with
// {"error":...} to the loser and {"outcome":...} to both, then the end
// lines.

// ServerCodec is the server side of the game's wire for one rules value
// (game.ServerCodec).
type ServerCodec struct{ rules *Rules }

var _ game.ServerCodec[Placement, Action, Told] = (*ServerCodec)(nil)

// NewServerCodec returns the server side of the wire for rules.
func NewServerCodec(rules *Rules) game.ServerCodec[Placement, Action, Told] {
	return &ServerCodec{rules: rules}
}

// NewGame starts a game (nothing to reset).
func (*ServerCodec) NewGame() {}

// Hello is the classic greeting, to both seats.
func (*ServerCodec) Hello(int) []byte { return []byte(protocol.ClassicGreeting) }

// What names a seat's action in faults.
func (*ServerCodec) What() string { return "action" }

// Late is added to the fault of a client that sent no action within d.
func (*ServerCodec) Late(d time.Duration) string { return fmt.Sprintf(" (no action within %v)", d) }

// DecodePlacement reads a placement line; the rules check the boats.
func (s *ServerCodec) DecodePlacement(_ int, line []byte) (Placement, error) {
	var w struct {
		Boats *[]xy `json:"boats"`
	}
	if err := strict(line, &w); err != nil {
		return nil, err
	}
	if w.Boats == nil {
		return nil, typeError(line, `want "boats"`)
	}
	p := make(Placement, len(*w.Boats))
	for i, c := range *w.Boats {
		cell, err := s.rules.cellOf(line, c)
		if err != nil {
			return nil, err
		}
		p[i] = cell
	}
	return p, nil
}

// PlacementError is the rules' error, already on one line.
func (*ServerCodec) PlacementError(err error) error { return err }

// DecodeAction reads an action line.
func (s *ServerCodec) DecodeAction(line []byte) (Action, error) {
	return s.rules.DecodeAction(line)
}

// AppendTold appends the told line of o (outcome: protocol.NoOutcome
// while the game runs).
func (s *ServerCodec) AppendTold(b []byte, _ int, o *Told, outcome int) []byte {
	return append(b, s.rules.EncodeTold(o, outcome)...)
}

// ForfeitLine is {"outcome":won}: an illegal action is told as any other
// forfeit.
func (*ServerCodec) ForfeitLine(_, won bool) []byte { return protocol.EncodeOutcome(won) }

// ErrorLine is the {"error":msg} line.
func (*ServerCodec) ErrorLine(msg string) []byte { return protocol.EncodeErrorLine(msg) }

// xy is a cell on the wire.
type xy [2]int

// wireAction is an action line.
type wireAction struct {
	Action string `json:"action"`
	Boat   *int   `json:"boat,omitempty"`
	At     *xy    `json:"at"`
}

// wireTold is a line the server sends but the turn lines: a told line,
// an error line or an outcome line.
type wireTold struct {
	Told    *toldBody `json:"told,omitempty"`
	Outcome *bool     `json:"outcome,omitempty"`
	Error   *string   `json:"error,omitempty"`
}

// toldBody is the "told" member of a told line.
type toldBody struct {
	By      string  `json:"by"`
	Action  string  `json:"action"`
	At      *xy     `json:"at,omitempty"`
	Boat    *int    `json:"boat,omitempty"`
	Echo    string  `json:"echo,omitempty"`
	Illegal bool    `json:"illegal,omitempty"`
	Afloat  *[2]int `json:"afloat"`
}

var (
	kindNames = map[Kind]string{Ping: "ping", Move: "move"}
	echoNames = map[Echo]string{Miss: "miss", Near: "near", Hit: "hit"}
)

// nameOf is the key of m whose value is name, and whether there is one.
func nameOf[K comparable](m map[K]string, name string) (K, bool) {
	for k, v := range m {
		if v == name {
			return k, true
		}
	}
	var zero K
	return zero, false
}

// xyOf is cell c on the wire (nil: not a cell of the sea).
func (r *Rules) xyOf(c Cell) *xy {
	if !r.on(c) {
		return nil
	}
	return &xy{int(c) % r.Width, int(c) / r.Width}
}

// cellOf reads a cell of the sea; one off it is a protocol error.
func (r *Rules) cellOf(line []byte, c xy) (Cell, error) {
	if c[0] < 0 || c[1] < 0 || c[0] >= r.Width || c[1] >= r.Height {
		return None, typeError(line, fmt.Sprintf("[%d,%d] is off the %dx%d sea", c[0], c[1], r.Width, r.Height))
	}
	return Cell(c[1]*r.Width + c[0]), nil
}

// EncodeAction is a's action line (a cell off the sea is left out: the
// line is then refused).
func (r *Rules) EncodeAction(a Action) []byte {
	w := wireAction{Action: kindNames[a.Kind], At: r.xyOf(a.At)}
	if a.Kind == Move {
		w.Boat = &a.Boat
	}
	return marshal(w)
}

// DecodeAction reads an action line: a ping's cell, or a move's boat and
// cell, on the sea; whether the action is legal is the rules' (Apply).
func (r *Rules) DecodeAction(line []byte) (Action, error) {
	var w wireAction
	if err := strict(line, &w); err != nil {
		return Action{}, err
	}
	kind, ok := nameOf(kindNames, w.Action)
	if !ok || w.At == nil || (kind == Move) != (w.Boat != nil) {
		return Action{}, typeError(line, `want {"action":"ping","at":[x,y]} or {"action":"move","boat":B,"at":[x,y]}`)
	}
	at, err := r.cellOf(line, *w.At)
	if err != nil {
		return Action{}, err
	}
	a := Action{Kind: kind, At: at}
	if w.Boat != nil {
		a.Boat = *w.Boat
	}
	return a, nil
}

// EncodeTold is o's told line, with the outcome for the seat unless it is
// protocol.NoOutcome.
func (r *Rules) EncodeTold(o *Told, outcome int) []byte {
	t := &toldBody{By: "enemy", Action: kindNames[o.Kind], At: r.xyOf(o.At), Illegal: o.Illegal, Afloat: &o.Afloat}
	w := wireTold{Told: t}
	if o.Mine {
		t.By = "me"
	}
	switch {
	case o.Kind == Move && o.Boat >= 0:
		t.Boat = &o.Boat
	case o.Kind == Ping && !o.Illegal:
		t.Echo = echoNames[o.Echo]
	}
	if outcome != protocol.NoOutcome {
		won := outcome == protocol.Won
		w.Outcome = &won
	}
	return marshal(w)
}

// DecodeTold reads a told line into *o (outcome: the line's, or
// protocol.NoOutcome); a line without "told" (an error or outcome line) is
// an error wrapping protocol.ErrUnexpected.
func (r *Rules) DecodeTold(line []byte, o *Told) (outcome int, err error) {
	w, err := r.decodeServerLine(line)
	if err != nil {
		return protocol.NoOutcome, err
	}
	if w.Told == nil {
		return protocol.NoOutcome, protocol.NewProtocolError(line, fmt.Errorf("%w: want a told line", protocol.ErrUnexpected))
	}
	return r.told(line, w, o)
}

// decodeServerLine reads a line the server sends but the turn lines.
func (r *Rules) decodeServerLine(line []byte) (wireTold, error) {
	var w wireTold
	if err := strict(line, &w); err != nil {
		return w, err
	}
	if w.Told == nil && w.Outcome == nil && w.Error == nil {
		return w, typeError(line, `want "told", "outcome" or "error"`)
	}
	return w, nil
}

// told fills *o from the told line w.
func (r *Rules) told(line []byte, w wireTold, o *Told) (int, error) {
	t := w.Told
	kind, okKind := nameOf(kindNames, t.Action)
	mine := t.By == "me"
	bad := !okKind || (!mine && t.By != "enemy") || t.Afloat == nil ||
		t.Afloat[0] < 0 || t.Afloat[1] < 0 || t.Afloat[0] > r.Boats || t.Afloat[1] > r.Boats
	echo, okEcho := nameOf(echoNames, t.Echo)
	switch {
	case kind == Ping:
		bad = bad || (t.At == nil && !t.Illegal) || t.Boat != nil || okEcho == t.Illegal
	case mine && !t.Illegal: // a move of the seat's: its boat and where it went
		bad = bad || t.At == nil || t.Boat == nil || t.Echo != ""
	case !mine && !t.Illegal: // an enemy's move: neither
		bad = bad || t.At != nil || t.Boat != nil || t.Echo != ""
	default:
		bad = bad || t.Echo != ""
	}
	if bad {
		return protocol.NoOutcome, typeError(line, "a told line with a bad or missing member")
	}
	*o = Told{Mine: mine, Kind: kind, Illegal: t.Illegal, At: None, Echo: echo, Afloat: *t.Afloat}
	if t.At != nil {
		at, err := r.cellOf(line, *t.At)
		if err != nil {
			return protocol.NoOutcome, err
		}
		o.At = at
	}
	switch {
	case t.Boat != nil:
		o.Boat = *t.Boat
	case kind == Move:
		o.Boat = -1
	}
	outcome := protocol.NoOutcome
	if w.Outcome != nil {
		outcome = protocol.Lost
		if *w.Outcome {
			outcome = protocol.Won
		}
	}
	return outcome, nil
}

// marshal is v's compact JSON (it cannot fail: plain values).
func marshal(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}

// strict decodes line, one JSON object, into v: unknown members and
// anything after the object are errors wrapping a *protocol.ProtocolError.
func strict(line []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return protocol.NewProtocolError(line, fmt.Errorf("%w: %w", protocol.ErrSyntax, err))
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return protocol.NewProtocolError(line, fmt.Errorf("%w: more than one JSON value", protocol.ErrSyntax))
	}
	return nil
}

// typeError is a protocol error of a line with the wrong shape.
func typeError(line []byte, msg string) error {
	return protocol.NewProtocolError(line, fmt.Errorf("%w: %s", protocol.ErrType, msg))
}
