package extern_test

import (
	"context"
	"testing"

	"github.com/kaisen-ai/kaisen/arena"
	"github.com/kaisen-ai/kaisen/extern"
	"github.com/kaisen-ai/kaisen/games"
)

// BenchmarkGame compares one game of random against random in-process
// with the same game played by kaisen play through exec: (the launch
// overhead goal: docs/cli.md#external-players-exec); ns/op is a game.
func BenchmarkGame(b *testing.B) {
	g, err := games.Lookup("submarine")
	if err != nil {
		b.Fatal(err)
	}
	inProcess, err := g.Family(arena.DefaultConfig(), games.Entrant{Name: "random"}, games.Entrant{Name: "random"})
	if err != nil {
		b.Fatal(err)
	}
	cmd, err := extern.Parse(player("submarine", "random"))
	if err != nil {
		b.Fatal(err)
	}
	for _, bb := range []struct {
		name string
		fam  arena.Family
	}{
		{"in-process", inProcess},
		{"exec", &extern.Family{Name: "submarine", Bot: cmd, House: "random"}},
	} {
		b.Run(bb.name, func(b *testing.B) {
			m := arena.Match{Family: bb.fam, Games: b.N, Seed: 1, Workers: 1}
			b.ResetTimer()
			if _, err := m.Run(context.Background(), nil); err != nil {
				b.Fatal(err)
			}
		})
	}
}
