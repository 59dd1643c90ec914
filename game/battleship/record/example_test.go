package record_test

import (
	"fmt"
	"os"
	"strings"

	bsrecord "github.com/kaisen-ai/kaisen/game/battleship/record"
)

// tinyBS is a whole Battleship replay: a 3x2 board, one 1-cell ship each;
// seat 0 misses, seat 1 sinks seat 0's ship.
const tinyBS = `{"type":"header","game":"battleship","version":"example","seed":1,"rules":{"width":3,"height":2,"rocks":[],"fleet":[1],"draw_limit":24},"players":[{"seat":0,"name":"left"},{"seat":1,"name":"right"}],"first":0}
{"type":"placement","seat":0,"ships":[[[0,0]]]}
{"type":"placement","seat":1,"ships":[[[1,2]]]}
{"type":"shot","n":1,"seat":0,"at":[0,2],"outcome":"miss"}
{"type":"shot","n":2,"seat":1,"at":[0,0],"outcome":"kill","sunk":[[0,0]],"again":true}
{"type":"result","outcome":"win","winner":1,"shots":[1,1]}
`

func ExampleVerify() {
	rp, err := bsrecord.Read(strings.NewReader(tinyBS))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("verify:", bsrecord.Verify(rp))

	rp.Shots[0].Outcome = bsrecord.OutcomeHit // claim seat 0 hit something
	fmt.Println("tampered:", bsrecord.Verify(rp))

	_, err = bsrecord.Read(strings.NewReader(strings.Replace(tinyBS, `"n":2,`, `"n":2,"power":3,`, 1)))
	fmt.Println("malformed:", err)
	// Output:
	// verify: <nil>
	// tampered: replay: mismatch: shot 1 at [0,2]: recorded hit, the engine says miss
	// malformed: replay: bad format: line 5: shot: unknown key "power"
}

func ExampleRender() {
	rp, _ := bsrecord.Read(strings.NewReader(tinyBS))
	if err := bsrecord.Render(os.Stdout, rp, bsrecord.RenderOptions{To: -1}); err != nil {
		fmt.Println(err)
	}
	// Output:
	// battleship: 3x2 board, fleet 1, draw after 24 shots
	// game seed 1, recorded by kaisen example
	// seat 0: left, shoots first
	// seat 1: right
	// legend: O ship, x hit, # sunk ship, o miss, . sea, - rock, [ ] the last shot;
	//         columns are letters, rows numbers from 1 (A1 is the top left corner);
	//         on the wire and in the replay file a cell is [row,col] from 0: C4 is [3,2]
	//
	// #1 seat 0 left shoots C1: miss
	// #2 seat 1 right shoots A1: kill, the 1-cell ship A1 sinks, the last one
	//
	// after shot 2 (the last)
	// seat 0: left     seat 1: right
	//    A  B  C          A  B  C
	// 1 [#] .  .       1  .  .  o
	// 2  .  .  .       2  .  .  O
	// afloat 0/1       afloat 1/1: 1
	//
	// result: seat 1 right wins; shots 1 (seat 0) and 1 (seat 1)
}
