package human

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/game/abilities"
	"github.com/kaisen-ai/kaisen/game/battleship"
	"github.com/kaisen-ai/kaisen/game/grid"
)

// abKnow is what an abilities seat knows, from its own placement, its own
// actions and the events it is told, and nothing else: where its ships
// are (1-decks move) and what the enemy did to them, which of them are
// suppressed, the abilities it used this turn, and its shots at the
// enemy. It checks a typed action the way the rules would (check), so
// that an illegal one is refused before it is sent.
type abKnow struct {
	r  *abilities.Rules
	me int

	ships   battleship.Placement // where my ships are now
	hits    []int                // by ship: cells hit
	shot    grid.Set             // my cells the enemy fired at (a false miss included, an air defence not)
	lied    grid.Set             // my cell answered "miss" (a false miss), until shot again
	supNext []bool               // by ship: suppressed in my next turn
	supNow  []bool               // by ship: suppressed in this turn of mine
	used    [abilities.SpecialLen + 1]bool
	fmSpent bool // my false miss is spent (AI side)
	airLeft int  // my air defences left (Humans side)

	fired grid.Set // enemy cells I fired at (air-defended ones not)
	enemy []byte   // my view of the enemy's waters, one glyph per cell
	sunk  int      // enemy ships sunk
	last  [2]grid.Cell
}

func newABKnow(r *abilities.Rules, me int) *abKnow {
	k := &abKnow{r: r, me: me, airLeft: abilities.AirDefenceCharges, last: [2]grid.Cell{grid.None, grid.None}}
	b := r.Base.Board
	k.enemy = make([]byte, b.Size())
	for c := range k.enemy {
		k.enemy[c] = '.'
		if !b.IsUsable(grid.Cell(c)) {
			k.enemy[c] = '-'
		}
	}
	return k
}

// place starts the seat's fleet.
func (k *abKnow) place(p battleship.Placement) {
	k.ships = p.Normalize()
	k.hits = make([]int, len(k.ships))
	k.supNext, k.supNow = make([]bool, len(k.ships)), make([]bool, len(k.ships))
}

func (k *abKnow) shipAt(c grid.Cell) int {
	for i, s := range k.ships {
		if slices.Contains(s, c) {
			return i
		}
	}
	return -1
}

func (k *abKnow) afloat(i int) bool { return k.hits[i] < len(k.ships[i]) }

// canUse reports whether the seat may use the active ability of its ships
// of length l this turn: an afloat, unsuppressed one, the ability unused.
func (k *abKnow) canUse(l int) bool {
	if l < abilities.MoverLen || l > abilities.SpecialLen || k.used[l] {
		return false
	}
	for i, s := range k.ships {
		if len(s) == l && k.afloat(i) && !k.supNow[i] {
			return true
		}
	}
	return false
}

// acted notes an action the seat sends: the abilities it spends.
func (k *abKnow) acted(a abilities.Action, q *abilities.Question) {
	switch a.Kind {
	case abilities.Move:
		k.used[abilities.MoverLen] = true
	case abilities.Salvo:
		k.used[abilities.SalvoLen] = true
	case abilities.Shoot:
		k.used[abilities.SpecialLen] = k.used[abilities.SpecialLen] || a.Special
	case abilities.Defend:
		if a.Use && q != nil && q.Ask == abilities.AskFalseMiss {
			k.fmSpent = true
		}
		if a.Use && q != nil && q.Ask == abilities.AskAirDefence {
			k.airLeft--
		}
	}
}

// observe follows an event told to the seat.
func (k *abKnow) observe(ev abilities.Event) {
	if ev.Mine && ev.Kind == abilities.Move && ev.Moved {
		if i := k.shipAt(ev.From); i >= 0 {
			k.ships[i][0] = ev.To
		}
	}
	if ev.Attacker == k.me {
		k.fire(ev.Cells)
	} else {
		k.enemyFire(ev)
	}
	if ev.TurnEnd && ev.Status == game.Running {
		k.used = [len(k.used)]bool{}
		if ev.Next == k.me {
			copy(k.supNow, k.supNext)
			clear(k.supNext)
		} else {
			clear(k.supNow)
		}
	}
}

// fire marks my shots' answers on the enemy's waters.
func (k *abKnow) fire(cells []abilities.CellResult) {
	for _, r := range cells {
		k.last[0] = r.At
		if r.AirDefence {
			continue
		}
		k.fired.Add(r.At)
		switch r.Outcome {
		case battleship.Miss:
			if k.enemy[r.At] == '.' {
				k.enemy[r.At] = 'o'
			}
		case battleship.Hit:
			k.enemy[r.At] = 'x'
		case battleship.Kill:
			if !r.Repeat {
				k.sunk++
			}
			for _, c := range r.Sunk {
				k.enemy[c] = '#'
			}
		}
	}
}

// enemyFire follows the enemy's shots at my fleet, and its suppression.
func (k *abKnow) enemyFire(ev abilities.Event) {
	for _, r := range ev.Cells {
		k.last[1] = r.At
		if r.AirDefence {
			continue
		}
		k.shot.Add(r.At)
		i := k.shipAt(r.At)
		switch {
		case r.FalseMiss:
			k.lied.Add(r.At)
		case i >= 0 && !r.Repeat && r.Outcome != battleship.Miss:
			k.hits[i]++
			k.lied.Remove(r.At)
		}
	}
	if ev.Special && k.r.Sides[1-k.me] == abilities.Humans && len(ev.Cells) > 0 && !ev.Cells[0].AirDefence {
		c := ev.Cells[0].At
		for i, s := range k.ships {
			for _, sc := range s {
				if k.afloat(i) && k.r.Base.Board.Chebyshev(sc, c) <= 1 {
					k.supNext[i] = true
				}
			}
		}
	}
}

// check says why a is not legal now as far as the seat knows (nil: it
// is); q is the question pending for the seat, if any.
func (k *abKnow) check(a abilities.Action, q *abilities.Question) error {
	if q != nil {
		return k.checkAnswer(a, q)
	}
	b := k.r.Base.Board
	switch a.Kind {
	case abilities.Shoot:
		if a.Special && !k.canUse(abilities.SpecialLen) {
			return errors.New("no 3-deck ability to use this turn (used, sunk or suppressed)")
		}
		return nil
	case abilities.Move:
		if !k.canUse(abilities.MoverLen) {
			return errors.New("no 1-deck may move this turn (moved already, sunk or suppressed)")
		}
		return k.checkMove(a.At, a.To)
	case abilities.Salvo:
		if !k.canUse(abilities.SalvoLen) {
			return errors.New("no 2-deck salvo this turn (used, sunk or suppressed)")
		}
		if k.r.Sides[k.me] == abilities.Humans {
			if a.To != a.At {
				return errors.New("a Humans' salvo names one cell, the centre of its 3x3")
			}
			if b.Around(a.At).AndNot(k.fired).Empty() {
				return fmt.Errorf("you fired at every cell around %s", k.coord(a.At))
			}
			return nil
		}
		if !orthogonal(b, a.At, a.To) || a.To < a.At {
			return fmt.Errorf("%s and %s are not two cells side by side", k.coord(a.At), k.coord(a.To))
		}
		return nil
	}
	return errors.New("no question to answer")
}

func (k *abKnow) checkAnswer(a abilities.Action, q *abilities.Question) error {
	switch {
	case q.Ask == abilities.AskReveal && a.Kind == abilities.Reveal:
		if len(a.Cells) != q.Count {
			return fmt.Errorf("name %d cells, not %d", q.Count, len(a.Cells))
		}
		var seen grid.Set
		for _, c := range a.Cells {
			if !q.Cells.Has(c) {
				return fmt.Errorf("%s is not an unshot cell of the 3x3 around %s", k.coord(c), k.coord(q.At))
			}
			if seen.Has(c) {
				return fmt.Errorf("%s named twice", k.coord(c))
			}
			seen.Add(c)
		}
		return nil
	case q.Ask != abilities.AskReveal && a.Kind == abilities.Defend:
		return nil
	case q.Ask == abilities.AskReveal:
		return fmt.Errorf("answer the question first: name %d of %s, the cells the salvo hits", q.Count, k.coords(q.Cells))
	}
	return errors.New(`answer the question first: "y" or "n"`)
}

func (k *abKnow) checkMove(from, to grid.Cell) error {
	b := k.r.Base.Board
	i := k.shipAt(from)
	if i < 0 {
		return fmt.Errorf("no ship of yours on %s", k.coord(from))
	}
	if len(k.ships[i]) != abilities.MoverLen || !k.afloat(i) || k.supNow[i] {
		return fmt.Errorf("the ship on %s is not an afloat, unsuppressed 1-deck", k.coord(from))
	}
	if !orthogonal(b, from, to) {
		return fmt.Errorf("%s is not next to %s in its row or column", k.coord(to), k.coord(from))
	}
	if k.shot.Has(to) {
		return fmt.Errorf("the enemy fired at %s", k.coord(to))
	}
	var others grid.Set
	for j, s := range k.ships {
		if j != i {
			others = others.Union(grid.Of(s...))
		}
	}
	if others.Has(to) {
		return fmt.Errorf("%s holds a ship", k.coord(to))
	}
	if !k.r.Options.MoveMayTouch && b.Around(to).Intersects(others) {
		return fmt.Errorf("%s touches another ship", k.coord(to))
	}
	return nil
}

// orthogonal reports whether a and c are usable cells side by side.
func orthogonal(b *grid.Board, a, c grid.Cell) bool {
	return slices.Contains(abilities.Neighbours(b, a), c) && b.IsUsable(a)
}

// coords names the cells of s in order ("D4 E4 F4").
func (k *abKnow) coords(s grid.Set) string {
	names := make([]string, 0, s.Count())
	for c := range s.All() {
		names = append(names, k.coord(c))
	}
	return strings.Join(names, " ")
}

func (k *abKnow) coord(c grid.Cell) string {
	if c < 0 || int(c) >= k.r.Base.Board.Size() {
		return fmt.Sprintf("cell %d", c)
	}
	return k.r.Base.Coord(c, false)
}
