package bsbelief

import (
	"context"
	"fmt"
	"testing"

	"github.com/kaisen-ai/kaisen/game/battleship"
	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/internal/race"
)

// parallelPositions returns positions of rules for the parallel tests:
// every every-th position of random games, random marks and marks
// symmetric left to right, top to bottom and both ways (the join, the
// mirror images), and the empty board.
func parallelPositions(t testing.TB, rules *battleship.Rules, games, every, marks int) []*battleship.Position {
	t.Helper()
	out := []*battleship.Position{battleship.NewPosition(rules)}
	for i, pos := range gamePositions(t, rules, games, 31) {
		if i%every == 0 {
			out = append(out, pos)
		}
	}
	for seed := uint64(1); seed <= uint64(marks); seed++ {
		out = append(out,
			randomMarks(rules, seed, int(seed%13), int(seed%3)),
			mirroredMarks(rules, seed, int(seed%7), int(seed%3), true, false),
			mirroredMarks(rules, seed, int(seed%7), int(seed%3), false, true),
			mirroredMarks(rules, seed, int(seed%7), int(seed%3), true, true))
	}
	return out
}

// parallelCase is one board of the parallel count tests: its rules, the
// positions to count (parallelPositions' games, every and marks) and the
// budgets to count them with (0: none).
type parallelCase struct {
	name                string
	rules               *battleship.Rules
	games, every, marks int
	budgets             []int64
}

// TestParallelCountsEqualSerial holds a count split over 2, 3 and 4
// workers, every layer split (small boards too), to the count on one:
// the same totals, maps, work, profiles and errors, with and without a
// budget, on small boards, several limbs and the budgeted classic
// board. TestParallelCountsEqualSerialFullSize adds the larger boards.
func TestParallelCountsEqualSerial(t *testing.T) {
	parallelCountsEqualSerial(t, []parallelCase{
		{"5x5", mustRules(t, grid.MustBoard(5, 5, nil), 3, 2, 1, 1), 4, 1, 20, []int64{0, 2000}},
		{"7x6", mustRules(t, grid.MustBoard(7, 6, nil), 4, 3, 2, 2, 1, 1), 2, 1, 10, []int64{0, 30000}},
		{"6x6", mustRules(t, grid.MustBoard(6, 6, nil), 3, 2, 2, 1), 2, 1, 20, []int64{0}},
		{"classic", battleship.DefaultRules(), 1, 6, 2, []int64{300000}}, // unbudgeted: TestFullSizeParallelCountEqualsSerial
	})
}

// TestParallelCountsEqualSerialFullSize is TestParallelCountsEqualSerial
// on the larger boards (a minute and more under the race detector): masks
// of three words, shaped boards, overflowing counts and many fleet
// vectors.
func TestParallelCountsEqualSerialFullSize(t *testing.T) {
	race.SkipFullSize(t)
	parallelCountsEqualSerial(t, []parallelCase{
		{"8x8 shaped", mustRules(t, grid.MustBoard(8, 8, []grid.Cell{9, 27, 36, 54}), 4, 3, 3, 2, 1, 1), 2, 2, 6, []int64{0}},
		{"4x64 overflow", overflowRules(t), 1, 16, 2, []int64{0, 150000}},
		{"192 fleet vectors", manyVectorRules(t), 1, 8, 2, []int64{0}},
	})
}

// parallelCountsEqualSerial counts every case's positions on one worker
// and on 2, 3 and 4, a tenth of them under the race detector.
func parallelCountsEqualSerial(t *testing.T, tests []parallelCase) {
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if race.Enabled { // ten times slower
				tt.games, tt.every, tt.marks = 1, 3*tt.every, tt.marks/4
			}
			positions := parallelPositions(t, tt.rules, tt.games, tt.every, tt.marks)
			for _, budget := range tt.budgets {
				for _, pos := range positions {
					want, wantErr := Count(context.Background(), pos, CountOptions{MaxWork: budget, Workers: 1})
					for _, w := range []int{2, 3, 4} {
						got, gotErr := Count(context.Background(), pos, CountOptions{MaxWork: budget, Workers: w, splitMin: 1})
						requireSameCount(t, want, wantErr, got, gotErr, fmt.Sprintf("workers %d, budget %d\n%s", w, budget, pos.Text()))
					}
				}
			}
		})
	}
}

// TestParallelCounterEqualsSerial replays game positions through a
// Counter on one worker and one on three, every layer split, with a
// budget that some counts break: the same results, errors and work.
func TestParallelCounterEqualsSerial(t *testing.T) {
	tests := []struct {
		name   string
		rules  *battleship.Rules
		budget int64
	}{
		{"7x6", mustRules(t, grid.MustBoard(7, 6, nil), 4, 3, 2, 2, 1, 1), 20000},
		{"classic", battleship.DefaultRules(), 300000},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var serial, split Counter
			for i, pos := range gamePositions(t, tt.rules, 1, 41) {
				if race.Enabled && i%3 != 0 {
					continue
				}
				opt := CountOptions{MaxWork: tt.budget, Workers: 1}
				want, wantErr := serial.Count(context.Background(), pos, opt)
				opt.Workers, opt.splitMin = 3, 1
				got, gotErr := split.Count(context.Background(), pos, opt)
				requireSameCount(t, want, wantErr, got, gotErr, pos.Text())
			}
		})
	}
}

// TestFullSizeParallelCountEqualsSerial counts the empty classic board
// and positions after 10 random shots on one worker and on two, with the
// default split (the full-size layers the split is for).
func TestFullSizeParallelCountEqualsSerial(t *testing.T) {
	race.SkipFullSize(t)
	r := battleship.DefaultRules()
	positions := []*battleship.Position{battleship.NewPosition(r)}
	for i, pos := range gamePositions(t, r, 1, 5) {
		if i == 6 || i == 10 {
			positions = append(positions, pos)
		}
	}
	for _, pos := range positions {
		want, wantErr := Count(context.Background(), pos, CountOptions{Workers: 1})
		got, gotErr := Count(context.Background(), pos, CountOptions{Workers: 2})
		requireSameCount(t, want, wantErr, got, gotErr, pos.Text())
	}
}
