package game

// The client side of a game's wire codec: what one client (package client)
// needs of a game to play it over the network. Each game's wire package
// implements ClientCodec; the client's connection loop, written once, reads
// the lines, recognises the end lines and the series greetings (package
// protocol), and drives a Player with what the codec says.

// Lines is a connection to a server as a ClientCodec uses it.
type Lines interface {
	// Read returns the next line from the server, without its "\n"; what
	// names the line expected, in errors.
	Read(what string) ([]byte, error)
	// Write sends line and its "\n" (line may hold several lines: one
	// write).
	Write(line []byte) error
}

// Heard is what one line from the server means for the client's seat
// (ClientCodec.Decode).
type Heard uint8

// What a line may mean.
const (
	HeardNothing Heard = iota // nothing for the player (a server's error line, an echo, an answer the codec sent itself)
	HeardTurn                 // the seat is to act: its player's action goes out (ClientCodec.Act)
	HeardWait                 // the other seat is to act
	HeardTold                 // the seat is told an observation: its player observes it
)

// TurnHeard is what a turn line means: HeardTurn for the seat's own
// turn (mine), else HeardWait.
func TurnHeard(mine bool) Heard {
	if mine {
		return HeardTurn
	}
	return HeardWait
}

// Opening is how one game of a connection begins (ClientCodec.Open).
type Opening[R any] struct {
	Rules R
	// Seat is the client's seat when the wire names it (else 0): the
	// seat its player's factory is given.
	Seat int
	// Fresh: the rules are not those of the connection's previous game
	// (always true for the first): the host builds the players anew.
	Fresh bool
}

// ClientCodec is the client side of one game's wire protocol on one
// connection, for every game the connection plays, in order: R is the
// game's rules, P, A and O the contract's placement, action and
// observation. The host reads every line from the server and hands it to
// the codec; the codec writes every line the client sends, through the
// Lines its Open is given. Its methods are called by one goroutine:
//
//	Greet once, with the connection's first line;
//	then for each game: Open, Place, and for each line until the game's
//	end line Decode (and Act on HeardTurn; again while Act says so).
//
// The host handles the end lines ("you win", ...) and, between the games
// of a series, the next round's greeting and the trailer (package
// protocol): Decode never sees them.
type ClientCodec[R, P, A, O any] interface {
	// Greet reads the connection's first line (a greeting, a hello) and
	// returns the series round it names (0: one game).
	Greet(line []byte) (round int, err error)
	// Open begins a game whose greeting has been read: it exchanges on c
	// what comes before the placement (the submarine-py name and field)
	// and says the game's rules and the client's seat.
	Open(c Lines) (Opening[R], error)
	// Place sends the seat's placement, which the host has checked
	// against the rules.
	Place(p P) error
	// Next names the line the codec expects next ("turn", "result"), for
	// the host's read errors.
	Next() string
	// Decode says what line means for the seat; on HeardTold it fills *o
	// (as Rules.Tell: *o belongs to the host, and what it points to is
	// valid until the next call). A malformed or unexpected line is an
	// error wrapping a protocol error that quotes it.
	Decode(line []byte, o *O) (Heard, error)
	// Act sends the seat's action a. again: the action's result is known
	// without the server (the codec filled *o with it): the host tells
	// the player and calls Act with its next action, which goes out in
	// the same write.
	Act(a A, o *O) (again bool, err error)
}
