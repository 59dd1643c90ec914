package replay

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// The page's data section is HTMLData packed so that a long game stays a
// small page (a 10,000-action draw is some hundred kilobytes, not 10 MB):
// every distinct value of the frames (a text, a reason, a board's cells, an
// hp list, a heatmap, a whole board, a whole frame but its number and text)
// is written once in Vals and named by its index; the script (unpack in
// html/replay.js) rebuilds the frames from them. A long quiet stretch
// repeats a few positions, so it costs a few bytes a frame.
//
// The packed form, beside HTMLData's fields but the frames:
//
//	vals    the distinct values, each any JSON
//	frames  two numbers per frame: its tuple, then its text (t >= 0:
//	        vals[t]; t < 0: "#" + n + vals[-t-1], the text of a frame
//	        that begins with its number)
//	events  one digit per frame, its Event bits (the page's jumps)
//	quiet   QuietRun: the shortest run of frames without a hit the page
//	        folds
//
// A frame's tuple is [n - its index, seat, why, heat, board 0, board 1];
// a board's [cells, hp, shot, near, moved, known]; a heat list's the
// indexes of its heatmaps; a heatmap's [name, side, cells]. Every index is
// into vals, -1 for a value the frame does not have (the shot is the cell
// itself).
type htmlPacked struct {
	*HTMLData
	Vals []json.RawMessage `json:"vals"`
	// Frames shadows HTMLData.Frames (the shallower field wins in JSON).
	Frames []int  `json:"frames"`
	Events string `json:"events"`
	Quiet  int    `json:"quiet"`
}

// QuietRun is the shortest run of frames without a hit that the page folds
// into one row of its timeline (and the "skip quiet stretch" jump skips).
const QuietRun = 10

// pool holds the distinct values of a packed page, by their JSON.
type pool struct {
	vals  []json.RawMessage
	index map[string]int
	err   error
}

// add returns the index of v, adding it when new.
func (p *pool) add(v any) int {
	b, err := json.Marshal(v)
	if err != nil {
		if p.err == nil {
			p.err = err
		}
		return -1
	}
	if i, ok := p.index[string(b)]; ok {
		return i
	}
	p.index[string(b)] = len(p.vals)
	p.vals = append(p.vals, b)
	return len(p.vals) - 1
}

// opt is add of v, -1 when v is empty (a nil list, an empty string).
func opt[T any](p *pool, v []T) int {
	if len(v) == 0 {
		return -1
	}
	return p.add(v)
}

// pack is d as the page's data section.
func pack(d *HTMLData) (*htmlPacked, error) {
	p := &pool{index: map[string]int{}}
	out := &htmlPacked{HTMLData: d, Events: eventDigits(d.Events()), Quiet: QuietRun, Frames: make([]int, 0, 2*len(d.Frames))}
	for i, f := range d.Frames {
		why := -1
		if f.Why != "" {
			why = p.add(f.Why)
		}
		heat := -1
		if len(f.Heat) > 0 {
			hs := make([]int, len(f.Heat))
			for k, h := range f.Heat {
				hs[k] = p.add([3]int{p.add(h.Name), p.add(h.Side), p.add(h.Cells)})
			}
			heat = p.add(hs)
		}
		var boards [2]int
		for s, b := range f.Boards {
			boards[s] = p.add([6]int{p.add(b.Cells), p.add(b.HP), b.Shot, opt(p, b.Near), opt(p, b.Moved), opt(p, b.Known)})
		}
		tuple := p.add([6]int{f.N - i, f.Seat, why, heat, boards[0], boards[1]})
		var text int
		if rest, ok := strings.CutPrefix(f.Text, "#"+strconv.Itoa(f.N)); ok {
			text = -p.add(rest) - 1
		} else {
			text = p.add(f.Text)
		}
		out.Frames = append(out.Frames, tuple, text)
	}
	if p.err != nil {
		return nil, fmt.Errorf("replay: html: %w", p.err)
	}
	out.Vals = p.vals
	return out, nil
}

func eventDigits(ev []Event) string {
	b := make([]byte, len(ev))
	for i, e := range ev {
		b[i] = '0' + byte(e)
	}
	return string(b)
}
