package wire_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/game/submarine"
	"github.com/kaisen-ai/kaisen/game/submarine/wire"
	"github.com/kaisen-ai/kaisen/protocol"
)

// TestNewListener: a listener's dialect, board and series settings make
// its rules, its dialect and its pairings' codecs; every problem is
// reported at once.
func TestNewListener(t *testing.T) {
	plain := func() (*grid.Board, error) { return grid.NewBoard(5, 5, nil) }
	wide := func() (*grid.Board, error) { return grid.NewBoard(6, 5, nil) }
	tiny := func() (*grid.Board, error) { return grid.NewBoard(2, 1, nil) }
	broken := func() (*grid.Board, error) { return nil, errors.New("rocks: bad") }
	for _, tt := range []struct {
		name    string
		s       wire.ListenerSettings
		dialect protocol.Dialect
		width   int
		wantErr []string
	}{
		{"classic", wire.ListenerSettings{Dialect: "classic", Board: plain, Plain: true, Games: 1}, protocol.Classic, 5, nil},
		{"classic series", wire.ListenerSettings{Dialect: "classic", Board: plain, Plain: true, Games: 10}, protocol.Classic, 5, nil},
		{"py on its own board", wire.ListenerSettings{Dialect: "submarine-py", Board: wide, Games: 1}, protocol.SubmarinePy, 6, nil},
		{"unknown dialect", wire.ListenerSettings{Dialect: "ruby", Board: plain, Plain: true, Games: 1}, 0, 0,
			[]string{`dialect "ruby": want classic or submarine-py`}},
		{"classic on another board", wire.ListenerSettings{Dialect: "classic", Board: wide, Games: 1}, 0, 0,
			[]string{"the classic dialect plays on the plain 5x5 board"}},
		{"py series", wire.ListenerSettings{Dialect: "py", Board: plain, Plain: true, Games: 3}, 0, 0,
			[]string{"a series (games > 1) needs the classic dialect"}},
		{"bad board", wire.ListenerSettings{Dialect: "submarine-py", Board: broken, Games: 1}, 0, 0, []string{"rocks: bad"}},
		{"no room for the fleet", wire.ListenerSettings{Dialect: "submarine-py", Board: tiny, Games: 1}, 0, 0, []string{"do not fit"}},
		{"every problem", wire.ListenerSettings{Dialect: "classic", Board: broken, Games: 1}, 0, 0,
			[]string{"the classic dialect plays", "rocks: bad"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			l, err := wire.NewListener(tt.s)
			if tt.wantErr != nil {
				require.Error(t, err)
				require.Nil(t, l)
				for _, w := range tt.wantErr {
					require.ErrorContains(t, err, w)
				}
				require.Len(t, strings.Split(err.Error(), "\n"), len(tt.wantErr))
				return
			}
			require.NoError(t, err)
			require.Equal(t, tt.dialect, l.Dialect())
			require.Equal(t, tt.width, l.Rules().Board.Width())
			require.NotSame(t, l.Server(), l.Server(), "one codec per pairing")
		})
	}
}

// TestServerForfeits: the server side tells a fault as an invalid action
// (game.Forfeits): the action, what a seat is told of a forfeit while it
// waited, and the walkover line.
func TestServerForfeits(t *testing.T) {
	l, err := wire.NewListener(wire.ListenerSettings{Dialect: "classic", Board: func() (*grid.Board, error) { return grid.NewBoard(5, 5, nil) }, Plain: true, Games: 1})
	require.NoError(t, err)
	r := l.Rules()
	s := wire.NewServer(protocol.Classic, r, wire.NewResultEncoder(protocol.Classic, r))
	s.NewGame()
	inv := s.Invalid()
	require.Equal(t, submarine.Invalid, inv.Kind)
	require.Equal(t, grid.None, inv.To)

	p0 := submarine.Placement{cell(r, 0, 0), cell(r, 2, 0), cell(r, 4, 0)}
	p1 := submarine.Placement{cell(r, 0, 4), cell(r, 2, 4), cell(r, 4, 4)}
	g, err := submarine.NewGame(r, p0, p1, 0)
	require.NoError(t, err)
	g.Forfeit(1)
	var o submarine.Told
	s.ForfeitTold(g, 0, &o)
	require.Equal(t, wire.InvalidEvent, o.Event)
	require.Equal(t, g.View(0), *o.View)
	told := string(s.AppendTold(nil, 0, &o, protocol.Won))
	walkover := string(s.AppendWalkover(nil, 0, p0))
	require.Equal(t, told, walkover, "a walkover reads as the forfeit of an untouched game")
	require.Contains(t, walkover, `"outcome":true`)
}
