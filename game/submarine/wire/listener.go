package wire

import (
	"errors"
	"fmt"

	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/game/submarine"
	"github.com/kaisen-ai/kaisen/protocol"
)

// ListenerSettings are a server listener's settings of the submarine game
// (the server's listener config: dialect, width, height, rocks, rounded,
// games).
type ListenerSettings struct {
	// Dialect is the dialect's name (protocol.ParseDialect).
	Dialect string
	// Board builds the board of the listener's board settings, and Plain
	// says that they are those of the plain 5x5 board (the classic
	// dialect's only board).
	Board func() (*grid.Board, error)
	Plain bool
	// Games is the number of games per pairing (a series needs the
	// classic dialect).
	Games int
}

// Listener is the submarine game as one server listener serves it: its
// dialect, its rules (the default ones on the listener's board) and the
// result encoder its pairings share (a server.Listening).
type Listener struct {
	dialect protocol.Dialect
	rules   *submarine.Rules
	enc     *ResultEncoder
}

// NewListener checks the listener settings s and returns the listener
// they describe; the error joins every problem found.
func NewListener(s ListenerSettings) (*Listener, error) {
	var errs []error
	d, err := protocol.ParseDialect(s.Dialect)
	if err != nil {
		errs = append(errs, fmt.Errorf("dialect %q: want classic or submarine-py", s.Dialect))
	}
	if d == protocol.Classic && !s.Plain {
		errs = append(errs, errors.New("the classic dialect plays on the plain 5x5 board; use dialect submarine-py for width, height, rocks or rounded"))
	}
	rules := submarine.DefaultRules()
	if board, err := s.Board(); err != nil {
		errs = append(errs, err)
	} else {
		rules.Board = board
		if err := rules.Validate(); err != nil {
			errs = append(errs, err)
		}
	}
	if s.Games > 1 && d != protocol.Classic {
		errs = append(errs, errors.New("a series (games > 1) needs the classic dialect"))
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return &Listener{dialect: d, rules: rules, enc: NewResultEncoder(d, rules)}, nil
}

// Rules are the rules the listener's games play.
func (l *Listener) Rules() *submarine.Rules { return l.rules }

// Dialect is the listener's dialect.
func (l *Listener) Dialect() protocol.Dialect { return l.dialect }

// Server is the server side of one pairing of the listener (NewServer in
// its dialect, with the listener's result encoder).
func (l *Listener) Server() game.ServerCodec[submarine.Placement, submarine.Action, submarine.Told] {
	return NewServer(l.dialect, l.rules, l.enc)
}

var (
	_ game.ServerCodec[submarine.Placement, submarine.Action, submarine.Told]               = (*Server)(nil)
	_ game.Forfeits[*submarine.Game, submarine.Placement, submarine.Action, submarine.Told] = (*Server)(nil)
)
