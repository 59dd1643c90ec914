// Package server is Kaisen's turn server: existing Ruby and Python clients
// (and `kaisen play`) connect over TCP and play each other or a house AI, in
// the submarine game byte for byte as on the reference servers described in
// shared/spec/submarine.md, and in Battleship and its abilities variant
// (docs/protocol.md).
//
// A Server has one or more listeners (Config.Listeners), each with its own
// address, game, wire dialect (classic or submarine-py), board, opponent
// (pair clients in arrival order, or a house AI of the game),
// number of games per pairing (a series) and first-player policy. Every
// pairing runs in its own goroutine, which owns the game state and both
// connections. The session plumbing is game-independent (match and seat:
// handshake timer, action timer, series, results, rated play); every game
// is played by one turn loop written over the game contract (turns, in
// turns.go: the game's Rules start, apply and tell, its players act and
// observe), with the server side of the game's wire codec for the lines:
// game/submarine/wire's Server (its allocation-free DecodeActionFast and
// ResultEncoder on the hot path), game/battleship/wire's and
// game/abilities/wire's, framed by package protocol.
//
// The games a listener serves are a registry (games.go): a Game is one
// name with its compile step, and this package serves no game by itself.
// Every game — the submarine game, Battleship and the abilities game — is
// described by a Contract (its rules or its listener settings, house AIs,
// the server side of its wire codec, game.ServerCodec, its public view and
// its replay), built by NewGame and added with Register, which the games
// registry (package games) calls for every games.Def with a wire codec:
// such a game is served with no line of this package naming it, and this
// package imports no submarine package outside its tests. What is
// particular to a game is its descriptor's or its codec's: a Contract's
// Listen takes the game's own listener settings (the submarine game's
// dialect and board: game/submarine/wire's Listener, which gives the
// rules, the dialect of the end lines and one codec per pairing); a codec
// that is a game.Hooked adds its turn hooks (the abilities game's constant
// shape), one that is a game.Forfeits tells a fault as an action (the
// submarine game's: a mover's fault is applied as an invalid action, a
// forfeit while waiting and a walkover are told as the result of one),
// and one with Names and FieldLine reads a client's name before its
// placement (the submarine-py dialect).
//
// The write order of each turn is the reference server's: "your turn" to the
// mover, "waiting" to the other side, read the mover's line, the mover's
// result line, the other side's result line; after the last action the end
// lines (winner first, or the draw line to seat 0 then seat 1), then both
// connections are closed. The lines of a connection are queued and leave in
// one write when the game goroutine is about to wait: the bytes on each
// connection are the reference server's, only the interleaving across the
// two connections (which no TCP client can observe) differs.
//
// A reader goroutine per connection delivers its lines on a channel, so the
// game goroutine waits for the mover's action while watching the other
// client: one that sends a line or leaves while it is not its turn loses at
// once. Anything a client does wrong loses its game and only its game: a
// line that is not JSON, a float coordinate, an over-long line (cut off at
// the limit, never buffered), an invalid placement, an illegal action, a
// line out of turn, a timeout or a disconnect. The server logs the reason
// (log/slog, with the game id), tells the opponent it won (a result line with
// "outcome": true, then "you win") and closes both connections.
//
// Every game is recorded before its end lines are sent: a replay file
// (package replay) written to a temporary file, fsynced and renamed, and one
// line in the JSON-lines result log (Result), appended and fsynced, so that a
// crash at any moment leaves whole records only. An optional HTTP endpoint
// serves /healthz and Prometheus counters. Limits (connections in total and
// per IP, concurrent games, handshake, action and idle timeouts, line length)
// are in Config.Limits; see docs/server.md.
//
// The client side of the same protocols is package client (`kaisen play`);
// the load generator is package loadtest (`kaisen loadtest`).
package server
