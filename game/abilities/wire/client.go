package wire

import (
	"fmt"

	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/game/abilities"
	"github.com/kaisen-ai/kaisen/game/battleship"
	bswire "github.com/kaisen-ai/kaisen/game/battleship/wire"
	"github.com/kaisen-ai/kaisen/protocol"
)

// Client is the client side of the abilities protocol on one connection
// (game.ClientCodec): one game, on the sides and options the server's
// hello names. It tells the seat every result line as the abilities.Told
// the rules give that seat, answers every confirm line itself
// (ConfirmAnswer, docs/abilities.md), and after the seat's move asks for
// its next action at once (protocol version 2: no "your turn" follows a
// move), telling it the move's result line as the server will send it.
type Client struct {
	base  *battleship.Rules
	hello Hello
	rules *abilities.Rules
	lines game.Lines // the connection, from Open

	ask     *abilities.Question // the question this seat must answer, if any
	confirm bool                // the last line was a confirm: the next "your turn" answers it
	// moves are the result lines of this seat's moves it has not read
	// yet, which it was told when it moved: they are checked when they
	// come.
	moves [][]byte
	out   []byte // the actions of one turn (a move and the action after it: one write)
	again bool   // the action in out is a move told already
	// werr is a failed write: the server may have ended the game and
	// closed already (its end lines can still be read), so the lines it
	// sent are read before the next turn returns the error.
	werr     error
	shots    [2]int
	actions  int
	confirms int
	errs     []string
	series   bool // the connection's greeting was a series round's
}

var _ game.ClientCodec[*abilities.Rules, battleship.Placement, abilities.Action, abilities.Told] = (*Client)(nil)

// NewClient returns the client codec of one connection on base's board and
// fleet.
func NewClient(base *battleship.Rules) *Client { return &Client{base: base} }

// Hello is the server's hello (zero before Greet).
func (c *Client) Hello() Hello { return c.hello }

// Shots counts the cells fired at by this seat [0] and by the opponent
// [1] (air-defended ones included), as the rules count them.
func (c *Client) Shots() [2]int { return c.shots }

// Actions counts the actions this seat sent; Confirms, the confirm lines
// it answered (ConfirmAnswer lines, not actions).
func (c *Client) Actions() int  { return c.actions }
func (c *Client) Confirms() int { return c.confirms }

// Errors lists the messages of the {"error":...} lines the server sent
// (why this seat forfeited).
func (c *Client) Errors() []string { return c.errs }

// Greet reads the hello (game.ClientCodec), or a series' first round
// greeting ("round1."), whose hello Open reads: a version other than
// Version is a *protocol.ProtocolError wrapping ErrVersion.
func (c *Client) Greet(line []byte) (int, error) {
	if string(line) == bswire.Greeting {
		return 0, protocol.NewProtocolError(line, fmt.Errorf("%w: want the abilities hello, got the battleship and submarine greeting (a server of another game?)", protocol.ErrUnexpected))
	}
	if d, round, err := protocol.ParseGreeting(line); err == nil && d == protocol.Classic && round > 0 {
		c.series = true // each round's hello comes after its greeting (Open)
		return round, nil
	}
	h, err := DecodeHello(line)
	if err != nil {
		return 0, err
	}
	c.hello = h
	return 0, nil
}

// Open begins a game on the hello's sides and options (game.ClientCodec).
// In a series it reads the game's hello first, which follows each round's
// greeting; the game is fresh when its sides or options are not the
// previous game's. A game's counts (Shots, Actions, Confirms, Errors)
// start at zero.
func (c *Client) Open(l game.Lines) (game.Opening[*abilities.Rules], error) {
	var op game.Opening[*abilities.Rules]
	prev := c.hello
	if c.series {
		line, err := l.Read("hello")
		if err != nil {
			return op, err
		}
		if c.hello, err = DecodeHello(line); err != nil {
			return op, err
		}
	}
	fresh := c.rules == nil || prev.Sides != c.hello.Sides || prev.Options != c.hello.Options
	if fresh {
		rules, err := abilities.NewRules(c.base, c.hello.Sides[0], c.hello.Sides[1], c.hello.Options)
		if err != nil {
			return op, err
		}
		c.rules = rules
	}
	c.lines = l
	c.ask, c.confirm, c.moves, c.out, c.again, c.werr = nil, false, nil, nil, false, nil
	c.shots, c.actions, c.confirms, c.errs = [2]int{}, 0, 0, nil
	return game.Opening[*abilities.Rules]{Rules: c.rules, Seat: c.hello.Seat, Fresh: fresh}, nil
}

// Place sends the placement (game.ClientCodec).
func (c *Client) Place(p battleship.Placement) error {
	return c.lines.Write(bswire.EncodeShips(c.base, p))
}

// Next names the line expected (game.ClientCodec).
func (c *Client) Next() string {
	if c.rules == nil {
		return "hello"
	}
	return "turn or result"
}

// Act sends the seat's action (game.ClientCodec): a move on the seat's turn
// is told at once (again), and the action after it goes out in the same
// write; one move a turn: a second one goes out as it is (and loses).
func (c *Client) Act(a abilities.Action, o *abilities.Told) (bool, error) {
	c.actions++
	c.out = append(c.out, EncodeAction(c.rules, a)...)
	if c.ask == nil && a.Kind == abilities.Move && !c.again {
		me := c.hello.Seat
		mine := EncodeEvent(c.rules, abilities.Event{Seat: me, Mine: true, Attacker: me, Kind: abilities.Move,
			Moved: true, From: a.At, To: a.To, Scan: -1, Winner: -1, Next: me}, protocol.NoOutcome)
		if res, err := DecodeEvent(mine, c.rules, me); err == nil { // else a move off the board: the server refuses it
			c.moves = append(c.moves, mine)
			c.out = append(c.out, '\n')
			c.again = true
			o.Event, o.Pending = res.Event, nil
			return true, nil
		}
	}
	c.again = false
	c.werr = c.lines.Write(c.out)
	c.out = c.out[:0]
	return false, nil
}

// Decode reads the turn lines, the result lines, the confirm lines and the
// error and outcome lines of a forfeit (game.ClientCodec).
func (c *Client) Decode(line []byte, o *abilities.Told) (game.Heard, error) {
	switch string(line) {
	case protocol.YourTurn:
		if c.werr != nil {
			return game.HeardNothing, c.werr
		}
		if c.confirm {
			// Every confirm is answered at once and the same way; a real
			// question goes to the player (docs/abilities.md).
			c.confirm = false
			c.confirms++
			c.werr = c.lines.Write(EncodeAction(c.rules, ConfirmAnswer))
			return game.HeardNothing, nil
		}
		return game.HeardTurn, nil
	case protocol.Waiting:
		return game.HeardWait, nil
	}
	if len(c.moves) > 0 && string(line) == string(c.moves[0]) { // the player was told it when it moved
		c.moves = c.moves[1:]
		return game.HeardNothing, nil
	}
	res, err := DecodeEvent(line, c.rules, c.hello.Seat)
	if err != nil {
		return game.HeardNothing, err
	}
	if res.Error != "" {
		c.errs = append(c.errs, res.Error)
	}
	if res.Confirm {
		c.confirm = true
		return game.HeardNothing, nil
	}
	if !res.HasEvent {
		return game.HeardNothing, nil // an error line, or a forfeit's outcome line: the end line follows
	}
	if len(c.moves) > 0 {
		return game.HeardNothing, protocol.NewProtocolError(line, fmt.Errorf("%w: want the result of this seat's move, %s", protocol.ErrUnexpected, c.moves[0]))
	}
	ev := res.Event
	side := 1
	if ev.Attacker == c.hello.Seat {
		side = 0
	}
	c.shots[side] += len(ev.Cells)
	c.ask = nil
	if ev.Ask != nil && ev.Ask.Seat == c.hello.Seat {
		q := *ev.Ask
		c.ask = &q
	}
	o.Event, o.Pending = ev, c.ask
	return game.HeardTold, nil
}
