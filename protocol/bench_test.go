package protocol_test

import (
	"strings"
	"testing"

	"github.com/kaisen-ai/kaisen/protocol"
)

// benchLine is a submarine result line (game/submarine/wire's benchmarks
// decode the same one).
const benchLine = `{"result":{"attacked":{"position":[1,1],"hit":"w","near":["s"]}},"condition":{"me":{"w":{"hp":3,"position":[0,0]},"c":{"hp":2,"position":[2,0]},"s":{"hp":1,"position":[4,0]}},"enemy":{"w":{"hp":2},"c":{"hp":2},"s":{"hp":1}}}}`

func BenchmarkLineReader(b *testing.B) {
	text := strings.Repeat(benchLine+"\n", 1000)
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		lr := protocol.NewLineReader(strings.NewReader(text), 0)
		for {
			if _, err := lr.ReadLine(); err != nil {
				break
			}
		}
	}
}
