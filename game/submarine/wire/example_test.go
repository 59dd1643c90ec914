package wire_test

import (
	"fmt"

	"github.com/kaisen-ai/kaisen/game/submarine"
	"github.com/kaisen-ai/kaisen/game/submarine/wire"
	"github.com/kaisen-ai/kaisen/protocol"
)

func ExampleDecodeAction() {
	r := submarine.DefaultRules()
	a, err := wire.DecodeAction([]byte(`{"move":{"ship":"c","to":[3,4]}}`), r)
	fmt.Println(a.Kind, r.Fleet[a.Ship].Name, r.CellName(a.To), err)

	_, err = wire.DecodeAction([]byte(`{"attack":{"to":[0,1.5]}}`), r)
	fmt.Println(err)
	// Output:
	// move c D5 <nil>
	// protocol: wrong type: "attack.to"[1] must be an integer, got 1.5: in line "{\"attack\":{\"to\":[0,1.5]}}"
}

func ExampleEncodeAction() {
	r := submarine.DefaultRules()
	a := submarine.AttackAt(12) // [2,2] on the 5x5 board
	fmt.Println(string(wire.EncodeAction(protocol.Classic, r, a)))
	fmt.Println(string(wire.EncodeAction(protocol.SubmarinePy, r, a)))
	// Output:
	// {"attack":{"to":[2,2]}}
	// {"attack": {"to": [2, 2]}}
}

func ExampleEncodeResult() {
	r := submarine.DefaultRules()
	p1 := submarine.Placement{0, 2, 4}  // w[0,0] c[2,0] s[4,0]
	p2 := submarine.Placement{6, 8, 10} // w[1,1] c[3,1] s[0,2]
	g, _ := submarine.NewGame(r, p1, p2, 0)
	st, _ := g.Apply(submarine.AttackAt(6))
	v := g.View(1) // the defender
	order := wire.DefaultOrder(r)
	fmt.Println(string(wire.EncodeResult(protocol.Classic, r, st.Other, protocol.NoOutcome, &v, order, order)))
	// Output:
	// {"result":{"attacked":{"position":[1,1],"hit":"w","near":["s"]}},"condition":{"me":{"w":{"hp":2,"position":[1,1]},"c":{"hp":2,"position":[3,1]},"s":{"hp":1,"position":[0,2]}},"enemy":{"w":{"hp":3},"c":{"hp":2},"s":{"hp":1}}}}
}

func ExampleDecodeResult() {
	r := submarine.DefaultRules()
	line := `{"result":{"moved":{"ship":"w","distance":[0,-2]}},"condition":{"me":{"w":{"hp":2,"position":[4,0]}},"enemy":{"w":{"hp":3},"s":{"hp":1}}}}`
	res, _ := wire.DecodeResult(protocol.Classic, []byte(line), r, false)
	fmt.Println(res.Event.Kind, r.Fleet[res.Event.Ship].Name, res.Event.DX, res.Event.DY)
	fmt.Println(res.View.EnemyHP[:3], res.View.Me.Alive.Count())
	// Output:
	// move w 0 -2
	// [3 0 1] 1
}
