package wire

import (
	"fmt"

	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/game/battleship"
	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/protocol"
)

// Client is the client side of the Kaisen battleship protocol on one
// connection (game.ClientCodec): one game after Greeting, or a series
// after "round1. please send me initial state.". It tells the seat every
// shot's result, Repeat and Again worked out from the shots seen.
type Client struct {
	rules  *battleship.Rules
	lines  game.Lines  // the connection, from Open
	opened bool        // a game was opened already
	await  bool        // a result line is awaited (after "your turn" or "waiting")
	mine   bool        // the result awaited answers the seat's shot
	shot   [2]grid.Set // cells shot by the seat [0] and by the opponent [1]
	shots  [2]int
	errs   []string
}

var _ game.ClientCodec[*battleship.Rules, battleship.Placement, grid.Cell, battleship.Event] = (*Client)(nil)

// NewClient returns the client codec of one connection playing rules.
func NewClient(rules *battleship.Rules) *Client { return &Client{rules: rules} }

// Shots are the shots fired in the current game by the seat [0] and by
// the opponent [1].
func (c *Client) Shots() [2]int { return c.shots }

// Errors lists the messages of the {"error":...} lines the server sent in
// the current game (why the seat forfeited).
func (c *Client) Errors() []string { return c.errs }

// Greet accepts Greeting or a series' first greeting (game.ClientCodec).
func (c *Client) Greet(line []byte) (int, error) {
	d, round, err := protocol.ParseGreeting(line)
	if err != nil || d != protocol.Classic {
		return 0, protocol.NewProtocolError(line, fmt.Errorf("%w: want the greeting %q or %q", protocol.ErrUnexpected, Greeting, protocol.SeriesRound(1)))
	}
	return round, nil
}

// Open begins a game (game.ClientCodec): every game of the connection has
// the same rules.
func (c *Client) Open(l game.Lines) (game.Opening[*battleship.Rules], error) {
	op := game.Opening[*battleship.Rules]{Rules: c.rules, Fresh: !c.opened}
	c.lines, c.opened = l, true
	c.await, c.shot, c.shots, c.errs = false, [2]grid.Set{}, [2]int{}, nil
	return op, nil
}

// Place sends the placement (game.ClientCodec).
func (c *Client) Place(p battleship.Placement) error { return c.lines.Write(EncodeShips(c.rules, p)) }

// Next names the line expected (game.ClientCodec).
func (c *Client) Next() string {
	if !c.opened {
		return "greeting"
	}
	if c.await {
		return "result"
	}
	return "turn"
}

// Act sends the shot (game.ClientCodec).
func (c *Client) Act(at grid.Cell, _ *battleship.Event) (bool, error) {
	return false, c.lines.Write(EncodeShoot(c.rules, at))
}

// Decode reads "your turn", "waiting" and the result line that answers
// each (an error line may come first), and the error and outcome lines of
// a forfeit (game.ClientCodec).
func (c *Client) Decode(line []byte, o *battleship.Event) (game.Heard, error) {
	if !c.await {
		if mine, ok := protocol.ParseTurn(line); ok {
			c.mine, c.await = mine, true
			return game.TurnHeard(mine), nil
		}
		res, err := DecodeShotResult(line, c.rules)
		if err == nil && res.Error != "" && !res.HasShot {
			c.errs = append(c.errs, res.Error)
			return game.HeardNothing, nil
		}
		if err == nil && !res.HasShot && res.GameOutcome != protocol.NoOutcome {
			return game.HeardNothing, nil // a forfeit's outcome line; the end line follows
		}
		return game.HeardNothing, protocol.NewProtocolError(line, fmt.Errorf("%w: want %q, %q or an end line", protocol.ErrUnexpected, protocol.YourTurn, protocol.Waiting))
	}
	// One result line answers the turn; an error line may come first, and
	// a server that ends the game at once sends the end line.
	res, err := DecodeShotResult(line, c.rules)
	if err != nil {
		return game.HeardNothing, err
	}
	if res.Error != "" && !res.HasShot && res.GameOutcome == protocol.NoOutcome {
		c.errs = append(c.errs, res.Error)
		return game.HeardNothing, nil
	}
	c.await = false
	if !res.HasShot {
		return game.HeardNothing, nil // the game ended by a forfeit: the end line follows
	}
	side := 1
	if c.mine {
		side = 0
	}
	c.shots[side]++
	*o = battleship.Event{Mine: c.mine, Illegal: res.Illegal, Result: battleship.Result{At: res.At, Outcome: res.Outcome, Sunk: res.Sunk}}
	if !res.Illegal {
		o.Repeat = c.shot[side].Has(res.At)
		c.shot[side].Add(res.At)
		o.Again = o.Result.Again()
	} else {
		o.At = grid.None
	}
	return game.HeardTold, nil
}
