package protocol

import (
	"fmt"

	"github.com/kaisen-ai/kaisen/game/grid"
)

// EncodeField prints the 2025 dialect's field message for b, rocks in cell
// order: {"height": 5, "width": 5, "rock": [[0, 0], [4, 4]]}.
func EncodeField(b *grid.Board) []byte {
	w := newWriter(SubmarinePy, 48)
	w.byte('{')
	w.key("height")
	w.int(b.Height())
	w.comma()
	w.key("width")
	w.int(b.Width())
	w.comma()
	w.key("rock")
	w.byte('[')
	for i, c := range b.Rocks() {
		if i > 0 {
			w.comma()
		}
		w.cell(b, c)
	}
	w.raw("]}")
	return w.b
}

// DecodeField parses a field message into a board. "width" and "height" are
// required positive integers; "rock" (optional) lists [x, y] cells on the
// board. Unknown keys are ignored.
func DecodeField(line []byte) (*grid.Board, error) {
	b, err := decodeField(line)
	if err != nil {
		return nil, wrap(line, err)
	}
	return b, nil
}

func decodeField(line []byte) (*grid.Board, error) {
	ms, err := object(line, "field")
	if err != nil {
		return nil, err
	}
	var size [2]int
	for k, key := range []string{"width", "height"} {
		raw, ok := lookup(ms, key)
		if !ok {
			return nil, fmt.Errorf("%w: field needs %q", ErrType, key)
		}
		if size[k], err = integer(raw, fmt.Sprintf("%q", key)); err != nil {
			return nil, err
		}
		if size[k] < 1 || size[k] > grid.MaxCells {
			return nil, fmt.Errorf("%w: field %q is %d, want 1 to %d", ErrType, key, size[k], grid.MaxCells)
		}
	}
	w, h := size[0], size[1]
	if w*h > grid.MaxCells {
		return nil, fmt.Errorf("%w: field %dx%d has more than %d cells", ErrType, w, h, grid.MaxCells)
	}
	var rocks []grid.Cell
	if raw, ok := lookup(ms, "rock"); ok && kindOf(raw) != 'n' {
		elems, err := array(raw, `"rock"`)
		if err != nil {
			return nil, err
		}
		for _, e := range elems {
			x, y, err := pair(e, `"rock"`)
			if err != nil {
				return nil, err
			}
			if x < 0 || y < 0 || x >= w || y >= h {
				return nil, fmt.Errorf("%w: rock [%d,%d] is off the %dx%d field", ErrType, x, y, w, h)
			}
			rocks = append(rocks, grid.Cell(y*w+x))
		}
	}
	b, err := grid.NewBoard(w, h, rocks)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrType, err)
	}
	return b, nil
}
