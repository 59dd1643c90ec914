package record

import (
	"encoding/json"
	"strconv"

	"github.com/kaisen-ai/kaisen/explain"
	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/game/submarine"
)

// stepEncoder appends step lines exactly as encoding/json would encode the
// Step struct, without reflection: replays of long matches are written about
// ten times faster. TestStepEncoderMatchesJSON holds it to that.
type stepEncoder struct {
	rules *submarine.Rules
	names [][]byte // JSON-quoted ship names
}

func newStepEncoder(r *submarine.Rules) *stepEncoder {
	e := &stepEncoder{rules: r, names: make([][]byte, len(r.Fleet))}
	for i, s := range r.Fleet {
		e.names[i], _ = json.Marshal(s.Name)
	}
	return e
}

func appendQuoted(b []byte, s string) []byte {
	q, _ := json.Marshal(s) // strings always marshal
	return append(b, q...)
}

func (e *stepEncoder) appendShip(b []byte, i int) []byte {
	if i >= 0 && i < len(e.names) {
		return append(b, e.names[i]...)
	}
	return appendQuoted(b, shipName(e.rules, i))
}

func (e *stepEncoder) appendPos(b []byte, c grid.Cell) []byte {
	p := posOf(e.rules, c)
	b = append(b, '[')
	b = strconv.AppendInt(b, int64(p[0]), 10)
	b = append(b, ',')
	b = strconv.AppendInt(b, int64(p[1]), 10)
	return append(b, ']')
}

// appendStep appends the line of Writer.Step, newline included.
func (e *stepEncoder) appendStep(b []byte, n int, st *submarine.Step, illegal error, d *explain.Decision) ([]byte, error) {
	b = append(b, `{"type":"step","n":`...)
	b = strconv.AppendInt(b, int64(n), 10)
	b = append(b, `,"seat":`...)
	b = strconv.AppendInt(b, int64(st.Seat), 10)
	b = append(b, `,"action":`...)
	b = e.appendAction(b, st.Action)
	b = append(b, `,"actor":`...)
	b = e.appendEvent(b, &st.Actor)
	b = append(b, `,"other":`...)
	b = e.appendEvent(b, &st.Other)
	if illegal != nil {
		b = append(b, `,"error":`...)
		b = appendQuoted(b, illegal.Error())
	}
	if d != nil {
		dj, err := json.Marshal(d)
		if err != nil {
			return b, err
		}
		b = append(b, `,"decision":`...)
		b = append(b, dj...)
	}
	return append(b, '}', '\n'), nil
}

func (e *stepEncoder) appendAction(b []byte, a submarine.Action) []byte {
	switch a.Kind {
	case submarine.Attack:
		b = append(b, `{"kind":"attack","to":`...)
		b = e.appendPos(b, a.To)
	case submarine.Move:
		b = append(b, `{"kind":"move"`...)
		if a.Ship >= 0 && a.Ship < len(e.names) {
			b = append(b, `,"ship":`...)
			b = append(b, e.names[a.Ship]...)
		} else {
			b = append(b, `,"ship_index":`...)
			b = strconv.AppendInt(b, int64(a.Ship), 10)
		}
		b = append(b, `,"to":`...)
		b = e.appendPos(b, a.To)
	default:
		b = append(b, `{"kind":"invalid"`...)
	}
	return append(b, '}')
}

func (e *stepEncoder) appendEvent(b []byte, ev *submarine.Event) []byte {
	b = append(b, '{')
	if ev.Mine {
		b = append(b, `"mine":true,`...)
	}
	b = append(b, `"kind":"`...)
	b = append(b, ev.Kind.String()...)
	b = append(b, '"')
	if ev.Illegal {
		b = append(b, `,"illegal":true`...)
	}
	if ev.At != grid.None {
		b = append(b, `,"at":`...)
		b = e.appendPos(b, ev.At)
	}
	if ev.Hit != submarine.NoShip {
		b = append(b, `,"hit":`...)
		b = e.appendShip(b, ev.Hit)
	}
	if ev.Sunk {
		b = append(b, `,"sunk":true`...)
	}
	if ev.Near != 0 {
		sep := byte('[')
		b = append(b, `,"near":`...)
		for i := range len(e.names) {
			if ev.Near.Has(i) {
				b = append(b, sep)
				b = append(b, e.names[i]...)
				sep = ','
			}
		}
		if sep == '[' { // only ships outside the fleet: EncodeEvent lists none
			b = b[:len(b)-len(`,"near":`)]
		} else {
			b = append(b, ']')
		}
	}
	if ev.Ship != submarine.NoShip {
		b = append(b, `,"ship":`...)
		b = e.appendShip(b, ev.Ship)
	}
	if ev.To != grid.None {
		b = append(b, `,"to":`...)
		b = e.appendPos(b, ev.To)
	}
	if ev.DX != 0 || ev.DY != 0 {
		b = append(b, `,"d":[`...)
		b = strconv.AppendInt(b, int64(ev.DX), 10)
		b = append(b, ',')
		b = strconv.AppendInt(b, int64(ev.DY), 10)
		b = append(b, ']')
	}
	return append(b, '}')
}
