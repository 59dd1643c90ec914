// Package web is the spectator of kaisen serve --web: a read-only web page
// listing the running and finished games with their players and results, a
// live view of any running game (server-sent events) and the HTML replay of
// any finished one, for every game. During a game it shows only what both
// players are told, as each game's public view (game.View, through
// server.Spectator) says it — attacks and their answers, the displacement
// of moves, hp — and, for the submarine game, the exact probability map of
// what each side can know of the other's fleet from that public record
// (known.go); the fleets themselves appear only in the replay, after the
// end, unless the hub was made with Reveal (kaisen serve --web-reveal):
// then every page shows both fleets from the first move. People may also
// play the house AI in the browser, any registered game through one page
// and one HTTP flow (play.go, play_seat.go: games.Game.Browse, written
// once over the game contract); package webtest plays it in tests.
package web

import (
	"encoding/json"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/time/rate"

	"github.com/kaisen-ai/kaisen/belief"
	kgame "github.com/kaisen-ai/kaisen/game"
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
	Game    string    `json:"game"` // the game's name (submarine, battleship, abilities)
	Players [2]string `json:"players"`
	// Addrs are the players' addresses (the list and the live view show
	// them in a title: Players names them).
	Addrs [2]string `json:"addrs"`
	First int       `json:"first"`
	W     int       `json:"w"`
	H     int       `json:"h"`
	Rocks []int     `json:"rocks"` // cell indexes
	Ships []string  `json:"ships"` // names (Battleship: lengths)
	// HP is each seat's public counters at the start (submarine: each
	// ship's hp; Battleship: the cells afloat), HPNames their names.
	HP      []int    `json:"hp"`
	HPNames []string `json:"hpNames"`
	Cols    []string `json:"cols"`
	Rows    []string `json:"rows"`
	// PerShip: a fleet is one cell per ship, in fleet order (submarine).
	PerShip bool `json:"perShip,omitempty"`
	// Sides is what each seat plays (abilities: ai or humans).
	Sides [2]string `json:"sides,omitzero"`
	// Fleet is each seat's hidden fleet at the start, only with Reveal:
	// with PerShip the cell of each ship, otherwise every ship cell.
	Fleet [2][]int `json:"fleet,omitzero"`
}

// Event is one public move.
type Event struct {
	N    int    `json:"n"`
	Seat int    `json:"seat"` // who moved
	Text string `json:"text"` // in words
	// At is the attacked cell on the other seat's board (-1: a move, or
	// the cells of a volley: Shots).
	At    int    `json:"at"`
	Hit   bool   `json:"hit,omitempty"`
	Shots []Shot `json:"shots,omitempty"` // abilities: the cells of a volley
	Near  []int  `json:"near,omitempty"`  // an area the answer speaks of (the submarine's splash, the abilities count)
	Sunk  []int  `json:"sunk,omitempty"`  // Battleship: the sunk ship's cells
	// HP is each seat's public counters after the move (Info.HP).
	HP [2][]int `json:"hp"`
	// Known is, per seat, what the other side can know of that fleet: the
	// exact probability, in thousandths, that a living ship is on each
	// cell (submarine; absent when the board is too large).
	Known [2][]int `json:"known,omitempty"`
	// Fleet is, only with Reveal, each seat's ship cells after the move
	// (as Info.Fleet; a sunk ship stays where it sank).
	Fleet [2][]int `json:"fleet,omitzero"`

	told submarine.Event // submarine: the public event, for Known
}

// Shot is one cell of a volley, on the other seat's board.
type Shot struct {
	At      int  `json:"at"`
	Hit     bool `json:"hit,omitempty"`
	Blocked bool `json:"blocked,omitempty"` // no shot happened (air defence)
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
	// start and stop are when the game started and ended (stop: zero
	// while it runs).
	start, stop time.Time
	turns       []turnEntry // whose turn it was after each number of moves (server.Turner)

	sub *submarine.Rules // the submarine game's rules, for Known (nil for other games)
	pos [2][]int         // the fleets now, only with Reveal (Info.Fleet)

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

// names are the players as people read them: an authenticated bot's
// ladder name, else the name its client sent (the 2025 dialect's name
// line) or the house AI's, and the address only when there is no name.
func names(players [2]server.Peer) [2]string {
	var out [2]string
	for i, p := range players {
		out[i] = playerName(p)
	}
	return out
}

// playerName is how the pages name a player (see names).
func playerName(p server.Peer) string {
	switch {
	case p.Bot != "":
		return p.Bot
	case p.Name != "" && p.Addr == "house":
		return p.Name + " (house AI)"
	case p.Name != "":
		return p.Name
	default:
		return p.Addr
	}
}

// addrs are the players' addresses ("house" for the house AI), shown in
// the pages' title attributes.
func addrs(players [2]server.Peer) [2]string {
	return [2]string{players[0].Addr, players[1].Addr}
}

func (h *Hub) add(g *game) {
	h.mu.Lock()
	defer h.mu.Unlock()
	g.change = make(chan struct{})
	h.games[g.info.ID] = g
	h.order = append(h.order, g.info.ID)
	h.ver++
}

// Started implements server.Spectator.
func (h *Hub) Started(id string, pub kgame.Public, players [2]server.Peer, first int) {
	g := &game{start: time.Now().UTC(), info: Info{ID: id, Game: pub.Game, Players: names(players), Addrs: addrs(players), First: first,
		Ships: pub.Ships, HP: pub.HP, HPNames: pub.HPNames, Cols: pub.Cols, Rows: pub.Rows,
		PerShip: pub.PerShip, Sides: pub.Sides}}
	if b := pub.Board; b != nil {
		g.info.W, g.info.H = b.Width(), b.Height()
		for _, c := range b.Rocks() {
			g.info.Rocks = append(g.info.Rocks, int(c))
		}
	}
	g.sub, _ = pub.Rules.(*submarine.Rules)
	h.add(g)
}

// Step implements server.Spectator: e is what both seats were told; its
// text is prefixed with the move's number and actor.
func (h *Hub) Step(id string, n int, e *kgame.Seen) {
	h.mu.Lock()
	defer h.mu.Unlock()
	g := h.games[id]
	if g == nil {
		return
	}
	ev := Event{N: n, Seat: e.Seat, At: int(e.At), Hit: e.Hit, Near: ints(e.Near), Sunk: ints(e.Sunk),
		Text: fmt.Sprintf("#%d seat %d %s %s", n, e.Seat, g.info.Players[e.Seat], e.Text)}
	for _, s := range e.Shots {
		ev.Shots = append(ev.Shots, Shot{At: int(s.At), Hit: s.Hit, Blocked: s.Blocked})
	}
	for s := range 2 {
		ev.HP[s] = append([]int(nil), e.HP[s]...)
	}
	if g.pos[0] != nil || g.pos[1] != nil {
		ev.Fleet = [2][]int{append([]int(nil), g.pos[0]...), append([]int(nil), g.pos[1]...)}
	}
	if g.sub != nil {
		ev.told, _ = e.Event.(submarine.Event)
	}
	g.events = append(g.events, ev)
	g.changed()
	h.ver++
}

// Reveals implements server.Revealer: the hub is told the fleets only
// with Reveal.
func (h *Hub) Reveals() bool { return h.reveal }

// Fleets implements server.Revealer: the fleets are kept only with Reveal,
// those of the start in the game's Info, the later ones in the next Event.
func (h *Hub) Fleets(id string, fleets [2][]grid.Cell) {
	if !h.reveal {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	g := h.games[id]
	if g == nil {
		return
	}
	start := g.pos[0] == nil && g.pos[1] == nil
	for s := range 2 {
		g.pos[s] = append(g.pos[s][:0], ints(fleets[s])...)
		if start {
			g.info.Fleet[s] = append([]int(nil), g.pos[s]...)
		}
	}
}

// ints is cells as ints (nil for none).
func ints(cells []grid.Cell) []int {
	if len(cells) == 0 {
		return nil
	}
	out := make([]int, len(cells))
	for i, c := range cells {
		out[i] = int(c)
	}
	return out
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

// Finished implements server.Spectator.
func (h *Hub) Finished(res server.Result) {
	h.mu.Lock()
	defer h.mu.Unlock()
	g := h.games[res.Game]
	if g == nil { // the game never started (a failed handshake): list it anyway
		g = &game{info: Info{ID: res.Game, Players: names(res.Players), Addrs: addrs(res.Players)}, change: make(chan struct{}), start: res.Start}
		h.games[res.Game] = g
		h.order = append(h.order, res.Game)
	}
	if !res.Start.IsZero() {
		g.start = res.Start.UTC()
	}
	g.stop = res.End.UTC()
	if res.End.IsZero() {
		g.stop = time.Now().UTC()
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
