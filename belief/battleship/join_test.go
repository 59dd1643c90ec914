package bsbelief

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
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
