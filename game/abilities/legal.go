package abilities

import (
	"errors"
	"fmt"

	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/game/grid"
)

// check returns why a is not legal now, nil when it is.
func (g *Game) check(a Action) error {
	if g.ask != nil {
		return g.checkAnswer(a)
	}
	seat := g.turn
	b := g.rules.Base.Board
	switch a.Kind {
	case Shoot:
		if !b.IsUsable(a.At) {
			return fmt.Errorf("cell %d is not on the board", a.At)
		}
		if a.Special && !g.CanUse(SpecialLen) {
			return errors.New("no 3-deck ability to use this turn")
		}
		return nil
	case Move:
		if !g.CanUse(MoverLen) {
			return errors.New("no 1-deck may move this turn")
		}
		return g.checkMove(seat, a.At, a.To)
	case Salvo:
		if !g.CanUse(SalvoLen) {
			return errors.New("no 2-deck salvo to use this turn")
		}
		if !b.IsUsable(a.At) {
			return fmt.Errorf("cell %d is not on the board", a.At)
		}
		if g.rules.Sides[seat] == Humans {
			if a.To != a.At {
				return fmt.Errorf("a Humans' salvo names its centre twice (At = To), not %d and %d", a.At, a.To)
			}
			if g.rules.Base.Board.Around(a.At).AndNot(g.fleets[1-seat].shot).Empty() {
				return fmt.Errorf("every cell of the 3x3 around %d is shot", a.At)
			}
			return nil
		}
		if !b.IsUsable(a.To) || !orthogonal(b, a.At, a.To) || a.To <= a.At {
			return fmt.Errorf("salvo cells %d and %d are not two cells in a row, first the lower", a.At, a.To)
		}
		return nil
	case Reveal, Defend:
		return errors.New("no question to answer")
	}
	return fmt.Errorf("unknown action kind %d", a.Kind)
}

func (g *Game) checkAnswer(a Action) error {
	q := g.ask
	switch {
	case q.Ask == AskReveal && a.Kind == Reveal:
		if len(a.Cells) != q.Count {
			return fmt.Errorf("reveal names %d cells, want %d", len(a.Cells), q.Count)
		}
		var seen grid.Set
		for _, c := range a.Cells {
			if c < 0 || int(c) >= g.rules.Base.Board.Size() || !q.Cells.Has(c) {
				return fmt.Errorf("cell %d is not an unshot cell of the 3x3", c)
			}
			if seen.Has(c) {
				return fmt.Errorf("cell %d named twice", c)
			}
			seen.Add(c)
		}
		return nil
	case q.Ask != AskReveal && a.Kind == Defend:
		return nil
	}
	return fmt.Errorf("a %s does not answer the pending question", a.Kind)
}

func (g *Game) checkMove(seat int, from, to grid.Cell) error {
	b := g.rules.Base.Board
	f := g.fleets[seat]
	if !b.IsUsable(from) || f.owner[from] < 0 {
		return fmt.Errorf("no ship on %d", from)
	}
	i := f.owner[from]
	if len(f.ships[i]) != MoverLen || f.hp[i] == 0 || g.Suppressed(seat, i) {
		return fmt.Errorf("the ship on %d is not an afloat, unsuppressed 1-deck", from)
	}
	if !b.IsUsable(to) || !orthogonal(b, from, to) {
		return fmt.Errorf("%d is not a neighbour of %d", to, from)
	}
	if f.shot.Has(to) {
		return fmt.Errorf("%d has been shot", to)
	}
	others := f.cells()
	others.Remove(from)
	if others.Has(to) {
		return fmt.Errorf("%d holds a ship", to)
	}
	if !g.rules.Options.MoveMayTouch && b.Around(to).Intersects(others) {
		return fmt.Errorf("%d touches another ship", to)
	}
	return nil
}

func orthogonal(b *grid.Board, a, c grid.Cell) bool {
	ax, ay := b.XY(a)
	cx, cy := b.XY(c)
	dx, dy := ax-cx, ay-cy
	return dx*dx+dy*dy == 1
}

// Legal lists every legal action of the seat to act, in a fixed order.
func (g *Game) Legal() []Action {
	if g.status != game.Running {
		return nil
	}
	b := g.rules.Base.Board
	if q := g.ask; q != nil {
		if q.Ask != AskReveal {
			return []Action{{Kind: Defend}, {Kind: Defend, Use: true}}
		}
		var out []Action
		combos(q.Cells.Cells(), q.Count, func(cells []grid.Cell) {
			out = append(out, Action{Kind: Reveal, Cells: cells})
		})
		return out
	}
	var out []Action
	special := g.CanUse(SpecialLen)
	for c := range b.Usable().All() {
		out = append(out, Action{Kind: Shoot, At: c})
		if special {
			out = append(out, Action{Kind: Shoot, At: c, Special: true})
		}
	}
	if g.CanUse(MoverLen) {
		for _, s := range g.fleets[g.turn].ships {
			if len(s) != MoverLen {
				continue
			}
			for _, to := range Neighbours(b, s[0]) {
				if g.checkMove(g.turn, s[0], to) == nil {
					out = append(out, Action{Kind: Move, At: s[0], To: to})
				}
			}
		}
	}
	if g.CanUse(SalvoLen) {
		for c := range b.Usable().All() {
			if g.rules.Sides[g.turn] == Humans {
				if !b.Around(c).AndNot(g.fleets[1-g.turn].shot).Empty() {
					out = append(out, Action{Kind: Salvo, At: c, To: c})
				}
				continue
			}
			for _, to := range Neighbours(b, c) {
				if to > c {
					out = append(out, Action{Kind: Salvo, At: c, To: to})
				}
			}
		}
	}
	return out
}

// Neighbours lists the usable orthogonal neighbours of c (up, right, down,
// left): where a 1-deck at c may move, and the cells a salvo at c may pair
// with.
func Neighbours(b *grid.Board, c grid.Cell) []grid.Cell {
	x, y := b.XY(c)
	var out []grid.Cell
	for _, d := range [4][2]int{{0, -1}, {1, 0}, {0, 1}, {-1, 0}} {
		if n, ok := b.At(x+d[0], y+d[1]); ok && b.IsUsable(n) {
			out = append(out, n)
		}
	}
	return out
}

// combos calls f with every k-subset of cells (ascending, a fresh slice).
func combos(cells []grid.Cell, k int, f func([]grid.Cell)) {
	pick := make([]grid.Cell, 0, k)
	var rec func(from int)
	rec = func(from int) {
		if len(pick) == k {
			f(append([]grid.Cell(nil), pick...))
			return
		}
		for i := from; i <= len(cells)-(k-len(pick)); i++ {
			pick = append(pick, cells[i])
			rec(i + 1)
			pick = pick[:len(pick)-1]
		}
	}
	rec(0)
}
