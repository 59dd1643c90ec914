package protocol

import (
	"fmt"
	"strings"
)

// Dialect is one of the protocol's dialects.
type Dialect uint8

// The dialects. The series variant of the classic server is Classic with
// SeriesRound greetings.
const (
	Classic     Dialect = iota + 1 // 2016 reference server (Ruby), compact JSON
	SubmarinePy                    // 2025 submarine_py servers, Python spacing
)

// Fixed protocol lines (without "\n").
const (
	YourTurn = "your turn"
	Waiting  = "waiting"
	YouWin   = "you win"
	YouLose  = "you lose"
)

// ParseTurn recognises the turn lines: mine is true for YourTurn (the
// receiving seat acts), false for Waiting; ok is false for any other line.
func ParseTurn(line []byte) (mine, ok bool) {
	switch string(line) {
	case YourTurn:
		return true, true
	case Waiting:
		return false, true
	}
	return false, false
}

// ClassicGreeting is the classic server's first line (Classic.Greeting);
// the Battleship and abilities servers greet with it too.
const ClassicGreeting = "you are connected. please send me initial state."

const (
	pyGreeting   = "This is a submarine_py server.  Tell me your name."
	seriesSuffix = ". please send me initial state."
)

// ParseDialect parses a dialect name: "classic" or "submarine-py"
// ("submarine_py" and "py" are accepted too).
func ParseDialect(s string) (Dialect, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "classic":
		return Classic, nil
	case "submarine-py", "submarine_py", "py":
		return SubmarinePy, nil
	}
	return 0, fmt.Errorf("protocol: unknown dialect %q (want classic or submarine-py)", s)
}

// String is the dialect's name as ParseDialect accepts it.
func (d Dialect) String() string {
	switch d {
	case Classic:
		return "classic"
	case SubmarinePy:
		return "submarine-py"
	}
	return fmt.Sprintf("Dialect(%d)", uint8(d))
}

// Greeting is the server's first line (without "\n").
func (d Dialect) Greeting() string {
	if d == SubmarinePy {
		return pyGreeting
	}
	return ClassicGreeting
}

// DrawLine is the line both sides get on a draw: "even" (classic) or "draw".
func (d Dialect) DrawLine() string {
	if d == SubmarinePy {
		return "draw"
	}
	return "even"
}

// py reports whether d prints Python json.dumps spacing.
func (d Dialect) py() bool { return d == SubmarinePy }
