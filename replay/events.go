package replay

// What each frame of a game did, for the HTML page's jumps and the quiet
// stretches both renderings fold.

// Event is what a frame did, as bits: the page's jumps (next hit, next
// sinking, next move) and the quiet stretches it folds (frames without a
// hit) are read from them.
type Event uint8

// The Event bits.
const (
	EventHit  Event = 1 << iota // a ship lost hp (the frame's action hit it)
	EventSunk                   // a ship sank (always with EventHit)
	EventMove                   // a ship moved
)

// Events returns what each frame did: a hit where a ship's hp falls from
// the frame before, a sinking where it reaches 0, a move where a board
// records one. The start (frame 0) did nothing.
func (d *HTMLData) Events() []Event {
	out := make([]Event, len(d.Frames))
	for i := 1; i < len(d.Frames); i++ {
		prev, f := &d.Frames[i-1], &d.Frames[i]
		var e Event
		for s, b := range f.Boards {
			if len(b.Moved) > 0 {
				e |= EventMove
			}
			for k, hp := range b.HP {
				if k >= len(prev.Boards[s].HP) {
					continue
				}
				before := prev.Boards[s].HP[k][1]
				if hp[1] < before {
					e |= EventHit
					if hp[1] <= 0 {
						e |= EventSunk
					}
				}
			}
		}
		out[i] = e
	}
	return out
}

// QuietStretches returns the runs of at least n frames in a row (from frame
// 1) without a hit, as [first, last] frame indexes.
func QuietStretches(ev []Event, n int) [][2]int {
	var out [][2]int
	start := -1
	for i := 1; i <= len(ev); i++ {
		if i < len(ev) && ev[i]&EventHit == 0 {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 && i-start >= n {
			out = append(out, [2]int{start, i - 1})
		}
		start = -1
	}
	return out
}
