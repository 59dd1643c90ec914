// Package web is the spectator of kaisen serve --web: a read-only web page
// listing the running and finished games with their players and results, a
// live view of any running game (server-sent events) and the HTML replay of
// any finished one. During a game it shows only what both players are
// told — attacks and their answers, the displacement of moves, hp — and,
// for the submarine game, the exact probability map of what each side can
// know of the other's fleet from that public record; the fleets themselves
// appear only in the replay, after the end, unless the hub was made with
// Reveal (kaisen serve --web-reveal): then every page shows both fleets
// from the first move.
package web

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"

	"golang.org/x/time/rate"

	"github.com/kaisen-ai/kaisen/belief"
	"github.com/kaisen-ai/kaisen/game/battleship"
	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/game/submarine"
	"github.com/kaisen-ai/kaisen/server"
)

// MaxFinished is the number of finished games a Hub keeps (the oldest go
// first).
const MaxFinished = 500

// Hub keeps the public course of the server's games (server.Spectator) and
// serves it (Handler).
type Hub struct {
	replayDir string
	reveal    bool

	mu       sync.Mutex
	games    map[string]*game
	order    []string // game ids, oldest first
	finished int

	ladder LadderReader // nil: no ladder pages

	play       *PlayOptions      // nil: no "play the house AI"
	tables     map[string]*table // the games people play against the house AI
	tableSeq   uint64
	playing    int            // tables running
	addrTables map[string]int // tables running per client address

	limits  Limits
	ver     uint64 // bumped at every change of the list
	listc   listCache
	streams atomic.Int64  // event streams open
	budget  *rate.Limiter // bytes per second of the spectators' streams
}

var (
	_ server.Spectator = (*Hub)(nil)
	_ server.Revealer  = (*Hub)(nil)
)

// Option configures a Hub.
type Option func(*Hub)

// Reveal makes the hub show both hidden fleets during the games (Info.Fleet
// and Event.Fleet); without it they are never kept, let alone sent.
func Reveal() Option { return func(h *Hub) { h.reveal = true } }

// NewHub returns a hub; finished games link to their replays in replayDir
// ("" = no replays).
func NewHub(replayDir string, opts ...Option) *Hub {
	h := &Hub{replayDir: replayDir, games: map[string]*game{}, tables: map[string]*table{}, addrTables: map[string]int{}}
	for _, o := range opts {
		o(h)
	}
	h.limits = h.limits.withDefaults()
	h.budget = rate.NewLimiter(rate.Limit(h.limits.StreamBytesPerSec), 256<<10)
	return h
}

// Info is what a page knows of a game before its first move.
type Info struct {
	ID      string    `json:"id"`
	Game    string    `json:"game"` // submarine or battleship
	Players [2]string `json:"players"`
	First   int       `json:"first"`
	W       int       `json:"w"`
	H       int       `json:"h"`
	Rocks   []int     `json:"rocks"` // cell indexes
	Ships   []string  `json:"ships"` // names (Battleship: lengths)
	HP      []int     `json:"hp"`    // each ship's starting hp (Battleship: length)
	Cols    []string  `json:"cols"`
	Rows    []string  `json:"rows"`
	// Fleet is each seat's hidden fleet at the start, only with Reveal:
	// submarine, the cell of each ship; Battleship, every ship cell.
	Fleet [2][]int `json:"fleet,omitzero"`
}

// Event is one public move.
type Event struct {
	N    int    `json:"n"`
	Seat int    `json:"seat"` // who moved
	Text string `json:"text"` // in words
	// At is the attacked cell on the other seat's board (-1: a move).
	At   int   `json:"at"`
	Hit  bool  `json:"hit,omitempty"`
	Near []int `json:"near,omitempty"` // submarine: the splash area when a ship was near
	Sunk []int `json:"sunk,omitempty"` // Battleship: the sunk ship's cells
	// HP is each seat's ships' hp after the move (Battleship: cells afloat).
	HP [2][]int `json:"hp"`
	// Known is, per seat, what the other side can know of that fleet: the
	// exact probability, in thousandths, that a living ship is on each
	// cell (submarine; absent when the board is too large).
	Known [2][]int `json:"known,omitempty"`
	// Fleet is, only with Reveal, each seat's ship cells after the move
	// (submarine; a sunk ship stays where it sank).
	Fleet [2][]int `json:"fleet,omitzero"`

	told submarine.Event // submarine: the public event, for Known
}

// End is how a game ended.
type End struct {
	Result string `json:"result"`           // in words
	Replay string `json:"replay,omitempty"` // the replay page's path, when there is one
}

// game is one game's public record.
type game struct {
	info   Info
	events []Event
	end    *End
	change chan struct{}

	sub *submarine.Rules
	hp  [2][]int
	pos [2][]int // the ships' cells (submarine, only with Reveal)
	bs  *battleship.Rules

	// What each side can know of the other's fleet, computed when a page
	// first asks for it (by the page's stream, never by the game): the
	// beliefs after the first kdone events and the maps of those events.
	kmu    sync.Mutex
	joints [2]*belief.Joint
	kdone  int
	known  [][2][]int
	kfail  [2]bool
	enc    []json.RawMessage // the events as the streams send them, made once
}

// changed wakes the watchers of g (mu held).
func (g *game) changed() {
	close(g.change)
	g.change = make(chan struct{})
}

func names(players [2]server.Peer) [2]string {
	var out [2]string
	for i, p := range players {
		switch {
		case p.Name != "" && p.Addr == "house":
			out[i] = p.Name + " (house AI)"
		case p.Name != "":
			out[i] = p.Name
		default:
			out[i] = p.Addr
		}
	}
	return out
}

func (h *Hub) add(g *game) {
	h.mu.Lock()
	defer h.mu.Unlock()
	g.change = make(chan struct{})
	h.games[g.info.ID] = g
	h.order = append(h.order, g.info.ID)
	h.ver++
}

// SubmarineStarted implements server.Spectator.
func (h *Hub) SubmarineStarted(id string, r *submarine.Rules, players [2]server.Peer, first int) {
	g := &game{sub: r, info: Info{ID: id, Game: submarine.Name, Players: names(players), First: first,
		W: r.Board.Width(), H: r.Board.Height()}}
	for _, c := range r.Board.Rocks() {
		g.info.Rocks = append(g.info.Rocks, int(c))
	}
	for x := range r.Board.Width() {
		g.info.Cols = append(g.info.Cols, fmt.Sprint(x))
	}
	for y := range r.Board.Height() {
		g.info.Rows = append(g.info.Rows, fmt.Sprint(y))
	}
	for _, s := range r.Fleet {
		g.info.Ships = append(g.info.Ships, s.Name)
		g.info.HP = append(g.info.HP, s.HP)
	}
	for s := range 2 {
		g.hp[s] = append([]int(nil), g.info.HP...)
	}
	h.add(g)
}

// SubmarineStep implements server.Spectator: it reads only the public
// Other event.
func (h *Hub) SubmarineStep(id string, n int, st *submarine.Step) {
	h.mu.Lock()
	defer h.mu.Unlock()
	g := h.games[id]
	if g == nil || g.sub == nil {
		return
	}
	r, ev := g.sub, st.Other
	e := Event{N: n, Seat: st.Seat, At: -1}
	who := fmt.Sprintf("#%d seat %d %s", n, st.Seat, g.info.Players[st.Seat])
	switch {
	case ev.Illegal:
		e.Text = fmt.Sprintf("%s makes an illegal %s and forfeits", who, ev.Kind)
	case ev.Kind == submarine.Attack:
		e.At = int(ev.At)
		var sb strings.Builder
		fmt.Fprintf(&sb, "%s attacks %s: ", who, r.CellName(ev.At))
		if ev.Hit != submarine.NoShip {
			e.Hit = true
			g.hp[1-st.Seat][ev.Hit] = max(g.hp[1-st.Seat][ev.Hit]-1, 0)
			fmt.Fprintf(&sb, "hit %s", r.Fleet[ev.Hit].Name)
			if ev.Sunk {
				g.hp[1-st.Seat][ev.Hit] = 0
				sb.WriteString(", sunk")
			}
		} else {
			sb.WriteString("miss")
		}
		if near := r.Names(ev.Near); len(near) > 0 {
			fmt.Fprintf(&sb, "; near: %s", strings.Join(near, " "))
			for c := range r.Board.Around(ev.At).All() {
				if c != ev.At {
					e.Near = append(e.Near, int(c))
				}
			}
		}
		e.Text = sb.String()
	case ev.Kind == submarine.Move:
		e.Text = fmt.Sprintf("%s moves %s by [%+d,%+d]", who, r.Fleet[ev.Ship].Name, ev.DX, ev.DY)
	}
	if g.pos[0] != nil {
		if a := st.Action; !ev.Illegal && a.Kind == submarine.Move && a.Ship >= 0 && a.Ship < len(g.pos[st.Seat]) {
			g.pos[st.Seat][a.Ship] = int(a.To)
		}
		e.Fleet = [2][]int{append([]int(nil), g.pos[0]...), append([]int(nil), g.pos[1]...)}
	}
	e.told = ev
	e.HP = [2][]int{append([]int(nil), g.hp[0]...), append([]int(nil), g.hp[1]...)}
	g.events = append(g.events, e)
	g.changed()
	h.ver++
}

// encoded is the k-th event e in JSON, with Known for a submarine game,
// made by the first stream that sends it and kept for the others.
func (g *game) encoded(k int, e *Event) json.RawMessage {
	g.kmu.Lock()
	if k < len(g.enc) {
		b := g.enc[k]
		g.kmu.Unlock()
		return b
	}
	g.kmu.Unlock()
	ev := *e
	if g.sub != nil {
		ev.Known = g.knownAt(k, &ev)
	}
	b, err := json.Marshal(ev)
	if err != nil { // cannot happen: an Event is ints and strings
		b = json.RawMessage(`{}`)
	}
	g.kmu.Lock()
	defer g.kmu.Unlock()
	if k == len(g.enc) {
		g.enc = append(g.enc, b)
	}
	return b
}

// knownAt is Known of the k-th event e of a submarine game (from 0).
// Streams ask for the events in order from the first, so the beliefs
// advance one event at a time and every map is computed once per game,
// by the first stream that needs it.
func (g *game) knownAt(k int, e *Event) [2][]int {
	g.kmu.Lock()
	defer g.kmu.Unlock()
	switch {
	case k < g.kdone:
		return g.known[k]
	case k > g.kdone: // cannot happen: every stream starts at the first event
		return [2][]int{}
	}
	if g.kdone == 0 {
		for s := range 2 {
			j, err := belief.NewJoint(g.sub, 0)
			g.joints[s], g.kfail[s] = j, err != nil
		}
	}
	// What each side can know of seat s's fleet, from the public record:
	// the events as seat s was told them, its own moves' destinations left
	// out (Joint uses their displacement only).
	var out [2][]int
	for s, j := range g.joints {
		if g.kfail[s] {
			continue
		}
		told := e.told
		told.Mine = s == e.Seat
		told.To = grid.None
		if err := j.Observe(told, belief.Own); err != nil {
			g.kfail[s] = true
			continue
		}
		out[s] = milli(j.CellProbs())
	}
	g.known = append(g.known, out)
	g.kdone++
	return out
}

// SubmarinePlaced implements server.Revealer: the placements are kept only
// with Reveal.
func (h *Hub) SubmarinePlaced(id string, p [2]submarine.Placement) {
	if !h.reveal {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	g := h.games[id]
	if g == nil || g.sub == nil {
		return
	}
	for s := range 2 {
		for _, c := range p[s] {
			g.pos[s] = append(g.pos[s], int(c))
		}
		g.info.Fleet[s] = append([]int(nil), g.pos[s]...)
	}
}

// BattleshipPlaced implements server.Revealer: the placements are kept only
// with Reveal.
func (h *Hub) BattleshipPlaced(id string, p [2]battleship.Placement) {
	if !h.reveal {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	g := h.games[id]
	if g == nil || g.bs == nil {
		return
	}
	for s := range 2 {
		for c := range p[s].Cells().All() {
			g.info.Fleet[s] = append(g.info.Fleet[s], int(c))
		}
	}
}

// BattleshipStarted implements server.Spectator.
func (h *Hub) BattleshipStarted(id string, r *battleship.Rules, players [2]server.Peer, first int) {
	g := &game{bs: r, info: Info{ID: id, Game: battleship.Name, Players: names(players), First: first,
		W: r.Board.Width(), H: r.Board.Height()}}
	for _, c := range r.Board.Rocks() {
		g.info.Rocks = append(g.info.Rocks, int(c))
	}
	for x := range r.Board.Width() {
		g.info.Cols = append(g.info.Cols, string(rune('A'+x%26)))
	}
	for y := range r.Board.Height() {
		g.info.Rows = append(g.info.Rows, fmt.Sprint(y+1))
	}
	total := 0
	for _, l := range r.Fleet {
		g.info.Ships = append(g.info.Ships, fmt.Sprint(l))
		total += l
	}
	g.info.HP = []int{total}
	g.hp = [2][]int{{total}, {total}}
	h.add(g)
}

// BattleshipShot implements server.Spectator: shots and their answers are
// public.
func (h *Hub) BattleshipShot(id string, n int, st *battleship.Step) {
	h.mu.Lock()
	defer h.mu.Unlock()
	g := h.games[id]
	if g == nil || g.bs == nil {
		return
	}
	ev := st.Defender
	e := Event{N: n, Seat: st.Seat, At: -1}
	who := fmt.Sprintf("#%d seat %d %s", n, st.Seat, g.info.Players[st.Seat])
	switch {
	case ev.Illegal:
		e.Text = who + " shoots off the board or at a rock and forfeits"
	default:
		e.At = int(st.At)
		x, y := g.bs.Board.XY(st.At)
		e.Text = fmt.Sprintf("%s shoots %s%d: %s", who, g.info.Cols[x], y+1, ev.Outcome)
		if ev.Repeat {
			e.Text += " (shot before)"
		}
		if ev.Outcome != battleship.Miss && !ev.Repeat {
			e.Hit = true
			g.hp[1-st.Seat][0]--
		}
		for _, c := range ev.Sunk {
			e.Sunk = append(e.Sunk, int(c))
		}
	}
	e.HP = [2][]int{append([]int(nil), g.hp[0]...), append([]int(nil), g.hp[1]...)}
	g.events = append(g.events, e)
	g.changed()
	h.ver++
}

// Finished implements server.Spectator.
func (h *Hub) Finished(res server.Result) {
	h.mu.Lock()
	defer h.mu.Unlock()
	g := h.games[res.Game]
	if g == nil { // the game never started (a failed handshake): list it anyway
		g = &game{info: Info{ID: res.Game, Players: names(res.Players)}, change: make(chan struct{})}
		h.games[res.Game] = g
		h.order = append(h.order, res.Game)
	}
	end := &End{Result: resultText(res, g.info.Players)}
	if res.Replay != "" && h.replayDir != "" {
		end.Replay = "/games/" + res.Game + "/replay"
	}
	g.end = end
	g.changed()
	h.ver++
	h.finished++
	for h.finished > MaxFinished {
		h.dropOldestFinished()
	}
}

// dropOldestFinished forgets the oldest finished game (mu held).
func (h *Hub) dropOldestFinished() {
	for i, id := range h.order {
		if g := h.games[id]; g.end != nil {
			delete(h.games, id)
			h.order = append(h.order[:i], h.order[i+1:]...)
			h.finished--
			return
		}
	}
}

func resultText(res server.Result, players [2]string) string {
	var s string
	switch {
	case res.Outcome == server.OutcomeDraw:
		s = "draw"
	case res.Winner >= 0:
		s = fmt.Sprintf("seat %d %s wins", res.Winner, players[res.Winner])
	default:
		s = res.Outcome
	}
	s += fmt.Sprintf(" after %d moves (%s", res.Actions, res.Reason)
	if res.Detail != "" {
		s += ": " + res.Detail
	}
	return s + ")"
}

func milli(p []float64) []int {
	out := make([]int, len(p))
	for i, v := range p {
		out[i] = int(min(max(v, 0), 1)*1000 + 0.5)
	}
	return out
}
