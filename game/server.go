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

// TurnHooks are what a game adds to the server's turn loop beyond its
// rules and its wire lines, for one game (the abilities game's constant
// shape: game/abilities/wire). A ServerCodec that is a Hooked gives them.
type TurnHooks[A, S any] interface {
	// Before is told each action about to be applied.
	Before(a A)
	// Shown is what the action a that seat mv played (st and err: what
	// Apply returned) adds to the game's action count as the result has
	// it (a hidden move counts nothing).
	Shown(mv int, a A, st *S, err error) int
	// Continues reports whether the seat that played a goes on without
	// "your turn" when it is to act next.
	Continues(a A) bool
	// Confirms returns the seat and the lines it must answer, one by one,
	// before step st is told (none: nil).
	Confirms(st *S) (seat int, lines [][]byte)
	// CheckConfirm says why a is not the answer to a confirm line (nil: it
	// is).
	CheckConfirm(a A) error
}

// Hooked is a ServerCodec whose games add TurnHooks to the turn loop:
// Hooks makes those of game g, at its start.
type Hooked[G, A, S any] interface {
	Hooks(g G) TurnHooks[A, S]
}

// RoundHello is a ServerCodec whose hello a game of a series needs as
// well as its round greeting: in a series the turn loop sends Hello after
// each "roundK." line when HelloEachRound is true (the abilities game's
// hello names the seat, the sides and the options, which "roundK." does
// not).
type RoundHello interface {
	HelloEachRound() bool
}

// Forfeits is a ServerCodec whose dialect tells a fault as an action
// rather than with forfeit and error lines (the submarine game's, as its
// reference server does): a mover's fault is taken as the action Invalid
// (applied, recorded and told like any other, then the mover forfeits), a
// seat that broke the protocol while waiting is told the forfeit as
// ForfeitTold fills it, and the winner of a game whose handshake its
// opponent failed is sent "waiting" and then the line AppendWalkover
// appends. G is the contract's game state, P, A and O its placement,
// action and observation.
type Forfeits[G, P, A, O any] interface {
	// Invalid is the action a mover's fault is taken as.
	Invalid() A
	// ForfeitTold fills o with what seat is told of game g when a seat
	// forfeits while it was not its turn (g.Forfeit has been called).
	ForfeitTold(g G, seat int, o *O)
	// AppendWalkover appends the line that tells seat, which placed p and
	// whose opponent failed its handshake, that it won.
	AppendWalkover(b []byte, seat int, p P) []byte
}
