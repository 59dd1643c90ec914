package wire

import (
	"fmt"

	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/game/submarine"
	"github.com/kaisen-ai/kaisen/protocol"
)

// Order lists fleet indices in the order a side named its ships in its
// placement. The reference server reports "near" and "condition" in that
// order, so Kaisen's server remembers it per side.
type Order []int

// DefaultOrder is the fleet order 0, 1, ..., len(Fleet)-1.
func DefaultOrder(r *submarine.Rules) Order {
	o := make(Order, len(r.Fleet))
	for i := range o {
		o[i] = i
	}
	return o
}

// Seq returns the order in which a side's n ships are listed: a
// permutation of 0..n-1 (its first k entries), the valid, first-seen
// entries of o in order, then every index o misses in fleet order. A nil o
// is the fleet order.
func (o Order) Seq(n int) ([submarine.MaxShips]int, int) {
	var out [submarine.MaxShips]int
	var seen submarine.ShipMask
	k := 0
	for _, i := range o {
		if i >= 0 && i < n && !seen.Has(i) {
			seen = seen.With(i)
			out[k] = i
			k++
		}
	}
	for i := range n {
		if !seen.Has(i) {
			out[k] = i
			k++
		}
	}
	return out, k
}

// DecodePlacement parses a placement line such as
// {"w":[0,1],"c":[0,0],"s":[1,1]} and returns the cells by fleet index and
// the order in which the line named the ships. Every key must name a ship of
// the fleet, every ship must appear exactly once, on its own usable cell;
// anything else is a *protocol.ProtocolError (protocol.ErrSyntax,
// protocol.ErrType, protocol.ErrUnknownShip or protocol.ErrFleet).
func DecodePlacement(line []byte, r *submarine.Rules) (submarine.Placement, Order, error) {
	p, o, err := decodePlacement(line, r)
	if err != nil {
		return nil, nil, protocol.Wrap(line, err)
	}
	return p, o, nil
}

func decodePlacement(line []byte, r *submarine.Rules) (submarine.Placement, Order, error) {
	ms, err := protocol.Object(line, "placement")
	if err != nil {
		return nil, nil, err
	}
	p := make(submarine.Placement, len(r.Fleet))
	for i := range p {
		p[i] = grid.None
	}
	order := make(Order, 0, len(r.Fleet))
	var placed submarine.ShipMask
	for _, m := range ms {
		i, ok := r.ShipIndex(m.Key)
		if !ok {
			return nil, nil, fmt.Errorf("%w: %q (the fleet is %s)", protocol.ErrUnknownShip, m.Key, fleetNames(r))
		}
		x, y, err := protocol.Pair(m.Val, fmt.Sprintf("placement of %q", m.Key))
		if err != nil {
			return nil, nil, err
		}
		c, ok := r.Board.At(x, y)
		if !ok {
			// The position as sent: an integer too large for an int32 is
			// off the board (integer), and shown as itself.
			return nil, nil, fmt.Errorf("%w: ship %q at %s is off the %dx%d board", protocol.ErrFleet, m.Key, protocol.Describe(m.Val), r.Board.Width(), r.Board.Height())
		}
		placed = placed.With(i)
		p[i] = c
		order = append(order, i)
	}
	if placed != r.AllShips() {
		var missing []string
		for i, s := range r.Fleet {
			if !placed.Has(i) {
				missing = append(missing, s.Name)
			}
		}
		return nil, nil, fmt.Errorf("%w: ships %q are not placed (a placement names every ship of %s)", protocol.ErrFleet, missing, fleetNames(r))
	}
	if err := r.ValidatePlacement(p); err != nil {
		return nil, nil, fmt.Errorf("%w: %w", protocol.ErrFleet, err)
	}
	return p, order, nil
}

// EncodePlacement prints p in fleet order: {"w":[0,1],"c":[0,0],"s":[1,1]}
// (classic) or {"w": [0, 1], "c": [0, 0], "s": [1, 1]} (submarine-py).
func EncodePlacement(d protocol.Dialect, r *submarine.Rules, p submarine.Placement) []byte {
	w := protocol.NewWriter(d, 16*len(r.Fleet))
	w.Byte('{')
	for i, c := range p {
		if i >= len(r.Fleet) {
			break
		}
		if i > 0 {
			w.Comma()
		}
		w.Key(r.Fleet[i].Name)
		w.Cell(r.Board, c)
	}
	w.Byte('}')
	return w.Bytes()
}

func fleetNames(r *submarine.Rules) string {
	w := protocol.NewWriter(protocol.Classic, 0)
	w.Byte('{')
	for i, s := range r.Fleet {
		if i > 0 {
			w.Byte(' ')
		}
		w.Raw(s.Name)
	}
	w.Byte('}')
	return string(w.Bytes())
}
