package game

import "time"

// ServerCodec is the server side of one game's wire codec for one rules
// value, as the server's one turn loop (package server) uses it: the
// lines a seat is sent and how its lines are read, with the game's
// errors. P, A and O are the contract's placement, action and
// observation. The turn loop frames the lines (one per call, without its
// "\n"), sends "your turn" and "waiting", the series greetings and the
// end lines (package protocol) itself. A server makes one codec per
// pairing; its methods are called by the pairing's goroutine.
type ServerCodec[P, A, O any] interface {
	// NewGame starts a game of the pairing.
	NewGame()
	// Hello is the first line of a game to seat (a series greets with
	// "roundK." instead).
	Hello(seat int) []byte
	// What names a seat's action in faults ("shot", "action").
	What() string
	// Late is added to the fault of a client that sent no action within
	// the action timeout d.
	Late(d time.Duration) string
	// DecodePlacement reads seat's placement line; a malformed line is an
	// error wrapping a *protocol.ProtocolError that quotes it. The rules
	// check the placement afterwards.
	DecodePlacement(seat int, line []byte) (P, error)
	// PlacementError is the error of a placement the rules refused, as
	// the client is told it (on one line).
	PlacementError(err error) error
	// DecodeAction reads an action line (a malformed one: an error
	// wrapping a *protocol.ProtocolError).
	DecodeAction(line []byte) (A, error)
	// AppendTold appends the line that tells seat o (outcome: the game's
	// outcome for the seat, protocol.NoOutcome while it runs).
	AppendTold(b []byte, seat int, o *O, outcome int) []byte
	// ForfeitLine is the line a client seat gets when a running game ends
	// by a forfeit (illegal: the rules refused the loser's action; won:
	// the seat wins); nil in a dialect that tells a forfeit as an invalid
	// action (the submarine game's).
	ForfeitLine(illegal, won bool) []byte
	// ErrorLine is the line that tells a client why it lost (nil: the
	// dialect has none).
	ErrorLine(msg string) []byte
}
