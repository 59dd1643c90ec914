package wire

import (
	"strconv"

	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/game/submarine"
	"github.com/kaisen-ai/kaisen/protocol"
)

// ResultEncoder appends result lines byte for byte as EncodeResult prints
// them, without allocating: the keys and ship names of a listener's dialect
// and fleet are quoted once. It falls back to EncodeResult for fleets whose
// names would need escaping. The server keeps one per listener.
// TestResultEncoder and FuzzResultEncoder check it against EncodeResult.
type ResultEncoder struct {
	d     protocol.Dialect
	rules *submarine.Rules
	board *grid.Board
	fast  bool
	comma string
	// Quoted keys with their colon: `"result":` or `"result": `.
	result, attacked, position, hit, near, moved, ship, distance, outcome, state, me, enemy, hp string

	names    []string // quoted ship names by fleet index
	nameKeys []string // quoted ship names with their colon
}

// NewResultEncoder returns the encoder of dialect d and the rules r.
func NewResultEncoder(d protocol.Dialect, r *submarine.Rules) *ResultEncoder {
	py := d == protocol.SubmarinePy
	e := &ResultEncoder{d: d, rules: r, board: r.Board, fast: true, comma: ","}
	colon := ":"
	if py {
		e.comma, colon = ", ", ": "
	}
	key := func(k string) string { return `"` + k + `"` + colon }
	e.result, e.attacked, e.position, e.hit, e.near = key("result"), key("attacked"), key("position"), key("hit"), key("near")
	e.moved, e.ship, e.distance, e.outcome, e.hp = key("moved"), key("ship"), key("distance"), key("outcome"), key("hp")
	e.state, e.me, e.enemy = key("condition"), key("me"), key("enemy")
	if py {
		e.state, e.enemy = key("observation"), key("opponent")
	}
	for _, s := range r.Fleet {
		for i := 0; i < len(s.Name); i++ {
			if c := s.Name[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' {
				e.fast = false // needs escaping: leave it to EncodeResult
			}
		}
		e.names = append(e.names, `"`+s.Name+`"`)
		e.nameKeys = append(e.nameKeys, key(s.Name))
	}
	return e
}

// AppendResult appends the result line (without "\n") that
// EncodeResult(d, rules, ev, outcome, v, mine, enemy) prints.
func (e *ResultEncoder) AppendResult(b []byte, ev submarine.Event, outcome int, v *submarine.View, mine, enemy Order) []byte {
	if !e.fast {
		return append(b, EncodeResult(e.d, e.rules, ev, outcome, v, mine, enemy)...)
	}
	b = append(b, '{')
	n := 0
	var told bool
	if b, told = e.appendEvent(b, ev, mine, enemy); told {
		n++
	}
	if outcome == protocol.Won || outcome == protocol.Lost {
		if n > 0 {
			b = append(b, e.comma...)
		}
		n++
		b = append(b, e.outcome...)
		if outcome == protocol.Won {
			b = append(b, "true"...)
		} else {
			b = append(b, "false"...)
		}
	}
	if n > 0 {
		b = append(b, e.comma...)
	}
	return e.appendState(b, v, mine, enemy)
}

// appendEvent appends the "result" member of the line, when ev has one,
// and reports whether it did.
func (e *ResultEncoder) appendEvent(b []byte, ev submarine.Event, mine, enemy Order) ([]byte, bool) {
	nf := len(e.rules.Fleet)
	switch {
	case ev.Kind == submarine.Attack:
		b = append(b, e.result...)
		b = append(b, '{')
		b = append(b, e.attacked...)
		if ev.Illegal {
			b = append(b, "false"...)
		} else {
			b = append(b, '{')
			b = append(b, e.position...)
			b = e.cell(b, ev.At)
			if ev.Hit >= 0 && ev.Hit < nf {
				b = append(b, e.comma...)
				b = append(b, e.hit...)
				b = append(b, e.names[ev.Hit]...)
			}
			b = append(b, e.comma...)
			b = append(b, e.near...)
			b = append(b, '[')
			defender := mine
			if ev.Mine {
				defender = enemy
			}
			seq, k := defender.Seq(nf)
			first := true
			for _, i := range seq[:k] {
				if ev.Near.Has(i) {
					if !first {
						b = append(b, e.comma...)
					}
					first = false
					b = append(b, e.names[i]...)
				}
			}
			b = append(b, "]}"...)
		}
		b = append(b, '}')
		return b, true
	case ev.Kind == submarine.Move && !ev.Mine:
		b = append(b, e.result...)
		b = append(b, '{')
		b = append(b, e.moved...)
		if ev.Illegal {
			b = append(b, "false"...)
		} else {
			b = append(b, '{')
			b = append(b, e.ship...)
			if ev.Ship >= 0 && ev.Ship < nf {
				b = append(b, e.names[ev.Ship]...)
			} else {
				b = append(b, `""`...)
			}
			b = append(b, e.comma...)
			b = append(b, e.distance...)
			b = e.pair(b, ev.DX, ev.DY)
			b = append(b, '}')
		}
		b = append(b, '}')
		return b, true
	}
	return b, false
}

// appendState appends the state member of the line: "condition" (or
// "observation") with this side's living ships and the enemy's.
func (e *ResultEncoder) appendState(b []byte, v *submarine.View, mine, enemy Order) []byte {
	nf := len(e.rules.Fleet)
	b = append(b, e.state...)
	b = append(b, '{')
	b = append(b, e.me...)
	b = append(b, '{')
	seq, k := mine.Seq(nf)
	first := true
	for _, i := range seq[:k] {
		if !v.Me.Alive.Has(i) {
			continue
		}
		b = e.appendShipHP(b, first, i)
		b = strconv.AppendInt(b, int64(v.Me.HP[i]), 10)
		first = false
		b = append(b, e.comma...)
		b = append(b, e.position...)
		b = e.cell(b, v.Me.Pos[i])
		b = append(b, '}')
	}
	b = append(b, '}')
	b = append(b, e.comma...)
	b = append(b, e.enemy...)
	b = append(b, '{')
	seq, k = enemy.Seq(nf)
	first = true
	for _, i := range seq[:k] {
		if v.EnemyHP[i] <= 0 {
			continue
		}
		b = e.appendShipHP(b, first, i)
		b = strconv.AppendInt(b, int64(v.EnemyHP[i]), 10)
		first = false
		b = append(b, '}')
	}
	return append(b, "}}}"...)
}

// appendShipHP appends the start of ship i's member of the state, after a
// comma unless it is the first: its name's key and {"hp": (small enough
// to be inlined).
func (e *ResultEncoder) appendShipHP(b []byte, first bool, i int) []byte {
	if !first {
		b = append(b, e.comma...)
	}
	b = append(b, e.nameKeys[i]...)
	b = append(b, '{')
	return append(b, e.hp...)
}

// cell appends the [x, y] of c, or [-1, -1] off the board.
func (e *ResultEncoder) cell(b []byte, c grid.Cell) []byte {
	if c < 0 || int(c) >= e.board.Size() {
		return e.pair(b, -1, -1)
	}
	x, y := e.board.XY(c)
	return e.pair(b, x, y)
}

func (e *ResultEncoder) pair(b []byte, x, y int) []byte {
	b = append(b, '[')
	b = strconv.AppendInt(b, int64(x), 10)
	b = append(b, e.comma...)
	b = strconv.AppendInt(b, int64(y), 10)
	return append(b, ']')
}
