package wire_test

import (
	"testing"

	"github.com/kaisen-ai/kaisen/game/submarine"
	"github.com/kaisen-ai/kaisen/game/submarine/wire"
	"github.com/kaisen-ai/kaisen/protocol"
)

const benchResult = `{"result":{"attacked":{"position":[1,1],"hit":"w","near":["s"]}},"condition":{"me":{"w":{"hp":3,"position":[0,0]},"c":{"hp":2,"position":[2,0]},"s":{"hp":1,"position":[4,0]}},"enemy":{"w":{"hp":2},"c":{"hp":2},"s":{"hp":1}}}}`

func BenchmarkEncodeResult(b *testing.B) {
	r := submarine.DefaultRules()
	g, _ := submarine.NewGame(r, submarine.Placement{0, 2, 4}, submarine.Placement{6, 8, 10}, 0)
	st, _ := g.Apply(submarine.AttackAt(6))
	v := g.View(0)
	o := wire.DefaultOrder(r)
	b.ReportAllocs()
	for b.Loop() {
		wire.EncodeResult(protocol.Classic, r, st.Actor, protocol.NoOutcome, &v, o, o)
	}
}

func BenchmarkDecodeResult(b *testing.B) {
	r := submarine.DefaultRules()
	line := []byte(benchResult)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := wire.DecodeResult(protocol.Classic, line, r, true); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDecodeAction(b *testing.B) {
	r := submarine.DefaultRules()
	line := []byte(`{"move":{"ship":"w","to":[1,2]}}`)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := wire.DecodeAction(line, r); err != nil {
			b.Fatal(err)
		}
	}
}
