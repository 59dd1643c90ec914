package wire

import (
	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/game/submarine"
)

// DecodeActionFast is DecodeAction with a fast path for the lines that
// real clients send (fastAction); everything else goes to DecodeAction.
// The server decodes every action with it. FuzzFastAction checks that both
// always agree.
func DecodeActionFast(line []byte, r *submarine.Rules) (submarine.Action, error) {
	if a, ok := fastAction(line, r); ok {
		return a, nil
	}
	return DecodeAction(line, r)
}

// fastAction decodes, without allocating, the two usual shapes of an action
// line: {"attack":{"to":[x,y]}} and {"move":{"ship":"s","to":[x,y]}}, with
// any number of spaces after ":" and "," (Python's json.dumps puts one), x
// and y integers of at most four digits, s a ship name of ASCII letters and
// digits. ok is false for anything else.
func fastAction(line []byte, r *submarine.Rules) (a submarine.Action, ok bool) {
	p := fastParser{b: line}
	switch {
	case p.lit(`{"attack":`):
		p.spaces()
		if !p.lit(`{"to":`) {
			return a, false
		}
		c, ok := p.position(r.Board)
		if !ok || !p.lit("}}") || !p.end() {
			return a, false
		}
		return submarine.AttackAt(c), true
	case p.lit(`{"move":`):
		p.spaces()
		if !p.lit(`{"ship":`) {
			return a, false
		}
		p.spaces()
		name, ok := p.name()
		if !ok || !p.lit(",") {
			return a, false
		}
		p.spaces()
		if !p.lit(`"to":`) {
			return a, false
		}
		c, ok := p.position(r.Board)
		if !ok || !p.lit("}}") || !p.end() {
			return a, false
		}
		ship := submarine.NoShip
		for i, s := range r.Fleet {
			if s.Name == string(name) {
				ship = i
				break
			}
		}
		return submarine.MoveTo(ship, c), true
	}
	return a, false
}

// fastParser is a cursor over a line for fastAction.
type fastParser struct {
	b []byte
	i int
}

func (p *fastParser) lit(s string) bool {
	if len(p.b)-p.i < len(s) || string(p.b[p.i:p.i+len(s)]) != s {
		return false
	}
	p.i += len(s)
	return true
}

func (p *fastParser) spaces() {
	for p.i < len(p.b) && p.b[p.i] == ' ' {
		p.i++
	}
}

func (p *fastParser) end() bool { return p.i == len(p.b) }

// int reads a non-negative JSON integer of 1 to 4 digits.
func (p *fastParser) int() (int, bool) {
	start, v := p.i, 0
	for p.i < len(p.b) && p.b[p.i] >= '0' && p.b[p.i] <= '9' && p.i-start < 5 {
		v = v*10 + int(p.b[p.i]-'0')
		p.i++
	}
	n := p.i - start
	if n == 0 || n > 4 || (n > 1 && p.b[start] == '0') {
		return 0, false
	}
	return v, true
}

// position reads [x, y] (spaces allowed before it and after the comma) as
// the protocol does: a cell off the board is grid.None.
func (p *fastParser) position(b *grid.Board) (grid.Cell, bool) {
	p.spaces()
	if !p.lit("[") {
		return grid.None, false
	}
	x, ok := p.int()
	if !ok || !p.lit(",") {
		return grid.None, false
	}
	p.spaces()
	y, ok := p.int()
	if !ok || !p.lit("]") {
		return grid.None, false
	}
	c, on := b.At(x, y)
	if !on {
		return grid.None, true
	}
	return c, true
}

// name reads a JSON string of 1 to 16 ASCII letters and digits.
func (p *fastParser) name() ([]byte, bool) {
	if !p.lit(`"`) {
		return nil, false
	}
	start := p.i
	for p.i < len(p.b) && p.i-start <= 16 {
		c := p.b[p.i]
		if c == '"' {
			break
		}
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9') {
			return nil, false
		}
		p.i++
	}
	n := p.i - start
	if n == 0 || n > 16 || !p.lit(`"`) {
		return nil, false
	}
	return p.b[start : start+n], true
}
