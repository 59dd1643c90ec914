package sonar

import (
	"fmt"

	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/protocol"
)

// ClientCodec is the client side of the game's wire on one connection
// (game.ClientCodec): one game after the classic greeting, or a series
// after "round1. please send me initial state.".
type ClientCodec struct {
	rules  *Rules
	lines  game.Lines // the connection, from Open
	opened bool       // a game was opened already
	await  bool       // a told line is awaited (after "your turn" or "waiting")
	mine   bool       // the told line awaited answers the seat's action
	errs   []string
}

var _ game.ClientCodec[*Rules, Placement, Action, Told] = (*ClientCodec)(nil)

// NewClientCodec returns the client side of one connection playing rules.
func NewClientCodec(rules *Rules) game.ClientCodec[*Rules, Placement, Action, Told] {
	return &ClientCodec{rules: rules}
}

// Errors lists the messages of the {"error":...} lines the server sent in
// the current game (why the seat forfeited).
func (c *ClientCodec) Errors() []string { return c.errs }

// Greet accepts the classic greeting or a series' first greeting.
func (c *ClientCodec) Greet(line []byte) (int, error) {
	d, round, err := protocol.ParseGreeting(line)
	if err != nil || d != protocol.Classic {
		return 0, protocol.NewProtocolError(line, fmt.Errorf("%w: want the greeting %q or %q", protocol.ErrUnexpected, protocol.ClassicGreeting, protocol.SeriesRound(1)))
	}
	return round, nil
}

// Open begins a game: every game of the connection has the same rules.
func (c *ClientCodec) Open(l game.Lines) (game.Opening[*Rules], error) {
	op := game.Opening[*Rules]{Rules: c.rules, Fresh: !c.opened}
	c.lines, c.opened = l, true
	c.await, c.errs = false, nil
	return op, nil
}

// Place sends the placement line.
func (c *ClientCodec) Place(p Placement) error {
	boats := make([]xy, len(p))
	for i, cell := range p {
		boats[i] = *c.rules.xyOf(cell) // the host checked p against the rules
	}
	return c.lines.Write(marshal(struct {
		Boats []xy `json:"boats"`
	}{boats}))
}

// Next names the line expected.
func (c *ClientCodec) Next() string {
	switch {
	case !c.opened:
		return "greeting"
	case c.await:
		return "told line"
	}
	return "turn"
}

// Act sends the action line.
func (c *ClientCodec) Act(a Action, _ *Told) (bool, error) {
	return false, c.lines.Write(c.rules.EncodeAction(a))
}

// Decode reads "your turn", "waiting" and the told line that answers
// each, and the error and outcome lines of a forfeit.
func (c *ClientCodec) Decode(line []byte, o *Told) (game.Heard, error) {
	if !c.await {
		if mine, ok := protocol.ParseTurn(line); ok {
			c.mine, c.await = mine, true
			return game.TurnHeard(mine), nil
		}
	}
	w, err := c.rules.decodeServerLine(line)
	if err != nil {
		if !c.await {
			return game.HeardNothing, protocol.NewProtocolError(line, fmt.Errorf("%w: want %q, %q or an end line", protocol.ErrUnexpected, protocol.YourTurn, protocol.Waiting))
		}
		return game.HeardNothing, err
	}
	switch {
	case w.Told == nil && w.Error != nil:
		c.errs = append(c.errs, *w.Error)
		return game.HeardNothing, nil
	case w.Told == nil: // a forfeit's outcome line; the end line follows
		c.await = false
		return game.HeardNothing, nil
	case !c.await:
		return game.HeardNothing, protocol.NewProtocolError(line, fmt.Errorf("%w: a told line before %q or %q", protocol.ErrUnexpected, protocol.YourTurn, protocol.Waiting))
	}
	if _, err := c.rules.told(line, w, o); err != nil {
		return game.HeardNothing, err
	}
	if o.Mine != c.mine {
		return game.HeardNothing, protocol.NewProtocolError(line, fmt.Errorf("%w: told the other seat's action", protocol.ErrUnexpected))
	}
	c.await = false
	return game.HeardTold, nil
}
