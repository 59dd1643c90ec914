package client

import (
	"errors"
	"fmt"
	"net"
	"strings"
	"time"

	"github.com/kaisen-ai/kaisen/protocol"
)

// ErrRefused matches (errors.Is) the error of a play whose connection the
// server refused: a *RefusedError.
var ErrRefused = errors.New("client: the server refused the connection")

// RefusedError is a server's refusal: the reason its "refused: " line gave.
type RefusedError struct {
	Reason string // e.g. "auth_failed: wrong bot name or token"
}

func (e *RefusedError) Error() string { return "the server refused the connection: " + e.Reason }

// Is makes a RefusedError match ErrRefused.
func (e *RefusedError) Is(target error) bool { return target == ErrRefused }

// ErrAuthArgs is wrapped by Authenticate's error for a name or token that
// cannot be sent on one line.
var ErrAuthArgs = errors.New("client: bad name or token")

// Authenticate sends the auth line of bot name with token on conn (within
// timeout; <= 0 = none). The server answers with the game's greeting, or
// with a "refused: " line that the play functions report as ErrRefused.
// Its errors never contain the token.
func Authenticate(conn net.Conn, name, token string, timeout time.Duration) error {
	if name == "" || strings.ContainsAny(name, " \t\r\n") {
		return fmt.Errorf("%w: name %q: want one word", ErrAuthArgs, name)
	}
	if token == "" || strings.ContainsAny(token, " \t\r\n") {
		return fmt.Errorf("%w: the token must be one word (as kaisen ladder register printed it)", ErrAuthArgs)
	}
	if timeout > 0 {
		_ = conn.SetWriteDeadline(time.Now().Add(timeout)) // a closed connection fails the write
	}
	if _, err := conn.Write([]byte(protocol.AuthWord + " " + name + " " + token + "\n")); err != nil {
		return fmt.Errorf("client: send the auth line: %w", err)
	}
	return nil
}

// refused returns the ErrRefused error for a server line that refuses the
// connection, or nil for any other line.
func refused(line []byte) error {
	if s := string(line); strings.HasPrefix(s, protocol.RefusedPrefix) {
		return &RefusedError{Reason: strings.TrimPrefix(s, protocol.RefusedPrefix)}
	}
	return nil
}
