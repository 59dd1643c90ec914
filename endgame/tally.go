package endgame

import (
	"fmt"
	"slices"

	"github.com/kaisen-ai/kaisen/game/submarine"
)

// Materials lists every material a side of the fleet of rules can have
// (living ships' hp, 1 to the type's hp, as a multiset sorted descending),
// ordered by number of ships, then lexicographically.
func Materials(rules *submarine.Rules) [][]int {
	seen := map[material]bool{}
	var out [][]int
	n := len(rules.Fleet)
	hp := make([]int, n)
	var rec func(i int)
	rec = func(i int) {
		if i == n {
			var sd side
			for _, h := range hp {
				if h > 0 {
					sd.hp[sd.n] = int8(h)
					sd.n++
				}
			}
			sd.sort()
			m := sd.material()
			if m.n == 0 || seen[m] {
				return
			}
			seen[m] = true
			l := make([]int, m.n)
			for j := range l {
				l[j] = int(m.hp[j])
			}
			out = append(out, l)
			return
		}
		for h := 0; h <= rules.Fleet[i].HP; h++ {
			hp[i] = h
			rec(i + 1)
		}
	}
	rec(0)
	slices.SortFunc(out, func(a, b []int) int {
		if len(a) != len(b) {
			return len(a) - len(b)
		}
		return slices.Compare(b, a)
	})
	return out
}

func toMaterial(hp []int) (material, error) {
	if len(hp) == 0 || len(hp) > maxK {
		return material{}, fmt.Errorf("%w: %d ships, want 1 to %d", ErrPosition, len(hp), maxK)
	}
	var sd side
	for _, h := range hp {
		if h < 1 || h > 127 {
			return material{}, fmt.Errorf("%w: hp %d out of 1..127", ErrPosition, h)
		}
		sd.hp[sd.n] = int8(h)
		sd.n++
	}
	sd.sort()
	return sd.material(), nil
}

// Warm solves every class of the fleet of rules that the table covers (for
// a start-up build; otherwise classes are solved on first use).
func (t *Tablebase) Warm(rules *submarine.Rules) error {
	ms := Materials(rules)
	for _, a := range ms {
		for _, b := range ms {
			if !t.Covers(len(a), len(b)) {
				continue
			}
			if _, err := t.Tally(a, b); err != nil {
				return err
			}
		}
	}
	return nil
}

// Tally counts the outcomes of a class: every position with ships of hp
// mover to move against ships of hp other (ships of equal hp are
// interchangeable, so each set of their cells is counted once).
type Tally struct {
	Positions, Win, Draw, Loss int
	// LongestWin and LongestLoss are the largest distances, in plies.
	LongestWin, LongestLoss int
}

// Tally solves the class (if needed) and counts its outcomes (once; later
// calls are a lookup). A player can use it to value material in the middle
// game: which endgames are won, drawn or lost on average.
func (t *Tablebase) Tally(mover, other []int) (Tally, error) {
	a, err := toMaterial(mover)
	if err != nil {
		return Tally{}, err
	}
	b, err := toMaterial(other)
	if err != nil {
		return Tally{}, err
	}
	c, err := t.class(a, b)
	if err != nil {
		return Tally{}, err
	}
	c.tallyOnce.Do(func() {
		tl := Tally{Positions: len(c.dist)}
		for _, d := range c.dist {
			switch {
			case d == 0:
				tl.Draw++
			case d%2 == 1:
				tl.Win++
				tl.LongestWin = max(tl.LongestWin, int(d))
			default:
				tl.Loss++
				tl.LongestLoss = max(tl.LongestLoss, int(d))
			}
		}
		c.tally = tl
	})
	return c.tally, nil
}

// Stats reports what the tablebase holds: solved classes, positions and
// the bytes of their values.
func (t *Tablebase) Stats() (classes, positions int, bytes int64) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, p := range t.pairs {
		if p.cls[0] == nil {
			continue
		}
		for k, c := range p.cls {
			if k == 1 && c == p.cls[0] {
				break
			}
			classes++
			positions += len(c.dist)
			bytes += int64(len(c.dist))
		}
	}
	for _, m := range t.mats {
		bytes += int64(len(m.cells)) + 4*int64(len(m.rank)) + 66*int64(m.count)
	}
	return classes, positions, bytes
}
