package bsbelief

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/game/battleship"
)

// TestReverseMask holds reverseMask (128-bit reversal and shift for masks
// of one or two words) to the plain definition, entry z = base - a of
// every entry a, on random masks and every base around the words' edges.
func TestReverseMask(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, pw := range []int{1, 2, 3} {
		for range 50 {
			src := make([]uint64, pw)
			for q := range src {
				src[q] = rng.Uint64() & rng.Uint64()
			}
			for base := -2; base <= 64*pw+130; base++ {
				want := make([]uint64, pw)
				for a := range 64 * pw {
					if src[a>>6]>>(a&63)&1 == 1 {
						if z := base - a; z >= 0 && z < 64*pw {
							want[z>>6] |= 1 << (z & 63)
						}
					}
				}
				got := make([]uint64, pw)
				got[0] = ^uint64(0) // reverseMask overwrites dst
				reverseMask(got, src, base)
				require.Equal(t, want, got, "pw %d, base %d, src %x", pw, base, src)
			}
		}
	}
}

// TestJoinGroupsKeepTheirOwnShips holds each group of the join's plan to
// the horizontal ships of its own skeleton, whatever the order of the
// profiles of row J: a row with more ships of a length than the fleet
// has (two 2-cell ships, against one in the fleet) has the fleet index
// of another row (one 3-cell ship), and its entries (none) must not
// become that row's. The position counted wrong (24993 layouts instead
// of 29067) when pass 1 met the impossible row first.
func TestJoinGroupsKeepTheirOwnShips(t *testing.T) {
	pos, err := battleship.ParsePosition("fleet: 3,2,1,1\n.....\n....o\no.o..\n.....\no.o..\n....o\n.....\n", nil)
	require.NoError(t, err)
	for _, reversed := range []bool{false, true} {
		pr, err := newProblem(pos)
		require.NoError(t, err)
		d := &counter{problem: pr, m: 1, ctx: context.Background(), spanMode: true, join: true, half: true}
		require.True(t, d.tbSymmetric())
		require.NoError(t, d.forwardSupports())
		t0, t1 := d.joinBounds()
		require.Equal(t, t0, t1, "an odd height: rows J and J' are one row")
		if reversed {
			slices.Reverse(d.keys[t0])
			fwd := slices.Clone(d.fwd[t0])
			for i := range d.sizes[t0] {
				j := d.sizes[t0] - 1 - i
				copy(d.fwd[t0][i*d.pw:(i+1)*d.pw], fwd[j*d.pw:(j+1)*d.pw])
			}
		}
		jp := d.newJoinPlan(d.fwd[t1])
		for _, g := range jp.groups {
			_, per := d.rowShips(g.topKeys[0])
			for z, x := range g.geq {
				want := ^uint64(0)
				for l := 1; l <= d.L && per != nil; l++ {
					if d.digit(z, l) < per[l] {
						want = 0
					}
				}
				require.Equal(t, want, x, "reversed %v, skeleton %x, entry %d", reversed, g.skel, z)
			}
		}
	}
	got, err := Count(context.Background(), pos, CountOptions{})
	require.NoError(t, err)
	require.Equal(t, "29067", got.Total.String())
}
