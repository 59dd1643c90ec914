package wire

import (
	"fmt"

	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/protocol"
)

// EncodeField prints the 2025 dialect's field message for b, rocks in cell
// order: {"height": 5, "width": 5, "rock": [[0, 0], [4, 4]]}.
func EncodeField(b *grid.Board) []byte {
	w := protocol.NewWriter(protocol.SubmarinePy, 48)
	w.Byte('{')
	w.Key("height")
	w.Int(b.Height())
	w.Comma()
	w.Key("width")
	w.Int(b.Width())
	w.Comma()
	w.Key("rock")
	w.Byte('[')
	for i, c := range b.Rocks() {
		if i > 0 {
			w.Comma()
		}
		w.Cell(b, c)
	}
	w.Raw("]}")
	return w.Bytes()
}

// DecodeField parses a field message into a board. "width" and "height" are
// required positive integers; "rock" (optional) lists [x, y] cells on the
// board. Unknown keys are ignored.
func DecodeField(line []byte) (*grid.Board, error) {
	b, err := decodeField(line)
	if err != nil {
		return nil, protocol.Wrap(line, err)
	}
	return b, nil
}

func decodeField(line []byte) (*grid.Board, error) {
	ms, err := protocol.Object(line, "field")
	if err != nil {
		return nil, err
	}
	var size [2]int
	for k, key := range []string{"width", "height"} {
		raw, ok := protocol.Lookup(ms, key)
		if !ok {
			return nil, fmt.Errorf("%w: field needs %q", protocol.ErrType, key)
		}
		if size[k], err = protocol.Integer(raw, fmt.Sprintf("%q", key)); err != nil {
			return nil, err
		}
		if size[k] < 1 || size[k] > grid.MaxCells {
			return nil, fmt.Errorf("%w: field %q is %d, want 1 to %d", protocol.ErrType, key, size[k], grid.MaxCells)
		}
	}
	w, h := size[0], size[1]
	if w*h > grid.MaxCells {
		return nil, fmt.Errorf("%w: field %dx%d has more than %d cells", protocol.ErrType, w, h, grid.MaxCells)
	}
	var rocks []grid.Cell
	if raw, ok := protocol.Lookup(ms, "rock"); ok && protocol.KindOf(raw) != 'n' {
		elems, err := protocol.Array(raw, `"rock"`)
		if err != nil {
			return nil, err
		}
		for _, e := range elems {
			x, y, err := protocol.Pair(e, `"rock"`)
			if err != nil {
				return nil, err
			}
			if x < 0 || y < 0 || x >= w || y >= h {
				return nil, fmt.Errorf("%w: rock [%d,%d] is off the %dx%d field", protocol.ErrType, x, y, w, h)
			}
			rocks = append(rocks, grid.Cell(y*w+x))
		}
	}
	b, err := grid.NewBoard(w, h, rocks)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", protocol.ErrType, err)
	}
	return b, nil
}
