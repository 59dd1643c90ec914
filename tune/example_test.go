package tune_test

import (
	"fmt"

	"github.com/kaisen-ai/kaisen/tune"
)

// A pool evaluation keeps each opponent's share apart; the mean objective
// pools the games, the min objective follows the worst opponent through a
// soft-min.
func ExampleAggregate_Score() {
	s := tune.Sample{Sum: 9, N: 20, Wins: 9, Parts: []tune.Sample{
		{Sum: 8, N: 10, Wins: 8}, // 80% against the first opponent
		{Sum: 1, N: 10, Wins: 1}, // 10% against the second
	}}
	mean, _ := tune.ParseAggregate("mean", 0)
	soft, _ := tune.ParseAggregate("min", tune.DefaultTemperature)
	plain, _ := tune.ParseAggregate("min", 0)
	for _, a := range []tune.Aggregate{mean, soft, plain} {
		fmt.Printf("%-11s %.4f\n", a, a.Score(s))
	}
	// Output:
	// mean        0.4500
	// min(T=0.05) 0.1347
	// min         0.1000
}

// The soft-min lies between the minimum (T = 0) and the mean (0.5167, as
// T grows).
func ExampleSoftMin() {
	rates := []float64{0.3, 0.35, 0.9}
	for _, t := range []float64{0, 0.05, 0.2, 10} {
		fmt.Printf("T=%-4g %.4f\n", t, tune.SoftMin(rates, t))
	}
	// Output:
	// T=0    0.3000
	// T=0.05 0.3393
	// T=0.2  0.3990
	// T=10   0.5130
}
