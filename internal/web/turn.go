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

// turnState is a game's turn as ToAct last set it.
type turnState struct {
	seq  uint64 // bumped at every ToAct (0: none yet)
	seat int
	due  time.Time
}

// ToAct implements server.Turner: seat is to act in game id, due then
// (zero: no limit).
func (h *Hub) ToAct(id string, seat int, due time.Time) {
	h.mu.Lock()
	defer h.mu.Unlock()
	g := h.games[id]
	if g == nil || seat < 0 || seat > 1 {
		return
	}
	g.turn = turnState{seq: g.turn.seq + 1, seat: seat, due: due}
	g.changed()
}

// turnOf is the Turn of g as it is now (mu held).
func (g *game) turnOf(now time.Time) Turn {
	t := Turn{Seat: g.turn.seat, Player: g.info.Players[g.turn.seat], Timed: !g.turn.due.IsZero()}
	if t.Timed {
		t.LeftMS = max(g.turn.due.Sub(now).Milliseconds(), 0)
	}
	return t
}
