package wire

import (
	"fmt"

	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/game/submarine"
	"github.com/kaisen-ai/kaisen/protocol"
)

// Client is the client side of the submarine game's wire protocol on one
// connection (game.ClientCodec), in every dialect: the classic one (one
// game), its series ("roundN." greetings) and the submarine-py one (the
// client's name, then the server's field, which sets the board). It tells
// the seat what the wire says, its own moves completed from its action, so
// that a player sees the same Events and Views as in-process.
type Client struct {
	rules *submarine.Rules // the classic rules; in submarine-py their fleet and draw limit
	name  []byte           // sent to submarine-py servers

	d     protocol.Dialect
	lines game.Lines       // the connection, from Open
	cur   *submarine.Rules // the current game's rules
	last  *submarine.Rules // the previous game's (nil before the first)
	view  submarine.View   // the seat's view, as the player last saw it
	act   submarine.Action // the seat's last action
	mine  bool             // the result line awaited answers the seat's action
	await bool             // a result line is awaited (after "your turn" or "waiting")
}

var _ game.ClientCodec[*submarine.Rules, submarine.Placement, submarine.Action, submarine.Told] = (*Client)(nil)

// NewClient returns the client codec of one connection: rules are the
// classic dialect's (in submarine-py, their fleet and draw limit with the
// server's board), name the line sent to submarine-py servers.
func NewClient(rules *submarine.Rules, name string) *Client {
	return &Client{rules: rules, name: []byte(name)}
}

// Dialect is the dialect of the connection's greeting (0 before Greet).
func (c *Client) Dialect() protocol.Dialect { return c.d }

// Greet recognises the dialect from the greeting (game.ClientCodec).
func (c *Client) Greet(line []byte) (int, error) {
	d, round, err := protocol.ParseGreeting(line)
	if err != nil {
		return 0, err
	}
	c.d = d
	return round, nil
}

// Open begins a game (game.ClientCodec): in submarine-py it sends the name
// and reads the field.
func (c *Client) Open(l game.Lines) (game.Opening[*submarine.Rules], error) {
	var op game.Opening[*submarine.Rules]
	c.lines = l
	rules := c.rules
	if c.d == protocol.SubmarinePy {
		if err := l.Write(c.name); err != nil {
			return op, err
		}
		line, err := l.Read("field")
		if err != nil {
			return op, err
		}
		b, err := DecodeField(line)
		if err != nil {
			return op, err
		}
		rules = &submarine.Rules{Board: b, Fleet: c.rules.Fleet, DrawLimit: c.rules.DrawLimit}
		if err := rules.Validate(); err != nil {
			return op, protocol.NewProtocolError(line, fmt.Errorf("%w: %w", protocol.ErrUnexpected, err))
		}
	}
	op.Fresh = !sameRules(c.last, rules)
	if op.Fresh {
		c.last = rules
	}
	c.cur, op.Rules = rules, c.last
	c.await = false
	return op, nil
}

// Place sends the placement (game.ClientCodec).
func (c *Client) Place(p submarine.Placement) error {
	c.view = submarine.View{Me: submarine.NewFleet(c.cur, p)}
	for i, s := range c.cur.Fleet {
		c.view.EnemyHP[i] = int8(s.HP)
	}
	return c.lines.Write(EncodePlacement(c.d, c.cur, p))
}

// Next names the line expected (game.ClientCodec).
func (c *Client) Next() string {
	if c.cur == nil {
		return "greeting"
	}
	if c.await {
		return "result"
	}
	return "turn"
}

// Act sends the action (game.ClientCodec).
func (c *Client) Act(a submarine.Action, _ *submarine.Told) (bool, error) {
	c.act = a
	return false, c.lines.Write(EncodeAction(c.d, c.cur, a))
}

// Decode reads "your turn", "waiting" and the one result line that answers
// each (game.ClientCodec).
func (c *Client) Decode(line []byte, o *submarine.Told) (game.Heard, error) {
	if !c.await {
		if mine, ok := protocol.ParseTurn(line); ok {
			c.mine, c.await = mine, true
			return game.TurnHeard(mine), nil
		}
		return game.HeardNothing, protocol.NewProtocolError(line, fmt.Errorf("%w: want %q, %q or an end line", protocol.ErrUnexpected, protocol.YourTurn, protocol.Waiting))
	}
	// Exactly one result line answers "your turn" and "waiting"; a server
	// that ends the game instead sends the end line.
	c.await = false
	res, err := DecodeResult(c.d, line, c.cur, c.mine)
	if err != nil {
		return game.HeardNothing, err
	}
	ev := res.Event
	if c.mine && !res.HasResult && res.Outcome == protocol.Won {
		// The opponent forfeited (disconnect, timeout, out-of-turn line)
		// before our action counted: the server answers with the outcome
		// alone and the end line follows. There is nothing to observe.
		c.view = res.View
		return game.HeardNothing, nil
	}
	if c.mine {
		if ev, err = ownEvent(c.cur, c.act, res, &c.view.Me); err != nil {
			return game.HeardNothing, protocol.NewProtocolError(line, err)
		}
	}
	// The wire drops sunk ships; like the engine, keep their last cell.
	for i := range c.cur.Fleet {
		if !res.View.Me.Alive.Has(i) {
			res.View.Me.Pos[i] = c.view.Me.Pos[i]
		}
	}
	c.view = res.View
	o.Event, o.View = ev, &c.view
	return game.HeardTold, nil
}

// ownEvent is what the engine tells a player about its own action act,
// given the server's answer res and the player's fleet before the action.
func ownEvent(r *submarine.Rules, act submarine.Action, res Result, before *submarine.Fleet) (submarine.Event, error) {
	ev := submarine.Event{Mine: true, Kind: act.Kind, At: grid.None, Hit: submarine.NoShip, Ship: submarine.NoShip, To: grid.None}
	if act.Kind == submarine.Attack {
		if res.HasResult {
			if res.Event.Kind != submarine.Attack {
				return ev, fmt.Errorf("%w: the answer to an attack reports a move", protocol.ErrUnexpected)
			}
			return res.Event, nil
		}
		if res.Outcome != protocol.Lost {
			return ev, fmt.Errorf("%w: the answer to an attack has no result", protocol.ErrUnexpected)
		}
		ev.Illegal = true // a forfeit
		return ev, nil
	}
	if act.Kind != submarine.Move || res.Event.Illegal || res.Outcome == protocol.Lost ||
		act.Ship < 0 || act.Ship >= len(r.Fleet) || !r.Board.IsUsable(act.To) {
		ev.Illegal = true
		return ev, nil
	}
	fx, fy := r.Board.XY(before.Pos[act.Ship])
	tx, ty := r.Board.XY(act.To)
	ev.Ship, ev.To, ev.DX, ev.DY = act.Ship, act.To, tx-fx, ty-fy
	return ev, nil
}

// sameRules reports whether a and b describe the same game.
func sameRules(a, b *submarine.Rules) bool {
	if a == b {
		return true
	}
	if a == nil || b == nil || a.DrawLimit != b.DrawLimit || len(a.Fleet) != len(b.Fleet) ||
		a.Board.Width() != b.Board.Width() || a.Board.Height() != b.Board.Height() || a.Board.Usable() != b.Board.Usable() {
		return false
	}
	for i := range a.Fleet {
		if a.Fleet[i] != b.Fleet[i] {
			return false
		}
	}
	return true
}
