package belief

import (
	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/game/submarine"
)

// Ships is the per-ship belief about one fleet: for every living ship, the set
// of cells where it may be. It is the "enemy field" / "my field" of the
// reference players (spec stateplayer2.md, "Belief it keeps").
//
// Ships is a value: assigning it copies it, which is how to clone it. No method
// allocates. The zero value tracks nothing; use NewShips.
//
// Every update is sound (the true cell of every living ship stays in its set)
// and is the exact projection, ship by ship, of the constraint the
// observation puts on that ship alone. Constraints that link ships (two ships
// never share a cell; an attack by the fleet needs some ship within reach) are
// only partly expressible per ship: Observe ignores them, exactly like the
// reference players, and ObserveCareful applies what a per-ship set can hold
// (see ObserveFire and Refine). Joint is the exact belief over whole fleets.
type Ships struct {
	board *grid.Board
	n     int
	alive submarine.ShipMask
	sets  [submarine.MaxShips]grid.Set
}

// NewShips starts the belief about a fleet of r at the beginning of a game:
// every ship may be on every usable cell. r must be valid (Rules.Validate).
func NewShips(r *submarine.Rules) Ships {
	s := Ships{board: r.Board, n: len(r.Fleet), alive: r.AllShips()}
	for i := range s.n {
		s.sets[i] = r.Board.Usable()
	}
	return s
}

// Board is the board of the tracked game.
func (s *Ships) Board() *grid.Board { return s.board }

// Len is the number of ships of the fleet (sunk ones included).
func (s *Ships) Len() int { return s.n }

// Alive is the set of ships not known to be sunk.
func (s *Ships) Alive() submarine.ShipMask { return s.alive }

// Set is the set of cells where ship i may be; empty for a sunk ship or an
// index outside the fleet.
func (s *Ships) Set(i int) grid.Set {
	if !s.alive.Has(i) {
		return grid.Set{}
	}
	return s.sets[i]
}

// Count is the number of cells where ship i may be (0 for a sunk ship).
func (s *Ships) Count(i int) int {
	if !s.alive.Has(i) {
		return 0
	}
	return s.sets[i].Count()
}

// Pinned reports the cell of ship i when it is alive and its set has exactly
// one cell.
func (s *Ships) Pinned(i int) (grid.Cell, bool) {
	if !s.alive.Has(i) || s.sets[i].Count() != 1 {
		return grid.None, false
	}
	return s.sets[i].First(), true
}

// Any is the union of the sets of the living ships: every cell that may hold
// some ship of the fleet.
func (s *Ships) Any() grid.Set {
	var u grid.Set
	for i := range s.n {
		if s.alive.Has(i) {
			u = u.Union(s.sets[i])
		}
	}
	return u
}

// Restrict intersects the set of ship i with allowed: knowledge from outside
// the public events (a placement model, a test fixture).
func (s *Ships) Restrict(i int, allowed grid.Set) {
	if s.alive.Has(i) && i < s.n {
		s.sets[i] = s.sets[i].Intersect(allowed)
	}
}

// Sink drops ship i from the belief (it is sunk). Observe does this itself
// when an event reports the sinking; Sink serves callers that learn it
// elsewhere (for example from a View's hp).
func (s *Ships) Sink(i int) {
	if i < 0 || i >= s.n {
		return
	}
	s.alive = s.alive.Without(i)
	s.sets[i] = grid.Set{}
}

// ObserveAttack applies an attack on the tracked fleet at cell at: hit is the
// ship that was hit (submarine.NoShip for none), sunk whether it sank, near the
// other living ships within distance 1 of at. An attack on a cell that is not
// usable is ignored (it was illegal and carries no answer).
//
// The rules, for every living ship i:
//   - i was hit: i is on at, so its set becomes {at}; if it sank it is dropped;
//   - otherwise i is not on at (only the hit ship can be there), so at leaves
//     its set; and if i is in near it is within distance 1 of at: its set is
//     intersected with the cells around at, else those cells leave its set.
func (s *Ships) ObserveAttack(at grid.Cell, hit int, sunk bool, near submarine.ShipMask) {
	if s.board == nil || !s.board.IsUsable(at) {
		return
	}
	around := s.board.Around(at)
	ring := around
	ring.Remove(at)
	for i := range s.n {
		if !s.alive.Has(i) {
			continue
		}
		switch {
		case i == hit:
			if sunk {
				s.Sink(i)
			} else {
				s.sets[i] = grid.Of(at)
			}
		case near.Has(i):
			s.sets[i] = s.sets[i].Intersect(ring)
		default:
			s.sets[i] = s.sets[i].AndNot(around)
		}
	}
}

// ObserveMove applies a move of tracked ship i by (dx, dy): its set is
// shifted, and cells from which the move would leave the board or land on a
// rock vanish (so the shift already keeps only the possible start cells).
func (s *Ships) ObserveMove(i, dx, dy int) {
	if s.board == nil || !s.alive.Has(i) || i >= s.n {
		return
	}
	s.sets[i] = s.board.Shift(s.sets[i], dx, dy)
}

// ObserveFire applies a legal attack at cell at made BY the tracked fleet: some
// living ship of the fleet is within distance 1 of at. Per ship this says
// something only when no other living ship may be within reach of at (always
// the case with a single ship left): that ship's set is then intersected with
// the cells around at. When no ship at all may reach at the observation
// contradicts the belief and is ignored.
func (s *Ships) ObserveFire(at grid.Cell) {
	if s.board == nil || !s.board.IsUsable(at) {
		return
	}
	around := s.board.Around(at)
	reach := 0 // how many living ships may be within reach of at
	last := -1
	for i := range s.n {
		if s.alive.Has(i) && s.sets[i].Intersects(around) {
			reach++
			last = i
		}
	}
	if reach == 1 {
		s.sets[last] = s.sets[last].Intersect(around)
	}
}

// Refine applies the rule that two ships of one fleet never share a cell, as
// far as per-ship sets can hold it: the cell of a pinned ship leaves the sets
// of the other ships, repeatedly until nothing changes. With ObserveMove this
// also removes the start cells from which a move would land on another ship.
func (s *Ships) Refine() {
	for changed := true; changed; {
		changed = false
		for j := range s.n {
			c, ok := s.Pinned(j)
			if !ok {
				continue
			}
			for i := range s.n {
				if i != j && s.alive.Has(i) && s.sets[i].Has(c) {
					s.sets[i].Remove(c)
					changed = true
				}
			}
		}
	}
}

// Observe applies one event as told to the player who keeps this belief;
// side says which fleet the belief tracks (Enemy: the opponent's; Own: the
// player's own, as the opponent can know it). Attacks on the tracked fleet go
// to ObserveAttack, moves of the tracked fleet to ObserveMove; attacks made by
// the tracked fleet and illegal actions are ignored. These are exactly the
// rules of the reference players.
func (s *Ships) Observe(ev submarine.Event, side Side) {
	if ev.Illegal {
		return
	}
	switch ev.Kind {
	case submarine.Attack:
		if !byTracked(&ev, side) {
			s.ObserveAttack(ev.At, ev.Hit, ev.Sunk, ev.Near)
		}
	case submarine.Move:
		if byTracked(&ev, side) {
			s.ObserveMove(ev.Ship, ev.DX, ev.DY)
		}
	}
}

// ObserveCareful is Observe plus the information the reference players leave
// out (spec submarine.md, "Information that a careful player can extract"):
// an attack made by the tracked fleet goes to ObserveFire, and Refine runs
// after every event. It is still sound, and never looser than Observe.
func (s *Ships) ObserveCareful(ev submarine.Event, side Side) {
	if ev.Illegal {
		return
	}
	s.Observe(ev, side)
	if ev.Kind == submarine.Attack && byTracked(&ev, side) {
		s.ObserveFire(ev.At)
	}
	s.Refine()
}

// Heat returns, for every cell index of the board, the probability that ship
// i is there when every cell of its set is equally likely (all zero for a sunk
// ship). The result suits Heatmap.
func (s *Ships) Heat(i int) []float64 {
	if s.board == nil {
		return nil
	}
	p := make([]float64, s.board.Size())
	set := s.Set(i)
	if n := set.Count(); n > 0 {
		for c := range set.All() {
			p[c] = 1 / float64(n)
		}
	}
	return p
}
