// Package wire is the wire codec of the submarine game (潜水艦ゲーム): the
// line-oriented JSON protocol of the 2016 reference server ("classic"),
// its series fork, and the 2025 "submarine-py" dialect, as specified in
// shared/spec/submarine.md. Importers outside the game name it subwire.
//
// It converts between lines and the engine's types (game/submarine):
// placements (DecodePlacement, EncodePlacement, and the Order in which a
// side named its ships, which the reference server reports back), actions
// (DecodeAction, EncodeAction), result lines (EncodeResult, DecodeResult)
// and the submarine-py field message (EncodeField, DecodeField); Client
// is the client side of a connection in every dialect (the game's
// game.ClientCodec, which package client plays). The
// server's hot path has allocation-free twins checked against them by
// fuzzing: DecodeActionFast and ResultEncoder. Server (server.go) is the
// server side of one pairing for the server's turn loop: the greeting and
// the field line, placements read with the order they name the ships in,
// actions read by DecodeActionFast, result lines written by the
// ResultEncoder, and the dialect's way of telling a fault as an action
// (game.Forfeits: Invalid, ForfeitTold, AppendWalkover; InvalidEvent).
// Listener (listener.go) is the game on one server listener: its dialect
// and board settings checked into rules, a dialect and the ResultEncoder
// its pairings share, and one Server per pairing (the server's
// Contract.Listen). Framing, dialects, greetings, end lines and errors
// are package protocol's.
//
// The classic dialect prints compact JSON exactly like the reference Ruby
// server (key order included), the submarine-py dialect prints Python
// json.dumps spacing. Decoders are strict about types and tolerant about
// form: coordinates must be JSON integers, ship names must belong to the
// fleet, a placement names every ship exactly once; unknown keys, any
// JSON spacing and a trailing "\r" are accepted. Every malformed line
// yields a *protocol.ProtocolError.
//
// A position on the wire is [x, y] with x the column; the engine's cell is
// y*width + x.
//
// testdata/ holds the golden transcripts of whole games in both dialects
// and, under reference/, the byte-exact capture of the reference server;
// the server's and the client's tests play them too.
package wire
