package hiddenfleet

import (
	"slices"

	"github.com/kaisen-ai/kaisen/game/abilities"
	"github.com/kaisen-ai/kaisen/game/battleship"
	"github.com/kaisen-ai/kaisen/game/grid"
)

// Layout is one layout of the enemy fleet now: the ships of length 2 or
// more (sunk ones included; they never move) and the cells of the afloat
// 1-decks. The sunk 1-decks lie where they were sunk.
type Layout struct {
	Big  battleship.Placement
	Ones []grid.Cell
}

// Cells is the set of cells of the afloat ships of l.
func (l Layout) Cells(sunk grid.Set) grid.Set {
	var s grid.Set
	for _, sh := range l.Big {
		for _, c := range sh {
			s.Add(c)
		}
	}
	s = s.AndNot(sunk)
	for _, c := range l.Ones {
		s.Add(c)
	}
	return s
}

// DefaultMaxWork bounds the search of one layout's 1-deck histories (nodes
// visited); beyond it the layout is taken as consistent and counted in
// Stats.Unsure.
const DefaultMaxWork = 200000

// checker holds one layout's big ships while its 1-deck histories are
// searched.
type checker struct {
	t       *Tracker
	bigOcc  grid.Set
	bigZone grid.Set
	need    []int // by scan: the 1-decks the count leaves
	failed  map[string]struct{}
	work    int
	maxWork int
	unsure  bool
	key     []byte
	// by epoch: the 1-decks sunk in it (cell, seq) and those sunk before
	killsIn    [][]kill
	deadBefore []grid.Set
}

type kill struct {
	at  grid.Cell
	seq int
}

// oneKills lists the sunk 1-decks by epoch.
func (t *Tracker) oneKills() ([][]kill, []grid.Set) {
	n := len(t.bounds) + 1
	in := make([][]kill, n)
	dead := make([]grid.Set, n+1)
	for _, s := range t.sunk {
		if len(s.cells) == 1 {
			in[s.epoch] = append(in[s.epoch], kill{at: s.cells[0], seq: s.seq})
		}
	}
	for e := range n {
		dead[e+1] = dead[e]
		for _, k := range in[e] {
			dead[e+1].Add(k.at)
		}
	}
	return in, dead
}

// Consistent reports whether at least one hidden history of the enemy
// leads to l and to every answer the seat was told. sure is false when the
// search of the 1-deck histories ran out of maxWork nodes (0:
// DefaultMaxWork) and l was taken as consistent.
func (t *Tracker) Consistent(l Layout, maxWork int) (ok, sure bool) {
	if len(l.Ones) != t.onesAfloat() {
		return false, true
	}
	k := t.newChecker(maxWork)
	if !k.static(l.Big) {
		return false, true
	}
	ok = k.ones(l.Ones)
	return ok, !k.unsure
}

func (t *Tracker) newChecker(maxWork int) *checker {
	if maxWork <= 0 {
		maxWork = DefaultMaxWork
	}
	in, dead := t.oneKills()
	return &checker{t: t, maxWork: maxWork, killsIn: in, deadBefore: dead, need: make([]int, len(t.scans))}
}

// sunkBefore is the seq at which the ship with cells sh was sunk, or a
// number past every answer when it is afloat.
func (t *Tracker) sunkSeq(sh battleship.Ship) int {
	for _, s := range t.sunk {
		if len(s.cells) == len(sh) && s.cells[0] == minCell(sh) {
			return s.seq
		}
	}
	return t.seq + 1
}

func minCell(sh battleship.Ship) grid.Cell { return slices.Min(sh) }

// static checks the big ships against every answer that does not depend on
// where the 1-decks were: hits covered, misses water but for one lie of an
// AI 4-deck able to lie then, air defence from a 4-deck next to the shot,
// the enemy's abilities used by an unsuppressed ship, and the share of each
// 5x5 count the big ships make (kept for the 1-decks in need).
func (k *checker) static(big battleship.Placement) bool {
	t := k.t
	k.bigOcc, k.bigZone = grid.Set{}, grid.Set{}
	sets := make([]grid.Set, len(big))
	sunkAt := make([]int, len(big))
	lens := make([]int, 0, len(big))
	for i, sh := range big {
		var zone grid.Set
		for _, c := range sh {
			sets[i].Add(c)
			zone = zone.Union(t.around[c])
		}
		if zone.Intersects(k.bigOcc) {
			return false // ships never touch
		}
		k.bigOcc = k.bigOcc.Union(sets[i])
		k.bigZone = k.bigZone.Union(zone)
		lens = append(lens, len(sh))
		sunkAt[i] = t.sunkSeq(sh)
		if sunkAt[i] > t.seq && sets[i].AndNot(t.hits).Empty() {
			return false // every cell hit: it would have been sunk
		}
	}
	slices.SortFunc(lens, func(a, b int) int { return b - a })
	if !slices.Equal(lens, t.big) {
		return false
	}
	for _, s := range t.sunk {
		if len(s.cells) > 1 && !slices.ContainsFunc(big, func(sh battleship.Ship) bool {
			return len(sh) == len(s.cells) && grid.Of(sh...) == grid.Of(s.cells...)
		}) {
			return false
		}
	}
	if !t.hits.AndNot(t.oneKillCells()).AndNot(k.bigOcc).Empty() {
		return false
	}
	owner := func(c grid.Cell) int {
		for i := range sets {
			if sets[i].Has(c) {
				return i
			}
		}
		return -1
	}
	lies := 0
	for _, s := range t.shots {
		switch s.kind {
		case ansWater:
			if k.bigOcc.Has(s.at) {
				return false
			}
		case ansMiss:
			i := owner(s.at)
			if i < 0 {
				continue
			}
			lies++
			if lies > 1 || !t.canLie(big[i], sets[i], s) {
				return false
			}
		case ansAir:
			if !t.canAirDefend(big, sets, sunkAt, s) {
				return false
			}
		}
	}
	for _, v := range t.volleys {
		lied := slices.ContainsFunc(v.misses, k.bigOcc.Has)
		if lied != v.lie {
			return false
		}
	}
	for _, u := range t.uses {
		ok := false
		for i, sh := range big {
			if len(sh) == u.length && sunkAt[i] > u.seq && !near(t, sets[i], u.centres) {
				ok = true
				break
			}
		}
		if !ok {
			return false
		}
	}
	for j, s := range t.scans {
		n := s.count
		for i := range big {
			if t.opt.ScanAfloatOnly && sunkAt[i] < s.seq {
				continue
			}
			if sets[i].Intersects(t.scan5[s.at]) {
				n--
			}
		}
		if n < 0 || n > t.ones {
			return false
		}
		k.need[j] = n
	}
	return true
}

// canLie reports whether the AI's 4-deck sh (cells set) could answer the
// shot s at one of its cells "miss".
func (t *Tracker) canLie(sh battleship.Ship, set grid.Set, s shot) bool {
	if t.enemy != abilities.AI || len(sh) != abilities.DefenderLen {
		return false
	}
	if !t.opt.FalseMissAnyHit {
		for _, h := range t.shots {
			if h.seq < s.seq && (h.kind == ansHit || h.kind == ansKill) && set.Has(h.at) {
				return false // not its first hit
			}
		}
	}
	return !t.opt.SuppressPassive || !near(t, set, s.centres)
}

// canAirDefend reports whether a Humans' 4-deck afloat then was on or next
// to the shot s (and, under SuppressPassive, not suppressed).
func (t *Tracker) canAirDefend(big battleship.Placement, sets []grid.Set, sunkAt []int, s shot) bool {
	if t.enemy != abilities.Humans {
		return false
	}
	for i, sh := range big {
		if len(sh) != abilities.DefenderLen || sunkAt[i] < s.seq || !sets[i].Intersects(t.around[s.at]) {
			continue
		}
		if !t.opt.SuppressPassive || !near(t, sets[i], s.centres) {
			return true
		}
	}
	return false
}

// near reports whether a ship (cells set) lies within the 3x3 around one
// of the centres.
func near(t *Tracker, set grid.Set, centres []grid.Cell) bool {
	for _, c := range centres {
		if set.Intersects(t.around[c]) {
			return true
		}
	}
	return false
}

func (t *Tracker) oneKillCells() grid.Set {
	var s grid.Set
	for _, sh := range t.sunk {
		if len(sh.cells) == 1 {
			s.Add(sh.cells[0])
		}
	}
	return s
}

// ones searches backwards from the current epoch for positions of the
// 1-decks at every epoch that fit the answers, the moves and the start.
func (k *checker) ones(now []grid.Cell) bool {
	e := len(k.t.bounds)
	conf := slices.Clone(now)
	for _, x := range k.killsIn[e] {
		conf = append(conf, x.at)
	}
	slices.Sort(conf)
	k.work = 0
	if k.failed == nil {
		k.failed = map[string]struct{}{} // kept for the other 1-deck positions of one set of big ships
	}
	return k.search(e, conf)
}

// search reports whether conf (sorted positions of the 1-decks afloat
// during epoch e, those sunk in it at their cells) fits epoch e and has a
// history back to the start.
func (k *checker) search(e int, conf []grid.Cell) bool {
	if !k.fits(e, conf) {
		return false
	}
	if e == 0 {
		return true
	}
	k.key = k.key[:0]
	k.key = append(k.key, byte(e), byte(e>>8))
	for _, c := range conf {
		k.key = append(k.key, byte(c), byte(c>>8))
	}
	if _, ok := k.failed[string(k.key)]; ok {
		return false
	}
	key := string(k.key)
	k.work++
	if k.work > k.maxWork {
		k.unsure = true
		return true
	}
	t := k.t
	b := t.bounds[e-1]
	prev := func(moved int, from grid.Cell) []grid.Cell {
		p := make([]grid.Cell, 0, len(conf)+len(k.killsIn[e-1]))
		for i, c := range conf {
			if i == moved {
				c = from
			}
			p = append(p, c)
		}
		for _, x := range k.killsIn[e-1] {
			p = append(p, x.at)
		}
		slices.Sort(p)
		return p
	}
	if !b.exact && k.search(e-1, prev(-1, 0)) {
		return true
	}
	shot := t.shotBy(e - 1)
	dead := k.deadBefore[e-1]
	for i, to := range conf {
		if shot.Has(to) {
			continue // never onto a shot cell
		}
		var others grid.Set
		for j, c := range conf {
			if j != i {
				others.Add(c)
			}
		}
		for _, x := range k.killsIn[e-1] {
			others.Add(x.at)
		}
		others = others.Union(k.bigOcc).Union(dead)
		if others.Has(to) || (!t.opt.MoveMayTouch && t.around[to].Intersects(others)) {
			continue
		}
		for _, from := range abilities.Neighbours(t.board, to) {
			if near1(t, from, b.centres) || others.Has(from) {
				continue
			}
			if k.search(e-1, prev(i, from)) {
				return true
			}
		}
	}
	k.failed[key] = struct{}{}
	return false
}

func near1(t *Tracker, c grid.Cell, centres []grid.Cell) bool {
	for _, x := range centres {
		if t.around[x].Has(c) {
			return true
		}
	}
	return false
}

// fits checks the positions of the 1-decks during epoch e: on the board,
// clear of the big ships and the 1-decks sunk before, off every cell shot
// by the end of the epoch but its own kill, apart from each other (at the
// start always; later unless MoveMayTouch), and the 5x5 counts of the
// epoch.
func (k *checker) fits(e int, conf []grid.Cell) bool {
	t := k.t
	shot := t.shotBy(e)
	dead := k.deadBefore[e]
	var dying grid.Set
	for _, x := range k.killsIn[e] {
		dying.Add(x.at)
	}
	touch := e == 0 || !t.opt.MoveMayTouch
	var set grid.Set
	for i, c := range conf {
		if !t.board.IsUsable(c) || k.bigOcc.Has(c) || dead.Has(c) || set.Has(c) {
			return false
		}
		if shot.Has(c) && !dying.Has(c) {
			return false
		}
		if i > 0 && conf[i-1] == c {
			return false
		}
		set.Add(c)
	}
	if dying.AndNot(set).Count() > 0 {
		return false
	}
	if touch {
		if set.Intersects(k.bigZone) {
			return false
		}
		for _, c := range conf {
			o := set
			o.Remove(c)
			if t.around[c].Intersects(o.Union(dead)) {
				return false
			}
		}
	}
	for j, s := range t.scans {
		if s.epoch != e {
			continue
		}
		n := 0
		for _, c := range conf {
			if !t.scan5[s.at].Has(c) {
				continue
			}
			if t.opt.ScanAfloatOnly && dying.Has(c) && k.killSeq(e, c) < s.seq {
				continue
			}
			n++
		}
		if !t.opt.ScanAfloatOnly {
			n += dead.Intersect(t.scan5[s.at]).Count()
		}
		if n != k.need[j] {
			return false
		}
	}
	return true
}

func (k *checker) killSeq(e int, c grid.Cell) int {
	for _, x := range k.killsIn[e] {
		if x.at == c {
			return x.seq
		}
	}
	return 0
}
