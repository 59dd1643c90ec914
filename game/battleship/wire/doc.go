// Package wire is the wire codec of Battleship (docs/protocol.md, section
// Battleship); importers outside the game name it bswire. The game keeps
// the line framing, greeting, "your turn" / "waiting" and end lines of the
// classic submarine dialect (package protocol) and has its own placement
// (DecodeShips, EncodeShips), shot (DecodeShoot, EncodeShoot) and result
// lines (EncodeShotResult, DecodeShotResult), all in compact JSON. Client
// is the client side of a connection (the game's game.ClientCodec, which
// package client plays); Server (server.go) is the server side for the
// server's turn loop: the greeting, placements and shots read with the
// game's errors (a refused layout on one line: FleetError), result,
// forfeit and error lines.
// Positions are [row, col] (row first), unlike submarine's [x, y].
//
// The abilities variant's codec (game/abilities/wire) reads its cells'
// outcomes with ShotOutcome. testdata/battleship-small.txt is a whole game,
// both connections.
package wire
