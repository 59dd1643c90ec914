package bsbelief

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/game/battleship"
	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/internal/race"
)

// TestGroupedStepsMatchHashSteps holds pass 1's grouped steps (grouped.go)
// to the hash table they replace: at every boundary the same profiles,
// each with the same forward supports and the same transitions (the
// profiles they lead to and the ships they finish), in whatever order,
// on random games, symmetric marks (rows merged with their mirror
// images, where the two kinds of step alternate) and the budget's early
// stop, with every layer split over three workers too. Under the race
// detector it runs on the small boards (the workers' concurrency is the
// same); TestGroupedStepsMatchHashStepsFullSize runs every position.
func TestGroupedStepsMatchHashSteps(t *testing.T) {
	groupedMatchHash(t, groupedPositions(t, false))
}

// TestGroupedStepsMatchHashStepsFullSize is TestGroupedStepsMatchHashSteps
// on every position: every fifth of each game, the many-vector fleet and
// an open 8x8 board (minutes under the race detector).
func TestGroupedStepsMatchHashStepsFullSize(t *testing.T) {
	race.SkipFullSize(t)
	groupedMatchHash(t, groupedPositions(t, true))
}

// groupedPositions are the positions the grouped steps are checked on:
// positions of random games and symmetric marks on small boards, and with
// full also the many-vector fleet and an open 8x8 board, every fifth
// position of a game (every twentieth without full).
func groupedPositions(t *testing.T, full bool) []*battleship.Position {
	var positions []*battleship.Position
	every := 20 // positions of a game
	rules := []*battleship.Rules{
		mustRules(t, grid.MustBoard(6, 6, nil), 3, 2, 2, 1),
		mustRules(t, grid.MustBoard(5, 7, nil), 3, 2, 1, 1),
		mustRules(t, grid.MustBoard(1, 9, nil), 2, 1),
		mustRules(t, grid.MustBoard(2, 6, nil), 2, 1, 1),
	}
	if full {
		every = 5
		rules = append(rules, manyVectorRules(t))
	}
	for _, r := range rules {
		for i, pos := range gamePositions(t, r, 1, 5) {
			if i%every == 0 {
				positions = append(positions, pos)
			}
		}
		for seed := range uint64(6) {
			positions = append(positions, mirroredMarks(r, seed, int(seed%7), int(seed%3), seed%2 == 0, true))
		}
	}
	if full {
		positions = append(positions, battleship.NewPosition(mustRules(t, grid.MustBoard(8, 8, nil), 4, 3, 2, 1)))
	}
	return positions
}

// groupedMatchHash checks pass 1 with the grouped steps against the hash
// table alone on every position, with and without a budget, on one and
// three workers.
func groupedMatchHash(t *testing.T, positions []*battleship.Position) {
	for i, pos := range positions {
		for _, maxWork := range []int64{0, 20_000} {
			t.Run(fmt.Sprintf("%d/budget=%d", i, maxWork), func(t *testing.T) {
				want, wantErr := passOne(t, pos, true, maxWork, 1)
				for _, workers := range []int{1, 3} {
					got, gotErr := passOne(t, pos, false, maxWork, workers)
					require.Equal(t, wantErr, gotErr)
					require.Equal(t, want.done, got.done)
					require.Equal(t, want.failKeys, got.failKeys)
					require.Equal(t, want.states, got.states)
					require.Equal(t, want.work, got.work)
					for b := 0; b <= want.done; b++ {
						require.Equal(t, boundary(want, b), boundary(got, b), "%s: %d workers, boundary %d", pos.Text(), workers, b)
					}
				}
			})
		}
	}
}

// passOne runs pass 1 of pos, keeping every boundary, with the hash
// table alone or with the grouped steps, every layer split over the
// workers (without a budget).
func passOne(t *testing.T, pos *battleship.Position, hashed bool, maxWork int64, workers int) (*counter, error) {
	t.Helper()
	pr, err := newProblem(pos)
	require.NoError(t, err)
	d := &counter{problem: pr, m: 1, ctx: context.Background(), mirror: pr.symmetric, keepAll: true, hashed: hashed, maxWork: maxWork}
	d.setWorkers(CountOptions{Workers: workers, splitMin: 1})
	return d, d.forwardSupports()
}

// boundary describes boundary b of pass 1 by profile: its forward
// supports and, below the last boundary, its transitions.
func boundary(d *counter, b int) map[key]string {
	out := make(map[key]string, len(d.keys[b]))
	for i, k := range d.keys[b] {
		s := fmt.Sprint(d.fwd[b][i*d.pw : (i+1)*d.pw])
		if b < d.done {
			for oi := range 2 {
				if x := d.trans[b][2*i+oi]; x != 0 {
					s += fmt.Sprintf(" %x/%d", d.keys[b+1][int(x>>6)-1], x&63)
				}
			}
		}
		out[k] = s
	}
	return out
}
