package client

// The abilities client: PlayAbilities connects one abilities AI (package
// abplayers) to a Kaisen abilities server and plays one game.

import (
	"context"
	"fmt"
	"net"

	"github.com/kaisen-ai/kaisen/game/abilities"
	abwire "github.com/kaisen-ai/kaisen/game/abilities/wire"
	"github.com/kaisen-ai/kaisen/game/battleship"
	bswire "github.com/kaisen-ai/kaisen/game/battleship/wire"
	abplayers "github.com/kaisen-ai/kaisen/players/abilities"
	"github.com/kaisen-ai/kaisen/protocol"
)

// AbilitiesPlayerFor builds the player of one abilities game once the
// server's hello has said the rules (sides, options) and the seat.
type AbilitiesPlayerFor func(rules *abilities.Rules, seat int) (abplayers.Player, error)

// AbilitiesGame is how one abilities game went for the client.
type AbilitiesGame struct {
	End   protocol.End // how it ended for this client
	Line  string       // the end line exactly as the server sent it
	Hello abwire.Hello
	// Shots counts the cells fired at by this client [0] and by the
	// opponent [1] (air-defended ones included), as the rules count them.
	Shots [2]int
	// Actions counts the actions this client sent; Confirms, the confirm
	// lines it answered (abwire.ConfirmAnswer lines, not actions).
	Actions  int
	Confirms int
	// Errors lists the messages of the {"error":...} lines the server sent
	// (why this client forfeited).
	Errors []string
}

// PlayAbilities plays one game of the abilities protocol on conn: it reads
// the hello (a version other than abwire.Version is a *protocol.ProtocolError
// wrapping abwire.ErrVersion), builds the player for the rules and seat it
// names (opts.Rules is the board and fleet, nil = the classic ones), sends
// its placement, answers every "your turn" with the player's action (its
// answer when the last result line asked this seat a question), tells the
// player every result line as the abilities.Event the rules give that seat,
// and returns at the end line. A malformed or unexpected line is an error
// wrapping a *protocol.ProtocolError. Cancelling ctx closes conn;
// PlayAbilities leaves conn open otherwise.
func PlayAbilities(ctx context.Context, conn net.Conn, build AbilitiesPlayerFor, opts BattleshipPlayOptions) (AbilitiesGame, error) {
	var g AbilitiesGame
	err := playFleet(ctx, conn, opts, abilities.Name, func(c *client, base *battleship.Rules) (err error) {
		g, err = c.abilities(base, build)
		return err
	})
	return g, err
}

// abilities plays one abilities game on c.
func (c *client) abilities(base *battleship.Rules, build AbilitiesPlayerFor) (AbilitiesGame, error) {
	var g AbilitiesGame
	line, err := c.read("hello")
	if err != nil {
		return g, err
	}
	if string(line) == bswire.Greeting {
		return g, protocol.NewProtocolError(line, fmt.Errorf("%w: want the abilities hello, got the battleship and submarine greeting (a server of another game?)", protocol.ErrUnexpected))
	}
	if g.Hello, err = abwire.DecodeHello(line); err != nil {
		return g, err
	}
	me := g.Hello.Seat
	rules, err := abilities.NewRules(base, g.Hello.Sides[0], g.Hello.Sides[1], g.Hello.Options)
	if err != nil {
		return g, err
	}
	p, err := build(rules, me)
	if err != nil {
		return g, fmt.Errorf("build the player: %w", err)
	}
	place := p.Place()
	if err := base.ValidatePlacement(place); err != nil {
		return g, fmt.Errorf("the player's placement: %w", err)
	}
	if err := c.write(bswire.EncodeShips(base, place)); err != nil {
		return g, err
	}
	var ask *abilities.Question // the question this seat must answer, if any
	confirm := false            // the last line was a confirm: the next "your turn" answers it
	// moves are the result lines of this seat's moves it has not read yet:
	// after a move it acts again at once (protocol version 2: no "your
	// turn" follows a move), telling the player the move's result line as
	// the server will send it, and checks that line when it comes.
	var moves [][]byte
	// werr is a failed write: the server may have ended the game and
	// closed already (its end lines can still be read), so the lines it
	// sent are read before the error is returned.
	var werr error
	for {
		line, err := c.read("turn or result")
		if err != nil {
			if werr != nil {
				return g, werr
			}
			return g, err
		}
		switch string(line) {
		case protocol.YourTurn:
			if werr != nil {
				return g, werr
			}
			if confirm {
				// Every confirm is answered at once and the same way; a
				// real question goes to the player (docs/abilities.md).
				confirm = false
				g.Confirms++
				werr = c.write(abwire.EncodeAction(rules, abwire.ConfirmAnswer))
				continue
			}
			// A move and the action after it go out in one write, as
			// one action would.
			a := p.Act(ask)
			var out []byte
			for again := false; ; again = true {
				g.Actions++
				out = append(out, abwire.EncodeAction(rules, a)...)
				if ask != nil || a.Kind != abilities.Move || again {
					break // one move a turn: a second one goes out as it is (and loses)
				}
				mine := abwire.EncodeEvent(rules, abilities.Event{Seat: me, Mine: true, Attacker: me, Kind: abilities.Move,
					Moved: true, From: a.At, To: a.To, Scan: -1, Winner: -1, Next: me}, protocol.NoOutcome)
				res, err := abwire.DecodeEvent(mine, rules, me)
				if err != nil { // a move off the board: the server refuses it
					break
				}
				moves = append(moves, mine)
				p.Observe(res.Event)
				a = p.Act(nil)
				out = append(out, '\n')
			}
			werr = c.write(out)
			continue
		case protocol.Waiting:
			continue
		}
		if e, _ := protocol.ParseEnd(line); e != protocol.NotEnd {
			g.End, g.Line = e, string(line)
			return g, nil
		}
		if len(moves) > 0 && string(line) == string(moves[0]) { // the player was told it when it moved
			moves = moves[1:]
			continue
		}
		res, err := abwire.DecodeEvent(line, rules, me)
		if err != nil {
			return g, err
		}
		if res.Error != "" {
			g.Errors = append(g.Errors, res.Error)
		}
		if res.Confirm {
			confirm = true
			continue
		}
		if !res.HasEvent {
			continue // an error line, or a forfeit's outcome line: the end line follows
		}
		if len(moves) > 0 {
			return g, protocol.NewProtocolError(line, fmt.Errorf("%w: want the result of this seat's move, %s", protocol.ErrUnexpected, moves[0]))
		}
		ev := res.Event
		side := 1
		if ev.Attacker == me {
			side = 0
		}
		g.Shots[side] += len(ev.Cells)
		ask = nil
		if ev.Ask != nil && ev.Ask.Seat == me {
			q := *ev.Ask
			ask = &q
		}
		p.Observe(ev)
	}
}
