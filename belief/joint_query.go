package belief

import (
	"math"

	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/game/submarine"
)

// stats fills the per-ship, per-cell counts.
func (j *Joint) stats() {
	if j.countsOK {
		return
	}
	size := j.board.Size()
	if cap(j.counts) < j.n*size {
		j.counts = make([]uint32, j.n*size)
	}
	j.counts = j.counts[:j.n*size]
	clear(j.counts)
	if j.pivot != submarine.NoShip {
		shift, idx, m := j.restShips()
		piv := j.counts[j.pivot*size : (j.pivot+1)*size]
		for e := range j.ent {
			en := &j.ent[e]
			w := uint32(en.piv.Count())
			for k := range m {
				j.counts[int(idx[k])*size+int(uint8(en.rest>>shift[k]))] += w
			}
			for wi, word := range en.piv {
				for word != 0 {
					piv[wi*64+trailingZeros(word)]++
					word &= word - 1
				}
			}
		}
	}
	j.countsOK = true
}

// count is the number of placements with ship i on c.
func (j *Joint) count(i int, c grid.Cell) uint32 {
	if i < 0 || i >= j.n || !j.alive.Has(i) || c < 0 || int(c) >= j.board.Size() {
		return 0
	}
	j.stats()
	return j.counts[i*j.board.Size()+int(c)]
}

// prob turns a count into a probability.
func (j *Joint) prob(n uint32) float64 {
	if j.total == 0 {
		return 0
	}
	return float64(n) / float64(j.total)
}

// ShipProb is the probability that ship i is on cell c (0 for a sunk ship).
func (j *Joint) ShipProb(i int, c grid.Cell) float64 { return j.prob(j.count(i, c)) }

// CellProb is the probability that some ship is on cell c, which is also the
// probability that an attack on c hits. Ships never share a cell, so it is the
// sum of the ships' probabilities.
func (j *Joint) CellProb(c grid.Cell) float64 {
	var n uint32
	for i := range j.n {
		n += j.count(i, c)
	}
	return j.prob(n)
}

// SplashProb is the probability that an attack on at reports ship i near:
// ship i is within distance 1 of at but not on it.
func (j *Joint) SplashProb(i int, at grid.Cell) float64 {
	if !j.board.IsUsable(at) {
		return 0
	}
	var n uint32
	for c := range j.board.Around(at).All() {
		if c != at {
			n += j.count(i, c)
		}
	}
	return j.prob(n)
}

// Marginal returns, for every cell index of the board, the probability that
// ship i is there (all zero for a sunk ship). It sums to 1 for a living ship
// of a non-empty belief and suits Heatmap.
func (j *Joint) Marginal(i int) []float64 {
	p := make([]float64, j.board.Size())
	for c := range p {
		p[c] = j.ShipProb(i, grid.Cell(c))
	}
	return p
}

// CellProbs returns CellProb for every cell index of the board.
func (j *Joint) CellProbs() []float64 {
	p := make([]float64, j.board.Size())
	for c := range p {
		p[c] = j.CellProb(grid.Cell(c))
	}
	return p
}

// Support is the set of cells where ship i may be: the cells of positive
// marginal probability.
func (j *Joint) Support(i int) grid.Set {
	var s grid.Set
	for c := range j.board.Size() {
		if j.count(i, grid.Cell(c)) > 0 {
			s.Add(grid.Cell(c))
		}
	}
	return s
}

// ShipEntropy is the entropy in bits of ship i's marginal distribution.
func (j *Joint) ShipEntropy(i int) float64 {
	h := 0.0
	for c := range j.board.Size() {
		if p := j.ShipProb(i, grid.Cell(c)); p > 0 {
			h -= p * math.Log2(p)
		}
	}
	return h
}

// Ships projects the joint onto per-ship sets: ship i's set is its Support.
// The result is the tightest per-ship belief the public history allows.
func (j *Joint) Ships() Ships {
	s := Ships{board: j.board, n: j.n, alive: j.alive}
	for i := range j.n {
		if j.alive.Has(i) {
			s.sets[i] = j.Support(i)
		}
	}
	return s
}

// Outcome is one possible answer to an attack on the tracked fleet, with the
// number of placements that give it.
type Outcome struct {
	Hit   int                // the ship hit, or submarine.NoShip
	Near  submarine.ShipMask // the ships reported near
	Count int                // placements that answer this way
	P     float64            // Count / Joint.Count()
}

// Outcomes splits the placements by the answer an attack on at would get,
// ordered by Hit (NoShip first) then Near. Observing an outcome leaves exactly
// its Count placements (sinking never merges placements), so this is the
// exact predictive distribution of the answer under the uniform belief.
func (j *Joint) Outcomes(at grid.Cell) []Outcome {
	if !j.board.IsUsable(at) || j.total == 0 {
		return nil
	}
	var code [256]uint8 // 2 on at, 1 around it, 0 farther
	around := j.board.Around(at)
	for c := range around.All() {
		code[c] = 1
	}
	code[at] = 2
	ring := around
	ring.Remove(at)
	far := j.board.Usable().AndNot(around)
	shift, idx, m := j.restShips()
	// buckets[(hit+1)<<n | near] counts the placements of each answer.
	ships := j.n
	var small [5 << 4]uint32 // fleets of up to 4 ships need no allocation
	buckets := small[:(ships+1)<<ships]
	if ships > 4 {
		buckets = make([]uint32, (ships+1)<<ships)
	}
	for e := range j.ent {
		en := &j.ent[e]
		hit, near := 0, 0
		for k := range m {
			switch code[uint8(en.rest>>shift[k])] {
			case 2:
				hit = int(idx[k]) + 1
			case 1:
				near |= 1 << idx[k]
			}
		}
		if j.pivot == submarine.NoShip {
			buckets[hit<<ships|near]++
			continue
		}
		if en.piv.Has(at) {
			buckets[(j.pivot+1)<<ships|near]++
		}
		buckets[hit<<ships|near|1<<j.pivot] += uint32(en.piv.Intersect(ring).Count())
		buckets[hit<<ships|near] += uint32(en.piv.Intersect(far).Count())
	}
	var out []Outcome
	for key, n := range buckets {
		if n > 0 {
			out = append(out, Outcome{
				Hit:   key>>ships - 1,
				Near:  submarine.ShipMask(key & (1<<ships - 1)),
				Count: int(n),
				P:     float64(n) / float64(j.total),
			})
		}
	}
	return out
}

// ExpectedEntropy is the expected Entropy after attacking at, over the
// outcomes of Outcomes. Entropy() - ExpectedEntropy(at) is the expected
// information gain of the attack in bits.
func (j *Joint) ExpectedEntropy(at grid.Cell) float64 {
	h := 0.0
	for _, o := range j.Outcomes(at) {
		h += o.P * math.Log2(float64(o.Count))
	}
	return h
}
