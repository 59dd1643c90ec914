package endgame

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/game/submarine"
)

// ErrPosition reports a position that is not one of the game's: a ship off
// the board or on a rock, two ships of one side on a cell, an hp outside the
// fleet's range, a side without ships, or a malformed description.
var ErrPosition = errors.New("endgame: invalid position")

// Position is a position of perfect information: both fleets (cells and hp of
// every ship, sunk ships at hp 0) and which of them is to move. Ships are
// addressed by their fleet index in Rules, so the actions a Solver returns
// are the engine's own submarine.Action values.
type Position struct {
	Rules *submarine.Rules
	Mover submarine.Fleet // the side to move
	Other submarine.Fleet // the side that moved last
}

// NewPosition checks mover and other against rules and returns the position
// with mover to move. Each fleet's Alive and Occupied are recomputed from HP
// and Pos, so a caller may fill only those two (hp 0 = sunk).
func NewPosition(rules *submarine.Rules, mover, other submarine.Fleet) (Position, error) {
	if rules == nil || rules.Board == nil || len(rules.Fleet) == 0 || len(rules.Fleet) > submarine.MaxShips {
		return Position{}, fmt.Errorf("%w: %w", ErrPosition, submarine.ErrRules)
	}
	m, err := normalise(rules, mover, "mover")
	if err != nil {
		return Position{}, err
	}
	o, err := normalise(rules, other, "other")
	if err != nil {
		return Position{}, err
	}
	return Position{Rules: rules, Mover: m, Other: o}, nil
}

// Known builds the position a player faces once the enemy fleet is known:
// its own fleet me (as submarine.View holds it) is to move, the enemy's
// living ships stand on enemyCells (by fleet index, as belief.Joint's single
// placement gives them; entries of sunk ships are ignored) with hp enemyHP
// (as submarine.View.EnemyHP holds it, 0 = sunk). For the position after
// the player's own action, swap the sides with Swap.
func Known(rules *submarine.Rules, me submarine.Fleet, enemyCells submarine.Placement, enemyHP [submarine.MaxShips]int8) (Position, error) {
	if rules == nil {
		return Position{}, fmt.Errorf("%w: %w", ErrPosition, submarine.ErrRules)
	}
	var enemy submarine.Fleet
	for i := range enemy.Pos {
		enemy.Pos[i] = grid.None
	}
	for i := range min(len(rules.Fleet), submarine.MaxShips) {
		if enemyHP[i] <= 0 {
			continue
		}
		if i >= len(enemyCells) {
			return Position{}, fmt.Errorf("%w: enemy ship %q is alive but has no cell", ErrPosition, rules.Fleet[i].Name)
		}
		enemy.Pos[i], enemy.HP[i] = enemyCells[i], enemyHP[i]
	}
	return NewPosition(rules, me, enemy)
}

// Swap returns the same fleets with the other side to move.
func (p Position) Swap() Position { return Position{Rules: p.Rules, Mover: p.Other, Other: p.Mover} }

// normalise validates one fleet and recomputes Alive and Occupied.
func normalise(r *submarine.Rules, f submarine.Fleet, who string) (submarine.Fleet, error) {
	out := submarine.Fleet{}
	for i := range out.Pos {
		out.Pos[i] = grid.None
	}
	for i := range submarine.MaxShips {
		hp := f.HP[i]
		if hp == 0 {
			continue
		}
		if i >= len(r.Fleet) {
			return out, fmt.Errorf("%w: %s ship %d is not in the fleet", ErrPosition, who, i)
		}
		name := r.Fleet[i].Name
		if hp < 0 || int(hp) > r.Fleet[i].HP {
			return out, fmt.Errorf("%w: %s ship %q has hp %d, want 0 to %d", ErrPosition, who, name, hp, r.Fleet[i].HP)
		}
		c := f.Pos[i]
		if !r.Board.IsUsable(c) {
			return out, fmt.Errorf("%w: %s ship %q is on %s, off the board or a rock", ErrPosition, who, name, r.CellName(c))
		}
		if out.Occupied.Has(c) {
			return out, fmt.Errorf("%w: %s ship %q shares %s with another ship of its side", ErrPosition, who, name, r.CellName(c))
		}
		out.Pos[i], out.HP[i] = c, hp
		out.Alive = out.Alive.With(i)
		out.Occupied.Add(c)
	}
	if out.Alive == 0 {
		return out, fmt.Errorf("%w: %s has no living ship", ErrPosition, who)
	}
	return out, nil
}

// ParsePosition reads a position in the form String writes: the side to
// move, a "/", the other side; each side a space-separated list of ships
// name@x,y:hp, for example "w@1,1:3 s@0,0:1 / c@2,2:2". Ships not listed are
// sunk.
func ParsePosition(rules *submarine.Rules, s string) (Position, error) {
	if rules == nil || rules.Board == nil {
		return Position{}, fmt.Errorf("%w: %w", ErrPosition, submarine.ErrRules)
	}
	halves := strings.Split(s, "/")
	if len(halves) != 2 {
		return Position{}, fmt.Errorf("%w: %q: want two sides separated by one '/'", ErrPosition, s)
	}
	var f [2]submarine.Fleet
	for side, h := range halves {
		for _, tok := range strings.Fields(h) {
			i, c, hp, err := parseShip(rules, tok)
			if err != nil {
				return Position{}, err
			}
			if f[side].HP[i] != 0 {
				return Position{}, fmt.Errorf("%w: ship %q listed twice on one side", ErrPosition, rules.Fleet[i].Name)
			}
			f[side].Pos[i], f[side].HP[i] = c, int8(hp)
		}
	}
	return NewPosition(rules, f[0], f[1])
}

func parseShip(r *submarine.Rules, tok string) (int, grid.Cell, int, error) {
	bad := func(why string) error { return fmt.Errorf("%w: ship %q: %s (want name@x,y:hp)", ErrPosition, tok, why) }
	name, rest, ok := strings.Cut(tok, "@")
	if !ok {
		return 0, 0, 0, bad("no '@'")
	}
	i, ok := r.ShipIndex(name)
	if !ok {
		return 0, 0, 0, bad("unknown ship")
	}
	xy, hps, ok := strings.Cut(rest, ":")
	if !ok {
		return 0, 0, 0, bad("no ':'")
	}
	xs, ys, ok := strings.Cut(xy, ",")
	if !ok {
		return 0, 0, 0, bad("no ','")
	}
	x, errX := strconv.Atoi(xs)
	y, errY := strconv.Atoi(ys)
	hp, errH := strconv.Atoi(hps)
	if errX != nil || errY != nil || errH != nil {
		return 0, 0, 0, bad("not an integer")
	}
	c, ok := r.Board.At(x, y)
	if !ok {
		return 0, 0, 0, bad("off the board")
	}
	if hp < 1 || hp > r.Fleet[i].HP {
		return 0, 0, 0, bad(fmt.Sprintf("hp %d out of 1..%d", hp, r.Fleet[i].HP))
	}
	return i, c, hp, nil
}

// String writes p in the form ParsePosition reads.
func (p Position) String() string {
	var sb strings.Builder
	for side, f := range [2]*submarine.Fleet{&p.Mover, &p.Other} {
		if side == 1 {
			sb.WriteString(" /")
		}
		for i := range len(p.Rules.Fleet) {
			if !f.Alive.Has(i) {
				continue
			}
			if sb.Len() > 0 {
				sb.WriteByte(' ')
			}
			x, y := p.Rules.Board.XY(f.Pos[i])
			fmt.Fprintf(&sb, "%s@%d,%d:%d", p.Rules.Fleet[i].Name, x, y, f.HP[i])
		}
	}
	return sb.String()
}
