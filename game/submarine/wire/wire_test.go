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

func cell(r *submarine.Rules, x, y int) grid.Cell {
	c, ok := r.Board.At(x, y)
	if !ok {
		panic("off board")
	}
	return c
}

func TestDecodePlacement(t *testing.T) {
	r := submarine.DefaultRules()
	p, o, err := wire.DecodePlacement([]byte(`{"w":[0,1],"c":[0,0],"s":[1,1]}`), r)
	require.NoError(t, err)
	require.Equal(t, submarine.Placement{cell(r, 0, 1), cell(r, 0, 0), cell(r, 1, 1)}, p)
	require.Equal(t, wire.Order{0, 1, 2}, o)

	// Spacing, \r\n, other key order and unknown-free keys are all fine.
	p, o, err = wire.DecodePlacement([]byte(" { \"s\" : [ 4 , 4 ] ,\"w\": [0, 0],\n\"c\":[2,3]}\r\n"), r)
	require.NoError(t, err)
	require.Equal(t, submarine.Placement{cell(r, 0, 0), cell(r, 2, 3), cell(r, 4, 4)}, p)
	require.Equal(t, wire.Order{2, 0, 1}, o)

	for _, tc := range []struct {
		name, line string
		want       error
		msg        string
	}{
		{"not json", `hello`, protocol.ErrSyntax, "not JSON"},
		{"empty", ``, protocol.ErrSyntax, "empty"},
		{"truncated", `{"w":[0,0]`, protocol.ErrSyntax, ""},
		{"trailing data", `{"w":[0,0],"c":[1,0],"s":[2,0]} {}`, protocol.ErrSyntax, "after top-level value"},
		{"array", `[[0,0]]`, protocol.ErrType, "must be a JSON object"},
		{"invalid utf8", "{\"w\xff\":[0,0]}", protocol.ErrSyntax, "UTF-8"},
		{"float", `{"w":[0,1.5],"c":[1,0],"s":[2,0]}`, protocol.ErrType, "must be an integer, got 1.5"},
		{"float 1.0", `{"w":[0,1.0],"c":[1,0],"s":[2,0]}`, protocol.ErrType, "integer"},
		{"exponent", `{"w":[0,1e0],"c":[1,0],"s":[2,0]}`, protocol.ErrType, "integer"},
		{"string coordinate", `{"w":[0,"1"],"c":[1,0],"s":[2,0]}`, protocol.ErrType, "integer"},
		{"three elements", `{"w":[0,1,2],"c":[1,0],"s":[2,0]}`, protocol.ErrType, "3 elements"},
		{"one element", `{"w":[0],"c":[1,0],"s":[2,0]}`, protocol.ErrType, "1 elements"},
		{"object position", `{"w":{"x":0,"y":0},"c":[1,0],"s":[2,0]}`, protocol.ErrType, "two integers"},
		{"null position", `{"w":null,"c":[1,0],"s":[2,0]}`, protocol.ErrType, "two integers"},
		{"unknown ship", `{"w":[0,0],"c":[1,0],"s":[2,0],"x":[3,0]}`, protocol.ErrUnknownShip, `"x"`},
		{"missing ships", `{"w":[0,0]}`, protocol.ErrFleet, `["c" "s"]`},
		{"duplicate ship", `{"w":[0,0],"w":[1,1],"c":[1,0],"s":[2,0]}`, protocol.ErrSyntax, `key "w" twice`},
		{"overlap", `{"w":[0,0],"c":[0,0],"s":[4,0]}`, protocol.ErrFleet, "shares a cell"},
		{"off board", `{"w":[0,0],"c":[5,0],"s":[4,0]}`, protocol.ErrFleet, "off the 5x5 board"},
		{"negative", `{"w":[0,-1],"c":[1,0],"s":[4,0]}`, protocol.ErrFleet, "off the"},
		// A huge integer is shown as sent, not narrowed to -2147483648.
		{"huge", `{"w":[0,99999999999999999999],"c":[1,0],"s":[4,0]}`, protocol.ErrFleet, `ship "w" at [0,99999999999999999999] is off the 5x5 board`},
		{"huge negative", `{"w":[-99999999999999999999, 0],"c":[1,0],"s":[4,0]}`, protocol.ErrFleet, `at [-99999999999999999999, 0] is off`},
		{"int32 min", `{"w":[0,-2147483649],"c":[1,0],"s":[4,0]}`, protocol.ErrFleet, `at [0,-2147483649] is off`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := wire.DecodePlacement([]byte(tc.line), r)
			require.ErrorIs(t, err, tc.want)
			require.ErrorContains(t, err, tc.msg)
			var pe *protocol.ProtocolError
			require.ErrorAs(t, err, &pe)
			require.Equal(t, tc.line, pe.Line)
		})
	}
}

func TestDecodePlacementRock(t *testing.T) {
	b, err := grid.Rounded(5, 5)
	require.NoError(t, err)
	r := &submarine.Rules{Board: b, Fleet: submarine.DefaultFleet(), DrawLimit: 10}
	_, _, err = wire.DecodePlacement([]byte(`{"w": [0, 0], "c": [1, 0], "s": [2, 0]}`), r)
	require.ErrorIs(t, err, protocol.ErrFleet)
	require.ErrorIs(t, err, submarine.ErrPlacement)
	require.ErrorContains(t, err, "rock")
}

func TestEncodePlacement(t *testing.T) {
	r := submarine.DefaultRules()
	p := submarine.Placement{cell(r, 0, 1), cell(r, 0, 0), cell(r, 1, 1)}
	require.Equal(t, `{"w":[0,1],"c":[0,0],"s":[1,1]}`, string(wire.EncodePlacement(protocol.Classic, r, p)))
	require.Equal(t, `{"w": [0, 1], "c": [0, 0], "s": [1, 1]}`, string(wire.EncodePlacement(protocol.SubmarinePy, r, p)))
}

func TestDecodeAction(t *testing.T) {
	r := submarine.DefaultRules()
	invalid := submarine.Action{Kind: submarine.Invalid, Ship: submarine.NoShip, To: grid.None}
	for _, tc := range []struct {
		name, line string
		want       submarine.Action
	}{
		{"attack", `{"attack":{"to":[1,2]}}`, submarine.AttackAt(cell(r, 1, 2))},
		{"attack py", `{"attack": {"to": [1, 2]}}`, submarine.AttackAt(cell(r, 1, 2))},
		{"move", `{"move":{"ship":"c","to":[3,4]}}`, submarine.MoveTo(1, cell(r, 3, 4))},
		{"crlf and unknown keys", "{\"move\":{\"to\":[3,4],\"ship\":\"c\",\"why\":\"flee\"},\"id\":7}\r\n", submarine.MoveTo(1, cell(r, 3, 4))},
		{"both keys: attack wins", `{"attack":{"to":[1,1]},"move":{"ship":"w","to":[0,3]}}`, submarine.AttackAt(cell(r, 1, 1))},
		{"empty", `{}`, invalid},
		{"neither", `{"pass":true}`, invalid},
		{"unknown ship", `{"move":{"ship":"x","to":[0,1]}}`, submarine.MoveTo(submarine.NoShip, cell(r, 0, 1))},
		{"off board attack", `{"attack":{"to":[-1,0]}}`, submarine.AttackAt(grid.None)},
		{"off board move", `{"move":{"ship":"w","to":[0,5]}}`, submarine.MoveTo(0, grid.None)},
		{"huge", `{"attack":{"to":[123456789012345678901234567890,0]}}`, submarine.AttackAt(grid.None)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := wire.DecodeAction([]byte(tc.line), r)
			require.NoError(t, err)
			require.Equal(t, tc.want, got)
		})
	}
	for _, tc := range []struct {
		name, line string
		want       error
	}{
		{"not json", `hello`, protocol.ErrSyntax},
		{"float", `{"attack":{"to":[0,1.5]}}`, protocol.ErrType},
		{"float 1.0", `{"attack":{"to":[1.0,1]}}`, protocol.ErrType},
		{"string coordinate", `{"attack":{"to":["1",1]}}`, protocol.ErrType},
		{"bool coordinate", `{"attack":{"to":[true,1]}}`, protocol.ErrType},
		{"arity 3", `{"attack":{"to":[1,1,1]}}`, protocol.ErrType},
		{"arity 0", `{"attack":{"to":[]}}`, protocol.ErrType},
		{"no to", `{"attack":{}}`, protocol.ErrType},
		{"attack not object", `{"attack":[1,1]}`, protocol.ErrType},
		{"move without ship", `{"move":{"to":[1,1]}}`, protocol.ErrType},
		{"move without to", `{"move":{"ship":"w"}}`, protocol.ErrType},
		{"ship not string", `{"move":{"ship":0,"to":[1,1]}}`, protocol.ErrType},
		{"top level string", `"attack"`, protocol.ErrType},
		{"duplicate key", `{"attack":{"to":[1,1]},"attack":{"to":[2,2]}}`, protocol.ErrSyntax},
		{"invalid utf8", "{\"move\":{\"ship\":\"\xc3\x28\",\"to\":[1,1]}}", protocol.ErrSyntax},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := wire.DecodeAction([]byte(tc.line), r)
			require.ErrorIs(t, err, tc.want)
			require.Equal(t, submarine.Invalid, got.Kind)
			var pe *protocol.ProtocolError
			require.ErrorAs(t, err, &pe)
			require.Equal(t, tc.line, pe.Line)
		})
	}
}

func TestEncodeAction(t *testing.T) {
	r := submarine.DefaultRules()
	for _, tc := range []struct {
		a       submarine.Action
		classic string
		py      string
	}{
		{submarine.AttackAt(cell(r, 1, 2)), `{"attack":{"to":[1,2]}}`, `{"attack": {"to": [1, 2]}}`},
		{submarine.MoveTo(2, cell(r, 4, 0)), `{"move":{"ship":"s","to":[4,0]}}`, `{"move": {"ship": "s", "to": [4, 0]}}`},
		{submarine.Action{Kind: submarine.Invalid}, `{}`, `{}`},
		{submarine.MoveTo(submarine.NoShip, grid.None), `{"move":{"ship":"","to":[-1,-1]}}`, `{"move": {"ship": "", "to": [-1, -1]}}`},
	} {
		require.Equal(t, tc.classic, string(wire.EncodeAction(protocol.Classic, r, tc.a)))
		require.Equal(t, tc.py, string(wire.EncodeAction(protocol.SubmarinePy, r, tc.a)))
		for _, d := range []protocol.Dialect{protocol.Classic, protocol.SubmarinePy} {
			back, err := wire.DecodeAction(wire.EncodeAction(d, r, tc.a), r)
			require.NoError(t, err)
			want := tc.a
			if want.Kind == submarine.Invalid {
				want = submarine.Action{Kind: submarine.Invalid, Ship: submarine.NoShip, To: grid.None}
			}
			require.Equal(t, want, back)
		}
	}
}

func TestShipNamesAreEscaped(t *testing.T) {
	r := &submarine.Rules{Board: grid.MustBoard(3, 3, nil), Fleet: []submarine.ShipSpec{{Name: `潜"水`, HP: 1}, {Name: "a\nb", HP: 1}}, DrawLimit: 10}
	p := submarine.Placement{0, 1}
	require.Equal(t, `{"潜\"水":[0,0],"a\nb":[1,0]}`, string(wire.EncodePlacement(protocol.Classic, r, p)))
	require.Equal(t, `{"\u6f5c\"\u6c34": [0, 0], "a\nb": [1, 0]}`, string(wire.EncodePlacement(protocol.SubmarinePy, r, p)))
	for _, d := range []protocol.Dialect{protocol.Classic, protocol.SubmarinePy} {
		got, _, err := wire.DecodePlacement(wire.EncodePlacement(d, r, p), r)
		require.NoError(t, err)
		require.Equal(t, p, got)
	}
}

func TestEncodeResult(t *testing.T) {
	r := submarine.DefaultRules()
	// P1 w[0,0] c[2,0] s[4,0]; P2 w[1,1] c[3,1] s[0,2] (the reference's
	// scripted game).
	p1 := submarine.Placement{cell(r, 0, 0), cell(r, 2, 0), cell(r, 4, 0)}
	p2 := submarine.Placement{cell(r, 1, 1), cell(r, 3, 1), cell(r, 0, 2)}
	g, err := submarine.NewGame(r, p1, p2, 0)
	require.NoError(t, err)
	st, err := g.Apply(submarine.AttackAt(cell(r, 1, 1)))
	require.NoError(t, err)
	v0, v1 := g.View(0), g.View(1)
	def := wire.DefaultOrder(r)
	require.Equal(t,
		`{"result":{"attacked":{"position":[1,1],"hit":"w","near":["s"]}},"condition":{"me":{"w":{"hp":3,"position":[0,0]},"c":{"hp":2,"position":[2,0]},"s":{"hp":1,"position":[4,0]}},"enemy":{"w":{"hp":2},"c":{"hp":2},"s":{"hp":1}}}}`,
		string(wire.EncodeResult(protocol.Classic, r, st.Actor, protocol.NoOutcome, &v0, def, def)))
	require.Equal(t,
		`{"result": {"attacked": {"position": [1, 1], "hit": "w", "near": ["s"]}}, "observation": {"me": {"w": {"hp": 2, "position": [1, 1]}, "c": {"hp": 2, "position": [3, 1]}, "s": {"hp": 1, "position": [0, 2]}}, "opponent": {"w": {"hp": 3}, "c": {"hp": 2}, "s": {"hp": 1}}}}`,
		string(wire.EncodeResult(protocol.SubmarinePy, r, st.Other, protocol.NoOutcome, &v1, def, def)))

	// Orders: near in the defender's order, me/enemy in each side's order.
	o1, o2 := wire.Order{2, 1, 0}, wire.Order{1, 2, 0}
	ev := submarine.Event{Mine: true, Kind: submarine.Attack, At: cell(r, 1, 1), Hit: submarine.NoShip, Near: submarine.ShipMask(0).With(0).With(2), Ship: submarine.NoShip, To: grid.None}
	require.Equal(t,
		`{"result":{"attacked":{"position":[1,1],"near":["s","w"]}},"outcome":true,"condition":{"me":{"s":{"hp":1,"position":[4,0]},"c":{"hp":2,"position":[2,0]},"w":{"hp":3,"position":[0,0]}},"enemy":{"c":{"hp":2},"s":{"hp":1},"w":{"hp":2}}}}`,
		string(wire.EncodeResult(protocol.Classic, r, ev, protocol.Won, &v0, o1, o2)))
	ev.Mine = false
	require.Contains(t, string(wire.EncodeResult(protocol.Classic, r, ev, protocol.Lost, &v0, o1, o2)), `"near":["s","w"]}},"outcome":false,`)
	ev.Mine = true
	require.Contains(t, string(wire.EncodeResult(protocol.Classic, r, ev, protocol.Lost, &v0, o1, wire.Order{2, 0, 1})), `"near":["s","w"]`)
	require.Contains(t, string(wire.EncodeResult(protocol.Classic, r, ev, protocol.Lost, &v0, o1, wire.Order{0, 2, 1})), `"near":["w","s"]`)
	// A partial or broken order is completed in fleet order.
	require.Contains(t, string(wire.EncodeResult(protocol.Classic, r, ev, protocol.Lost, &v0, wire.Order{2, 2, 9}, nil)), `"me":{"s":{"hp":1,"position":[4,0]},"w":{"hp":3,"position":[0,0]},"c":{"hp":2,"position":[2,0]}}`)

	// Illegal and invalid actions (transcript section 3 and 4).
	illegal := func(k submarine.Kind, mine bool) submarine.Event {
		return submarine.Event{Mine: mine, Kind: k, Illegal: true, At: grid.None, Hit: submarine.NoShip, Ship: submarine.NoShip, To: grid.None}
	}
	for _, tc := range []struct {
		ev      submarine.Event
		outcome int
		prefix  string
	}{
		{illegal(submarine.Attack, true), protocol.Lost, `{"result":{"attacked":false},"outcome":false,"condition":`},
		{illegal(submarine.Attack, false), protocol.Won, `{"result":{"attacked":false},"outcome":true,"condition":`},
		{illegal(submarine.Move, true), protocol.Lost, `{"outcome":false,"condition":`},
		{illegal(submarine.Move, false), protocol.Won, `{"result":{"moved":false},"outcome":true,"condition":`},
		{illegal(submarine.Invalid, true), protocol.Lost, `{"outcome":false,"condition":`},
		{illegal(submarine.Invalid, false), protocol.Won, `{"outcome":true,"condition":`},
		{submarine.Event{Kind: submarine.Move, Ship: 1, DX: -3, DY: 0, At: grid.None, Hit: submarine.NoShip, To: grid.None}, protocol.NoOutcome, `{"result":{"moved":{"ship":"c","distance":[-3,0]}},"condition":`},
		{submarine.Event{Mine: true, Kind: submarine.Move, Ship: 1, DX: -3, At: grid.None, Hit: submarine.NoShip, To: 0}, protocol.NoOutcome, `{"condition":`},
	} {
		got := string(wire.EncodeResult(protocol.Classic, r, tc.ev, tc.outcome, &v0, def, def))
		require.True(t, strings.HasPrefix(got, tc.prefix), "%s\nwant prefix %s", got, tc.prefix)
	}
}

func TestDecodeResult(t *testing.T) {
	r := submarine.DefaultRules()
	line := `{"result":{"attacked":{"position":[3,4],"hit":"c","near":[]}},"outcome":false,"condition":{"me":{},"enemy":{"w":{"hp":3},"c":{"hp":1},"s":{"hp":1}}}}`
	res, err := wire.DecodeResult(protocol.Classic, []byte(line), r, false)
	require.NoError(t, err)
	require.Equal(t, protocol.Lost, res.Outcome)
	require.True(t, res.HasResult)
	require.Equal(t, submarine.Event{Kind: submarine.Attack, At: cell(r, 3, 4), Hit: 1, Sunk: true, Ship: submarine.NoShip, To: grid.None}, res.Event)
	require.Equal(t, submarine.ShipMask(0), res.View.Me.Alive)
	require.Equal(t, [submarine.MaxShips]int8{3, 1, 1}, res.View.EnemyHP)

	// Python spacing, the other dialect's keys, unknown keys, \r\n.
	line = "{\"observation\": {\"opponent\": {\"s\": {\"hp\": 1}}, \"me\": {\"c\": {\"position\": [0, 3], \"hp\": 1, \"seen\": 2}}}, \"result\": {\"moved\": {\"ship\": \"s\", \"distance\": [0, -4]}}, \"turn\": 7}\r\n"
	for _, d := range []protocol.Dialect{protocol.SubmarinePy, protocol.Classic} {
		res, err = wire.DecodeResult(d, []byte(line), r, false)
		require.NoError(t, err)
		require.Equal(t, protocol.NoOutcome, res.Outcome)
		require.Equal(t, submarine.Event{Kind: submarine.Move, At: grid.None, Hit: submarine.NoShip, Ship: 2, To: grid.None, DY: -4}, res.Event)
		require.Equal(t, cell(r, 0, 3), res.View.Me.Pos[1])
		require.Equal(t, grid.None, res.View.Me.Pos[0])
		require.Equal(t, grid.Of(cell(r, 0, 3)), res.View.Me.Occupied)
	}

	// Own move: no result key.
	res, err = wire.DecodeResult(protocol.Classic, []byte(`{"condition":{"me":{"w":{"hp":3,"position":[0,1]}},"enemy":{}}}`), r, true)
	require.NoError(t, err)
	require.False(t, res.HasResult)
	require.Equal(t, submarine.Event{Mine: true, Kind: submarine.Move, At: grid.None, Hit: submarine.NoShip, Ship: submarine.NoShip, To: grid.None}, res.Event)
	res, err = wire.DecodeResult(protocol.Classic, []byte(`{"outcome":false,"condition":{"me":{"w":{"hp":3,"position":[0,1]}},"enemy":{}}}`), r, true)
	require.NoError(t, err)
	require.True(t, res.Event.Illegal)
	// The enemy's {}: no result key on the waiting side.
	res, err = wire.DecodeResult(protocol.Classic, []byte(`{"outcome":true,"condition":{"me":{"w":{"hp":3,"position":[0,1]}},"enemy":{}}}`), r, false)
	require.NoError(t, err)
	require.Equal(t, submarine.Invalid, res.Event.Kind)
	require.True(t, res.Event.Illegal)

	for _, tc := range []struct {
		name, line string
		want       error
	}{
		{"garbage", `you win`, protocol.ErrSyntax},
		{"no condition", `{"result":{"attacked":false}}`, protocol.ErrType},
		{"no me", `{"condition":{"enemy":{}}}`, protocol.ErrType},
		{"no enemy", `{"condition":{"me":{}}}`, protocol.ErrType},
		{"float hp", `{"condition":{"me":{"w":{"hp":3.0,"position":[0,0]}},"enemy":{}}}`, protocol.ErrType},
		{"hp too high", `{"condition":{"me":{"w":{"hp":4,"position":[0,0]}},"enemy":{}}}`, protocol.ErrType},
		{"hp zero", `{"condition":{"me":{},"enemy":{"s":{"hp":0}}}}`, protocol.ErrType},
		{"no position", `{"condition":{"me":{"w":{"hp":3}},"enemy":{}}}`, protocol.ErrType},
		{"own ship off board", `{"condition":{"me":{"w":{"hp":3,"position":[5,0]}},"enemy":{}}}`, protocol.ErrFleet},
		{"own ships overlap", `{"condition":{"me":{"w":{"hp":3,"position":[0,0]},"c":{"hp":2,"position":[0,0]}},"enemy":{}}}`, protocol.ErrFleet},
		{"unknown own ship", `{"condition":{"me":{"x":{"hp":3,"position":[0,0]}},"enemy":{}}}`, protocol.ErrUnknownShip},
		{"unknown enemy ship", `{"condition":{"me":{},"enemy":{"x":{"hp":1}}}}`, protocol.ErrUnknownShip},
		{"unknown hit", `{"result":{"attacked":{"position":[0,0],"hit":"x","near":[]}},"condition":{"me":{},"enemy":{}}}`, protocol.ErrUnknownShip},
		{"unknown near", `{"result":{"attacked":{"position":[0,0],"near":["x"]}},"condition":{"me":{},"enemy":{}}}`, protocol.ErrUnknownShip},
		{"near not list", `{"result":{"attacked":{"position":[0,0],"near":"w"}},"condition":{"me":{},"enemy":{}}}`, protocol.ErrType},
		{"attacked true", `{"result":{"attacked":true},"condition":{"me":{},"enemy":{}}}`, protocol.ErrType},
		{"attack off board", `{"result":{"attacked":{"position":[9,0],"near":[]}},"condition":{"me":{},"enemy":{}}}`, protocol.ErrType},
		{"float position", `{"result":{"attacked":{"position":[1,0.5],"near":[]}},"condition":{"me":{},"enemy":{}}}`, protocol.ErrType},
		{"empty result", `{"result":{},"condition":{"me":{},"enemy":{}}}`, protocol.ErrType},
		{"both results", `{"result":{"attacked":false,"moved":false},"condition":{"me":{},"enemy":{}}}`, protocol.ErrType},
		{"moved without distance", `{"result":{"moved":{"ship":"w"}},"condition":{"me":{},"enemy":{}}}`, protocol.ErrType},
		{"moved too far", `{"result":{"moved":{"ship":"w","distance":[0,5]}},"condition":{"me":{},"enemy":{}}}`, protocol.ErrType},
		{"outcome string", `{"outcome":"true","condition":{"me":{},"enemy":{}}}`, protocol.ErrType},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := wire.DecodeResult(protocol.Classic, []byte(tc.line), r, false)
			require.ErrorIs(t, err, tc.want)
			var pe *protocol.ProtocolError
			require.ErrorAs(t, err, &pe)
			require.Equal(t, tc.line, pe.Line)
		})
	}
}

func TestField(t *testing.T) {
	b, err := grid.Rounded(5, 5)
	require.NoError(t, err)
	require.Equal(t, `{"height": 5, "width": 5, "rock": [[0, 0], [4, 0], [0, 4], [4, 4]]}`, string(wire.EncodeField(b)))
	got, err := wire.DecodeField([]byte(`{"height": 5, "width": 5, "rock": [[0, 0], [4, 4]]}`))
	require.NoError(t, err)
	require.Equal(t, []string{".####", "#####", "#####", "#####", "####."}, got.Shape())
	got, err = wire.DecodeField([]byte(`{"width":7,"height":2,"name":"x"}`))
	require.NoError(t, err)
	require.Equal(t, 7, got.Width())
	require.Empty(t, got.Rocks())
	require.Equal(t, `{"height": 2, "width": 7, "rock": []}`, string(wire.EncodeField(got)))

	for _, tc := range []struct {
		name, line string
		want       error
	}{
		{"garbage", `field`, protocol.ErrSyntax},
		{"no width", `{"height": 5}`, protocol.ErrType},
		{"float", `{"height": 5.0, "width": 5}`, protocol.ErrType},
		{"zero", `{"height": 0, "width": 5}`, protocol.ErrType},
		{"too big", `{"height": 100, "width": 100}`, protocol.ErrType},
		{"rock off", `{"height": 5, "width": 5, "rock": [[5, 0]]}`, protocol.ErrType},
		{"rock arity", `{"height": 5, "width": 5, "rock": [[1]]}`, protocol.ErrType},
		{"all rocks", `{"height": 1, "width": 1, "rock": [[0, 0]]}`, protocol.ErrType},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := wire.DecodeField([]byte(tc.line))
			require.ErrorIs(t, err, tc.want)
		})
	}
}

// TestDecodeActionQuotesPrefix: the error of a long malformed line quotes
// the first protocol.MaxQuote bytes and gives the line's length.
func TestDecodeActionQuotesPrefix(t *testing.T) {
	long := `{"attack":{"to":[1,` + strings.Repeat(" ", 300) + `1.5]}}`
	_, err := wire.DecodeAction([]byte(long), submarine.DefaultRules())
	var pe *protocol.ProtocolError
	require.ErrorAs(t, err, &pe)
	require.Len(t, pe.Line, protocol.MaxQuote)
	require.Equal(t, len(long), pe.Len)
	require.Contains(t, err.Error(), `in line "{\"attack\":{\"to\":[1,   `)
	require.Contains(t, err.Error(), "(325 bytes, first 120 shown)")
}

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
