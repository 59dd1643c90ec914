package protocol_test

import (
	"fmt"

	"github.com/kaisen-ai/kaisen/protocol"
)

func ExampleParseGreeting() {
	for _, line := range []string{
		"you are connected. please send me initial state.",
		"round3. please send me initial state.",
		"This is a submarine_py server.  Tell me your name.",
	} {
		d, round, _ := protocol.ParseGreeting([]byte(line))
		fmt.Println(d, round)
	}
	// Output:
	// classic 0
	// classic 3
	// submarine-py 0
}
