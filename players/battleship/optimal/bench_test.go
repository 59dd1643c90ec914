package bsoptimal

import "testing"

// BenchmarkOptimal solves 4x4 boards from scratch (a fresh Solver each
// time): go test ./players/battleship/optimal -run '^$' -bench .
func BenchmarkOptimal(b *testing.B) {
	for _, tc := range []struct {
		name  string
		fleet []int
	}{{"4x4-3,2,1", []int{3, 2, 1}}, {"4x4-2,1", []int{2, 1}}} {
		b.Run(tc.name, func(b *testing.B) {
			for b.Loop() {
				s := solver(b, 4, 4, tc.fleet...)
				if _, err := s.Optimal(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkEvaluateGreedy is greedy's exact value on 4x4 3,2,1.
func BenchmarkEvaluateGreedy(b *testing.B) {
	s := solver(b, 4, 4, 3, 2, 1)
	for b.Loop() {
		if _, err := s.Evaluate(Greedy); err != nil {
			b.Fatal(err)
		}
	}
}
