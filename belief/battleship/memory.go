package bsbelief

import "github.com/kaisen-ai/kaisen/game/battleship"

// Estimating the size of a count before running it. The programme creates
// one profile per reachable code string at every cell boundary, and keeps
// them all: memory is about proportional to Counts.States. EstimateStates
// bounds the code strings of each boundary by a small dynamic programme
// over the profile's columns (the codes each cell's status allows, Open
// codes alone in their row, no two occupied cells diagonally adjacent
// across the boundary, E1 and Run only at the cell just filled) and divides
// by the factor that bound overestimates the reachable profiles on empty
// boards (syntacticExcess).

// syntacticExcess is the factor by which the syntactic bound exceeds the
// reachable profiles of an empty board w cells wide: 5 from w = 8 on (5.0
// to 5.8 measured up to 12), less on narrow boards (3.4 at 6, 3 at 5).
func syntacticExcess(w int) float64 { return min(5, 0.6*float64(w)) }

// EstimateStates estimates Counts.States of Count(pos): the profiles the
// programme will create. On empty boards it is within 10% of the count
// (25.5 million on 12x12, exactly as counted); on positions with shots it
// is above it, by up to about 3.5 times on the positions of the tests,
// because the fleet prunes profiles the bound keeps. On positions
// symmetric left to right (in the frame) it is halved, as the count
// merges mirror images. It costs microseconds.
func EstimateStates(pos *battleship.Position) (int64, error) {
	p, err := newProblem(pos)
	if err != nil {
		return 0, err
	}
	w, n := p.w, p.w*(p.h+1)
	status := func(row, col int) uint8 {
		if row < 0 || row >= p.h {
			return stForbidden // above the board, or the closing virtual row
		}
		return p.status[row*w+col]
	}
	var total float64 = 1 // boundary 0
	for t := 1; t <= n; t++ {
		c, r := (t-1)%w, (t-1)/w
		// ways[occ][open]: code strings of the columns so far, ending in an
		// occupied cell (occ) that is an Open code (open).
		var ways [2][2]float64
		ways[0][0] = 1
		for j := range w {
			row := r
			if j > c {
				row = r - 1
			}
			st := status(row, j)
			same := j != c+1 // column j-1 is in the same row of the board
			uv := int64(1)   // the flag "a cell of the ship is not a hit" of Open and Run codes
			if st == stForced {
				uv = 2 // can be unset only on a hit
			}
			var next [2][2]float64
			for occ := range 2 {
				for open := range 2 {
					x := ways[occ][open]
					if x == 0 {
						continue
					}
					if st != stForced { // empty: E0, and E1 at the cell just filled
						e := 1.0
						if j == c {
							e = 2
						}
						next[0][0] += e * x
					}
					if st == stForbidden || j == c+1 && occ == 1 {
						continue // no ship here, or a diagonal contact across the boundary
					}
					if !(same && open == 1) {
						next[1][0] += x // C: a cell of a horizontal ship
						if j == c && occ == 1 {
							next[1][0] += float64(int64(p.L-1)*uv) * x // Run(h, u)
						}
					}
					if !(same && occ == 1) {
						next[1][1] += float64(int64(p.L)*uv) * x // Open(k, u)
					}
				}
			}
			ways = next
		}
		total += ways[0][0] + ways[0][1] + ways[1][0] + ways[1][1]
	}
	if p.symmetric {
		total /= 2 // a profile and its mirror image are one state (counter.mirror)
	}
	return int64(total / syntacticExcess(w)), nil
}

// EstimateMemory estimates the peak resident memory of a process that runs
// Count(pos), in bytes: processOverhead plus EstimateStates times the
// bytes a profile costs over the four passes (its code, transitions,
// supports and values: 96 bytes for the Russian fleet, the peak resident
// memory over Counts.States of the compact passes on the empty 10x10 to
// 12x12 boards). The span passes need less (about 46 bytes a profile on
// the empty 10x10 board and 33 on 12x12 over the process's own 20 MiB,
// measured with kaisen count), so the estimate is an upper bound there.
func EstimateMemory(pos *battleship.Position) (int64, error) {
	states, err := EstimateStates(pos)
	if err != nil {
		return 0, err
	}
	p, err := newProblem(pos)
	if err != nil {
		return 0, err
	}
	words := int64((p.P + 63) / 64)
	return processOverhead + states*(64+16*words), nil
}

// processOverhead is the resident memory of the process beside the
// count's own (the Go runtime and the binary: 21 MB for kaisen count of a
// 5x5 board), rounded up.
const processOverhead = 32 << 20
