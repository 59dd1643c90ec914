package record_test

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/kaisen-ai/kaisen/game/submarine"
	subrecord "github.com/kaisen-ai/kaisen/game/submarine/record"
)

// tiny is a whole replay: a 2x1 board, one ship each; seat 0 sinks seat 1's
// ship with its first attack.
const tiny = `{"type":"header","game":"submarine","version":"example","seed":1,"rules":{"width":2,"height":1,"rocks":[],"fleet":[{"name":"a","hp":1}],"draw_limit":10},"players":[{"seat":0,"name":"left"},{"seat":1,"name":"right"}],"first":0}
{"type":"placement","seat":0,"cells":[[0,0]]}
{"type":"placement","seat":1,"cells":[[1,0]]}
{"type":"step","n":1,"seat":0,"action":{"kind":"attack","to":[1,0]},"actor":{"mine":true,"kind":"attack","at":[1,0],"hit":"a","sunk":true},"other":{"kind":"attack","at":[1,0],"hit":"a","sunk":true}}
{"type":"result","outcome":"win","winner":0,"actions":1}
`

func ExampleVerify() {
	rp, err := subrecord.Read(strings.NewReader(tiny))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("verify:", subrecord.Verify(rp))

	rp.Steps[0].Other.Sunk = false // claim the defender was not told
	fmt.Println("tampered:", subrecord.Verify(rp))
	// Output:
	// verify: <nil>
	// tampered: replay: mismatch: step 1: other side was told {"kind":"attack","at":[1,0],"hit":"a"}, the engine says {"kind":"attack","at":[1,0],"hit":"a","sunk":true}
}

func ExampleRender() {
	rp, _ := subrecord.Read(strings.NewReader(tiny))
	if err := subrecord.Render(os.Stdout, rp, subrecord.RenderOptions{From: 1, To: -1}); err != nil {
		fmt.Println(err)
	}
	// Output:
	// submarine: 2x1 board, fleet a(1), draw after 10 actions
	// game seed 1, recorded by kaisen example
	// seat 0: left, acts first
	// seat 1: right
	// legend: letters are ships (fleet order), . sea, # rock, x sunk ship,
	//         [ ] the attacked cell, ~ the sea around it (where "near" looks),
	//         ( ) the ship that moved and the cell it left;
	//         columns are letters, rows numbers from 1 (A1 is the top left corner);
	//         on the wire and in the replay file a cell is [x,y] from 0: C4 is [2,3]
	//
	// #1 seat 0 left attacks B1: hit a, sunk; nothing near
	// seat 0: left     seat 1: right
	//    A  B             A  B
	// 1  a  .          1  ~ [x]
	// hp a1            hp a-
	//
	// result: seat 0 left wins after 1 action
}

func ExampleEncodeEvent() {
	r := submarine.DefaultRules()
	ev := submarine.Event{Kind: submarine.Attack, At: 7, Hit: 1, Near: submarine.ShipMask(0).With(2),
		Ship: submarine.NoShip, To: -1}
	b, _ := json.Marshal(subrecord.EncodeEvent(r, ev))
	fmt.Println(string(b))
	// Output: {"kind":"attack","at":[2,1],"hit":"c","near":["s"]}
}
