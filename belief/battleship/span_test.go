package bsbelief

import (
	"context"
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/game/battleship"
	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/internal/race"
)

// countWith runs the programme on pos with one limb first, as Count does,
// on compact vectors when compact is set (the reference implementation).
func countWith(pos *battleship.Position, compact bool) (*Counts, error) {
	pr, err := newProblem(pos)
	if err != nil {
		return nil, err
	}
	var work int64
	for m := 1; ; m *= 2 {
		c := &counter{problem: pr, m: m, ctx: context.Background(), compact: compact, work: work, mirror: pr.symmetric}
		res, err := c.run()
		work = c.work
		if errors.Is(err, errOverflow) && m < maxLimbs {
			continue
		}
		if err == nil {
			res.Remaining, res.Work = pr.remaining, work
		}
		return res, err
	}
}

// TestSpansMatchCompact checks the span passes Count runs against the
// compact passes (the reference) on every position of random games:
// totals, per-cell maps, work and states, including boards whose counts
// need more than one limb and masks of three words.
func TestSpansMatchCompact(t *testing.T) {
	tests := []struct {
		name  string
		rules *battleship.Rules
		games int
		every int
	}{
		{"5x5", mustRules(t, grid.MustBoard(5, 5, nil), 3, 2, 1, 1), 20, 1},
		{"7x6", mustRules(t, grid.MustBoard(7, 6, nil), 4, 3, 2, 2, 1, 1), 6, 1},
		{"8x8 shaped", mustRules(t, grid.MustBoard(8, 8, []grid.Cell{9, 27, 36, 54}), 4, 3, 3, 2, 1, 1), 3, 1},
		{"4x64 overflow", overflowRules(t), 1, 16},
		{"192 fleet vectors", manyVectorRules(t), 1, 8},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if race.Enabled { // ten times slower: one game, a third of its positions
				tt.games, tt.every = 1, 3*tt.every
			}
			n := 0
			for i, pos := range gamePositions(t, tt.rules, tt.games, 21) {
				if i%tt.every != 0 {
					continue
				}
				want, wantErr := countWith(pos, true)
				got, gotErr := Count(context.Background(), pos, CountOptions{})
				requireSameNumbers(t, pos, want, wantErr, got, gotErr)
				n++
			}
			if tt.games > 0 {
				require.Positive(t, n)
			}
		})
	}
}

// TestFullSizeSpansMatchCompactClassic is TestSpansMatchCompact on every
// sixth position of a classic game (seconds; its early positions take the
// longest).
func TestFullSizeSpansMatchCompactClassic(t *testing.T) {
	race.SkipFullSize(t)
	for i, pos := range gamePositions(t, battleship.DefaultRules(), 1, 21) {
		if i%6 != 0 {
			continue
		}
		want, wantErr := countWith(pos, true)
		require.NoError(t, wantErr)
		got, err := Count(context.Background(), pos, CountOptions{})
		require.NoError(t, err)
		requireSameNumbers(t, pos, want, nil, got, nil)
	}
}

// randomMarks returns a position of rules with random misses and hits
// drawn from seed (the hits need not be consistent: Count then finds no
// layout or reports the position invalid, as the reference does).
func randomMarks(rules *battleship.Rules, seed uint64, misses, hits int) *battleship.Position {
	rng := rand.New(rand.NewPCG(seed, 5))
	pos := battleship.NewPosition(rules)
	cells := rules.Board.Usable().Cells()
	rng.Shuffle(len(cells), func(i, j int) { cells[i], cells[j] = cells[j], cells[i] })
	for i, c := range cells[:min(len(cells), misses+hits)] {
		if i < misses {
			pos.Marks[c] = battleship.Water
		} else {
			pos.Marks[c] = battleship.Damaged
		}
	}
	return pos
}

// FuzzSpansMatchCompact counts random marks on a 6x5 board with both
// numeric passes and by plain enumeration.
func FuzzSpansMatchCompact(f *testing.F) {
	f.Add(uint64(1), uint8(4), uint8(1))
	f.Add(uint64(2), uint8(0), uint8(3))
	f.Add(uint64(3), uint8(10), uint8(0))
	rules := mustRules(f, grid.MustBoard(6, 5, nil), 3, 2, 2, 1)
	f.Fuzz(func(t *testing.T, seed uint64, misses, hits uint8) {
		pos := randomMarks(rules, seed, int(misses%20), int(hits%5))
		want, wantErr := countWith(pos, true)
		got, gotErr := Count(context.Background(), pos, CountOptions{})
		if wantErr != nil {
			require.Error(t, gotErr)
			require.Equal(t, wantErr.Error(), gotErr.Error())
			return
		}
		requireSameNumbers(t, pos, want, wantErr, got, gotErr)
		requireCountsEqual(t, pos, got)
	})
}

// TestSpansMatchCompactOnRandomMarks is the fuzz test's property on a
// thousand seeds (every fifth also against plain enumeration).
func TestSpansMatchCompactOnRandomMarks(t *testing.T) {
	rules := mustRules(t, grid.MustBoard(6, 5, nil), 3, 2, 2, 1)
	n := 1000
	if race.Enabled {
		n = 100
	}
	for seed := range uint64(n) {
		pos := randomMarks(rules, seed, int(seed%17), int(seed%4))
		want, wantErr := countWith(pos, true)
		got, gotErr := Count(context.Background(), pos, CountOptions{})
		if wantErr != nil {
			require.Equal(t, wantErr.Error(), gotErr.Error())
			continue
		}
		requireSameNumbers(t, pos, want, wantErr, got, gotErr)
		if seed%5 == 0 {
			requireCountsEqual(t, pos, got)
		}
	}
}
