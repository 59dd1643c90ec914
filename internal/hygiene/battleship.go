package hygiene

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"

	bsbelief "github.com/kaisen-ai/kaisen/belief/battleship"
	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/game/battleship"
	bswire "github.com/kaisen-ai/kaisen/game/battleship/wire"
	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/server"
)

// BattleshipGame is one side of a Battleship twin: both placements, seat
// 0 first, and the shots played (who shoots follows from the rules); the
// seat to shoot next then resigns.
type BattleshipGame struct {
	Place [2]battleship.Placement
	Shots []grid.Cell
}

// BattleshipTwin is two Battleship games that differ only in where the
// opponent's ships that Seat has not hit lie.
type BattleshipTwin struct {
	Rules *battleship.Rules
	Seat  int
	A, B  BattleshipGame
	// Moved is how many of the opponent's ships B relocated.
	Moved int
}

// NewBattleshipTwin plays a random game of r from rng (random layouts;
// shots at random unshot cells, next to an unsunk hit nine times in ten),
// cuts it after a random number of shots (at most maxShots) and returns
// it with a twin: B relocates up to three of the opponent's ships that
// the seat has not hit, each to a random legal place, keeping a
// relocation only when every shot tells the seat exactly what it told it
// in A (rejection sampling, 400 proposals). It returns ErrNoTwin when no
// proposal is consistent.
func NewBattleshipTwin(r *battleship.Rules, rng *rand.Rand, maxShots int) (*BattleshipTwin, error) {
	place, err := uniformFleets(r, rng, "battleship")
	if err != nil {
		return nil, err
	}
	g, err := battleship.NewGame(r, place[0], place[1], 0)
	if err != nil {
		return nil, fmt.Errorf("hygiene: battleship game: %w", err)
	}
	seat := rng.IntN(2)
	want := 1 + rng.IntN(maxShots)
	var shot [2]grid.Set
	var open [2][]grid.Cell // hits not yet sunk, per shooter
	var steps []battleship.Step
	for len(steps) < want && g.Status() == game.Running {
		s := g.ToAct()
		c := randomShot(r, shot[s], open[s], rng)
		st, _ := g.Apply(c)
		shot[s].Add(c)
		switch st.Shooter.Outcome {
		case battleship.Hit:
			open[s] = append(open[s], c)
		case battleship.Kill:
			open[s] = slices.DeleteFunc(open[s], func(x grid.Cell) bool { return slices.Contains(st.Shooter.Sunk, x) })
		}
		steps = append(steps, st)
	}
	if g.Status() != game.Running {
		steps = steps[:len(steps)-1]
	}
	tw := &BattleshipTwin{Rules: r, Seat: seat}
	tw.A.Place = place
	for _, st := range steps {
		tw.A.Shots = append(tw.A.Shots, st.At)
	}
	opp := 1 - seat
	var hitBySeat grid.Set
	for _, st := range steps {
		if st.Seat == seat && st.Shooter.Outcome != battleship.Miss {
			hitBySeat.Add(st.At)
		}
	}
	b := slices.Clone(place[opp])
	for range 400 {
		if tw.Moved == 3 {
			break
		}
		i := rng.IntN(len(b))
		if slices.ContainsFunc(b[i], hitBySeat.Has) {
			continue
		}
		cand := slices.Clone(b)
		cand[i] = randomShip(r, len(b[i]), rng)
		if cand[i] == nil || r.ValidatePlacement(cand) != nil || slices.Equal(cand[i], b[i]) {
			continue
		}
		var p [2]battleship.Placement
		p[seat], p[opp] = place[seat], cand
		if bsConsistent(r, seat, p, steps) {
			b = cand
			tw.Moved++
		}
	}
	if tw.Moved == 0 {
		return nil, ErrNoTwin
	}
	tw.B.Place[seat], tw.B.Place[opp] = place[seat], b
	tw.B.Shots = tw.A.Shots
	return tw, nil
}

// uniformFleets draws both seats' fleets uniformly from rng (errors name
// the game).
func uniformFleets(r *battleship.Rules, rng *rand.Rand, name string) ([2]battleship.Placement, error) {
	var place [2]battleship.Placement
	u, err := bsbelief.NewUniformPlacer(r)
	if err != nil {
		return place, fmt.Errorf("hygiene: %s placer: %w", name, err)
	}
	for s := range place {
		if place[s], err = u.Place(rng); err != nil {
			return place, fmt.Errorf("hygiene: %s placement: %w", name, err)
		}
	}
	return place, nil
}

// bsConsistent replays steps' shots with placements p: true when every
// shot tells seat the same event (the shooter's or the defender's) with
// the same next seat and status.
func bsConsistent(r *battleship.Rules, seat int, p [2]battleship.Placement, steps []battleship.Step) bool {
	g, err := battleship.NewGame(r, p[0], p[1], 0)
	if err != nil {
		return false
	}
	for _, st := range steps {
		got, err := g.Apply(st.At)
		if err != nil || got.Next != st.Next || got.Status != st.Status {
			return false
		}
		ev, want := got.Defender, st.Defender
		if st.Seat == seat {
			ev, want = got.Shooter, st.Shooter
		}
		if !reflect.DeepEqual(ev, want) {
			return false
		}
	}
	return true
}

// randomShot is an unshot cell: next to an open hit nine times in ten
// when there is one, else anywhere.
func randomShot(r *battleship.Rules, shot grid.Set, open []grid.Cell, rng *rand.Rand) grid.Cell {
	b := r.Board
	if len(open) > 0 && rng.IntN(10) != 0 {
		var next []grid.Cell
		for _, c := range open {
			x, y := b.XY(c)
			for _, d := range [][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
				if n, ok := b.At(x+d[0], y+d[1]); ok && b.IsUsable(n) && !shot.Has(n) {
					next = append(next, n)
				}
			}
		}
		if len(next) > 0 {
			return next[rng.IntN(len(next))]
		}
	}
	free := b.Usable().AndNot(shot).Cells()
	return free[rng.IntN(len(free))]
}

// randomShip is a straight ship of length l at a random place of the
// board, or nil when the draw falls off it.
func randomShip(r *battleship.Rules, l int, rng *rand.Rand) battleship.Ship {
	b := r.Board
	dx, dy := 1, 0
	if rng.IntN(2) == 0 {
		dx, dy = 0, 1
	}
	x, y := rng.IntN(b.Width()), rng.IntN(b.Height())
	s := make(battleship.Ship, l)
	for k := range l {
		c, ok := b.At(x+k*dx, y+k*dy)
		if !ok || !b.IsUsable(c) {
			return nil
		}
		s[k] = c
	}
	return s
}

// Server is g as a game of a Battleship pair listener, the seat to shoot
// after the last shot resigning with a shot off the board (illegal).
func (g *BattleshipGame) Server(r *battleship.Rules, seat int) (ServerGame, error) {
	sg := ServerGame{Seat: seat, Listener: server.ListenerConfig{Game: battleship.Name, Opponent: "pair"}}
	for s := range 2 {
		sg.Hello[s] = [][]byte{bswire.EncodeShips(r, g.Place[s])}
	}
	gm, err := battleship.NewGame(r, g.Place[0], g.Place[1], 0)
	if err != nil {
		return sg, fmt.Errorf("hygiene: battleship game: %w", err)
	}
	for _, c := range g.Shots {
		s := gm.ToAct()
		sg.Turns[s] = append(sg.Turns[s], bswire.EncodeShoot(r, c))
		gm.Apply(c)
	}
	sg.Resign = gm.ToAct()
	sg.Turns[sg.Resign] = append(sg.Turns[sg.Resign], []byte(fmt.Sprintf(`{"shoot":{"to":[%d,%d]}}`, r.Board.Height(), r.Board.Width())))
	return sg, nil
}
