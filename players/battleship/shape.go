package bsplayers

import "github.com/kaisen-ai/kaisen/game/battleship"

// shaped returns the scores of the unknown cells given their weighted
// layout counts v: v[c] * (1 + DiagWeight * the share of the unknown
// cells diagonal to c + DiagCellWeight * their number), what a hit on c
// rules out (no ship touches another, so a hit empties its diagonal
// neighbours).
func (d *Density) shaped(v []float64, total float64) []float64 {
	b := d.rules.Board
	unknown := d.pos.Set(battleship.Unknown)
	out := make([]float64, len(v))
	for c := range unknown.All() {
		diag := b.Around(c).AndNot(b.Lines(c)).Intersect(unknown)
		m, k := 0.0, 0.0
		for x := range diag.All() {
			m += v[x]
			if v[x] > 0 {
				k++
			}
		}
		out[c] = v[c] * (1 + d.cfg.DiagWeight*m/total + d.cfg.DiagCellWeight*k)
	}
	return out
}
