package client

// The abilities client: PlayAbilities connects one abilities AI (package
// abplayers) to a Kaisen abilities server and plays one game: Play with
// abwire.Client.

import (
	"context"
	"math/rand/v2"
	"net"

	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/game/abilities"
	abwire "github.com/kaisen-ai/kaisen/game/abilities/wire"
	"github.com/kaisen-ai/kaisen/game/battleship"
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
// and returns at the end line. On a series listener use Play with a
// factory instead: PlayAbilities builds one player, for the first game's
// hello. A malformed or unexpected line is an error
// wrapping a *protocol.ProtocolError. Cancelling ctx closes conn;
// PlayAbilities leaves conn open otherwise.
func PlayAbilities(ctx context.Context, conn net.Conn, build AbilitiesPlayerFor, opts BattleshipPlayOptions) (AbilitiesGame, error) {
	base, po := opts.options()
	codec := abwire.NewClient(base)
	factory := func(r *abilities.Rules) (game.Factory[battleship.Placement, abilities.Action, abilities.Told], error) {
		p, err := build(r, codec.Hello().Seat)
		if err != nil {
			return nil, err
		}
		return abplayers.Adapt(func(*rand.Rand, int) abplayers.Player { return p }), nil
	}
	po.Wording = WordOneGame
	res, err := Play(ctx, conn, abilities.Name, codec, factory, func(int) *rand.Rand { return nil }, po)
	g := AbilitiesGame{Hello: codec.Hello(), Shots: codec.Shots(), Actions: codec.Actions(), Confirms: codec.Confirms(), Errors: codec.Errors()}
	if len(res.Games) > 0 {
		g.End, g.Line = res.Games[0].End, res.Games[0].Line
	}
	return g, err
}
