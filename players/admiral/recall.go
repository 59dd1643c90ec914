package admiral

import (
	"encoding/binary"
	"math"

	"github.com/kaisen-ai/kaisen/game/submarine"
)

// Recall (issue 29, item 3; docs/admiral.md, "Recalling stalled
// positions"): a long drawn game cycles through a few positions, and the
// play-outs choose in each what they chose the last time there. Once
// endgame.recall of our turns have passed without a hit by either side, a
// searched decision is remembered under everything it reads but the stall
// rule's boldness (by then near 0 and falling): our fleet and its recent
// formations, the hp of both fleets, both pools and the beliefs they stand
// for, and the opponent's kind. The same position later gets the same
// action without the one-ply pass and the play-outs. The solver, the
// opponent model's search and its gambles still run first on every turn,
// so a proof found late is still played. A hit by either side forgets
// everything: the positions after it are new.

// recallMax bounds the positions remembered in one stall (a stall that
// meets more starts again; drawn games against hirota meet a few hundred),
// and recallPool the placements of both pools a remembered position holds
// (larger pools are samples, which seldom repeat): at most 8 MiB of keys.
const (
	recallMax  = 1 << 12
	recallPool = 256
	// recallSamplesMax bounds endgame.recall_samples.
	recallSamplesMax = 16
)

// recall remembers the searched decisions of one stall.
type recall struct {
	seen  map[string]recalled
	since int    // the Admiral's lastHit when the stall began
	key   []byte // the key of this decision (valid when keyed)
	keyed bool
	hits  int // decisions recalled in this game
}

// recalled is what a position's searches chose: up to endgame.recall_samples
// decisions, drawn from at random once full (the play-outs' noise breaks
// cycles that one remembered answer would lock in: docs/admiral.md).
type recalled struct {
	n    int
	acts [recallSamplesMax]submarine.Action
	note searchNote // the first search's, for the explanation
}

// look keys this decision and returns a decision remembered for it, if
// the stall is long enough and the position's samples are full.
func (p *planner) look() (submarine.Action, searchNote, bool) {
	a := p.a
	r := &p.rc
	r.keyed = false
	after := a.cfg.Endgame.Recall
	if after <= 0 || (a.actions-a.lastHit)/2 < after || len(p.pe.tup)+len(p.po.tup) > recallPool {
		return submarine.Action{}, searchNote{}, false
	}
	if r.seen == nil || r.since != a.lastHit || len(r.seen) >= recallMax {
		r.seen, r.since = make(map[string]recalled), a.lastHit
	}
	k := r.key[:0]
	k = append(k, byte(p.kind))
	k = binary.LittleEndian.AppendUint32(k, uint32(p.boldBlock()))
	for _, n := range [...]int{len(a.history), len(p.pe.tup), len(p.po.tup)} {
		k = binary.LittleEndian.AppendUint16(k, uint16(n))
	}
	for _, h := range a.history {
		k = binary.LittleEndian.AppendUint64(k, h)
	}
	for i := range p.nf {
		k = append(k, byte(a.me.Pos[i]), byte(a.me.HP[i]), byte(a.enemyHP[i]))
	}
	k = binary.LittleEndian.AppendUint64(k, uint64(p.pe.full))
	k = binary.LittleEndian.AppendUint64(k, uint64(p.po.full))
	for _, t := range p.pe.tup {
		k = binary.LittleEndian.AppendUint64(k, t)
	}
	for _, t := range p.po.tup {
		k = binary.LittleEndian.AppendUint64(k, t)
	}
	r.key, r.keyed = k, true
	got := r.seen[string(k)]
	if got.n < a.cfg.Endgame.RecallSamples {
		return submarine.Action{}, searchNote{}, false
	}
	r.hits++
	return got.acts[a.rng.IntN(got.n)], got.note, true
}

// recallBold is the stall rule's factor below which recall no longer tells
// its blocks apart: every cost it scales is then a thousandth of itself or
// less, and the decisions stop changing with it.
const recallBold = 1e-3

// boldBlock is the stall rule's block (our turns without a hit, in units of
// endgame.stall: the boldness is constant within one), or the first block
// whose boldness is below recallBold for every later one.
func (p *planner) boldBlock() int {
	e := p.a.cfg.Endgame
	blk := (p.a.actions - p.a.lastHit) / 2 / e.Stall
	if e.Boldness >= 1 {
		return 0
	}
	frozen := int(math.Ceil(math.Log(recallBold) / math.Log(e.Boldness)))
	return min(blk, frozen)
}

// remember stores this decision under the key look made.
func (p *planner) remember(act submarine.Action) {
	if r := &p.rc; r.keyed {
		got := r.seen[string(r.key)]
		if got.n == 0 {
			got.note = p.note
		}
		got.acts[got.n] = act
		got.n++
		r.seen[string(r.key)] = got
	}
}
