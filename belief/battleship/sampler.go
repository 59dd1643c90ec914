package bsbelief

// Exact uniform sampling of the layouts consistent with a position, from the
// completion counts of the counting programme.

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"math/bits"
	"math/rand/v2"

	"github.com/kaisen-ai/kaisen/game/battleship"
	"github.com/kaisen-ai/kaisen/game/grid"
)

// Sampler draws layouts uniformly among those consistent with a position,
// exactly: it keeps the completion counts of every profile of the counting
// programme and draws each cell with probability proportional to them. It
// is safe for concurrent use once built.
type Sampler struct {
	d     *counter
	b     [][]uint64 // completion counts per boundary (compact, see transfer.go)
	offs  [][]int32
	total *big.Int
	pos   *battleship.Position
}

// NewSampler runs the counting programme for pos and keeps what sampling
// needs. maxWords bounds the memory of the kept counts in 64-bit words (0:
// 1<<25, 256 MiB); beyond it the error wraps ErrBudget.
func NewSampler(ctx context.Context, pos *battleship.Position, maxWords int64) (*Sampler, error) {
	if maxWords <= 0 {
		maxWords = 1 << 25
	}
	pr, err := newProblem(pos)
	if err != nil {
		return nil, err
	}
	for m := 1; m <= maxLimbs; m *= 2 {
		d := &counter{problem: pr, m: m, ctx: ctx}
		if err := d.enumerate(); err != nil {
			return nil, err
		}
		offs := make([][]int32, d.cells()+1)
		var words int64
		for t := range offs {
			offs[t] = d.offsets(t)
			words += int64(offs[t][len(offs[t])-1]) * int64(m)
		}
		if words > maxWords {
			return nil, fmt.Errorf("%w: sampling needs %d words of memory, more than %d", ErrBudget, words, maxWords)
		}
		all, err := d.backwardValues(true, nil)
		if errors.Is(err, errOverflow) {
			continue
		}
		if err != nil {
			return nil, err
		}
		if len(all[0]) == 0 {
			return nil, ErrNoLayout
		}
		return &Sampler{d: d, b: all, offs: offs, total: limbsBig(all[0][:m]), pos: pos}, nil
	}
	return nil, fmt.Errorf("battleship: sampler: counts exceed %d bits", 64*maxLimbs)
}

// Total is the number of layouts the sampler draws from.
func (s *Sampler) Total() *big.Int { return new(big.Int).Set(s.total) }

// Sample draws one layout of the remaining fleet (the sunk ships are not
// part of it) uniformly among those consistent with the position.
func (s *Sampler) Sample(rng *rand.Rand) (battleship.Placement, error) {
	d := s.d
	m, pw := d.m, d.pw
	state, a := 0, 0 // profile and fleet vector of the prefix drawn so far
	var occ grid.Set
	for t := range d.cells() {
		tr := d.trans[t]
		var w [2]*big.Int
		var dst, next [2]int
		for o := range 2 {
			w[o] = new(big.Int)
			x := tr[2*state+o]
			if x == 0 {
				continue
			}
			j, ship := int(x>>6)-1, int(x&63)
			a2 := a
			if ship > 0 {
				if (a/d.stride[ship])%(d.kc[ship]+1) == d.kc[ship] {
					continue
				}
				a2 += d.stride[ship]
			}
			mask := d.masks[t+1][j*pw : (j+1)*pw]
			if mask[a2>>6]>>(a2&63)&1 == 0 {
				continue
			}
			r := bits.OnesCount64(mask[a2>>6] & (1<<(a2&63) - 1))
			for q := range a2 >> 6 {
				r += bits.OnesCount64(mask[q])
			}
			at := (int(s.offs[t+1][j]) + r) * m
			dst[o], next[o] = j, a2
			w[o] = limbsBig(s.b[t+1][at : at+m])
		}
		sum := new(big.Int).Add(w[0], w[1])
		if sum.Sign() == 0 {
			return nil, fmt.Errorf("battleship: sampler: internal error: dead end at cell %d", t)
		}
		o := 0
		if randBelow(rng, sum).Cmp(w[0]) >= 0 {
			o = 1
		}
		if o == 1 && t < d.w*d.h {
			occ.Add(grid.Cell(d.orig(t)))
		}
		state, a = dst[o], next[o]
	}
	return battleship.ShipsOf(s.pos.Rules.Board, occ), nil
}

// randBelow draws uniformly from [0, n) for n > 0.
func randBelow(rng *rand.Rand, n *big.Int) *big.Int {
	if n.IsUint64() {
		return new(big.Int).SetUint64(rng.Uint64N(n.Uint64()))
	}
	nbits := n.BitLen()
	words := (nbits + 63) / 64
	for {
		x := new(big.Int)
		for range words {
			x.Lsh(x, 64)
			x.Or(x, new(big.Int).SetUint64(rng.Uint64()))
		}
		x.Rsh(x, uint(words*64-nbits))
		if x.Cmp(n) < 0 {
			return x
		}
	}
}
