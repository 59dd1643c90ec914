package elo_test

import (
	"fmt"

	"github.com/kaisen-ai/kaisen/elo"
)

func ExampleTrinomial() {
	e := elo.Trinomial(elo.WDL{Wins: 380, Draws: 300, Losses: 320})
	fmt.Printf("Elo difference: %.1f +/- %.1f, LOS: %.1f %%\n", e.Elo, e.HalfWidth(), 100*e.LOS)
	fmt.Printf("95%% interval: [%.1f, %.1f]\n", e.Lo, e.Hi)
	// Output:
	// Elo difference: 20.9 +/- 18.0, LOS: 98.8 %
	// 95% interval: [2.8, 38.9]
}

// A perfect score has no upper bound: only the lower one is finite.
func ExampleTrinomial_perfect() {
	e := elo.Trinomial(elo.WDL{Wins: 80})
	fmt.Printf("Elo %v, 95%% interval [%.0f, %v], LOS %.0f %%\n", e.Elo, e.Lo, e.Hi, 100*e.LOS)
	// Output:
	// Elo +Inf, 95% interval [527, +Inf], LOS 100 %
}

func ExamplePentanomial() {
	var p elo.Penta
	p.Add(elo.Win, elo.Draw)  // 1.5 points
	p.Add(elo.Win, elo.Loss)  // 1 point
	p.Add(elo.Draw, elo.Draw) // 1 point
	p.Add(elo.Loss, elo.Draw) // 0.5 points
	fmt.Println("Ptnml(0-2):", p, "score", p.Score())
	// Output:
	// Ptnml(0-2): [0 1 2 1 0] score 0.5
}

func ExampleSPRT() {
	s, err := elo.ParseSPRT("elo0=0,elo1=5,alpha=0.05,beta=0.05")
	if err != nil {
		panic(err)
	}
	lower, upper := s.Bounds()
	llr := s.LLR(elo.Penta{320, 2100, 4300, 2200, 380})
	fmt.Printf("llr %.2f (%.1f%%), lbound %.2f, ubound %.2f - %v\n", llr, 100*s.Progress(llr), lower, upper, s.Decide(llr))
	// Output:
	// llr 3.25 (110.4%), lbound -2.94, ubound 2.94 - H1 was accepted
}

func ExampleFormat() {
	e := elo.Trinomial(elo.WDL{Losses: 30})
	fmt.Printf("[%s, %s]\n", elo.Format(e.Lo, "%+.1f"), elo.Format(e.Hi, "%+.1f"))
	// Output:
	// [-inf, -357.1]
}
