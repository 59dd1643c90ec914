// Package protocol is the wire format of the submarine game (潜水艦ゲーム): the
// line-oriented JSON protocol of the 2016 reference server ("classic"), its
// series fork, and the 2025 "submarine-py" dialect, as specified in
// shared/spec/submarine.md.
//
// The package converts between lines and the engine's types
// (game/submarine). It does no network I/O of its own besides LineReader, a
// bounded line reader for any io.Reader. Encoders return one line without its
// trailing "\n"; the classic dialect prints compact JSON exactly like the
// reference Ruby server (key order included), the submarine-py dialect prints
// Python json.dumps spacing (", " and ": ").
//
// Decoders are strict about types and tolerant about form: coordinates must be
// JSON integers (1.5, 1.0, "1" and 1e0 are refused), ship names must belong to
// the fleet, positions have exactly two elements, a placement names every ship
// exactly once; unknown keys, any JSON spacing and a trailing "\r" are
// accepted. Every malformed line yields a *ProtocolError that quotes (a prefix
// of) the line and wraps one of ErrSyntax, ErrType, ErrUnknownShip, ErrFleet,
// ErrUnexpected or ErrLineTooLong.
//
// A position on the wire is [x, y] with x the column; the engine's cell is
// y*width + x.
package protocol
