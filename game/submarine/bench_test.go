package submarine_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/game/submarine"
	"github.com/kaisen-ai/kaisen/players"
)

// BenchmarkApply measures one rules step (an attack or a move) on the default board.
func BenchmarkApply(b *testing.B) {
	r := submarine.DefaultRules()
	g0, err := submarine.NewGame(r, submarine.Placement{0, 12, 24}, submarine.Placement{4, 12, 20}, 0)
	if err != nil {
		b.Fatal(err)
	}
	// Moves that shuttle both sides' w and s back and forth, interleaved with
	// attacks that splash but never sink.
	script := []submarine.Action{
		submarine.MoveTo(0, 1), submarine.AttackAt(6), submarine.MoveTo(0, 0), submarine.AttackAt(18),
	}
	g := *g0
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if g.Actions() >= 9000 {
			g = *g0
		}
		g.Apply(script[i%len(script)])
	}
}

// BenchmarkRandomGame plays whole random-vs-random games on the default rules.
func BenchmarkRandomGame(b *testing.B) {
	r := submarine.DefaultRules()
	actions := 0
	views := new([2]submarine.View)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		rng := rand.New(rand.NewPCG(uint64(i), 1))
		p := [2]players.Player{players.NewRandom(r, rng), players.NewRandom(r, rng)}
		g, err := submarine.NewGame(r, p[0].Place(), p[1].Place(), 0)
		if err != nil {
			b.Fatal(err)
		}
		for g.Status() == game.Running {
			seat := g.ToAct()
			st, _ := g.Apply(p[seat].Act())
			views[0], views[1] = g.View(seat), g.View(1-seat)
			p[seat].Observe(st.Actor, &views[0])
			p[1-seat].Observe(st.Other, &views[1])
		}
		actions += g.Actions()
	}
	b.ReportMetric(float64(actions)/float64(b.N), "actions/game")
}

// Example plays the opening of the reference capture's scripted game.
func Example() {
	r := submarine.DefaultRules()
	at := func(x, y int) grid.Cell { c, _ := r.Board.At(x, y); return c }
	g, err := submarine.NewGame(r,
		submarine.Placement{at(0, 0), at(2, 0), at(4, 0)}, // w c s of the first player
		submarine.Placement{at(1, 1), at(3, 1), at(0, 2)}, // w c s of the second
		0)
	if err != nil {
		panic(err)
	}
	st, _ := g.Apply(submarine.AttackAt(at(1, 1)))
	fmt.Println("hit:", r.Fleet[st.Actor.Hit].Name, "near s:", st.Actor.Near.Has(2), "enemy w hp:", g.View(0).EnemyHP[0])
	st, _ = g.Apply(submarine.MoveTo(0, at(1, 2)))
	fmt.Println("the first player is told: ship", r.Fleet[st.Other.Ship].Name, "moved by", st.Other.DX, st.Other.DY)
	_, err = g.Apply(submarine.AttackAt(at(4, 4)))
	fmt.Println(err)
	// Output:
	// hit: w near s: true enemy w hp: 2
	// the first player is told: ship w moved by 0 1
	// submarine: illegal action: attack on E5 is out of reach of every living ship
}
