// Package wire is the wire codec of the abilities variant of Battleship
// (docs/protocol.md, section "Abilities"); importers outside the game name
// it abwire. It keeps the Battleship protocol's framing, placement, turn
// and end lines (game/battleship/wire) and adds, one concern per file:
//
//   - hello.go: the hello line that names the protocol Version, the seat,
//     the sides and the rules options (Hello, EncodeHello, DecodeHello);
//   - action.go: the ability actions and the defender's answers
//     (EncodeAction, DecodeAction);
//   - event.go: one result line per action telling each seat what the
//     rules tell it (abilities.Event: EncodeEvent, DecodeEvent, Result);
//   - confirm.go: the confirm lines of protocol version 2 and their
//     schedule (EncodeConfirm, ConfirmAnswer, Confirms);
//   - client.go: the client side of a connection (Client, the game's
//     game.ClientCodec, which package client plays);
//   - server.go: the server side for the server's turn loop (Server: the
//     hello, placements and actions read with the game's errors, result,
//     confirm, forfeit and error lines, and which actions go on without
//     "your turn").
//
// Positions are [row, col]. testdata/abilities-game.txt is a whole game,
// both connections, which the server's and the client's tests replay.
package wire
