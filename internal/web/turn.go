package web

import (
	"time"

	"github.com/kaisen-ai/kaisen/server"
)

var _ server.Turner = (*Hub)(nil)

// Turn is whose turn it is in a running game, as its live view says it.
type Turn struct {
	Seat   int    `json:"seat"`
	Player string `json:"player"`
	// Timed: the action is due within a limit, LeftMS milliseconds after
	// the event was sent (the house AI has none).
	Timed  bool  `json:"timed"`
	LeftMS int64 `json:"left_ms"`
}

// turnEntry is whose turn it was after the game's first at moves, as
// ToAct set it: at most one per number of moves (the feed tells a turn
// once per public step), kept in order with the moves, so that every
// stream sends the same events in the same order: turn 0, move 1,
// turn 1, move 2, and so on.
type turnEntry struct {
	at   int
	seat int
	due  time.Time
}

// ToAct implements server.Turner: seat is to act in game id, due then
// (zero: no limit). A second turn after as many moves is ignored.
func (h *Hub) ToAct(id string, seat int, due time.Time) {
	h.mu.Lock()
	defer h.mu.Unlock()
	g := h.games[id]
	if g == nil || seat < 0 || seat > 1 || g.end != nil {
		return
	}
	at := len(g.events)
	if n := len(g.turns); n > 0 && g.turns[n-1].at >= at {
		return
	}
	g.turns = append(g.turns, turnEntry{at: at, seat: seat, due: due})
	g.changed()
}

// turnOf is the Turn of entry e as it is now (mu held).
func (g *game) turnOf(e turnEntry, now time.Time) Turn {
	t := Turn{Seat: e.seat, Player: g.info.Players[e.seat], Timed: !e.due.IsZero()}
	if t.Timed {
		t.LeftMS = max(e.due.Sub(now).Milliseconds(), 0)
	}
	return t
}
